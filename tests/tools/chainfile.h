/*
 * Kernel call chains written down by name, for -W's walk to be tested on
 * real chains of a kernel (tests/unit/test_where.c) and on chains of any
 * machine (tests/tools/wherechains.c). One line per distinct chain, as
 * `sort | uniq -c` leaves them:
 *
 *	COUNT PID LEAF CALLER CALLER...
 *
 * the sampled function first, then its callers, kernel frames only (none:
 * a sample in user mode); "#" starts a comment. Each name gets a made-up address, so the chains run
 * through the same symbol table and walk as the sampler's.
 */
#ifndef ZC_CHAINFILE_H
#define ZC_CHAINFILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meter/where_internal.h"

#define CHAIN_BUCKETS 8192
#define CHAIN_BASE 0xffffffff81000000ull

struct chain {
	unsigned long count;
	unsigned long pid;
	size_t n;
	uint64_t ip[WHERE_CHAIN_MAX + 4];
};

struct chainfile {
	struct where_syms syms;
	int *next, bucket[CHAIN_BUCKETS];	/* names by hash: -1 ends */
	size_t next_cap;
	struct chain *c;
	size_t n, cap;
};

static unsigned chain_hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % CHAIN_BUCKETS;
}

/* The made-up address of name, added to the table when new; 0: no memory. */
static uint64_t chain_addr(struct chainfile *f, const char *name)
{
	unsigned h = chain_hash(name);
	int i;

	for (i = f->bucket[h]; i >= 0 && f->next; i = f->next[i])
		if (strcmp(where_sym_name(&f->syms, (size_t)i), name) == 0)
			return f->syms.sym[i].addr;
	if (f->syms.n == f->next_cap) {
		int *grown = realloc(f->next, (f->next_cap * 2 + 64) * sizeof(*grown));

		if (!grown)
			return 0;
		f->next = grown;
		f->next_cap = f->next_cap * 2 + 64;
	}
	if (where_syms_add(&f->syms, CHAIN_BASE + 0x100 * f->syms.n, name, NULL) < 0)
		return 0;
	f->next[f->syms.n - 1] = f->bucket[h];
	f->bucket[h] = (int)f->syms.n - 1;
	return f->syms.sym[f->syms.n - 1].addr;
}

/* One line of the file into f; 0 for a blank or comment line too, -1: bad. */
static int chain_line(struct chainfile *f, char *line)
{
	struct chain c = { 0 };
	char *tok, *save = NULL;

	tok = strtok_r(line, " \t\n", &save);
	if (!tok || tok[0] == '#')
		return 0;
	c.count = strtoul(tok, NULL, 10);
	tok = strtok_r(NULL, " \t\n", &save);
	if (!tok || !c.count)
		return -1;
	c.pid = strtoul(tok, NULL, 10);
	while ((tok = strtok_r(NULL, " \t\n", &save)) && c.n < WHERE_CHAIN_MAX + 4)
		if (!(c.ip[c.n++] = chain_addr(f, tok)))
			return -1;
	if (f->n == f->cap) {
		struct chain *grown = realloc(f->c, (f->cap * 2 + 256) * sizeof(*grown));

		if (!grown)
			return -1;
		f->c = grown;
		f->cap = f->cap * 2 + 256;
	}
	f->c[f->n++] = c;
	return 0;
}

/* The file at path into f; -1 (with a line on stderr) when it cannot be read. */
static int chain_load(struct chainfile *f, FILE *in, const char *path)
{
	char line[4096];
	long lineno = 0;

	memset(f, 0, sizeof(*f));
	memset(f->bucket, -1, sizeof(f->bucket));
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		if (chain_line(f, line) < 0) {
			fprintf(stderr, "%s:%ld: not COUNT PID FUNCTION...\n", path, lineno);
			return -1;
		}
	}
	return 0;
}

static void chain_free(struct chainfile *f)
{
	where_syms_free(&f->syms);
	free(f->next);
	free(f->c);
}

#endif
