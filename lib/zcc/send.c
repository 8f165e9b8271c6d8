/*
 * One run of zcc on one connection, and the steps every run shares:
 * connecting as the options ask, seeing the stream closed by the server,
 * the meter's mark and reading around the run.
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "app/env_out.h"
#include "zcc/report.h"
#include "zcc/send_internal.h"
#include "app/stop.h"
#include "zcc/stopped.h"
#include "base/clock.h"
#include "base/err.h"
#include "base/rate.h"
#include "wire/proto.h"

void send_meter(struct sender *sd, struct meter *m, int where)
{
	sd->meter = m;
	if (!where)
		return;
	sd->where = wsession_open(m, sd->cfg->debug, 0);
	sd->run = wspan_new(sd->where);
	if (sd->cfg->interval > 0)
		sd->interval = wspan_new(sd->where);
}

void send_mark(struct sender *sd, int sock)
{
	char err[512];

	if (sd->meter && meter_mark(sd->meter, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	if (!sd->where)
		return;
	/* No socket yet (-P): every interface that moved. */
	wsession_socket(sd->where, sock);
	if (wspan_start(sd->run, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
}

double send_cpu_secs(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * The load since send_mark, into r; -1 with err when the meter has
 * no figure to give (a soaker died or was stopped).
 */
int send_meter_read(struct sender *sd, struct send_result *r, double own_secs,
		    char *err, size_t errlen)
{
	struct meter_reading mr;

	if (!sd->meter)
		return 0;
	if (meter_sample(sd->meter, &mr, err, errlen) != 0)
		return -1;	/* 1: a CPU came or went, no figure either */
	r->measured = 1;
	r->ncpus = mr.ncpus;
	r->load = meter_cpus_load(&mr);	/* under a quota, still of ncpus */
	r->meter = meter_method_name(meter_method(sd->meter));
	r->demand = service_demand_us_per_kb(r->load, mr.ncpus, mr.secs, r->bytes);
	r->own = cpu_us_per_kb(own_secs, r->bytes);
	if (sd->where && !wspan_read(sd->run, r->load, r->bytes, r->calls, err, errlen))
		error(1, 0, "%s", err);
	return 0;
}

/* ---- one run ---------------------------------------------------------------- */

int send_connect(const struct sender *sd, volatile sig_atomic_t *cancel, char *peer,
		 size_t peerlen, char *err, size_t errlen)
{
	const struct send_cfg *cfg = sd->cfg;
	struct net_opts o = cfg->sockopts;
	int sock;

	o.cancel = cancel;
	sock = net_connect(cfg->host, cfg->port, &o, err, errlen);
	if (sock < 0)
		return -1;
	if (cfg->cork && net_set_cork(sock, err, errlen) < 0) {
		close(sock);
		return -1;
	}
	snprintf(peer, peerlen, "%s port %u", cfg->host, cfg->port);
	if (cfg->debug) {
		int sndbuf = 0;
		socklen_t len = sizeof(sndbuf);
		char name[160];

		net_peer_name(sock, name, sizeof(name));
		getsockopt(sock, SOL_SOCKET, SO_SNDBUF, &sndbuf, &len);
		fprintf(stderr, "%s: connected to %s, SO_SNDBUF %d\n",
			program_invocation_short_name, name, sndbuf);
	}
	return sock;
}

/* The connected socket, or -1 when a stop signal cut the connect short:
 * the caller still owes its lines (the -R summary of the runs before). */
static int connect_server(const struct sender *sd, char *peer, size_t peerlen)
{
	char err[256];
	int sock = send_connect(sd, &stop_signal, peer, peerlen, err, sizeof(err));

	if (sock < 0 && !stop_signal)
		error(1, 0, "%s", err);
	return sock;
}

/*
 * Everything is in the kernel's hands; see it delivered. A zcs closes once
 * it has read our end of stream; a reset here means it died holding data.
 * -T bounds the wait, less any time zcc itself was stopped meanwhile (a
 * SIGSTOP is not the server's fault; stopped_start() ran before the
 * send). Returns 0, -1 when *t->stop cut it short, -2 with err when the
 * server failed.
 */
int send_await_close(const struct sender *sd, struct tx *t, char *err, size_t errlen)
{
	const struct send_cfg *cfg = sd->cfg;
	const char *peer = t->peer;
	int sock = t->sock;
	struct pollfd p = { .fd = sock, .events = POLLIN };
	uint64_t deadline = now_ns() + (uint64_t)(cfg->stall * 1e9);
	uint64_t stopped0 = stopped_ns();
	int64_t left;
	int timeout;
	char buf[512];
	ssize_t n;

	if (shutdown(sock, SHUT_WR) < 0) {
		if (*t->stop)
			return -1;
		err_fill(err, errlen, errno, "%s: shutdown", peer);
		return -2;
	}
	for (;;) {
		left = (int64_t)(deadline + (stopped_ns() - stopped0) - now_ns()) / 1000000;
		/* The socket is looked at before the deadline is: when zcc was
		 * stopped here, the server may have closed long ago, and the
		 * stop's own count may not be in yet. */
		timeout = cfg->stall <= 0 ? -1 : left <= 0 ? 0 : (int)(left < 1000 ? left + 1 : 1000);
		if (poll(&p, 1, timeout) < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR)))
			n = 1;
		else
			n = read(sock, buf, sizeof(buf));
		if (*t->stop)
			return -1;
		if (n == 0)
			return 0;
		if (n < 0 && errno != EINTR) {
			err_fill(err, errlen, errno, "waiting for %s to close", peer);
			return -2;
		}
		if (cfg->stall > 0 && left <= 0) {
			snprintf(err, errlen, "%s: has not closed the connection %g s after "
				 "the last byte (-T)", peer, cfg->stall);
			return -2;
		}
	}
}

