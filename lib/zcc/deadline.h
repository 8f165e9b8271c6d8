/*
 * zcc -t SECS: a stream that ends at a deadline and is still a whole 2001
 * stream. Its first word announces a ceiling of loops; as each loop
 * begins, the time left (less what the socket still holds) and the rate
 * so far say how many files it sends (lib/wire/tx.h's loop_files, files
 * taken in turn round the set): early loops a share of the time left,
 * the last ones the files that fit, and once the deadline has come, loops
 * of 0 files (a 4-byte word each) to the ceiling. So the run ends within
 * about one file's send time of the deadline, with no probe beforehand;
 * with -P every stream plans against the same deadline.
 */
#ifndef ZC_ZCC_DEADLINE_H
#define ZC_ZCC_DEADLINE_H

#include <stdint.h>

#include "zcc/fileset.h"
#include "wire/tx.h"

/* Loops a second the ceiling allows: what is left of them at the deadline
 * goes out as 4-byte words. */
#define DEADLINE_LOOPS_PER_SEC 1000
#define DEADLINE_LOOPS_MIN 1024

/* One stream's plan. */
struct deadline {
	uint64_t end;			/* now_ns() the last byte should be delivered by */
	const struct file_set *set;
	uint32_t next;			/* the file the next loop begins with */
	uint64_t t0;			/* the first loop began */
	uint64_t bytes;			/* the stream's bytes as planned so far */
	uint64_t files;			/* files planned so far */
	uint32_t loops;			/* loops planned so far that hold files */
};

/* deadline_ceiling - the n_loops a stream of secs announces. */
uint32_t deadline_ceiling(double secs);

/*
 * deadline_arm - t's loops (by set) end at end (now_ns() time): d is
 * t->loop_arg and must outlive the send. Returns the n_loops to announce.
 */
uint32_t deadline_arm(struct deadline *d, struct tx *t, const struct file_set *set,
		      uint64_t end);

/*
 * deadline_left - the seconds a loop that begins at now (now_ns() time)
 * may still fill, bytes having gone into the socket so far and queued of
 * them not yet acknowledged: the time to d->end less what the queued
 * bytes will take at the rate so far, the seconds a byte costs into *spb
 * (0: no byte delivered yet, no rate). 0 once the deadline has come.
 */
double deadline_left(const struct deadline *d, uint64_t now, uint64_t bytes,
		     uint64_t queued, double *spb);

/*
 * deadline_plan - how many files, from set->f[next] on round the set, a
 * loop sends with left seconds to go, a byte costing spb seconds (0: not
 * known yet: one file) and loops_left loops (this one included) to spend:
 * a file goes in while half of it fits. The first file is judged against
 * all the time left, the rest against this loop's share of it.
 */
uint32_t deadline_plan(const struct file_set *set, uint32_t next, double left,
		       double spb, uint32_t loops_left);

#endif
