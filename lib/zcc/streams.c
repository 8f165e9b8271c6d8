/*
 * A run of zcc (send.h): its N >= 1 streams (lib/zcc/stream.c), each the
 * whole stream of the file set on a connection of its own, and the result
 * their sum. One stream runs in the calling thread; the N of -P each in a
 * thread, while the calling thread waits for them and takes the signals.
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
#include "app/out.h"
#include "zcc/report.h"
#include "zcc/send_internal.h"
#include "app/stop_exit.h"
#include "zcc/suspended.h"
#include "base/clock.h"
#include "base/err.h"
#include "base/rate.h"
#include "wire/addr.h"
#include "wire/proto.h"

/* One stream's rate, kbytes/sec, over its own time. */
static double stream_rate(const struct stream *s)
{
	return kbytes_per_sec(s->t.bytes, s->t_end - s->t0);
}

/* -d: a line per stream, and how far apart the slowest and fastest are. */
static void debug_streams(const struct group *g)
{
	const struct stream *s, *slow = &g->s[0], *fast = &g->s[0];
	char what[32];

	for (unsigned i = 0; i < g->n; i++) {
		s = &g->s[i];
		fprintf(stderr, "%s: stream %u: %" PRIu64 " bytes in %.3f s, %.0f kbytes/sec%s\n",
			program_invocation_short_name, s->idx, s->t.bytes,
			(double)(s->t_end - s->t0) / 1e9, stream_rate(s),
			s->interrupted ? " (interrupted)" : "");
		if (stream_rate(s) < stream_rate(slow))
			slow = s;
		if (stream_rate(s) > stream_rate(fast))
			fast = s;
		if (g->sd->cfg->debug > 1) {
			snprintf(what, sizeof(what), "stream %u: ", s->idx);
			report_tcp(what, &s->tcp);
		}
		if (g->sd->cfg->debug > 1 && g->sd->cfg->secs > 0)
			debug_deadline(what, &s->dl, s->loops);
		if (s->mptcp) {
			snprintf(what, sizeof(what), "stream %u: ", s->idx);
			mptcp_debug(what, &s->subflows);
		}
	}
	fprintf(stderr, "%s: streams: slowest/fastest %.3f (stream %u, stream %u)\n",
		program_invocation_short_name,
		stream_rate(fast) > 0 ? stream_rate(slow) / stream_rate(fast) : 0,
		slow->idx, fast->idx);
}

/* -J: one stream event per stream (no text line). */
static void print_streams(const struct group *g)
{
	const struct stream *s;

	for (unsigned i = 0; i < g->n; i++) {
		s = &g->s[i];
		line_begin("stream");
		line_int("stream", s->idx, NULL);
		line_u64("bytes", s->t.bytes, NULL);
		line_num("seconds", (double)(s->t_end - s->t0) / 1e9, 3, NULL);
		line_num("kbytes_per_sec", stream_rate(s), 0, NULL);
		line_bool("interrupted", s->interrupted, NULL);
		report_tcp_keys(&s->tcp);
		if (g->sd->cfg->sockopts.mptcp)	/* the kernel's word on its connection */
			line_bool("mptcp", s->mptcp, NULL);
		if (s->mptcp)
			line_nested(mptcp_json, NULL, &s->subflows);
		line_end();
	}
}

/*
 * Shut every open connection of g: a send blocked in a stream returns;
 * and a stream still connecting gives up.
 */
static void shut_streams(struct group *g)
{
	__atomic_store_n(&g->cancel, 1, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < g->n; i++)
		if (g->s[i].t.sock >= 0)
			shutdown(g->s[i].t.sock, SHUT_RDWR);
}

/* Free what group_init made for g. */
static void group_free(struct group *g)
{
	for (unsigned i = 0; i < g->n; i++)
		free(g->s[i].set.f);
	free(g->s);
	pthread_cond_destroy(&g->wake);
	pthread_mutex_destroy(&g->lock);
}

static void group_sum(const struct group *g, struct send_result *r);

/* The stream that failed, said in one line (-P: "stream N: ..."), after
 * the sent: line of what went, marked with why, when data went (the two
 * ends' bytes then compare); exits 1. */
