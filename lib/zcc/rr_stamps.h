/*
 * What zcc --rr measures of a connection beyond its round trips
 * (lib/zcc/rr_stamps.c, the lines: lib/zcc/rr_stages.c):
 *
 * --call-times: the time across each send and each receive system call
 * of the requests and answers (CLOCK_MONOTONIC), a histogram each. A
 * receive that blocks waits for the answer inside the call (TCP closed
 * loop); the UDP and --gap readers poll first, so theirs are the copy.
 *
 * --stamps: the kernel's software stamps (lib/wire/tstamp.h) on the
 * socket, switched on after the hello's answer so that the stamps'
 * numbering starts at the first request. Each request's send() time is
 * noted, the error queue read after each answer (and whenever a wait for
 * one sees it readable), the answer's arrival stamp taken with it; after
 * the run a bounded drain (TSTAMP_DRAIN_MS) collects the last, and what
 * never came is counted as missing. The tracker of the requests is shared
 * by the sender and, under --gap, the reader thread: under a lock.
 */
#ifndef ZC_ZCC_RR_STAMPS_H
#define ZC_ZCC_RR_STAMPS_H

#include <pthread.h>
#include <stdint.h>

#include "base/hist.h"
#include "wire/rr_io.h"
#include "wire/tstamp.h"
#include "wire/tstamp_every.h"
#include "zcc/rr.h"

struct rr_probe {
	int calls, stamps, tcp;		/* --call-times, --stamps, the protocol */
	struct hist send_calls, recv_calls;
	struct rr_io_ctl rx;		/* the reader's receive calls */
	struct tstamp_track *tx;	/* the requests' stages, under lock */
	pthread_mutex_t lock;
	struct tstamp_track *wake;	/* the answers' wake-ups, the reader's */
	uint64_t answers, unstamped;	/* answers read; with no arrival stamp */
	uint64_t errors;		/* error queue reads that failed */
};

/* rr_probe_new - a connection's, as rc asks; NULL when it asks neither. */
struct rr_probe *rr_probe_new(const struct rr_cfg *rc);
void rr_probe_free(struct rr_probe *p);

/* rr_probe_enable - after the hello's answer: the stamps on fd (-1 with err). */
int rr_probe_enable(struct rr_probe *p, int fd, char *err, size_t errlen);

/* rr_probe_send_calls - the histogram of the send calls, NULL: none. */
struct hist *rr_probe_send_calls(struct rr_probe *p);
/* rr_probe_ctl - what the reader's receive calls do, NULL: nothing more. */
struct rr_io_ctl *rr_probe_ctl(struct rr_probe *p);

/* rr_probe_sent - a request's send() is about to be called. */
void rr_probe_sent(struct rr_probe *p);

/* rr_probe_answer - an answer was read on fd under rr_probe_ctl: its stamps. */
void rr_probe_answer(struct rr_probe *p, int fd);

/*
 * rr_probe_poll - wait up to ms for fd to be readable, as poll(2) for
 * POLLIN: with stamps, the error queue read whenever it alone wakes the
 * wait. 1: readable (or an error recv will name), 0: time out, -1: poll's.
 */
int rr_probe_poll(struct rr_probe *p, int fd, int ms);

/* rr_probe_finish - after the run: the stamps still to come, waited for within the bound. */
void rr_probe_finish(struct rr_probe *p, int fd);

/*
 * rr_probe_lines - the run's connections' probes merged: with --stamps
 * the stages: line (rtt: the run's round trips, to weigh the stages
 * against), with --call-times the two call-times: lines.
 */
struct engine;
void rr_probe_lines(const struct engine *e, const struct hist *rtt);

/*
 * zcc_stages_line - the stages: line of t (every connection's stamps
 * merged), both modes: --rr's beside the round trips (rtt) and the
 * arrivals with no stamp; stream mode's (rtt NULL) saying one send in
 * how many was stamped.
 */
struct stages_of {
	const struct tstamp_track *t;
	const struct hist *rtt;
	unsigned every;
	uint64_t unstamped, errors;
};
void zcc_stages_line(const struct stages_of *of);

/* rr_probe_of - the probe of one connection of conn_rr (NULL: none). */
struct rr_probe *rr_probe_of(const struct conn *c);

#endif
