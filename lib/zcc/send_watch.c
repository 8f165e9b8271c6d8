/*
 * zcc's watcher of a run (-I, -T): a thread that sleeps until a look is
 * due, so the send loop never pays for it; what is due and whether the
 * flow stalled is lib/app/watch.h's rule.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "zcc/send_internal.h"
#include "base/clock.h"
#include "base/rate.h"
#include "wire/net.h"

/* Bytes on the watched connections so far. */
static uint64_t watched_bytes(const struct watcher *w)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < w->e->n; i++)
		sum += __atomic_load_n(&w->e->c[i].t.bytes, __ATOMIC_RELAXED);
	return sum;
}

/* TCP_INFO of the open watched connections, summed (rtt: the mean). */
static void watched_tcp(const struct watcher *w, struct tcp_figures *sum)
{
	struct tcp_figures one;
	unsigned n = 0;

	*sum = (struct tcp_figures){ 0 };
	pthread_mutex_lock(&w->e->lock);
	for (unsigned i = 0; i < w->e->n; i++) {
		if (w->e->c[i].t.sock >= 0 && tcpinfo_read(w->e->c[i].t.sock, &one) == 0) {
			tcpinfo_add(sum, &one);
			n++;
		}
	}
	pthread_mutex_unlock(&w->e->lock);
	tcpinfo_mean(sum, n);
}

/* An -I line; with -W, where: lines over the interval (then a new one starts). */
static void print_interval(const struct watcher *w, uint64_t bytes, uint64_t ns)
{
	struct where_span *span = w->sd->interval;
	struct tcp_figures tcp;

	/* No meter reading covers an interval: no unattributed share. A
	 * failed read shows the interval before's. */
	if (span)
		where_span_read(span, NAN, bytes, 0, NULL, 0);
	if (w->e->ops->interval) {	/* a work with an interval line of its own */
		w->e->ops->interval(w->e, ns, span ? where_span_report(span) : NULL);
		return;
	}
	watched_tcp(w, &tcp);
	report_interval(bytes, ns, &tcp, span ? where_span_report(span) : NULL);
}

/* -P -I -d: each connection's rate over the interval just printed. */
static void debug_interval(struct watcher *w, uint64_t ns)
{
	uint64_t b;

	for (unsigned i = 0; i < w->e->n; i++) {
		b = __atomic_load_n(&w->e->c[i].t.bytes, __ATOMIC_RELAXED);
		fprintf(stderr, "%s: stream %u: %.0f kbytes/sec\n",
			program_invocation_short_name, w->e->c[i].idx,
			kbytes_per_sec(b - w->last[i], ns));
		w->last[i] = b;
	}
}

/*
 * --mptcp: a look at the subflows of each connection while it works, so
 * that one that closes is seen gone (under the lock: its thread takes the
 * last look itself once its work is done).
 */
static void look_subflows(struct watcher *w)
{
	struct conn *c;

	pthread_mutex_lock(&w->e->lock);
	for (unsigned i = 0; i < w->e->n; i++) {
		c = &w->e->c[i];
		if (__atomic_load_n(&c->sending, __ATOMIC_ACQUIRE) && c->mptcp)
			mptcp_subflows_read(c->t.sock, &c->subflows);
	}
	pthread_mutex_unlock(&w->e->lock);
}

/*
 * The run gives up on connection c's stall: every connection of it is to
 * close with a reset, so that nothing sent lingers in the kernel after
 * zcc exits; c is shut down, which fails it (its work returns) and so
 * ends the run, the others' sockets are shut after.
 */
static void give_up(struct watcher *w, struct conn *c, uint64_t moved)
{
	w->stalled = 1;
	w->stalled_idx = c->idx;
	w->moved = moved;
	pthread_mutex_lock(&w->e->lock);
	for (unsigned i = 0; i < w->e->n; i++)
		if (w->e->c[i].t.sock >= 0)
			net_reset_on_close(w->e->c[i].t.sock);
	if (c->t.sock >= 0)
		shutdown(c->t.sock, SHUT_RDWR);
	pthread_mutex_unlock(&w->e->lock);
}