static void __attribute__((noreturn)) group_failed(const struct group *g,
						   const struct watcher *w,
						   struct send_result *r)
{
	const struct stream *s = &g->s[g->failed - 1];
	int stalled = w->stalled && w->stalled_idx == s->idx;
	char which[32] = "", why[128];

	group_sum(g, r);
	r->interrupted = stop_signal != 0;
	if (r->bytes > 0)
		report_ended(g->sd, r, s->errnum, stalled);
	if (g->n > 1)
		snprintf(which, sizeof(which), "stream %u: ", s->idx);
	if (stalled)
		error(1, 0, "%s%s: stalled: %s", which, s->peer,
		      watch_stall_text(why, sizeof(why), w->moved, g->sd->cfg->stall));
	error(1, 0, "%s%s", which, s->err);
	exit(1);
}

/*
 * Make g's streams: each its own copy of the file entries (a method maps
 * into them), its CPU of the -B list; -t: their one deadline, secs after
 * start (connecting included).
 */
static void group_init(struct group *g, struct sender *sd, uint32_t loops, uint64_t start)
{
	const struct send_cfg *cfg = sd->cfg;
	const struct file_set *files = &sd->files;

	*g = (struct group){ .sd = sd, .n = cfg->streams };
	g->end = start + (uint64_t)(cfg->secs * 1e9);
	g->s = calloc(g->n, sizeof(*g->s));
	if (!g->s)
		error(1, errno, "memory");
	pthread_mutex_init(&g->lock, NULL);
	clock_cond_init(&g->wake);
	for (unsigned i = 0; i < g->n; i++) {
		struct stream *s = &g->s[i];

		s->idx = i + 1;
		s->g = g;
		s->loops = loops;
		s->cpu = cfg->n_cpus > 1 ? cfg->cpus[i % (unsigned)cfg->n_cpus] : -1;
		s->t = (struct tx){ .sock = -1, .chunk = cfg->chunk,
				    .stop = g->n > 1 ? &g->never : &stop_signal };
		s->cancel = g->n > 1 ? &g->cancel : &stop_signal;
		s->set = *files;
		s->set.f = calloc(files->n, sizeof(*files->f));
		if (!s->set.f)
			error(1, errno, "memory");
		memcpy(s->set.f, files->f, files->n * sizeof(*files->f));
	}
}

/* -d: the plan of the run (one stream: once connected, its loops known). */
static void debug_plan(const struct group *g)
{
	const struct send_cfg *cfg = g->sd->cfg;
	const struct file_set *f = &g->sd->files;
	const char *files = f->n == 1 ? "" : "s";
	uint32_t loops = g->s[0].loops;
	char streams[32] = "";

	if (g->n > 1)
		snprintf(streams, sizeof(streams), "%u streams, ", g->n);
	if (cfg->secs > 0 && g->n > 1)
		fprintf(stderr, "%s: %s%s, %" PRIu32 " file%s of %" PRIu64 " bytes in all, "
			"for %g s\n", program_invocation_short_name, streams,
			cfg->method->name, f->n, files, f->bytes, cfg->secs);
	else if (cfg->secs > 0)
		fprintf(stderr, "%s: %s, %" PRIu32 " file%s of %" PRIu64 " bytes in all, "
			"for %g s: at most %" PRIu32 " loops\n", program_invocation_short_name,
			cfg->method->name, f->n, files, f->bytes, cfg->secs, loops);
	else
		fprintf(stderr, "%s: %s%s, %" PRIu32 " file%s of %" PRIu64 " bytes in all, %"
			PRIu32 " loop%s, %" PRIu64 " bytes %s\n", program_invocation_short_name,
			streams, cfg->method->name, f->n, files, f->bytes, loops,
			loops == 1 ? "" : "s", proto_stream_bytes(loops, f->n, f->bytes),
			g->n > 1 ? "on each" : "on the connection");
}

/*
 * Run g's streams, each in a thread of its own with every signal blocked;
 * this thread waits for them, and on a signal or a failure sets the stop
 * flag their loops read and shuts their sockets. Returns 0 when every
 * thread started, else pthread_create's error (the started ones stopped,
 * *started says how many).
 */
