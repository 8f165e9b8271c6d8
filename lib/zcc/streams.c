/*
 * zcc -P: the streams of one run at once, each its own connection and
 * thread sending the whole stream of the file set; the result is their
 * sum.
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
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
#include "app/stop.h"
#include "zcc/stopped.h"
#include "zcc/streams.h"
#include "base/clock.h"
#include "base/cpu.h"
#include "base/err.h"
#include "base/rate.h"
#include "wire/proto.h"

/*
 * Stream s failed with err: the first failure ends the run, and stops the
 * others (the main thread shuts their sockets). A failure after the stop
 * is only the stop seen from inside.
 */
static void stream_fail(struct stream *s, const char *err)
{
	struct group *g = s->g;

	pthread_mutex_lock(&g->lock);
	if (!g->stop) {
		g->stop = 1;
		g->failed = s->idx;
		snprintf(s->err, sizeof(s->err), "%s", err);
		pthread_cond_signal(&g->wake);
	} else {
		s->interrupted = 1;
	}
	pthread_mutex_unlock(&g->lock);
}

/* The run is being stopped: what failed now only felt the stop. */
static int stream_stopped(struct group *g)
{
	int stop;

	pthread_mutex_lock(&g->lock);
	stop = g->stop;
	pthread_mutex_unlock(&g->lock);
	return stop;
}

/* Bind the calling thread to cpu; -1 with err. */
static int bind_thread(int cpu, char *err, size_t errlen)
{
	cpu_set_t set;
	int e;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (e)
		return err_fill(err, errlen, e, "bind to CPU %d", cpu);
	return 0;
}

/* One stream's thread: connect, send the whole stream, see it closed. */
static void *stream_run(void *arg)
{
	struct stream *s = arg;
	struct group *g = s->g;
	char err[512];
	int sock, rc;

	if (s->cpu >= 0 && bind_thread(s->cpu, err, sizeof(err)) < 0) {
		stream_fail(s, err);
		goto done;
	}
	sock = send_connect(g->sd, &g->cancel, s->peer, sizeof(s->peer), err, sizeof(err));
	if (sock < 0) {
		stream_fail(s, err);
		goto done;
	}
	pthread_mutex_lock(&g->lock);
	s->t.sock = sock;
	s->t.peer = s->peer;
	s->connected = 1;
	if (g->stop)		/* stopped while connecting: no send to wake */
		shutdown(sock, SHUT_RDWR);
	pthread_mutex_unlock(&g->lock);
	rc = tx_open(g->sd->cfg->method, &s->t, s->set.f, s->set.n, err, sizeof(err));
	if (g->sd->cfg->secs > 0)
		s->loops = deadline_arm(&s->dl, &s->t, &s->set, g->end);
	s->t0 = now_ns();
	if (rc < 0 && stream_stopped(g))
		s->interrupted = 1;
	if (rc == 0) {
		__atomic_store_n(&s->sending, 1, __ATOMIC_RELEASE);
		rc = tx_send_stream(g->sd->cfg->method, &s->t, s->set.f, s->set.n, s->loops,
				    err, sizeof(err));
		__atomic_store_n(&s->sending, 0, __ATOMIC_RELEASE);
	}
	if (rc == 0)
		rc = send_await_close(g->sd, &s->t, err, sizeof(err));
	if (rc < 0 && stream_stopped(g))
		s->interrupted = 1;
	if (rc < 0 && !s->interrupted)
		stream_fail(s, err);
	tcpinfo_read(sock, &s->tcp);
	s->t_end = now_ns();
	tx_close(g->sd->cfg->method, &s->t, s->set.f, s->set.n);
	pthread_mutex_lock(&g->lock);
	s->t.sock = -1;
	pthread_mutex_unlock(&g->lock);
	close(sock);
done:
	pthread_mutex_lock(&g->lock);
	g->running--;
	pthread_cond_signal(&g->wake);
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

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

/* The stream that failed, said in one line; exits 1. */
static void __attribute__((noreturn)) group_failed(const struct group *g,
						   const struct watcher *w)
{
	const struct stream *s = &g->s[g->failed - 1];
	char why[128];

	if (w->stalled && w->stalled_idx == s->idx)
		error(1, 0, "stream %u: %s: stalled: %s", s->idx, s->peer,
		      watch_stall_text(why, sizeof(why), w->moved, g->sd->cfg->stall));
	error(1, 0, "stream %u: %s", s->idx, s->err);
	exit(1);
}

/* Make g's streams: each its own copy of the file entries (a method maps
 * into them), its CPU of the -B list. */
static void group_init(struct group *g, struct sender *sd, uint32_t loops)
{
	const struct send_cfg *cfg = sd->cfg;
	const struct file_set *files = &sd->files;
	pthread_condattr_t ca;

	*g = (struct group){ .sd = sd, .n = cfg->streams };
	g->s = calloc(g->n, sizeof(*g->s));
	if (!g->s)
		error(1, errno, "memory");
	pthread_mutex_init(&g->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g->wake, &ca);
	pthread_condattr_destroy(&ca);
	for (unsigned i = 0; i < g->n; i++) {
		struct stream *s = &g->s[i];

		s->idx = i + 1;
		s->g = g;
		s->loops = loops;
		s->cpu = cfg->n_cpus > 1 ? cfg->cpus[i % (unsigned)cfg->n_cpus] : -1;
		s->t = (struct tx){ .sock = -1, .chunk = cfg->chunk, .stop = &g->never };
		s->set = *files;
		s->set.f = calloc(files->n, sizeof(*files->f));
		if (!s->set.f)
			error(1, errno, "memory");
		memcpy(s->set.f, files->f, files->n * sizeof(*files->f));
	}
	if (cfg->debug && cfg->secs > 0)
		fprintf(stderr, "%s: %u streams, %s, %" PRIu32 " file%s of %" PRIu64
			" bytes in all, for %g s\n", program_invocation_short_name, g->n,
			cfg->method->name, files->n, files->n == 1 ? "" : "s", files->bytes,
			cfg->secs);
	else if (cfg->debug)
		fprintf(stderr, "%s: %u streams, %s, %" PRIu32 " file%s of %" PRIu64
			" bytes in all, %" PRIu32 " loop%s, %" PRIu64 " bytes on each\n",
			program_invocation_short_name, g->n, cfg->method->name, files->n,
			files->n == 1 ? "" : "s", files->bytes, loops, loops == 1 ? "" : "s",
			proto_stream_bytes(loops, files->n, files->bytes));
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
		e = pthread_create(&g->s[*started].thread, &ta, stream_run, &g->s[*started]);
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
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 50000000;		/* a signal is seen within 50 ms */
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&g->wake, &g->lock, &ts);
	}
	pthread_mutex_unlock(&g->lock);
	for (unsigned i = 0; i < *started; i++)
		pthread_join(g->s[i].thread, NULL);
	return e;
}

