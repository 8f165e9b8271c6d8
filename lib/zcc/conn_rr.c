/*
 * A connection's work in request/response mode (lib/zcc/rr.h). Every
 * time is CLOCK_MONOTONIC (now_ns): a step of the wall clock changes no
 * round trip. Closed loop: one request in flight, its round trip from
 * the send. Open loop (--gap): this thread sends on pace's schedule and a
 * reader thread takes the answers as they come; each is counted from when
 * its request was due and, beside it, from when it went out. Timed
 * messages carry both stamps (the server echoes them); bare ones (under
 * RR_MSG_HDR bytes) leave them in a ring, the n-th answer being the n-th
 * request's on a TCP stream.
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/err.h"
#include "base/pace.h"
#include "wire/net.h"
#include "wire/rr_io.h"
#include "zcc/rr_internal.h"
#include "zcc/rr_stamps.h"

static const struct rr_cfg *rr_settings;
static uint32_t run_id;		/* this run's, every flow's: a round's own */

void rr_cfg_set(const struct rr_cfg *rc)
{
	rr_settings = rc;
}

const struct rr_cfg *rr_settings_of(void)
{
	return rr_settings;
}

struct send_result rr_send_run(struct sender *sd)
{
	struct send_result r;

	if (rr_settings->log)
		rr_log_open(rr_settings->log);
	run_id = (uint32_t)(now_ns() ^ rr_real_ns() ^ (uint64_t)getpid()) | 1;
	r = engine_send(sd, &conn_rr, 0);
	rr_log_sync();
	return r;
}

struct rr_work *rr_work_of(const struct conn *c)
{
	return c->work;
}

#define work_of rr_work_of

const struct rr_figures *rr_figures_of(const struct conn *c)
{
	return &work_of(c)->f;
}

static void rr_init(struct conn *c, uint32_t loops)
{
	const struct rr_cfg *rc = rr_settings;
	struct rr_work *w = calloc(1, sizeof(*w));

	(void)loops;
	if (!w)
		error(1, errno, "memory");
	w->h = (struct rr_hello){ .run = run_id,
		.flow = c->idx - 1, .req_bytes = rc->req_bytes, .resp_bytes = rc->resp_bytes,
		.proto = rc->proto ? (uint8_t)rc->proto : RR_TCP, .mode = RR_MODE_RR,
		.flags = rr_far_asks(c) ? RR_ASK_REPORT : 0 };
	rr_boot_id(w->h.boot_id);
	w->timed = rr_timed(rc->req_bytes, rc->resp_bytes);
	w->req = calloc(1, rc->req_bytes);
	w->resp = malloc(rc->resp_bytes + 1);	/* UDP: a longer datagram is seen */
	w->udp = rc->udp;
	rr_seq_init(&w->seq);
	if (!w->req || !w->resp)
		error(1, errno, "memory");
	hist_init(&w->f.due, rc->budget_ns);
	hist_init(&w->f.sent_h, rc->budget_ns);
	rr_times_init(w, c->sd->cfg);
	w->probe = rr_probe_new(rc);
	c->work = w;
}

static void rr_free(struct conn *c)
{
	struct rr_work *w = work_of(c);

	free(w->req);
	free(w->resp);
	rr_times_free(w);
	rr_probe_free(w->probe);
	free(w);
	c->work = NULL;
}

/* The ack of w's hello on sock within RR_ACK_WAIT_MS: 0, or -1 with err. */
static int await_ack(struct conn *c, char *err, size_t errlen)
{
	struct rr_work *w = work_of(c);
	struct pollfd p = { .fd = c->t.sock, .events = POLLIN };
	unsigned char buf[RR_ACK_LEN];
	struct rr_ack a;
	enum rr_result res;
	size_t got = 0;

	if (poll(&p, 1, RR_ACK_WAIT_MS) != 1 ||
	    rr_read(c->t.sock, buf, sizeof(buf), &got, NULL) != 0 || got == 0)
		return err_fill(err, errlen, 0, "%s: no answer: the server does not speak "
				"request/response (a 2001 zcs?)", c->peer);
	res = rr_ack_decode(buf, got, w->h.run, w->h.flow, &a);
	if (res != RR_OK)
		return err_fill(err, errlen, 0, "%s: the server's acknowledgement is %s",
				c->peer, rr_result_text(res));
	if (a.status != RR_OK)
		return err_fill(err, errlen, 0, "%s: the server refuses the run: the hello "
				"is %s (it takes messages of at most %" PRIu32 " bytes)", c->peer,
				rr_result_text((enum rr_result)a.status), a.max_bytes);
	rr_clocks_take(w, &a);
	return 0;
}

