/*
 * zcc --rr --proto udp, ip or packet (lib/zcc/rr_internal.h): every
 * message is one datagram with the header (lib/zcc/rr_dgram.c carries
 * it), so each answer says which request it is; lost, duplicated and
 * reordered answers are counted by number (lib/wire/rr_seq.h), and only
 * the first copy of each is timed. A raw socket sees every packet of its
 * protocol: one not of this run, or cut short, is counted as foreign.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/err.h"
#include "wire/addr.h"
#include "wire/net.h"
#include "wire/rr_io.h"
#include "zcc/rr_internal.h"
#include "zcc/rr_stamps.h"

#define HELLO_AGAIN_MS 500	/* a hello not acknowledged by then goes again */

int rr_udp_connect(struct conn *c, char *err, size_t errlen)
{
	const struct send_cfg *cfg = c->sd->cfg;
	struct addrinfo *res, *ai;
	char service[16], bare[NI_MAXHOST];
	const char *name = addr_unbracket(cfg->host, bare, sizeof(bare), err, errlen);
	int fd = -1, rc;

	if (!name)
		return -1;
	snprintf(service, sizeof(service), "%u", cfg->port);
	rc = addr_resolve(name, service, &res);
	if (rc)
		return addr_resolve_failed(cfg->host, rc, err, errlen);
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && (net_set_opts(fd, &cfg->sockopts, err, errlen) < 0 ||
				connect(fd, ai->ai_addr, ai->ai_addrlen) < 0)) {
			rc = errno;
			close(fd);
			fd = -1;
			errno = rc;
		}
	}
	freeaddrinfo(res);
	if (fd < 0)
		return err_fill(err, errlen, errno, "%s port %u: UDP", cfg->host, cfg->port);
	snprintf(c->peer, sizeof(c->peer), "%s port %u", cfg->host, cfg->port);
	return fd;
}

int rr_udp_open(struct conn *c, char *err, size_t errlen)
{
	struct rr_work *w = rr_work_of(c);
	struct pollfd p = { .fd = c->t.sock, .events = POLLIN };
	uint64_t end = now_ns() + (uint64_t)RR_ACK_WAIT_MS * 1000000;
	unsigned char buf[RR_ACK_LEN + 1];
	struct rr_ack a;
	enum rr_result res;
	ssize_t n = -1;

	rr_hello_encode(buf, &w->h);
	while (n < 0 && now_ns() < end) {
		if (rr_dgram_send(c, buf, RR_HELLO_LEN) < 0 && errno != ECONNREFUSED)
			return err_fill(err, errlen, errno, "%s: the hello", c->peer);
		/* Another run's packets on a raw protocol are passed over. */
		while (n < 0 && now_ns() < end && poll(&p, 1, HELLO_AGAIN_MS) == 1 &&
		       ((n = rr_dgram_recv(c, buf, sizeof(buf), NULL)) == RR_DG_NONE ||
			(n > 0 && w->dg.proto != RR_UDP &&
			 rr_ack_decode(buf, (size_t)n, w->h.run, w->h.flow, &a) != RR_OK)))
			n = -1;
		if (n == 0)	/* shut down: a stop */
			return err_fill(err, errlen, 0, "%s: stopped", c->peer);
	}
	if (n < 0 && w->dg.proto != RR_UDP)
		return err_fill(err, errlen, 0, "%s: no answer: no zcs serves --proto %s there",
				c->peer, w->dg.proto == RR_IP ? "ip" : "packet");
	if (n < 0)
		return err_fill(err, errlen, 0, "%s: no answer over UDP: the server does not "
				"speak request/response (a 2001 zcs?)", c->peer);
	res = rr_ack_decode(buf, (size_t)n, w->h.run, w->h.flow, &a);
	if (res != RR_OK)
		return err_fill(err, errlen, 0, "%s: the server's acknowledgement is %s",
				c->peer, rr_result_text(res));
	if (a.status != RR_OK)
		return err_fill(err, errlen, 0, "%s: the server refuses the run: the hello is %s "
				"(over UDP an answer is at most its request: no amplifier)",
				c->peer, rr_result_text((enum rr_result)a.status));
	rr_clocks_take(w, &a);
	return 0;
}

/*
 * One answer datagram, waiting at most ms (block: in the receive call
 * itself, which the socket's SO_RCVTIMEO bounds, else in poll()): 1 with
 * *m (counted by number against the requests sent by then: *kind), 0
 * when none came, 2 for a raw protocol's packet that is not ours
 * (counted as foreign), -1 with err (a short or long one, not ours over
 * UDP, an error, or the socket shut by a stop).
 */
static int udp_answer(struct conn *c, int ms, int block, struct rr_msg *m,
		      enum rr_seq_kind *kind, char *err, size_t errlen)
{
	struct rr_work *w = rr_work_of(c);
	struct rr_expect want = { .run = w->h.run, .flow = w->h.flow,
				  .length = w->h.resp_bytes, .kind = RR_RESPONSE };
	enum rr_result res;
	ssize_t n;

