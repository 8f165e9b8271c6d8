/*
 * A connection's --call-times and --stamps (lib/wire/rr_probe.h): the
 * socket's side, into its probe.
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "wire/rr_probe.h"
#include "wire/tstamp_every.h"

struct rr_probe *rr_probe_make(int calls, int stamps, int tcp, uint32_t unit,
			       uint64_t budget_ns)
{
	struct rr_probe *p;

	if (!calls && !stamps)
		return NULL;
	if (!(p = calloc(1, sizeof(*p))))
		return NULL;
	p->calls = calls;
	p->stamps = stamps;
	p->tcp = tcp;
	hist_init(&p->send_calls, budget_ns);
	hist_init(&p->recv_calls, budget_ns);
	p->rx = (struct rr_io_ctl){ .calls = p->calls ? &p->recv_calls : NULL,
				    .stamps = p->stamps };
	if (p->stamps) {
		p->tx = malloc(sizeof(*p->tx));
		p->wake = malloc(sizeof(*p->wake));
		if (!p->tx || !p->wake) {
			free(p->tx);
			free(p->wake);
			free(p);
			return NULL;
		}
		/* A TCP message spans its bytes' numbers; a datagram, one. */
		tstamp_track_init(p->tx, p->tcp ? unit : 1, UINT64_MAX);
		tstamp_track_init(p->wake, 1, UINT64_MAX);
		pthread_mutex_init(&p->lock, NULL);
	}
	return p;
}

void rr_probe_free(struct rr_probe *p)
{
	if (!p)
		return;
	if (p->stamps)
		pthread_mutex_destroy(&p->lock);
	free(p->tx);
	free(p->wake);
	free(p);
}

int rr_probe_enable(struct rr_probe *p, int fd, char *err, size_t errlen)
{
	if (!p || !p->stamps)
		return 0;
	return tstamp_enable(fd, p->tcp, err, errlen);
}

struct hist *rr_probe_send_calls(struct rr_probe *p)
{
	return p && p->calls ? &p->send_calls : NULL;
}

struct rr_io_ctl *rr_probe_ctl(struct rr_probe *p)
{
	return p ? &p->rx : NULL;
}

void rr_probe_sent(struct rr_probe *p)
{
	if (!p || !p->stamps)
		return;
	pthread_mutex_lock(&p->lock);
	tstamp_track_sent(p->tx, rr_real_ns());
	pthread_mutex_unlock(&p->lock);
}

/* Every stamp on fd's error queue now into the tracker: how many. */
static unsigned drain(struct rr_probe *p, int fd)
{
	struct tstamp_tx s;
	char err[128];
	unsigned n = 0;
	int rc;

	pthread_mutex_lock(&p->lock);
	while ((rc = tstamp_read_tx(fd, &s, err, sizeof(err))) > 0) {
		tstamp_track_take(p->tx, &s);
		n++;
	}
	p->errors += rc < 0;
	pthread_mutex_unlock(&p->lock);
	return n;
}

void rr_probe_answer(struct rr_probe *p, int fd)
{
	if (!p || !p->stamps)
		return;
	p->answers++;
	if (p->rx.stamp_ns)
		tstamp_track_wakeup(p->wake, p->rx.stamp_ns, p->rx.back_ns);
	else	/* the kernel switches arrival stamps on in the background */
		p->unstamped++;
	p->rx.stamp_ns = 0;
	drain(p, fd);
}

int rr_probe_poll(struct rr_probe *p, int fd, int ms)
{
	uint64_t end = now_ns() + (uint64_t)(ms > 0 ? ms : 0) * 1000000, now;
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	int rc, idle = 0;

	for (;;) {
		now = now_ns();
		rc = poll(&pf, 1, now >= end ? 0 : (int)((end - now + 999999) / 1000000));
		if (rc != 1 || !p || !p->stamps || (pf.revents & ~POLLERR))
			return rc;
		/* Woken twice by what is no stamp: the socket's error, recv names it. */
		if (drain(p, fd))
			idle = 0;
		else if (idle++)
			return 1;
		if (now_ns() >= end)
			return 0;
	}
}

void rr_probe_finish(struct rr_probe *p, int fd)
{
	uint64_t end = now_ns() + (uint64_t)TSTAMP_DRAIN_MS * 1000000;

	if (!p || !p->stamps)
		return;
	drain(p, fd);
	/* Woken by what is no stamp: none will come. */
	while (tstamp_track_missing(p->tx) && tstamp_wait_err(fd, end) && drain(p, fd))
		;
}