/*
 * -T: each connection that is working has a stall rule of its own (a
 * straggler must not hide behind the others' bytes). The first that
 * stalls ends the run (give_up). Returns 1
 * then; else when the next look is due into *due (a connection not yet
 * working is looked for every 0.1 s).
 */
static int look_each(struct watcher *w, uint64_t now, uint64_t *due)
{
	struct watch_news news;
	struct watch *each;
	struct conn *c;

	for (unsigned i = 0; i < w->e->n; i++) {
		c = &w->e->c[i];
		each = &w->each[i];
		if (!__atomic_load_n(&c->sending, __ATOMIC_ACQUIRE)) {
			if (each->slot_ns == 0 && !__atomic_load_n(&c->done, __ATOMIC_ACQUIRE) &&
			    now + 100000000u < *due)
				*due = now + 100000000u;
			continue;
		}
		if (each->slot_ns == 0)	/* its first look */
			watch_init(each, 0, w->sd->cfg->stall, now,
				   __atomic_load_n(&c->t.bytes, __ATOMIC_RELAXED));
		watch_look(each, now, __atomic_load_n(&c->t.bytes, __ATOMIC_RELAXED), &news);
		if (watch_due(each) < *due)
			*due = watch_due(each);
		if (!news.stalled)
			continue;
		give_up(w, c, news.moved);
		return 1;
	}
	return 0;
}

/* The watcher thread: it sleeps until a look is due, so the send loop
 * never pays for -I or -T. */
static void *watch_run(void *arg)
{
	struct watcher *w = arg;
	struct watch_news news;
	struct timespec ts;
	uint64_t due, now;

	if (w->sd->interval && w->watch.line_ns > 0)
		where_span_start(w->sd->interval, NULL, 0);

	pthread_mutex_lock(&w->lock);
	while (!w->done) {
		now = now_ns();
		watch_look(&w->watch, now, watched_bytes(w), &news);
		if (news.line)
			print_interval(w, news.line_bytes, news.line_ns);
		if (news.line && w->last)
			debug_interval(w, news.line_ns);
		if (w->sd->cfg->sockopts.mptcp)
			look_subflows(w);
		due = watch_due(&w->watch);
		if (w->each && look_each(w, now, &due))
			break;
		if (w->sd->cfg->sockopts.mptcp && now + 100000000u < due)
			due = now + 100000000u;	/* the subflows: 0.1 s is enough */
		ts = ns_timespec(due);
		pthread_cond_timedwait(&w->wake, &w->lock, &ts);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

void watch_start(struct watcher *w, struct sender *sd, struct engine *e)
{
	const struct send_cfg *cfg = sd->cfg;
	double interval = cfg->interval;
	sigset_t all, old;
	int err;

	*w = (struct watcher){ .sd = sd, .e = e };
	if (interval == 0 && cfg->stall == 0)
		return;
	/* The lines are of the sum; the stall rules each connection's. */
	watch_init(&w->watch, interval, 0, now_ns(), 0);
	if (cfg->stall > 0) {
		w->each = calloc(e->n, sizeof(*w->each));
		if (!w->each)
			error(1, errno, "memory");
	}
	if (e->named && interval > 0 && cfg->debug) {
		w->last = calloc(e->n, sizeof(*w->last));
		if (!w->last)
			error(1, errno, "memory");
	}
	pthread_mutex_init(&w->lock, NULL);
	clock_cond_init(&w->wake);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&w->thread, NULL, watch_run, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		error(1, err, "a thread for -I / -T");
	w->running = 1;
}

void watch_stop(struct watcher *w)
{
	if (!w->running)
		return;
	pthread_mutex_lock(&w->lock);
	w->done = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	/* The run's last, partial interval: the lines add up to sent:. */
	if (w->watch.line_ns > 0 && !w->stalled) {
		uint64_t now = now_ns(), b = watched_bytes(w);

		if (b > w->watch.line_bytes && now > w->watch.line_t)
			print_interval(w, b - w->watch.line_bytes, now - w->watch.line_t);
	}
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w->each);
	free(w->last);
	w->each = NULL;
	w->last = NULL;
}
