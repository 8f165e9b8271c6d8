/*
 * zcs's meter, sampled by one process. The process that opened the meter
 * (zcs's parent, or zcs -1 alone) is the only one that samples it: each
 * reading is added to a ledger in shared memory, the load-seconds and the
 * seconds so far. A connection's process asks for a reading (a byte down
 * the sampler's pipe, which the parent polls) and sleeps until the ledger
 * moves; the load over any stretch is the difference of two marks of the
 * ledger, time-weighted as one reading over it would be. So the rate,
 * done and total lines take their load from one series of readings, and a
 * soaker that died is seen and said in one place.
 *
 * The ledger also keeps, at each reading, the bytes every connection had
 * received (serve_sampler_count): the machine's CPU over a stretch is divided
 * by all the bytes received in it, so connections that overlap do not
 * each charge the whole machine to their own bytes.
 */
#ifndef ZC_ZCS_SERVE_SAMPLER_H
#define ZC_ZCS_SERVE_SAMPLER_H

#include <stdint.h>

#include "app/meter_session.h"
#include "zcs/serve_load.h"
#include "meter/meter.h"

/* Where the ledger stood at one reading. */
struct serve_sampler_mark {
	double load_secs;	/* the sum of load x seconds */
	double secs;
	int ncpus;
	int counted;		/* all_bytes is kept */
	uint64_t all_bytes;	/* every connection's bytes received so far */
};

/*
 * serve_sampler_open - sample m from this process (the meter's opener), from
 * now. on_fail: what ends the program once the failure is said (zcs's
 * parent stops its children first); NULL: exit 1. A failure to set up is
 * one line and exit 1.
 */
void serve_sampler_open(struct meter *m, void (*on_fail)(void));

/*
 * serve_sampler_count - in the sampler's process: all_bytes says what every
 * connection has received so far (monotonic), read at each reading.
 */
void serve_sampler_count(uint64_t (*all_bytes)(void));

/* serve_sampler_fd - the pipe's end the sampler's process polls for requests;
 * -1 before serve_sampler_open. */
int serve_sampler_fd(void);

/* serve_sampler_child - in a connection's process, after the fork: ask, never
 * sample. */
void serve_sampler_child(void);

/* serve_sampler_answer - in the sampler's process: a reading, if a connection's
 * process asked for one since the last. */
void serve_sampler_answer(void);

/*
 * serve_sampler_read - a fresh reading's mark into *mk (one taken here or asked
 * for). 0, or -1 when nothing answers (the sampler's process is gone).
 * A meter that fails is said, and the program ends (serve_sampler_open).
 */
int serve_sampler_read(struct serve_sampler_mark *mk);

/*
 * serve_sampler_since - the load from *mk to a fresh reading, per KB of *bytes;
 * where every connection's bytes are counted (serve_sampler_count), *bytes
 * becomes what all of them received in that time, the figure's bytes.
 * *mk moves to the new reading. Not valid when nothing answered or no
 * time passed.
 */
struct serve_load serve_sampler_since(struct serve_sampler_mark *mk, uint64_t *bytes);

#endif
