/*
 * wherechains - -W's kinds for call chains recorded by perf, to set -W's
 * walk beside `perf record -g` on any machine.
 *
 *	perf record -g -e cpu-clock -a -- COMMAND
 *	perf script -F pid,ip,sym | wherechains -p | sort | uniq -c > chains
 *	wherechains chains
 *
 * -p turns perf script's output into one line per sample, "PID LEAF
 * CALLER...", kernel frames only (chainfile.h; sort | uniq -c makes the
 * chain file). Without -p it reads a chain file and prints the kernel
 * samples' kinds as -W would count them (the idle task's left out), the
 * symbols that fell into other, and how deep the walks went: the frame
 * each sample was charged to, and how many needed more than 8 frames.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chainfile.h"

#define TOP 12

/* perf script: "  PID ..." starts a sample, "\tADDR SYM+OFF (DSO)" a frame. */
static int perf_to_lines(FILE *in)
{
	char line[1024], *sym, *end;
	unsigned long long addr;
	int open = 0;

	while (fgets(line, sizeof(line), in)) {
		if (line[0] != '\t') {
			if (open)
				putchar('\n');
			open = 0;
			if (strspn(line, " \n") == strlen(line))
				continue;
			printf("%lu", strtoul(line, NULL, 10));
			open = 1;
			continue;
		}
		addr = strtoull(line + 1, &sym, 16);
		if (addr < 0xffff000000000000ull || *sym != ' ')
			continue;	/* a user frame */
		sym++;
		end = sym + strcspn(sym, "+ \n");
		*end = 0;
		printf(" %s", *sym ? sym : "[unknown]");
	}
	if (open)
		putchar('\n');
	return 0;
}

/* Where in the chain the walk charged the sample (frames from the leaf). */
static size_t depth_of(struct chainfile *f, const struct chain *c, size_t sym)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (where_syms_find(&f->syms, c->ip[i]) == sym)
			return i + 1;
	return c->n;
}

static void summary(struct chainfile *f)
{
	unsigned long kinds[WHERE_KINDS + 1] = { 0 }, n = 0, deep = 0, *other;
	size_t i, sym, depth, maxdepth = 0, top[TOP], j, k;
	enum where_kind kind;

	other = calloc(f->syms.n + 1, sizeof(*other));
	if (!other)
		return;
	for (i = 0; i < f->n; i++) { // NOLINT(clang-analyzer-unix.Malloc): chain_free in main frees f->c
		const struct chain *c = &f->c[i];

		kind = where_sample_kind(&f->syms, (uint32_t)c->pid, c->ip, c->n, &sym);
		if (!c->n && c->pid)
			kind = WHERE_KUSER;
		kinds[kind] += c->count;
		if (kind == WHERE_KIDLE)
			continue;
		n += c->count;
		if (kind == WHERE_KOTHER)
			other[sym < f->syms.n ? sym : f->syms.n] += c->count;
		depth = sym < f->syms.n ? depth_of(f, c, sym) : c->n;
		if (depth > maxdepth)
			maxdepth = depth;
		deep += depth > 8 ? c->count : 0;
	}
	printf("samples %lu (idle %lu more):", n, kinds[WHERE_KIDLE]);
	for (k = 0; k < WHERE_KINDS; k++)
		printf(" %s %.1f%%", where_kind_name[k],
		       n ? 100.0 * (double)kinds[k] / (double)n : 0);
	printf("\nwalk: deepest charged frame %zu; %lu samples (%.1f%%) need more "
	       "than 8 frames\nother:", maxdepth, deep, n ? 100.0 * (double)deep / (double)n : 0);
	for (j = 0; j < TOP; j++) {
		top[j] = f->syms.n + 1;
		for (i = 0; i <= f->syms.n; i++) {
			for (k = 0; k < j && top[k] != i; k++)
				;
			if (k == j && other[i] && (top[j] > f->syms.n || other[i] > other[top[j]]))
				top[j] = i;
		}
		if (top[j] > f->syms.n)
			break;
		printf(" %s %.1f%%", top[j] < f->syms.n ? where_sym_name(&f->syms, top[j])
						       : "[no symbol or chain cut]",
		       100.0 * (double)other[top[j]] / (double)n);
	}
	printf("\n");
	free(other);
}

int main(int argc, char **argv)
{
	struct chainfile f;
	const char *path = "-";
	FILE *in = stdin;
	int opt, perf = 0;

	while ((opt = getopt(argc, argv, "p")) != -1) {
		if (opt != 'p') {
			fprintf(stderr, "usage: wherechains [-p] [FILE]\n");
			return 2;
		}
		perf = 1;
	}
	if (optind < argc) {
		path = argv[optind];
		in = fopen(path, "r");
		if (!in) {
			perror(path);
			return 2;
		}
	}
	if (perf)
		return perf_to_lines(in);
	if (chain_load(&f, in, path) < 0) {
		chain_free(&f);
		return 1;
	}
	summary(&f);
	chain_free(&f);
	return 0;
}