/* The sum of g's streams into r: every connected stream's bytes, from the
 * first connect to the last close; TCP_INFO summed, rtt the mean. */
static void group_sum(const struct group *g, struct send_result *r)
{
	uint64_t first = UINT64_MAX, last = 0;
	unsigned n_tcp = 0;

	for (unsigned i = 0; i < g->n; i++) {
		const struct stream *s = &g->s[i];

		if (!s->connected)
			continue;
		r->bytes += s->t.bytes;
		r->calls += s->t.calls;
		r->zc_sends += s->t.zc_sends;
		r->zc_copied += s->t.zc_copied;
		first = s->t0 < first ? s->t0 : first;
		last = s->t_end > last ? s->t_end : last;
		if (s->tcp.cwnd_bytes || s->tcp.rtt_us) {
			tcpinfo_add(&r->tcp, &s->tcp);
			n_tcp++;
		}
	}
	tcpinfo_mean(&r->tcp, n_tcp);
	r->ns = last > first ? last - first : 0;
	r->ns_closed = r->ns;
	r->rate = kbytes_per_sec(r->bytes, r->ns);
}

/* What g's streams should have sent: each of -n, or as -t planned. */
static uint64_t planned_bytes(const struct group *g, uint64_t each)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < g->n; i++)
		sum += g->sd->cfg->secs > 0 ? g->s[i].dl.bytes : each;
	return sum;
}

struct send_result send_streams(struct sender *sd, uint32_t loops)
{
	const struct file_set *files = &sd->files;
	const uint64_t each = proto_stream_bytes(loops, files->n, files->bytes);
	struct group g;
	struct send_result r = { 0 };
	struct watcher w;
	char merr[512];
	unsigned started;
	double own0;
	uint64_t stopped0;
	int mrc, e;

	stopped_start();
	stopped0 = stopped_ns();
	group_init(&g, sd, loops);
	if (sd->env_due) {	/* before any stream connects: no interface yet */
		env_print(ENV_CONN, -1, sd->cfg->debug);
		sd->env_due = 0;
	}
	send_mark(sd, -1);
	own0 = send_cpu_secs();
	g.end = now_ns() + (uint64_t)(sd->cfg->secs * 1e9);	/* -t: one deadline */
	watch_start(&w, sd, NULL, &g);
	e = group_run(&g, &started);
	watch_stop(&w);
	if (e == EAGAIN)
		error(1, e, "a thread for stream %u (RLIMIT_NPROC: ulimit -u)", started + 1);
	if (e)
		error(1, e, "a thread for stream %u", started + 1);
	group_sum(&g, &r);
	if (g.failed)
		group_failed(&g, &w);
	r.interrupted = stop_signal != 0;
	r.stopped_ns = stopped_ns() - stopped0;
	r.own = cpu_us_per_kb(send_cpu_secs() - own0, r.bytes);	/* -c or not */
	mrc = send_meter_read(sd, &r, send_cpu_secs() - own0, merr, sizeof(merr));
	report_result(sd, &r);
	if (mrc < 0)
		error(1, 0, "%s", merr);
	print_streams(&g);
	if (sd->cfg->debug)
		debug_streams(&g);
	if (!r.interrupted && r.bytes != planned_bytes(&g, each))
		error(1, 0, "internal error: sent %" PRIu64 " bytes, the protocol says %"
		      PRIu64, r.bytes, planned_bytes(&g, each));
	group_free(&g);
	return r;
}