static void setup_method(const struct sender *sd, struct tx *t,
			 const struct file_set *set)
{
	const struct send_cfg *cfg = sd->cfg;
	char err[256];

	if (tx_open(cfg->method, t, set->f, set->n, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
}

/* -t -d: how the stream's loops were spent. */
void debug_deadline(const char *what, const struct deadline *dl, uint32_t ceiling)
{
	fprintf(stderr, "%s: %s-t: %" PRIu64 " files in %" PRIu32 " loops, then %" PRIu32
		" loops of 0 files\n", program_invocation_short_name, what, dl->files,
		dl->loops, ceiling - dl->loops);
}

/* Send the whole stream of loops of set once on a fresh connection. */
struct send_result send_once(struct sender *sd, const struct file_set *set,
			     uint32_t loops)
{
	const struct send_cfg *cfg = sd->cfg;
	struct tx t = { .chunk = cfg->chunk, .stop = &stop_signal };
	struct send_result r = { 0 };
	struct deadline dl = { 0 };
	struct watcher w;
	char err[256], peer[300], merr[512], why[128];
	uint64_t start = now_ns(), t0, planned, stopped0;
	double own0;
	int rc, mrc;

	stopped_start();
	stopped0 = stopped_ns();
	t.sock = connect_server(sd, peer, sizeof(peer));
	if (t.sock < 0) {	/* stopped while connecting: nothing sent */
		r.interrupted = 1;
		return r;
	}
	t.peer = peer;
	if (sd->env_due) {	/* the first connection: its interface is known */
		env_print(ENV_CONN, t.sock, cfg->debug);
		sd->env_due = 0;
	}
	setup_method(sd, &t, set);
	if (cfg->secs > 0)	/* the run, connecting included, lasts -t */
		loops = deadline_arm(&dl, &t, set, start + (uint64_t)(cfg->secs * 1e9));
	if (cfg->debug && cfg->secs > 0)
		fprintf(stderr, "%s: %s, %" PRIu32 " file%s of %" PRIu64 " bytes in all, "
			"for %g s: at most %" PRIu32 " loops\n", program_invocation_short_name,
			cfg->method->name, set->n, set->n == 1 ? "" : "s", set->bytes,
			cfg->secs, loops);
	else if (cfg->debug)
		fprintf(stderr, "%s: %s, %" PRIu32 " file%s of %" PRIu64 " bytes in all, %"
			PRIu32 " loop%s, %" PRIu64 " bytes on the connection\n",
			program_invocation_short_name, cfg->method->name, set->n,
			set->n == 1 ? "" : "s", set->bytes, loops,
			loops == 1 ? "" : "s", proto_stream_bytes(loops, set->n, set->bytes));
	send_mark(sd, t.sock);
	own0 = send_cpu_secs();
	watch_start(&w, sd, &t, NULL);
	t0 = now_ns();
	rc = tx_send_stream(cfg->method, &t, set->f, set->n, loops, err, sizeof(err));
	r.ns = now_ns() - t0;
	watch_stop(&w);
	r.bytes = t.bytes;
	r.calls = t.calls;
	r.rate = kbytes_per_sec(r.bytes, r.ns);
	r.zc_sends = t.zc_sends;
	r.zc_copied = t.zc_copied;
	r.own = cpu_us_per_kb(send_cpu_secs() - own0, r.bytes);
	mrc = send_meter_read(sd, &r, send_cpu_secs() - own0, merr, sizeof(merr));
	tx_close(cfg->method, &t, set->f, set->n);
	if (rc < 0 && w.stalled)
		error(1, 0, "%s: stalled: %s", peer,
		      watch_stall_text(why, sizeof(why), w.moved, cfg->stall));
	if (rc < 0 && !stop_signal)
		error(1, 0, "%s", err);
	if (rc == 0) {
		rc = send_await_close(sd, &t, err, sizeof(err));
		if (rc == -2)
			error(1, 0, "%s", err);
	}
	r.interrupted = rc < 0;
	r.ns_closed = now_ns() - t0;
	r.stopped_ns = stopped_ns() - stopped0;
	tcpinfo_read(t.sock, &r.tcp);
	close(t.sock);
	if (mrc < 0) {		/* no cpu figure from this run */
		report_result(sd, &r);
		error(1, 0, "%s", merr);
	}
	planned = cfg->secs > 0 ? dl.bytes : proto_stream_bytes(loops, set->n, set->bytes);
	if (!r.interrupted && r.bytes != planned)
		error(1, 0, "internal error: sent %" PRIu64 " bytes, the protocol says %"
		      PRIu64, r.bytes, planned);
	if (cfg->debug && cfg->secs > 0)
		debug_deadline("", &dl, loops);
	return r;
}
