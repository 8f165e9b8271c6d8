/*
 * A request/response connection in zcs (lib/zcs/serve_rr.h): the hello
 * read and acknowledged (or refused by an ack that says why), then each
 * request of the announced size read whole and answered, stamped when
 * the messages carry the header. -T bounds every wait for a request: a
 * client silent that long is closed, as a stalled stream is. --stamps:
 * the kernel's stamps of the answers and the requests (lib/wire/rr_probe.h),
 * a stages: line after the answered: line; --call-times: each receive
 * call of a request and each send of an answer timed, a call-times: line
 * of each after it.
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "app/hist_out.h"
#include "app/meter_session.h"
#include "app/out.h"
#include "app/stages_out.h"
#include "base/clock.h"
#include "base/stop.h"
#include "base/textfile.h"
#include "meter/meter.h"
#include "wire/proto.h"
#include "wire/rr_io.h"
#include "wire/rr_probe.h"
#include "wire/rxreport.h"
#include "zcs/serve_rr.h"
#include "zcs/serve_sampler.h"
#include "zcs/serve_total.h"
#include "zcs/serve_load.h"

/* One RR connection being served. */
struct rr_conn {
	const struct serve_cfg *cfg;
	int fd;
	const char *peer;
	struct rr_hello h;
	int timed;			/* messages carry the header */
	unsigned char *req, *resp;	/* one message each */
	uint64_t n;			/* requests answered */
	uint64_t start, end;		/* now_ns at the ack and at the close */
	double cpu0;			/* this process's CPU time at the start */
	struct serve_sampler_mark first;	/* -c: the ledger at the start */
	int metered;
	struct rr_probe *probe;		/* --stamps, --call-times; NULL: none */
};

/* How answering ended. */
enum rr_end { RR_END_CLOSED, RR_END_BROKEN, RR_END_STOP };

int serve_rr_sniff(const struct serve_cfg *sc, int fd)
{
	return rr_sniff_fd(fd, (int)(sc->stall_secs * 1000), &stop_signal) == RR_SNIFF_RR;
}

/* A receive that failed or ran short: one line naming the peer. */
static void said_short(const struct rr_conn *r, const char *what, int rc, size_t got)
{
	if (rc < 0 && errno == EAGAIN)
		error(0, 0, "%s: stalled: no %s in the last %g s (-T), closed after %" PRIu64
		      " requests", r->peer, what, r->cfg->stall_secs, r->n);
	else if (rc < 0)
		error(0, errno, "%s: receive failed in the %s, after %" PRIu64 " requests",
		      r->peer, what, r->n);
	else
		error(0, 0, "%s: the %s ended after %zu bytes of it, after %" PRIu64
		      " requests", r->peer, what, got, r->n);
}

/* The hello read and answered: 0, or -1 (refused or broken: said). */
static int take_hello(struct rr_conn *r)
{
	_Static_assert(RR_ACK_LEN <= RR_HELLO_LEN, "the ack goes out of the hello's buffer");
	unsigned char buf[RR_HELLO_LEN];
	struct rr_ack a = { .max_bytes = RR_MSG_MAX };
	enum rr_result res;
	size_t got;
	int rc = rr_read(r->fd, buf, RR_HELLO_LEN, &got, &stop_signal);

	if (rc != 0) {
		if (!stop_signal)
			said_short(r, "hello", rc, got);
		return -1;
	}
	res = rr_hello_decode(buf, RR_HELLO_LEN, &r->h);
	if (res == RR_OK && (r->h.proto != RR_TCP || r->h.mode != RR_MODE_RR))
		res = RR_FIELD;		/* a UDP flow's hello on a TCP connection */
	/* Echoed as they stand in the hello, even of a version not decoded. */
	a.run = proto_get_u32(buf + 12);
	a.flow = proto_get_u32(buf + 16);
	a.status = res;
	a.clock_err_us = rr_clock_err_us();
	rr_boot_id(a.boot_id);
	rr_ack_encode(buf, &a);
	if (rr_write(r->fd, buf, RR_ACK_LEN) < 0 && res == RR_OK) {
		error(0, errno, "%s: the acknowledgement", r->peer);
		return -1;
	}
	if (res == RR_OK)
		return 0;
	error(0, 0, "%s: request/response refused: the hello is %s", r->peer,
	      rr_result_text(res));
	return -1;
}

