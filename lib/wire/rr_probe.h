/*
 * What a request/response end measures of a connection beyond its round
 * trips, for zcc --rr (its requests out, its answers in) and zcs (its
 * answers out, the requests in):
 *
 * --call-times: the time across each send and each receive system call
 * (CLOCK_MONOTONIC), a histogram each. A receive that blocks waits for
 * the message inside the call; a reader that polls first times the copy.
 *
 * --stamps: the kernel's software stamps (lib/wire/tstamp.h) on the
 * socket, switched on once the hello is answered, so that the stamps'
 * numbering starts at the first message this end sends. Each message's
 * send() time is noted, the error queue read after each message read
 * (and whenever a wait for one sees it readable), the read message's
 * arrival stamp taken with it (its wake-up: the stamp to the receive's
 * return); after the run a bounded drain (TSTAMP_DRAIN_MS) collects the
 * last, and what never came is counted as missing. The tracker of the
 * sent messages may be shared by a sender and a reader thread: under a
 * lock.
 *
 * Memory runs out: rr_probe_make returns NULL, as when nothing is asked;
 * the caller tells the two apart.
 */
#ifndef ZC_WIRE_RR_PROBE_H
#define ZC_WIRE_RR_PROBE_H

#include <pthread.h>
#include <stdint.h>

#include "base/hist.h"
#include "wire/rr_io.h"
#include "wire/tstamp.h"

struct rr_probe {
	int calls, stamps, tcp;		/* --call-times, --stamps, the protocol */
	struct hist send_calls, recv_calls;
	struct rr_io_ctl rx;		/* the reader's receive calls */
	struct tstamp_track *tx;	/* the sent messages' stages, under lock */
	pthread_mutex_t lock;
	struct tstamp_track *wake;	/* the read messages' wake-ups, the reader's */
	uint64_t answers, unstamped;	/* messages read; with no arrival stamp */
	uint64_t errors;		/* error queue reads that failed */
};

/*
 * rr_probe_make - a connection's: calls (--call-times, each counting the
 * calls over budget_ns), stamps (--stamps); tcp: the sent messages span
 * unit byte numbers each (a datagram: one). NULL when neither is asked,
 * or out of memory.
 */
struct rr_probe *rr_probe_make(int calls, int stamps, int tcp, uint32_t unit,
			       uint64_t budget_ns);
void rr_probe_free(struct rr_probe *p);

/* rr_probe_enable - after the hello's answer: the stamps on fd (-1 with err). */
int rr_probe_enable(struct rr_probe *p, int fd, char *err, size_t errlen);

/* rr_probe_send_calls - the histogram of the send calls, NULL: none. */
struct hist *rr_probe_send_calls(struct rr_probe *p);
/* rr_probe_ctl - what the reader's receive calls do, NULL: nothing more. */
struct rr_io_ctl *rr_probe_ctl(struct rr_probe *p);

/* rr_probe_sent - a message's send() is about to be called. */
void rr_probe_sent(struct rr_probe *p);

/* rr_probe_answer - a message was read on fd under rr_probe_ctl: its stamps. */
void rr_probe_answer(struct rr_probe *p, int fd);

/*
 * rr_probe_poll - wait up to ms for fd to be readable, as poll(2) for
 * POLLIN: with stamps, the error queue read whenever it alone wakes the
 * wait. 1: readable (or an error recv will name), 0: time out, -1: poll's.
 */
int rr_probe_poll(struct rr_probe *p, int fd, int ms);

/* rr_probe_finish - after the run: the stamps still to come, waited for within the bound. */
void rr_probe_finish(struct rr_probe *p, int fd);

#endif
