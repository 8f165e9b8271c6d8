/*
 * A run of zcc (send.h): N >= 1 connections (lib/zcc/conn.h), each doing
 * its work in a thread of its own with every signal blocked, while the
 * calling thread waits for them and takes the signals; the result is
 * their sum. One connection is N = 1 of the same: its figures cover its
 * work alone, N's the whole run (struct engine).
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "app/env_out.h"
#include "zcc/report.h"
#include "zcc/rr_stamps.h"
#include "zcc/send_internal.h"
#include "app/stop_exit.h"
#include "zcc/suspended.h"
#include "base/clock.h"
#include "base/rate.h"
#include "wire/addr.h"

void engine_fail(struct conn *c, const char *err)
{
	struct engine *e = c->e;

	/* A failure after the stop is only the stop seen from inside. */
	pthread_mutex_lock(&e->lock);
	if (!e->stop && !stop_signal) {
		e->stop = 1;
		e->failed = c->idx;
		snprintf(c->err, sizeof(c->err), "%s", err);
		pthread_cond_signal(&e->wake);
	} else {
		c->interrupted = 1;
	}
	pthread_mutex_unlock(&e->lock);
}

/*
 * Shut every open connection of e: a system call blocked in one returns;
 * and one still connecting gives up.
 */
static void shut_conns(struct engine *e)
{
	__atomic_store_n(&e->cancel, 1, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < e->n; i++)
		if (e->c[i].t.sock >= 0)
			shutdown(e->c[i].t.sock, SHUT_RDWR);
}

/* Free what engine_init made for e. */
static void engine_free(struct engine *e)
{
	for (unsigned i = 0; i < e->n; i++) {
		e->ops->free(&e->c[i]);
		free(e->c[i].t.call_hist);
		free(e->c[i].t.stamps);
	}
	free(e->c);
	pthread_cond_destroy(&e->wake);
	pthread_mutex_destroy(&e->lock);
}

static void engine_sum(const struct engine *e, struct send_result *r);

/*
 * The connection that failed, said in one line (several: "stream N:
 * ..."), after the sent: line of what went, marked with why, when data
 * went and the peer was the cause (the two ends' bytes then compare);
 * exits 1.
 */
static void __attribute__((noreturn)) engine_failed(const struct engine *e)
{
	const struct conn *c = &e->c[e->failed - 1];
	const struct watcher *w = e->w;
	int stalled = w->stalled && w->stalled_idx == c->idx;
	char which[32] = "", why[128];

	engine_sum(e, e->r);
	e->r->interrupted = stop_signal != 0;
	if (e->r->bytes > 0)
		report_ended(e->sd, e->r, c->errnum, stalled);
	if (e->named)
		snprintf(which, sizeof(which), "stream %u: ", c->idx);
	if (stalled)
		error(1, 0, "%s%s: stalled: %s", which, c->peer,
		      watch_stall_text(why, sizeof(why), w->moved, e->sd->cfg->stall));
	error(1, 0, "%s%s", which, c->err);
	exit(1);
}

/*
 * Make e's connections for ops' work: each its CPU of the -B list; -t:
 * their one deadline, secs after start (connecting included).
 */
static void engine_init(struct engine *e, struct sender *sd, const struct conn_ops *ops,
			uint32_t loops, uint64_t start)
{
	const struct send_cfg *cfg = sd->cfg;

	*e = (struct engine){ .sd = sd, .ops = ops, .n = cfg->streams };
	e->span_each = e->n == 1;
	e->named = !e->span_each;
	e->c = calloc(e->n, sizeof(*e->c));
	if (!e->c)
		error(1, errno, "memory");
	pthread_mutex_init(&e->lock, NULL);
	clock_cond_init(&e->wake);
	for (unsigned i = 0; i < e->n; i++) {
		struct conn *c = &e->c[i];

		c->idx = i + 1;
		c->e = e;
		c->sd = sd;
		c->ops = ops;
		c->end = start + (uint64_t)(cfg->secs * 1e9);
		c->cpu = cfg->n_cpus > 1 ? cfg->cpus[i % (unsigned)cfg->n_cpus] : -1;
		c->t = (struct tx){ .sock = -1, .chunk = cfg->chunk, .stop = &e->stop_never };
		if (cfg->call_times) {	/* --call-times: its own, merged after */
			c->t.call_hist = malloc(sizeof(*c->t.call_hist));
			if (!c->t.call_hist)
				error(1, errno, "memory");
			hist_init(c->t.call_hist, cfg->budget_ns);
		}
		if (cfg->stamps && !(c->t.stamps = tstamp_every_new(TSTAMP_EVERY, UINT64_MAX)))
			error(1, errno, "memory");
		c->cancel = &e->cancel;
		ops->init(c, loops);
	}
}

