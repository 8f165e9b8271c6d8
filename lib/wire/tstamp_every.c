/*
 * Stream mode's stamps, one send in every so many (tstamp_every.h).
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/clock.h"
#include "wire/rr_io.h"
#include "wire/tstamp_every.h"

struct tstamp_every *tstamp_every_new(unsigned every, uint64_t budget_ns)
{
	struct tstamp_every *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->every = every ? every : 1;
	tstamp_track_init(&e->track, 1, budget_ns);
	return e;
}

/* Stamp s: the stamped send whose last byte it names, newest first. */
static void take(struct tstamp_every *e, const struct tstamp_tx *s)
{
	uint64_t sent = e->track.sent;

	for (uint64_t k = sent; k > 0 && sent - k < TSTAMP_RING; k--)
		if (e->last[(k - 1) % TSTAMP_RING] == s->id) {
			tstamp_track_put(&e->track, k - 1, s);
			return;
		}
	e->track.late++;
}

/* Every stamp on fd's error queue now: how many. */
static unsigned drain(struct tstamp_every *e, int fd)
{
	struct tstamp_tx s;
	char err[128];
	unsigned n = 0;
	int rc;

	while ((rc = tstamp_read_tx(fd, &s, err, sizeof(err))) > 0) {
		take(e, &s);
		n++;
	}
	e->errors += rc < 0;
	return n;
}

ssize_t tstamp_every_send(struct tstamp_every *e, int fd, const void *buf, size_t len, int flags)
{
	char control[TSTAMP_CMSG_SPACE];
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control };
	uint64_t user;
	ssize_t n;

	/* Words held back for the data behind them (MSG_MORE) never end a packet. */
	if ((flags & MSG_MORE) || e->calls++ % e->every) {
		n = send(fd, buf, len, flags);
		e->bytes += n > 0 ? (uint64_t)n : 0;
		return n;
	}
	msg.msg_controllen = tstamp_cmsg(control);
	user = rr_real_ns();
	/* MSG_EOR: no later send joins its packet (whose stamp would be that one's). */
	n = sendmsg(fd, &msg, flags | MSG_EOR);
	if (n <= 0)
		return n;
	e->bytes += (uint64_t)n;
	e->last[e->track.sent % TSTAMP_RING] = (uint32_t)(e->bytes - 1);
	tstamp_track_sent(&e->track, user);
	drain(e, fd);
	return n;
}

int tstamp_wait_err(int fd, uint64_t end_ns)
{
	struct pollfd pf = { .fd = fd, .events = 0 };	/* POLLERR: the error queue */
	uint64_t now = now_ns();

	if (now >= end_ns)
		return 0;
	return poll(&pf, 1, (int)((end_ns - now + 999999) / 1000000)) == 1;
}

void tstamp_every_finish(struct tstamp_every *e, int fd, int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000;

	drain(e, fd);
	while (tstamp_track_missing(&e->track) && tstamp_wait_err(fd, end) && drain(e, fd))
		;
}