static int rr_open(struct conn *c, char *err, size_t errlen)
{
	struct rr_work *w = work_of(c);
	unsigned char buf[RR_HELLO_LEN];
	int one = 1, rc;

	if (w->udp) {
		rc = rr_udp_open(c, err, errlen);
	} else {
		/* Every message goes at once: Nagle would hold the open loop's. */
		setsockopt(c->t.sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		rr_hello_encode(buf, &w->h);
		if (rr_write(c->t.sock, buf, sizeof(buf)) < 0)
			return err_fill(err, errlen, errno, "%s: the hello", c->peer);
		rc = await_ack(c, err, errlen);
	}
	if (rc == 0 && rr_settings->use_uring)
		rc = rr_rings_open(c, err, errlen);
	/* The ack came in: the connection's NAPI ID, if any, is known. */
	if (rc == 0 && rr_settings->busy_us)
		rc = net_busy_poll(c->t.sock, rr_settings->busy_us, err, errlen);
	/* --stamps from here: the first request is the stamps' first number. */
	return rc < 0 ? rc : rr_probe_enable(w->probe, c->t.sock, err, errlen);
}

int rr_send_request(struct conn *c, uint64_t seq, uint64_t due, uint64_t tx, char *err,
		    size_t errlen)
{
	struct rr_work *w = work_of(c);
	uint64_t real = 0;

	if (w->timed) {
		rr_clock_pair(&tx, &real);
		rr_msg_encode(w->req, &(struct rr_msg){ .kind = RR_REQUEST, .run = w->h.run,
			.flow = w->h.flow, .length = w->h.req_bytes, .seq = seq,
			.due_mono = due, .tx_mono = tx, .tx_real = real });
	} else if (!tx) {	/* a closed loop keeps its one request's times itself */
		w->ring_due[seq % RR_RING] = due;
		w->ring_tx[seq % RR_RING] = now_ns();
	}
	/* Counted before it goes: its answer may be read before send returns. */
	__atomic_store_n(&w->f.sent, seq + 1, __ATOMIC_RELEASE);
	rr_probe_sent(w->probe);
	if (rr_send_bytes(c, w) < 0)
		return err_fill(err, errlen, errno, "%s: request %" PRIu64, c->peer, seq + 1);
	__atomic_add_fetch(&c->t.bytes, w->h.req_bytes, __ATOMIC_RELAXED);
	return 0;
}

/*
 * The answer to request seq, read whole and checked, into *m (bare: its
 * request's times from the ring, which a closed loop fills in itself).
 * 0, or -1 with err.
 */
static int take_answer(struct conn *c, uint64_t seq, struct rr_msg *m, char *err, size_t errlen)
{
	struct rr_work *w = work_of(c);
	struct rr_expect want = { .run = w->h.run, .flow = w->h.flow,
				  .length = w->h.resp_bytes, .kind = RR_RESPONSE };
	enum rr_result res;
	size_t got;
	struct rr_uring *ring = w->rx_ring ? w->rx_ring : w->tx_ring;
	int rc = ring ? rr_ring_read(w, ring, &got) :
			rr_read_ctl(c->t.sock, w->resp, w->h.resp_bytes, &got, NULL,
				    rr_probe_ctl(w->probe));

	if (rc < 0)
		return err_fill(err, errlen, errno, "%s: answer %" PRIu64, c->peer, seq + 1);
	if (rc > 0)
		return err_fill(err, errlen, 0, "%s: the server closed the connection %s answer %"
				PRIu64 " (%zu of %" PRIu32 " bytes came)", c->peer,
				got ? "in" : "before", seq + 1, got, w->h.resp_bytes);
	__atomic_add_fetch(&c->t.bytes, w->h.resp_bytes, __ATOMIC_RELAXED);
	rr_probe_answer(w->probe, c->t.sock);
	if (!w->timed) {
		*m = (struct rr_msg){ .seq = seq, .due_mono = w->ring_due[seq % RR_RING],
				      .tx_mono = w->ring_tx[seq % RR_RING] };
		return 0;
	}
	res = rr_msg_decode(w->resp, w->h.resp_bytes, &want, m);
	if (res == RR_OK && m->seq != seq)
		return err_fill(err, errlen, 0, "%s: answer %" PRIu64 " is request %" PRIu64
				"'s: the server answers out of order", c->peer, seq + 1, m->seq + 1);
	if (res != RR_OK)
		return err_fill(err, errlen, 0, "%s: answer %" PRIu64 " is %s", c->peer, seq + 1,
				rr_result_text(res));
	return 0;
}

/* RR_BLOCK's bare transaction: the request's bytes and the answer's, no clock. */
static int bare_one(struct conn *c, uint64_t seq, struct rr_msg *m, char *err, size_t errlen)
{
	struct rr_work *w = work_of(c);

	if (w->timed)
		rr_msg_encode(w->req, &(struct rr_msg){ .kind = RR_REQUEST, .run = w->h.run,
			.flow = w->h.flow, .length = w->h.req_bytes, .seq = seq });
	__atomic_store_n(&w->f.sent, seq + 1, __ATOMIC_RELEASE);
	if (rr_send_bytes(c, w) < 0)
		return err_fill(err, errlen, errno, "%s: request %" PRIu64, c->peer, seq + 1);
	__atomic_add_fetch(&c->t.bytes, w->h.req_bytes, __ATOMIC_RELAXED);
	return take_answer(c, seq, m, err, errlen);
}

/* Closed loop: a request, its answer, until -n's count or -t's end. */
static int run_closed(struct conn *c, char *err, size_t errlen)
{
	struct rr_work *w = work_of(c);
	uint64_t limit = rr_settings->msgs, now = now_ns();
	struct rr_msg m;
	int timed_end = c->sd->cfg->secs > 0;
	struct rr_blocks b = { .t0 = now };

	for (uint64_t seq = 0; limit ? seq < limit : 1; seq++) {
		if (timed_end && now >= c->end)
			break;
		if (RR_BLOCK && rr_block_bare(seq)) {
			if (bare_one(c, seq, &m, err, errlen) < 0)
				return -1;
		} else {
			/* The answer's arrival is the next request's sending. */
			if (rr_send_request(c, seq, now, now, err, errlen) < 0 ||
			    take_answer(c, seq, &m, err, errlen) < 0)
				return -1;
			if (!w->timed)
				m.due_mono = m.tx_mono = now;
			now = now_ns();
			rr_record(w, &m, 0, now);
		}
		w->f.answered = seq + 1;
		if (RR_BLOCK)
			rr_block_end(&b, seq, seq + 1 == limit);
	}
	if (RR_BLOCK)
		rr_blocks_say(&b);
	return 0;
}

/*
 * --gap: the reader thread, taking every answer until the sender is done
 * and every request it sent is answered (it looks for that ten times a
 * second while nothing comes).
 */
static void *read_answers(void *arg)
{
	struct conn *c = arg;
	struct rr_work *w = work_of(c);
	struct rr_msg m;

	for (uint64_t seq = 0;; seq++) {
		while (seq >= __atomic_load_n(&w->f.sent, __ATOMIC_ACQUIRE)) {
			if (__atomic_load_n(&w->done_sending, __ATOMIC_ACQUIRE) &&
			    seq >= __atomic_load_n(&w->f.sent, __ATOMIC_ACQUIRE))
				return NULL;
			if (rr_probe_poll(w->probe, c->t.sock, 100) == 1)
				break;	/* an answer, or the end: take_answer says */
		}
		if (take_answer(c, seq, &m, w->read_err, sizeof(w->read_err)) < 0) {
			w->read_rc = -1;
			shutdown(c->t.sock, SHUT_RDWR);	/* the sender stops too */
			return NULL;
		}
		rr_record(w, &m, 1, 0);
		__atomic_store_n(&w->f.answered, seq + 1, __ATOMIC_RELEASE);
	}
}

/* --gap: the requests on pace's schedule; 0, or -1 with err. */
static int send_paced(struct conn *c, char *err, size_t errlen)
{
	struct rr_work *w = work_of(c);
	uint64_t end = c->sd->cfg->secs > 0 ? c->end : UINT64_MAX;
	struct pace_act act;

	pace_init(&w->pace, now_ns(), rr_settings->gap_ns, end, rr_settings->msgs);
	for (;;) {
		switch (pace_step(&w->pace, now_ns(), &act)) {
		case PACE_SEND:
			if (!w->timed && act.seq - __atomic_load_n(&w->f.answered,
						__ATOMIC_ACQUIRE) >= RR_RING)
				return err_fill(err, errlen, 0, "%s: %d requests unanswered: the "
						"server does not answer", c->peer, RR_RING);
			if (rr_send_request(c, act.seq, act.due, 0, err, errlen) < 0)
				return -1;
			break;
		case PACE_WAIT:
			sleep_until(act.until);
			break;
		case PACE_DONE:
			return 0;
		}
	}
}

/* What pace says of the sender, into the figures. */
static void schedule_figures(struct rr_work *w)
{
	w->f.lag_max = w->pace.lag_max;
	w->f.lag_mean = pace_lag_mean(&w->pace);
	w->f.behind = w->pace.behind;
	w->f.pauses = w->pace.pauses;
	w->f.pause_max = w->pace.pause_max;
	w->f.cannot_keep = w->pace.cannot_keep;
	w->f.due_count = pace_due_count(&w->pace, now_ns());
}

static int run_open(struct conn *c, char *err, size_t errlen)
{
	struct rr_work *w = work_of(c);
	pthread_t reader;
	int rc, e;

	e = pthread_create(&reader, NULL, w->udp ? rr_udp_reader : read_answers, c);
	if (e)
		return err_fill(err, errlen, e, "%s: a thread for the answers", c->peer);
	rc = send_paced(c, err, errlen);
	schedule_figures(w);
	__atomic_store_n(&w->done_sending, 1, __ATOMIC_RELEASE);
	if (rc < 0)
		shutdown(c->t.sock, SHUT_RDWR);
	pthread_join(reader, NULL);
	if (rc == 0 && w->read_rc < 0)
		rc = err_fill(err, errlen, 0, "%s", w->read_err);
	return rc;
}

static int rr_run(struct conn *c, char *err, size_t errlen)
{
	int rc;

	if (rr_settings->gap_ns)
		rc = run_open(c, err, errlen);
	else
		rc = work_of(c)->udp ? rr_udp_closed(c, err, errlen) : run_closed(c, err, errlen);
	if (rc == 0)
		rr_probe_finish(work_of(c)->probe, c->t.sock);
	rr_log_flush(work_of(c)->log);	/* a failure's rows too */
	return rc;
}

/* The connection: TCP as a stream's, or a datagram protocol's socket. */
static int rr_connect(struct conn *c, char *err, size_t errlen)
{
	if (rr_settings->udp)
		return rr_dgram_connect(c, err, errlen);
	return send_connect(c->sd, c->cancel, c->peer, sizeof(c->peer), err, errlen);
}

/* After the last answer: nothing more may come (a long answer would). */
static int rr_settle(struct conn *c, char *err, size_t errlen)
{
	unsigned char b;
	ssize_t n;

	if (work_of(c)->udp)
		return work_of(c)->h.flags & RR_ASK_REPORT ? rr_far_udp(c) : 0;
	if (work_of(c)->h.flags & RR_ASK_REPORT)
		return rr_far_settle(c, err, errlen);
	shutdown(c->t.sock, SHUT_WR);
	n = recv(c->t.sock, &b, 1, MSG_DONTWAIT);
	if (n <= 0)
		return 0;
	err_fill(err, errlen, 0, "%s: the server answered more than asked (bytes after "
		 "answer %" PRIu64 ")", c->peer, work_of(c)->f.answered);
	return -2;
}

static void rr_close(struct conn *c)
{
	rr_rings_close(work_of(c));
}

static uint64_t rr_planned(const struct conn *c)
{
	return c->t.bytes;
}

/* -d: the plan. */
static void rr_plan(const struct conn *c, unsigned n, int named)
{
	const struct rr_work *w = work_of(c);

	(void)named;
	fprintf(stderr, "%s: %u connection%s, requests of %" PRIu32 " bytes, answers of %"
		PRIu32 " bytes, %s, %s\n", program_invocation_short_name, n, n == 1 ? "" : "s",
		w->h.req_bytes, w->h.resp_bytes, w->timed ? "stamped" : "bare",
		rr_settings->gap_ns ? "open loop (--gap)" : "closed loop");
}

static void rr_debug(const struct conn *c, const char *what)
{
	const struct rr_work *w = work_of(c);

	fprintf(stderr, "%s: %s%" PRIu64 " requests, %" PRIu64 " answers\n",
		program_invocation_short_name, what, w->f.sent, w->f.answered);
}

const struct conn_ops conn_rr = {
	.name = "rr",
	.init = rr_init,
	.open = rr_open,
	.run = rr_run,
	.settle = rr_settle,
	.close = rr_close,
	.planned = rr_planned,
	.plan = rr_plan,
	.debug = rr_debug,
	.free = rr_free,
	.report = rr_report,
	.connect = rr_connect,
	.interval = rr_interval,
};
