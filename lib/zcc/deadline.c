#include <linux/sockios.h>
#include <poll.h>
#include <sys/ioctl.h>

#include "zcc/deadline.h"
#include "base/clock.h"
#include "wire/proto.h"

uint32_t deadline_ceiling(double secs)
{
	double n = secs * DEADLINE_LOOPS_PER_SEC;

	return n < DEADLINE_LOOPS_MIN ? DEADLINE_LOOPS_MIN : n >= UINT32_MAX ? UINT32_MAX
										: (uint32_t)n;
}

uint32_t deadline_plan(const struct file_set *set, uint32_t next, double left,
		       double spb, uint32_t loops_left)
{
	/*
	 * A loop takes twice its even share of the time left: the loops'
	 * shares shrink toward the deadline, so the last ones hold a file or
	 * two, and a rate that rises (loops shorter than planned) only makes
	 * the next ones longer, never runs out of loops before the deadline.
	 */
	double share = loops_left > 1 ? 2 * left / loops_left : left, sum = 0, cost;
	uint32_t m = 0;

	if (left <= 0)
		return 0;
	if (spb <= 0)
		return 1;
	if (share > left)
		share = left;
	while (m < UINT32_MAX) {
		cost = (double)(set->f[next].size + PROTO_WORD) * spb;
		if (sum + cost / 2 > (m ? share : left))
			break;
		sum += cost;
		m++;
		next = next + 1 < set->n ? next + 1 : 0;
	}
	return m;
}

double deadline_left(const struct deadline *d, uint64_t now, uint64_t bytes,
		     uint64_t queued, double *spb)
{
	uint64_t delivered = bytes > queued ? bytes - queued : 0;

	*spb = 0;
	if (now >= d->end)
		return 0;
	if (delivered > 0 && now > d->t0)
		*spb = (double)(now - d->t0) / 1e9 / (double)delivered;
	return (double)(d->end - now) / 1e9 - (double)queued * *spb;
}

/* Bytes t has put on the connection that its peer has not acknowledged. */
static uint64_t unacked(const struct tx *t)
{
	int q = 0;

	if (ioctl(t->sock, SIOCOUTQ, &q) < 0 || q < 0)
		return 0;
	return (uint64_t)q;
}

/*
 * The files the loop that begins can send: none once the deadline has
 * come. Before it, what the socket still holds may fill the time left by
 * the rate so far; that rate may be too slow (a receiver that was starved
 * for a while), so then the socket is watched drain, a millisecond at a
 * time, until a file fits, the socket is empty, or the deadline comes.
 */
static uint32_t plan_now(struct deadline *d, struct tx *t, uint32_t loops_left)
{
	uint64_t now = now_ns(), bytes = __atomic_load_n(&t->bytes, __ATOMIC_RELAXED);
	uint64_t queued;
	struct pollfd gone = { .fd = t->sock };	/* no events: POLLERR, POLLHUP */
	double spb, left;
	uint32_t m;

	if (d->t0 == 0)
		d->t0 = now;
	for (;;) {
		if (now >= d->end)
			return 0;
		queued = unacked(t);
		left = deadline_left(d, now, bytes, queued, &spb);
		m = deadline_plan(d->set, d->next, left, spb, loops_left);
		if (m > 0 || queued == 0 || poll(&gone, 1, 1) != 0)
			return m;
		if (t->stop && *t->stop)
			return 1;	/* the stream's loop sees the stop before it */
		now = now_ns();
	}
}

/* lib/wire/tx.h's loop_files: plan the loop that begins, count its bytes. */
static uint32_t loop_files(struct tx *t, uint32_t loops_left)
{
	struct deadline *d = t->loop_arg;
	uint32_t m = plan_now(d, t, loops_left);

	d->bytes += PROTO_WORD;
	d->files += m;
	d->loops += m > 0;
	for (uint32_t i = 0; i < m; i++) {
		d->bytes += PROTO_WORD + d->set->f[d->next].size;
		d->next = d->next + 1 < d->set->n ? d->next + 1 : 0;
	}
	return m;
}

uint32_t deadline_arm(struct deadline *d, struct tx *t, const struct file_set *set,
		      uint64_t end)
{
	*d = (struct deadline){ .end = end, .set = set, .bytes = PROTO_WORD };
	t->loop_files = loop_files;
	t->loop_arg = d;
	return deadline_ceiling((double)(end > now_ns() ? end - now_ns() : 0) / 1e9);
}