static int group_run(struct group *g, unsigned *started)
{
	pthread_attr_t ta;
	sigset_t all, old;
	struct timespec ts;
	unsigned shut = 0;
	int e = 0;

	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, 1 << 20);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_mutex_lock(&g->lock);
	for (*started = 0; *started < g->n; ++*started) {
		e = pthread_create(&g->s[*started].thread, &ta, stream_thread, &g->s[*started]);
		if (e)
			break;
		g->running++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&ta);
	if (e)
		g->stop = 1;
	while (g->running > 0) {
		if (stop_signal)
			g->stop = 1;
		if (g->stop && !shut) {
			shut_streams(g);
			shut = 1;
		}
		ts = ns_timespec(now_ns() + 50000000u);	/* a signal is seen within 50 ms */
		pthread_cond_timedwait(&g->wake, &g->lock, &ts);
	}
	pthread_mutex_unlock(&g->lock);
	for (unsigned i = 0; i < *started; i++)
		pthread_join(g->s[i].thread, NULL);
	return e;
}

/*
 * The sum of g's streams into r (again when called again): every connected
 * stream's bytes; TCP_INFO summed, rtt the mean. The seconds of one stream
 * are its sending (ns; ns_closed to the server's close), of -P from the
 * first stream's start to the last close.
 */
static void group_sum(const struct group *g, struct send_result *r)
{
	struct send_result sum = { 0 };
	uint64_t first = UINT64_MAX, last = 0;
	unsigned n_tcp = 0, n_rx = 0, n_conn = 0;

	for (unsigned i = 0; i < g->n; i++) {
		const struct stream *s = &g->s[i];

		if (!s->connected)
			continue;
		n_conn++;
		if (s->rx_ok)	/* --receiver-report */
			rx_report_add(&sum.rx, &s->rx, n_rx++);
		sum.bytes += s->t.bytes;
		sum.calls += s->t.calls;
		sum.zc_sends += s->t.zc_sends;
		sum.zc_copied += s->t.zc_copied;
		sum.interrupted |= s->interrupted;
		first = s->t0 && s->t0 < first ? s->t0 : first;
		last = s->t_end > last ? s->t_end : last;
		if (s->tcp.cwnd_bytes || s->tcp.rtt_us) {
			tcpinfo_add(&sum.tcp, &s->tcp);
			n_tcp++;
		}
	}
	tcpinfo_mean(&sum.tcp, n_tcp);
	sum.ns = last > first ? last - first : 0;
	sum.ns_closed = sum.ns;
	if (g->n == 1 && g->s[0].sent) {
		sum.ns = g->s[0].t_sent - g->s[0].t0;
		sum.ns_closed = g->s[0].t_end - g->s[0].t0;
	}
	r->bytes = sum.bytes;
	r->calls = sum.calls;
	r->zc_sends = sum.zc_sends;
	r->zc_copied = sum.zc_copied;
	r->interrupted = sum.interrupted;
	r->tcp = sum.tcp;
	r->ns = sum.ns;
	r->ns_closed = sum.ns_closed;
	r->rate = kbytes_per_sec(sum.bytes, sum.ns);
	r->rx_ok = n_rx > 0 && n_rx == n_conn;
	r->rx = sum.rx;
}

/* What g's streams should have sent: each of -n, or as -t planned. */
static uint64_t planned_bytes(const struct group *g)
{
	const struct file_set *f = &g->sd->files;
	uint64_t sum = 0;

	for (unsigned i = 0; i < g->n; i++)
		sum += g->sd->cfg->secs > 0 ? g->s[i].dl.bytes :
		       proto_stream_bytes(g->s[i].loops, f->n, f->bytes);
	return sum;
}

/* The first connection's env record (-P: before any connects), once. */
static void env_once(struct sender *sd, int sock)
{
	int route = -1;

	if (!sd->env_due)
		return;
	/* -P: before any stream connects, the route's interface (every
	 * stream takes it) from a socket that sends nothing */
	if (sock < 0)
		sock = route = addr_route_socket(sd->cfg->host, sd->cfg->port);
	env_print(ENV_CONN, sock, sd->cfg->debug);
	if (route >= 0)
		close(route);
	sd->env_due = 0;
}

/* The meter's reading since own0 (this process's CPU time) into r; -1
 * with merr when it had none. */
