/*
 * The kernel's symbols for where.c: /proc/kallsyms read into a table sorted by
 * address, each function's kind and role (lib/meter/where_kinds.c) found
 * once at load, and the walk of a sample's call chain that charges time
 * spent with interrupts off to the caller that had them off.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "meter/where_internal.h"

/* How far below an interrupt-enable point a helper of unknown kind may be. */
#define IRQON_REACH 3

static int by_addr(const void *a, const void *b)
{
	const struct where_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* "ffffffff81000000 T name": a text symbol's address and name. */
static int parse_sym(char *line, uint64_t *addr, char **name)
{
	char *end;

	*addr = strtoull(line, &end, 16);
	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return -1;
	if (end[1] != 't' && end[1] != 'T')
		return -1;	/* not text */
	*name = end + 3;
	(*name)[strcspn(*name, "\t\n")] = 0;
	return 0;
}

static void *grow(void *p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t c = *cap ? *cap : first;

	while (c < need)
		c *= 2;
	if (c == *cap)
		return p;
	p = realloc(p, c * size);
	if (p)
		*cap = c;
	return p;
}

int where_syms_add(struct where_syms *t, uint64_t addr, const char *name, const char *module)
{
	size_t len = strlen(name) + 1;
	struct where_sym *sym;
	char *names;

	sym = grow(t->sym, &t->cap, t->n + 1, sizeof(*t->sym), 65536);
	if (!sym)
		return -1;
	t->sym = sym;
	names = grow(t->names, &t->names_cap, t->names_len + len, 1, (size_t)1 << 20);
	if (!names)
		return -1;
	t->names = names;
	memcpy(t->names + t->names_len, name, len);
	t->sym[t->n] = (struct where_sym){
		.addr = addr,
		.name = (uint32_t)t->names_len,
		.module = module && *module,
	};
	t->names_len += len;
	t->n++;
	return 0;
}

void where_syms_sort(struct where_syms *t)
{
	qsort(t->sym, t->n, sizeof(*t->sym), by_addr);
}

int where_syms_load(const char *path, struct where_syms *t, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char line[512], *name, *module;
	size_t nonzero = 0;
	uint64_t addr;

	memset(t, 0, sizeof(*t));
	if (!f)
		return err_fill(err, errlen, errno, "%s", path);
	while (fgets(line, sizeof(line), f)) {
		/* A module symbol's line ends "\t[module]"; see it before cutting. */
		char *tab = strchr(line, '\t');

		module = NULL;
		if (tab && tab[1] == '[') {
			*tab = 0;
			module = tab + 2;
			module[strcspn(module, "]")] = 0;
		}
		if (parse_sym(line, &addr, &name) < 0)
			continue;
		if (where_syms_add(t, addr, name, module) < 0) {
			fclose(f);
			where_syms_free(t);
			return err_fill(err, errlen, ENOMEM, "%s", path);
		}
		nonzero += addr != 0;
	}
	fclose(f);
	if (!nonzero) {
		where_syms_free(t);
		return err_fill(err, errlen, 0, "%s: every address is 0 (hidden by "
				"kptr_restrict, or not root)", path);
	}
	where_syms_sort(t);
	return 0;
}

size_t where_syms_find(struct where_syms *t, uint64_t ip)
{
	size_t lo = 0, hi = t->n, mid;

	/* The last symbol at or below ip. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->sym[mid].addr <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : t->n;
}

const struct where_sym *where_sym_at(struct where_syms *t, size_t i)
{
	struct where_sym *s = &t->sym[i];

	if (!s->known) {
		s->kind = (unsigned char)where_kind_of(t->names + s->name,
						       s->module ? "module" : NULL);
		s->role = (unsigned char)where_role_of(t->names + s->name);
		s->known = 1;
	}
	return s;
}

const char *where_sym_name(struct where_syms *t, size_t sym)
{
	if (sym == WHERE_SYM_CUT)
		return "[call chain cut short]";
	if (sym >= t->n)
		return "[no symbol]";
	return t->names + t->sym[sym].name;
}

enum where_kind where_chain_kind(struct where_syms *t, const uint64_t *ips,
				 size_t n, size_t *sym)
{
	size_t frame[WHERE_CHAIN_MAX + 4], nf = 0, i, start = 0;
	const struct where_sym *s;

	for (i = 0; i < n && nf < sizeof(frame) / sizeof(frame[0]); i++)
		if (ips[i] < (uint64_t)PERF_CONTEXT_MAX)	/* not a marker */
			frame[nf++] = where_syms_find(t, ips[i]);
	*sym = WHERE_SYM_NONE;
	if (!nf || frame[0] >= t->n)
		return WHERE_KOTHER;
	/* A helper of no known kind just below an irq-enable point is part of it. */
	if (where_sym_at(t, frame[0])->kind == WHERE_KOTHER)
		for (i = 1; i < nf && i <= IRQON_REACH && frame[i] < t->n; i++)
			if (where_sym_at(t, frame[i])->role == WHERE_RIRQON) {
				start = i;
				break;
			}
	for (i = start; i < nf && frame[i] < t->n; i++) {
		s = where_sym_at(t, frame[i]);
		if (s->role == WHERE_RWORK) {
			*sym = frame[i];
			return (enum where_kind)s->kind;
		}
	}
	*sym = i < nf ? WHERE_SYM_NONE : WHERE_SYM_CUT;
	return WHERE_KOTHER;
}

enum where_kind where_sample_kind(struct where_syms *t, uint32_t pid,
				  const uint64_t *ips, size_t n, size_t *sym)
{
	*sym = WHERE_SYM_NONE;
	if (pid == 0)
		return WHERE_KIDLE;
	return where_chain_kind(t, ips, n, sym);
}

void where_syms_free(struct where_syms *t)
{
	free(t->sym);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