/*
 * Run e's connections, each in a thread of its own with every signal
 * blocked; this thread waits for them, and on a signal or a failure sets
 * the stop and shuts their sockets. Returns 0 when every thread started,
 * else pthread_create's error (the started ones stopped, *started says
 * how many).
 */
static int engine_threads(struct engine *e, unsigned *started)
{
	pthread_attr_t ta;
	sigset_t all, old;
	struct timespec ts;
	unsigned shut = 0;
	int err = 0;

	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, 1 << 20);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_mutex_lock(&e->lock);
	for (*started = 0; *started < e->n; ++*started) {
		err = pthread_create(&e->c[*started].thread, &ta, conn_thread, &e->c[*started]);
		if (err)
			break;
		e->running++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&ta);
	if (err)
		e->stop = 1;
	while (e->running > 0) {
		if (stop_signal)
			e->stop = 1;
		if (e->stop && !shut) {
			shut_conns(e);
			shut = 1;
		}
		ts = ns_timespec(now_ns() + 50000000u);	/* a signal is seen within 50 ms */
		pthread_cond_timedwait(&e->wake, &e->lock, &ts);
	}
	pthread_mutex_unlock(&e->lock);
	for (unsigned i = 0; i < *started; i++)
		pthread_join(e->c[i].thread, NULL);
	return err;
}

/*
 * The sum of e's connections into r (again when called again): every
 * connected one's bytes; TCP_INFO summed, rtt the mean. The seconds of a
 * span_each run are its one connection's work (ns; ns_closed to the
 * server's close), else from the first start to the last close.
 */
static void engine_sum(const struct engine *e, struct send_result *r)
{
	struct send_result sum = { 0 };
	uint64_t first = UINT64_MAX, last = 0;
	unsigned n_tcp = 0, n_rx = 0, n_conn = 0;

	for (unsigned i = 0; i < e->n; i++) {
		const struct conn *c = &e->c[i];

		if (!c->connected)
			continue;
		n_conn++;
		if (c->rx_ok)	/* --receiver-report */
			rx_report_add(&sum.rx, &c->rx, n_rx++);
		sum.bytes += c->t.bytes;
		sum.calls += c->t.calls;
		sum.zc_sends += c->t.zc_sends;
		sum.zc_copied += c->t.zc_copied;
		sum.interrupted |= c->interrupted;
		first = c->t0 && c->t0 < first ? c->t0 : first;
		last = c->t_end > last ? c->t_end : last;
		if (c->tcp.cwnd_bytes || c->tcp.rtt_us) {
			tcpinfo_add(&sum.tcp, &c->tcp);
			n_tcp++;
		}
	}
	tcpinfo_mean(&sum.tcp, n_tcp);
	r->ns = last > first ? last - first : 0;
	r->ns_closed = r->ns;
	if (e->span_each && e->c[0].done) {
		r->ns = e->c[0].t_done - e->c[0].t0;
		r->ns_closed = e->c[0].t_end - e->c[0].t0;
	}
	r->bytes = sum.bytes;
	r->calls = sum.calls;
	r->zc_sends = sum.zc_sends;
	r->zc_copied = sum.zc_copied;
	r->interrupted = sum.interrupted;
	r->tcp = sum.tcp;
	r->rate = kbytes_per_sec(sum.bytes, r->ns);
	r->rx_ok = n_rx > 0 && n_rx == n_conn;
	r->rx = sum.rx;
}

/* What e's connections should have moved, as their work planned. */
static uint64_t planned_bytes(const struct engine *e)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < e->n; i++)
		sum += e->ops->planned(&e->c[i]);
	return sum;
}

/* The first connection's env record (several: before any connects), once. */
static void env_once(struct sender *sd, int sock)
{
	int route = -1;

	if (!sd->env_due)
		return;
	/* No connection yet: the route's interface (every connection takes
	 * it) from a socket that sends nothing */
	if (sock < 0)
		sock = route = addr_route_socket(sd->cfg->host, sd->cfg->port);
	env_print(ENV_CONN, sock, sd->cfg->debug);
	if (route >= 0)
		close(route);
	sd->env_due = 0;
}

void engine_span_begin(struct engine *e, int sock)
{
	env_once(e->sd, sock);
	if (e->sd->cfg->debug)
		e->ops->plan(&e->c[0], e->n, e->named);
	send_mark(e->sd, sock);
	e->own0 = send_cpu_secs();
	watch_start(e->w, e->sd, e);
}