/* The answer to the request in r->req, written: 0, -1 (said), -2 a stop. */
static int answer(struct rr_conn *r)
{
	struct rr_expect want = { .run = r->h.run, .flow = r->h.flow,
				  .length = r->h.req_bytes, .kind = RR_REQUEST };
	struct rr_msg m;
	enum rr_result res;

	if (r->timed) {
		uint64_t rx = rr_real_ns();

		res = rr_msg_decode(r->req, r->h.req_bytes, &want, &m);
		if (res != RR_OK) {
			error(0, 0, "%s: request %" PRIu64 " is %s, closed", r->peer, r->n + 1,
			      rr_result_text(res));
			return -1;
		}
		m.kind = RR_RESPONSE;
		m.length = r->h.resp_bytes;
		m.rx_real = rx;
		m.back_real = rr_real_ns();
		rr_msg_encode(r->resp, &m);
	}
	rr_probe_sent(r->probe);
	if (rr_write_calls(r->fd, r->resp, r->h.resp_bytes, rr_probe_send_calls(r->probe)) == 0)
		return 0;
	if (errno == EINTR)
		return -2;
	if (errno == EAGAIN)
		error(0, 0, "%s: stalled: the answer to request %" PRIu64 " not taken in %g s "
		      "(-T), closed", r->peer, r->n + 1, r->cfg->stall_secs);
	else
		error(0, errno, "%s: the answer to request %" PRIu64, r->peer, r->n + 1);
	return -1;
}

/* Answer every request until the client closes (or fails, or a stop). */
static enum rr_end answer_all(struct rr_conn *r)
{
	size_t got;
	int rc;

	for (;;) {
		rc = rr_read_ctl(r->fd, r->req, r->h.req_bytes, &got, &stop_signal,
				 rr_probe_ctl(r->probe));
		if (rc == 1 && got == 0)
			return RR_END_CLOSED;
		if (rc < 0 && errno == EINTR)
			return RR_END_STOP;
		if (rc != 0) {
			said_short(r, "request", rc, got);
			return RR_END_BROKEN;
		}
		rr_probe_answer(r->probe, r->fd);	/* the request's wake-up, stamps so far */
		rc = answer(r);
		if (rc < 0)
			return rc == -2 ? RR_END_STOP : RR_END_BROKEN;
		r->n++;
	}
}

/* What the connection cost: its answered: line's and its report's figures. */
struct rr_tally {
	double secs, own;		/* own: this process's CPU seconds */
	uint64_t bytes;			/* the requests' */
	struct serve_load l;		/* -c */
};

static struct rr_tally tally(const struct rr_conn *r)
{
	struct rr_tally t = { .secs = (double)(r->end - r->start) / 1e9,
		.own = cpu_self_secs() - r->cpu0, .bytes = r->n * r->h.req_bytes };
	struct serve_sampler_mark mk = r->first;
	uint64_t bytes = r->n * ((uint64_t)r->h.req_bytes + r->h.resp_bytes);

	if (r->metered)
		t.l = serve_sampler_since(&mk, &bytes);
	return t;
}

/* The connection's line: answered: N requests in S s, R requests/sec ... */
static void report_answered(const struct rr_conn *r, const struct rr_tally *t,
			    int interrupted)
{
	double secs = t->secs;

	line_begin("answered");
	line_str("peer", r->peer, NULL);
	line_u64("requests", r->n, "answered: %" PRIu64 " requests");
	line_num("seconds", secs, 3, " in %.3f s");
	line_num("requests_per_sec", secs > 0 ? (double)r->n / secs : 0, 0, ", %.0f requests/sec");
	line_u64("request_bytes", r->h.req_bytes, NULL);
	line_u64("response_bytes", r->h.resp_bytes, NULL);
	if (t->l.valid) {
		line_num("load_pct", t->l.load * 100, 1, ", load %.1f%%");
		line_int("ncpus", t->l.ncpus, " of %lld CPUs");
		line_num("us_per_tran", cpu_us_per_tran(t->l.load * t->l.ncpus * secs, r->n), 3,
			 ", %.3f us/Tran");
	}
	line_num("own_us_per_tran", cpu_us_per_tran(t->own, r->n), 3,
		 t->l.valid ? ", zcs itself %.3f us/Tran" : NULL);
	line_bool("interrupted", interrupted, " (interrupted)");
	if (line_end() < 0 || out_failed())
		_exit(r->cfg->alone ? 1 : SERVE_GIVE_UP);
}

/*
 * RR_ASK_REPORT: the receiver's report (lib/wire/rxreport.h, version 2)
 * once the client has shut its side; a client gone by then makes the
 * send fail, and there is nothing to say.
 */
static void send_report(const struct rr_conn *r, const struct rr_tally *t)
{
	struct rxreport x = { .method = "rr", .read_bytes = r->h.req_bytes, .bytes = t->bytes,
			      .seconds = t->secs, .own = cpu_us_per_kb(t->own, t->bytes),
			      .rr = 1, .transactions = r->n };
	char line[RXREPORT_MAX];
	int n;

	if (!(r->h.flags & RR_ASK_REPORT))
		return;
	if (textfile_line("/proc/sys/kernel/random/boot_id", x.boot_id, sizeof(x.boot_id)) < 0)
		x.boot_id[0] = '\0';
	if (t->l.valid && t->bytes) {
		x.metered = 1;
		x.load = t->l.load;
		x.ncpus = (unsigned)t->l.ncpus;
		x.demand = service_demand_us_per_kb(t->l.load, t->l.ncpus, t->secs, t->bytes);
	}
	n = rxreport_format(line, sizeof(line), &x);
	if (n > 0 && send(r->fd, line, (size_t)n, MSG_NOSIGNAL) < 0) {
		/* The client did not wait for it. */
	}
}

