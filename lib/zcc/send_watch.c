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

	for (unsigned i = 0; i < w->g->n; i++)
		sum += __atomic_load_n(&w->g->s[i].t.bytes, __ATOMIC_RELAXED);
	return sum;
}

/* TCP_INFO of the open watched connections, summed (rtt: the mean). */
static void watched_tcp(const struct watcher *w, struct tcp_figures *sum)
{
	struct tcp_figures one;
	unsigned n = 0;

	*sum = (struct tcp_figures){ 0 };
	pthread_mutex_lock(&w->g->lock);
	for (unsigned i = 0; i < w->g->n; i++) {
		if (w->g->s[i].t.sock >= 0 && tcpinfo_read(w->g->s[i].t.sock, &one) == 0) {
			tcpinfo_add(sum, &one);
			n++;
		}
	}
	pthread_mutex_unlock(&w->g->lock);
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
	watched_tcp(w, &tcp);
	report_interval(bytes, ns, &tcp, span ? where_span_report(span) : NULL);
}

/* -P -I -d: each stream's rate over the interval just printed. */
static void debug_interval(struct watcher *w, uint64_t ns)
{
	uint64_t b;

	for (unsigned i = 0; i < w->g->n; i++) {
		b = __atomic_load_n(&w->g->s[i].t.bytes, __ATOMIC_RELAXED);
		fprintf(stderr, "%s: stream %u: %.0f kbytes/sec\n",
			program_invocation_short_name, w->g->s[i].idx,
			kbytes_per_sec(b - w->last[i], ns));
		w->last[i] = b;
	}
}

/*
 * The run gives up on stream s's stall: every connection of it is to
 * close with a reset, so that nothing sent lingers in the kernel after
 * zcc exits; s is shut down, which fails it (its send returns) and so
 * ends the run, the others' sockets are shut after.
 */
static void give_up(struct watcher *w, struct stream *s, uint64_t moved)
{
	w->stalled = 1;
	w->stalled_idx = s->idx;
	w->moved = moved;
	pthread_mutex_lock(&w->g->lock);
	for (unsigned i = 0; i < w->g->n; i++)
		if (w->g->s[i].t.sock >= 0)
			net_reset_on_close(w->g->s[i].t.sock);
	if (s->t.sock >= 0)
		shutdown(s->t.sock, SHUT_RDWR);
	pthread_mutex_unlock(&w->g->lock);
}

/*
 * -P with -T: each stream that is sending has a stall rule of its own (a
 * straggler must not hide behind the others' bytes). The first that
 * stalls ends the run (give_up). Returns 1 then.
 */
static int look_each(struct watcher *w, uint64_t now)
{
	struct watch_news news;
	struct stream *s;

	for (unsigned i = 0; i < w->g->n; i++) {
		s = &w->g->s[i];
		if (!__atomic_load_n(&s->sending, __ATOMIC_ACQUIRE))
			continue;
		if (w->each[i].slot_ns == 0)	/* its first look */
			watch_init(&w->each[i], 0, w->sd->cfg->stall, now,
				   __atomic_load_n(&s->t.bytes, __ATOMIC_RELAXED));
		watch_look(&w->each[i], now, __atomic_load_n(&s->t.bytes, __ATOMIC_RELAXED),
			   &news);
		if (!news.stalled)
			continue;
		give_up(w, s, news.moved);
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
		if (w->sd->mptcp && w->g->n == 1)	/* a subflow that closes is seen gone */
			mptcp_look(w->g->s[0].t.sock, &w->sd->subflows);
		if (news.stalled) {	/* one stream's rule */
			give_up(w, &w->g->s[0], news.moved);
			break;
		}
		if (w->each && look_each(w, now))
			break;
		due = watch_due(&w->watch);
		if (w->each && now + 100000000u < due)
			due = now + 100000000u;	/* the streams' rules: 0.1 s is enough */
		ts = ns_timespec(due);
		pthread_cond_timedwait(&w->wake, &w->lock, &ts);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

void watch_start(struct watcher *w, struct sender *sd, struct group *g)
{
	const struct send_cfg *cfg = sd->cfg;
	double interval = cfg->interval;
	int many = g->n > 1;
	sigset_t all, old;
	int e;

	*w = (struct watcher){ .sd = sd, .g = g };
	if (interval == 0 && cfg->stall == 0)
		return;
	/* One stream: one rule for lines and stall; -P: lines of the sum. */
	watch_init(&w->watch, interval, many ? 0 : cfg->stall, now_ns(), 0);
	if (many && cfg->stall > 0) {
		w->each = calloc(g->n, sizeof(*w->each));
		if (!w->each)
			error(1, errno, "memory");
	}
	if (many && interval > 0 && cfg->debug) {
		w->last = calloc(g->n, sizeof(*w->last));
		if (!w->last)
			error(1, errno, "memory");
	}
	pthread_mutex_init(&w->lock, NULL);
	clock_cond_init(&w->wake);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	e = pthread_create(&w->thread, NULL, watch_run, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e)
		error(1, e, "a thread for -I / -T");
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
