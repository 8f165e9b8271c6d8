/*
 * What lib/meter/soak.c and lib/meter/soaker.c share, and what the tests look
 * at: the counter slots the soakers write and the parent reads, and the
 * soaker process's own steps.
 */
#ifndef ZC_SOAK_INTERNAL_H
#define ZC_SOAK_INTERNAL_H

#include <stdint.h>
#include <sys/types.h>

#include "meter/soak.h"

/*
 * Each soaker's counter sits alone on 128 bytes: a cache line plus its
 * neighbour, which the adjacent-line prefetcher would otherwise pull in and
 * bounce between CPUs.
 */
#define SLOT_BYTES 128

struct slot {
	uint64_t count;		/* bumped by the soaker, read by the parent */
	uint64_t gap_ns;	/* time away from the loop, in long stretches */
	uint64_t seen_ns;	/* its clock when it last looked (CLOCK_MONOTONIC) */
	int err;		/* errno of a failed set-up, then the soaker exits */
} __attribute__((aligned(SLOT_BYTES)));

_Static_assert(sizeof(struct slot) == SLOT_BYTES, "one slot per 128 bytes");

/* soaker - the forked child: set itself up, then count until killed. */
void soaker(struct slot *slot, pid_t parent, int cpu, enum soak_policy policy)
	__attribute__((noreturn));

/* soak_own_autogroup - an autogroup of its own at nice 19 (best effort). */
void soak_own_autogroup(void);

/*
 * soak_lift - take a killed soaker out of SCHED_IDLE, nice 19 and its nice
 * 19 autogroup so it gets the CPU it needs to die; only system calls.
 */
void soak_lift(pid_t pid);

/* The tests' looks: the number of soakers, where soaker i's counter lives. */
int soak_count(const struct soak *s);
const volatile uint64_t *soak_counter(const struct soak *s, int i);

#endif
