/*
 * The order of zcs's turns (serve_rounds.h), kept apart from connections
 * and clocks so that its rules are tested on their own: which place in
 * which round a new turn takes, the variant a place is served with
 * (rotated from round to round), a place served again when its turn was
 * not counted, and when a connection joins a turn rather than opening
 * one. Times are the caller's (now_ns()).
 */
#ifndef ZC_ZCS_TURN_PLAN_H
#define ZC_ZCS_TURN_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define PLAN_AGAIN 8			/* places waiting to be served again */
#define PLAN_JOIN_NS 1000000000ull	/* -P's connections come at once: within this */

/* A turn's place: round (from 0) and its place in it (from 0). */
struct plan_place {
	size_t round;
	unsigned at;
};

struct turn_plan {
	unsigned n;			/* variants */
	struct plan_place next;		/* the next new place */
	struct plan_place again[PLAN_AGAIN];	/* not counted: served first */
	unsigned n_again;
};

/* plan_init - a plan for n variants (n >= 1), from round 0's first place. */
void plan_init(struct turn_plan *p, unsigned n);

/* plan_take - a new turn's place: one to serve again first, else the next. */
struct plan_place plan_take(struct turn_plan *p);

/* plan_again - the turn at place was not counted: its place comes again
 * before any new one (beyond PLAN_AGAIN waiting, it is dropped). */
void plan_again(struct turn_plan *p, struct plan_place place);

/* plan_variant - the variant serving place: (round + at) mod n, so each
 * round starts one variant further on. */
unsigned plan_variant(const struct turn_plan *p, struct plan_place place);

/*
 * plan_joins - does a connection at now join the turn opened at opened?
 * Only from the turn's host (same_host), while its streams flow
 * (flowing), and within PLAN_JOIN_NS of its start: a sender's next run
 * may come before zcs has seen the previous one end.
 */
int plan_joins(int same_host, int flowing, uint64_t opened, uint64_t now);

#endif