	if (!block && rr_probe_poll(w->probe, c->t.sock, ms) != 1) {
		/* A raw socket is not shut by a stop: none came, and the run is over. */
		if (w->dg.proto != RR_UDP && __atomic_load_n(c->cancel, __ATOMIC_RELAXED))
			return err_fill(err, errlen, 0, "%s: stopped", c->peer);
		return 0;
	}
	n = rr_dgram_recv(c, w->resp, w->h.resp_bytes + 1, rr_probe_ctl(w->probe));
	if (n == RR_DG_NONE)
		return 2;
	if (n < 0 && block && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return 0;	/* as poll()'s none: the time ran out, or a signal */
	if (n < 0)
		return err_fill(err, errlen, errno, "%s: an answer", c->peer);
	if (n == 0)
		return err_fill(err, errlen, 0, "%s: stopped", c->peer);
	res = rr_msg_decode(w->resp, (size_t)n > w->h.resp_bytes ? w->h.resp_bytes + 1 :
			    (size_t)n, &want, m);
	/* A raw socket sees the other flows' answers too: theirs, not foreign. */
	if (res != RR_OK && w->dg.proto != RR_UDP) {
		if (rr_run_of(w->resp, (size_t)n) != w->h.run)
			w->f.foreign++;
		return 2;
	}
	if (res != RR_OK)
		return err_fill(err, errlen, 0, "%s: an answer of %zd bytes is %s", c->peer, n,
				rr_result_text(res));
	__atomic_add_fetch(&c->t.bytes, w->h.resp_bytes, __ATOMIC_RELAXED);
	rr_probe_answer(w->probe, c->t.sock);
	*kind = rr_seq_see(&w->seq, m->seq, __atomic_load_n(&w->f.sent, __ATOMIC_ACQUIRE));
	return 1;
}

/* An answer that counts: its times recorded (open loop: from due and from send). */
static void udp_record(struct rr_work *w, const struct rr_msg *m, int open)
{
	rr_record(w, m, open, 0);
	__atomic_store_n(&w->f.answered, w->seq.received, __ATOMIC_RELEASE);
}

/* The figures of the numbers, after the run. */
static void udp_figures(struct rr_work *w)
{
	w->f.lost = rr_seq_lost(&w->seq, w->f.sent);
	w->f.duplicated = w->seq.duplicated;
	w->f.reordered = w->seq.reordered;
}

/* The milliseconds from now to until, rounded up (0: it has come). */
static int ms_until(uint64_t until)
{
	uint64_t now = now_ns();

	return now >= until ? 0 : (int)((until - now + 999999) / 1000000);
}

/*
 * The closed loop's first wait for each answer in the receive call
 * itself, over UDP with neither --stamps nor --call-times (whose receive
 * is timed alone): SO_RCVTIMEO bounds it by the loss's wait, so a
 * transaction costs a send and a receive, as netperf UDP_RR's does, not
 * a poll() too. 1 when set.
 */
static int wait_in_recv(const struct conn *c, const struct rr_work *w)
{
	struct timeval tv = { .tv_sec = RR_UDP_LOST_MS / 1000,
			      .tv_usec = (suseconds_t)(RR_UDP_LOST_MS % 1000) * 1000 };

	return w->dg.proto == RR_UDP && !w->probe &&
	       setsockopt(c->t.sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == 0;
}

int rr_udp_closed(struct conn *c, char *err, size_t errlen)
{
	struct rr_work *w = rr_work_of(c);
	uint64_t limit = rr_settings_of()->msgs;
	int timed_end = c->sd->cfg->secs > 0, rc = 0, block = wait_in_recv(c, w), first;
	enum rr_seq_kind kind = RR_SEQ_BOGUS;
	struct rr_msg m;
	uint64_t now, lost;

	for (uint64_t seq = 0; (limit ? seq < limit : 1) && rc >= 0; seq++) {
		now = now_ns();
		if (timed_end && now >= c->end)
			break;
		if (rr_send_request(c, seq, now, 0, err, errlen) < 0)
			return -1;
		/* Late answers of earlier requests, copies and foreign packets are
		 * counted, not timed; none of them puts off the answer's loss. */
		lost = now + (uint64_t)RR_UDP_LOST_MS * 1000000;
		first = block;
		while ((rc = udp_answer(c, first ? 0 : ms_until(lost), first, &m, &kind, err,
					errlen)) > 0) {
			first = 0;	/* not it: the rest of the wait in poll() */
			if (rc == 1 && m.seq == seq && kind == RR_SEQ_NEW) {
				udp_record(w, &m, 0);
				break;
			}
		}
	}
	udp_figures(w);
	return rc < 0 ? -1 : 0;
}

void *rr_udp_reader(void *arg)
{
	struct conn *c = arg;
	struct rr_work *w = rr_work_of(c);
	enum rr_seq_kind kind = RR_SEQ_BOGUS;
	struct rr_msg m;
	uint64_t quiet = 0;	/* since the sender was done, nothing came since */
	int rc;

	for (;;) {
		rc = udp_answer(c, 100, 0, &m, &kind, w->read_err, sizeof(w->read_err));
		if (rc < 0) {
			w->read_rc = -1;
			break;
		}
		if (rc == 1 && (kind == RR_SEQ_NEW || kind == RR_SEQ_LATE))
			udp_record(w, &m, 1);
		if (!__atomic_load_n(&w->done_sending, __ATOMIC_ACQUIRE))
			continue;
		if (w->seq.received >= w->f.sent)
			break;
		if (rc == 1 || !quiet)
			quiet = now_ns();
		else if (now_ns() - quiet >= (uint64_t)RR_UDP_LOST_MS * 1000000)
			break;	/* the rest are lost */
	}
	udp_figures(w);
	return NULL;
}