void engine_span_end(struct engine *e)
{
	double own;

	watch_stop(e->w);
	own = send_cpu_secs() - e->own0;
	engine_sum(e, e->r);
	e->r->own = cpu_us_per_kb(own, e->r->bytes);	/* -c or not */
	e->mrc = send_meter_read(e->sd, e->r, own, e->merr, sizeof(e->merr));
}

/*
 * The kernel refused the method on e's connections before a byte went:
 * when on every one (sd->refusal says why), 1; on some but not all, that
 * is a failure of the first refused one's (e->failed); else 0.
 */
static int engine_refused(struct engine *e)
{
	unsigned refused = 0, first = 0;

	for (unsigned i = 0; i < e->n; i++)
		if (e->c[i].refused && !refused++)
			first = i + 1;
	if (!refused)
		return 0;
	if (refused == e->n) {
		snprintf(e->sd->refusal, sizeof(e->sd->refusal), "%s", e->c[first - 1].err);
		return 1;
	}
	if (!e->failed)
		e->failed = first;
	return 0;
}

/* The connections, their span, the verdicts on them; the result into r. */
static void engine_run(struct engine *e)
{
	unsigned started;
	int err;

	if (!e->span_each)
		engine_span_begin(e, -1);
	err = engine_threads(e, &started);
	if (!e->span_each)
		engine_span_end(e);
	if (err == EAGAIN)
		error(1, err, "a thread for stream %u (RLIMIT_NPROC: ulimit -u)", started + 1);
	if (err)
		error(1, err, "a thread for stream %u", started + 1);
}

/* --call-times: the connections' times merged, as one line. */
static void engine_call_times(const struct engine *e)
{
	struct hist *all = malloc(sizeof(*all));

	if (!all) {
		error(1, errno, "memory");
		return;
	}
	hist_init(all, e->sd->cfg->budget_ns);
	for (unsigned i = 0; i < e->n; i++)
		hist_merge(all, e->c[i].t.call_hist);
	report_call_times(e->sd, all);
	free(all);
}

/* --stamps: the connections' stamped sends merged, as one stages: line. */
static void engine_stamps(const struct engine *e)
{
	struct tstamp_every *all = tstamp_every_new(TSTAMP_EVERY, UINT64_MAX);
	struct stages_of of = { .every = TSTAMP_EVERY };

	if (!all)
		error(1, errno, "memory");
	for (unsigned i = 0; i < e->n; i++) {
		tstamp_track_merge(&all->track, &e->c[i].t.stamps->track);
		of.errors += e->c[i].t.stamps->errors;
	}
	of.t = &all->track;
	stages_line(&of);
	free(all);
}

/* --mptcp: the run is MPTCP when any connection is; the first one's subflows. */
static void engine_mptcp(const struct engine *e)
{
	e->sd->mptcp = 0;
	for (unsigned i = 0; i < e->n; i++)
		e->sd->mptcp |= e->c[i].mptcp;
	e->sd->subflows = e->c[0].subflows;
}

struct send_result engine_send(struct sender *sd, const struct conn_ops *ops, uint32_t loops)
{
	struct engine e;
	struct send_result r = { 0 };
	struct watcher w = { 0 };
	uint64_t stopped0;

	suspended_start();
	stopped0 = suspended_ns();
	engine_init(&e, sd, ops, loops, now_ns());
	e.w = &w;
	e.r = &r;
	engine_run(&e);
	if (engine_refused(&e)) {	/* sd->refusal_ok: the caller says so */
		r.refused = 1;
		engine_free(&e);
		return r;
	}
	if (e.failed)
		engine_failed(&e);
	engine_sum(&e, &r);
	engine_mptcp(&e);
	r.interrupted |= stop_signal != 0;
	r.stopped_ns = suspended_ns() - stopped0;
	if (e.span_each && sd->cfg->debug && e.c[0].done)
		ops->debug(&e.c[0], "");
	if (ops->report)	/* a work with lines of its own */
		ops->report(&e, &r);
	else
		report_result(sd, &r);
	if (sd->cfg->call_times)
		engine_call_times(&e);
	if (sd->cfg->stamps)
		engine_stamps(&e);
	if (e.mrc < 0)
		error(1, 0, "%s", e.merr);
	if (e.named)
		report_conns(&e);
	if (!r.interrupted && r.bytes != planned_bytes(&e))
		error(1, 0, "internal error: sent %" PRIu64 " bytes, the protocol says %"
		      PRIu64, r.bytes, planned_bytes(&e));
	engine_free(&e);
	return r;
}

struct send_result send_run(struct sender *sd, uint32_t loops)
{
	return engine_send(sd, &conn_files, loops);
}