/*
 * --stamps and --call-times: the probe of the answers out and the
 * requests in, switched on now that the acknowledgement is written (the
 * stamps number the answers' bytes from the first). Out of memory or
 * refused: said, served without.
 */
static void probe_on(struct rr_conn *r)
{
	char err[256];

	if (!r->cfg->stamps && !r->cfg->call_times)
		return;
	r->probe = rr_probe_make(r->cfg->call_times, r->cfg->stamps, 1, r->h.resp_bytes,
				 r->cfg->budget_ns);
	if (!r->probe)
		error(0, ENOMEM, "%s: --stamps, --call-times", r->peer);
	else if (rr_probe_enable(r->probe, r->fd, err, sizeof(err)) < 0) {
		error(0, 0, "%s: %s: served without stamps", r->peer, err);
		rr_probe_free(r->probe);
		r->probe = r->cfg->call_times ? rr_probe_make(1, 0, 1, r->h.resp_bytes,
							       r->cfg->budget_ns) : NULL;
	}
}

/* --call-times: one call-times: line, dir "recv" (the requests') or "send". */
static void calls_line(const struct rr_conn *r, const char *dir, const struct hist *h)
{
	line_begin("call_times");
	line_str("peer", r->peer, NULL);
	line_str("direction", dir, NULL);
	hist_calls_pieces(dir, h, r->cfg->budget_ns);
	line_end();
}

/* The connection's stages: line (the last stamps waited for), its call-times: lines. */
static void probe_lines(struct rr_conn *r)
{
	struct rr_probe *p = r->probe;

	if (p && p->stamps) {
		rr_probe_finish(p, r->fd);
		tstamp_track_merge(p->tx, p->wake);
		stages_line(&(struct stages_of){ .t = p->tx, .arrivals = 1,
			    .unstamped = p->unstamped, .errors = p->errors });
	}
	if (p && p->calls) {
		calls_line(r, "recv", &p->recv_calls);
		calls_line(r, "send", &p->send_calls);
	}
	rr_probe_free(p);
	r->probe = NULL;
}

/* The buffers of one request and one answer; -1 when out of memory (said). */
static int buffers(struct rr_conn *r)
{
	r->timed = rr_timed(r->h.req_bytes, r->h.resp_bytes);
	r->req = malloc(r->h.req_bytes);
	r->resp = calloc(1, r->h.resp_bytes);
	if (r->req && r->resp)
		return 0;
	error(0, errno, "%s: memory for messages of %" PRIu32 " and %" PRIu32 " bytes",
	      r->peer, r->h.req_bytes, r->h.resp_bytes);
	return -1;
}

/*
 * -T: a wait for the hello or a request longer than that is a stall, and
 * so is an answer the client does not take (its window shut that long).
 */
static void bound_waits(const struct rr_conn *r)
{
	struct timeval tv = { .tv_sec = (time_t)r->cfg->stall_secs,
		.tv_usec = (suseconds_t)((r->cfg->stall_secs - (double)(time_t)r->cfg->stall_secs)
					 * 1e6) };

	if (r->cfg->stall_secs > 0) {
		setsockopt(r->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(r->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
}

/*
 * Every answer goes at once: Nagle would hold one while the last is
 * unacknowledged, until the next request carries the ACK (a whole gap).
 */
static void no_delay(const struct rr_conn *r)
{
	int one = 1;

	setsockopt(r->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int serve_rr(const struct serve_cfg *sc, int fd, const char *peer, struct serve_result *res)
{
	struct rr_conn r = { .cfg = sc, .fd = fd, .peer = peer, .cpu0 = cpu_self_secs() };
	enum rr_end how = RR_END_BROKEN;

	if (sc->debug)
		error(0, 0, "%s: request/response", peer);
	bound_waits(&r);
	no_delay(&r);
	if (take_hello(&r) == 0 && buffers(&r) == 0) {
		probe_on(&r);
		r.metered = sc->meter && serve_sampler_read(&r.first) == 0;
		r.start = now_ns();
		how = answer_all(&r);
		r.end = now_ns();
		if (how != RR_END_BROKEN) {
			struct rr_tally t = tally(&r);

			report_answered(&r, &t, how == RR_END_STOP);
			probe_lines(&r);
			if (how == RR_END_CLOSED)
				send_report(&r, &t);
		}
	}
	serve_total_ended();
	if (res)
		*res = (struct serve_result){ .start_ns = r.start, .end_ns = r.end,
			.bytes = r.n * ((uint64_t)r.h.req_bytes + r.h.resp_bytes),
			.own_secs = cpu_self_secs() - r.cpu0, .whole = how == RR_END_CLOSED };
	rr_probe_free(r.probe);	/* a broken connection's: no line */
	free(r.req);
	free(r.resp);
	close(fd);
	return how == RR_END_CLOSED ? 0 : 1;
}
