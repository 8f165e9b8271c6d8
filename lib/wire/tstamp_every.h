/*
 * Stream mode's stamps (zcc --stamps -M send): one send in every `every`
 * asks the kernel for its SCHED, SND and ACK stamps by its own control
 * data (SO_TIMESTAMPING as a cmsg of sendmsg), so that a bulk transfer
 * pays for a few. The socket numbers its bytes from tstamp_enable_each
 * (OPT_ID); a stamp names the last byte of its send, which is looked up
 * among the stamped sends kept (TSTAMP_RING): the stages as tstamp.h's.
 */
#ifndef ZC_WIRE_TSTAMP_EVERY_H
#define ZC_WIRE_TSTAMP_EVERY_H

#include <stdint.h>
#include <sys/types.h>

#include "wire/tstamp.h"

#define TSTAMP_EVERY 64		/* zcc stream mode: one send in this many stamped */
#define TSTAMP_DRAIN_MS 200	/* after the run: the last stamps' wait */

struct tstamp_every {
	unsigned every;
	uint64_t calls;			/* sends so far, but those with MSG_MORE */
	uint64_t bytes;			/* bytes sent since tstamp_enable_each */
	uint32_t last[TSTAMP_RING];	/* each stamped send's last byte's number */
	uint64_t errors;		/* error queue reads that failed */
	struct tstamp_track track;	/* unit 1: a stamped send is a message */
};

/* tstamp_every_new - one send in every stamped (budget_ns: the stages'); NULL: no memory. */
struct tstamp_every *tstamp_every_new(unsigned every, uint64_t budget_ns);

/*
 * tstamp_every_send - send(2) of buf on fd with flags; every e->every-th
 * call asks for its stamps, and then the error queue is read (not
 * waiting). Its return, errno as send's.
 */
ssize_t tstamp_every_send(struct tstamp_every *e, int fd, const void *buf, size_t len, int flags);

/* tstamp_every_finish - after the last send: the stamps still to come, ms at most. */
void tstamp_every_finish(struct tstamp_every *e, int fd, int ms);

/*
 * tstamp_wait_err - wait until fd's error queue (or an error) is readable:
 * 1, or 0 at end_ns (now_ns) or when poll fails.
 */
int tstamp_wait_err(int fd, uint64_t end_ns);

#endif