static int read_meter(struct group *g, struct send_result *r, double own0,
		      char *merr, size_t merrlen)
{
	double own = send_cpu_secs() - own0;

	group_sum(g, r);
	r->own = cpu_us_per_kb(own, r->bytes);	/* -c or not */
	return send_meter_read(g->sd, r, own, merr, merrlen);
}

/*
 * One stream, in this thread: the meter and -I/-T watch only its sending
 * (its connection's interface is known by then); with -P, the meter and
 * the watch span every stream from before the first connect to the last
 * close. The meter's reading into r; -1 with merr when it had none.
 */
static int run_streams(struct group *g, struct watcher *w, struct send_result *r,
		       char *merr, size_t merrlen)
{
	struct sender *sd = g->sd;
	unsigned started;
	double own0;
	int e, mrc = 0;

	if (g->n == 1) {
		if (stream_start(&g->s[0]) == 0) {
			env_once(sd, g->s[0].t.sock);
			if (sd->cfg->debug)
				debug_plan(g);
			send_mark(sd, g->s[0].t.sock);
			own0 = send_cpu_secs();
			watch_start(w, sd, g);
			stream_send(&g->s[0]);
			watch_stop(w);
			mrc = read_meter(g, r, own0, merr, merrlen);
		}
		stream_finish(&g->s[0]);
		return mrc;
	}
	if (sd->cfg->debug)
		debug_plan(g);
	env_once(sd, -1);
	send_mark(sd, -1);
	own0 = send_cpu_secs();
	watch_start(w, sd, g);
	e = group_run(g, &started);
	watch_stop(w);
	if (e == EAGAIN)
		error(1, e, "a thread for stream %u (RLIMIT_NPROC: ulimit -u)", started + 1);
	if (e)
		error(1, e, "a thread for stream %u", started + 1);
	return read_meter(g, r, own0, merr, merrlen);
}

/*
 * The kernel refused the method on g's connections before a byte went:
 * when on every one (sd->refusal says why), 1; on some but not all, that
 * is a failure of the first refused stream's (g->failed); else 0.
 */
static int group_refused(struct group *g)
{
	unsigned refused = 0, first = 0;

	for (unsigned i = 0; i < g->n; i++)
		if (g->s[i].refused && !refused++)
			first = i + 1;
	if (!refused)
		return 0;
	if (refused == g->n) {
		snprintf(g->sd->refusal, sizeof(g->sd->refusal), "%s", g->s[first - 1].err);
		return 1;
	}
	if (!g->failed)
		g->failed = first;
	return 0;
}

struct send_result send_run(struct sender *sd, uint32_t loops)
{
	struct group g;
	struct send_result r = { 0 };
	struct watcher w = { 0 };
	char merr[512];
	uint64_t stopped0;
	int mrc;

	suspended_start();
	stopped0 = suspended_ns();
	group_init(&g, sd, loops, now_ns());
	mrc = run_streams(&g, &w, &r, merr, sizeof(merr));
	if (group_refused(&g)) {	/* sd->refusal_ok: the caller says so */
		r.refused = 1;
		group_free(&g);
		return r;
	}
	if (g.failed)
		group_failed(&g, &w, &r);
	group_sum(&g, &r);
	if (g.n > 1)		/* -P: is any stream MPTCP */
		sd->mptcp = 0;
	for (unsigned i = 0; g.n > 1 && i < g.n; i++)
		sd->mptcp |= g.s[i].mptcp;
	r.interrupted |= stop_signal != 0;
	r.stopped_ns = suspended_ns() - stopped0;
	if (g.n == 1 && sd->cfg->debug && sd->cfg->secs > 0 && g.s[0].sent)
		debug_deadline("", &g.s[0].dl, g.s[0].loops);
	report_result(sd, &r);
	if (mrc < 0)
		error(1, 0, "%s", merr);
	if (g.n > 1)
		print_streams(&g);
	if (g.n > 1 && sd->cfg->debug)
		debug_streams(&g);
	if (!r.interrupted && r.bytes != planned_bytes(&g))
		error(1, 0, "internal error: sent %" PRIu64 " bytes, the protocol says %"
		      PRIu64, r.bytes, planned_bytes(&g));
	group_free(&g);
	return r;
}
