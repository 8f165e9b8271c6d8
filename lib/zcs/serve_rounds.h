/*
 * zcs's receive comparisons: -M and -b lists make variants (a receive
 * method and a read size each); each sender run is a turn, served with
 * the next variant of the round, the order rotated from round to round
 * as zcc's is. A turn is one connection, or the connections from one
 * peer host that come within a second of it while it flows (one zcc -P
 * N); it ends when the last of them has. After every complete round, the table every comparison
 * prints (lib/app/compare.h), and --plot's chart.
 *
 * A connection's process sends its figures (lib/zcs/serve.h) down a pipe
 * before it exits; the parent reads them as it reaps. A turn with a
 * stream that did not end whole is not counted: the variant is served
 * again. The parent alone calls what is not marked "child".
 */
#ifndef ZC_ZCS_SERVE_ROUNDS_H
#define ZC_ZCS_SERVE_ROUNDS_H

#include <sys/types.h>

#include "app/compare.h"
#include "zcs/serve.h"

struct rx_variant {
	const struct rx_method *method;
	size_t read_size;
	char name[48];		/* "read", or "read/4K" with a -b list */
};

struct rx_variants {
	struct rx_variant v[COMPARE_MAX];
	unsigned n;
	int by_size;		/* -b was a list: the chart draws against size */
};

/*
 * serve_rounds_variants - every combination of methods (-M's value, a comma
 * list; NULL: read) and read sizes (-b's, a comma list; NULL: size), into
 * vs. An empty item, a repeat, an unknown method, one the kernel refuses,
 * a bad size or more than COMPARE_MAX variants: one usage line, exit 2.
 */
void serve_rounds_variants(struct rx_variants *vs, const char *methods, const char *sizes,
		     size_t size, size_t max_size);

/* serve_rounds_open - compare vs (two or more), drawing to plot (or NULL). */
void serve_rounds_open(const struct rx_variants *vs, const char *plot);

/* serve_rounds_on - is a comparison running? */
int serve_rounds_on(void);

/*
 * serve_rounds_pick - the variant for a connection from peer ("ADDR port N"),
 * before its process is forked: the open turn's when peer's host has it,
 * else the next turn's (a connection from another host while a turn is
 * open is served with it but not counted). serve_rounds_spawned: its process
 * (-1: none was made).
 */
const struct rx_variant *serve_rounds_pick(const char *peer);
void serve_rounds_spawned(pid_t pid);

/* serve_rounds_result - child: its connection's figures, to the parent. */
void serve_rounds_result(const struct serve_result *r);

/* serve_rounds_ended - the process pid was reaped: its turn may be complete. */
void serve_rounds_ended(pid_t pid);

#endif
