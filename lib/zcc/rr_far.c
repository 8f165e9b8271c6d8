/*
 * The far end's CPU per transaction (lib/zcc/rr_internal.h): zcc --rr
 * with -c asks zcs in its hello (RR_ASK_REPORT, lib/wire/rr_proto.h) for
 * the receiver's report, version 2 (lib/wire/rxreport.h). Over TCP zcs
 * writes it once it has read the end of the requests; the wait for it is
 * the stream's (send_await_close), with its bound and -T. Over UDP zcc
 * sends a bye and zcs answers it with the report, as one datagram: the
 * bye goes again every BYE_WAIT_MS, BYE_TRIES times at most, as either
 * may be lost. Raw IP and raw Ethernet do as UDP (lib/zcc/rr_dgram.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "base/clock.h"
#include "zcc/rr_internal.h"

#define HEAD "zc-report "
#define BYE_TRIES 5
#define BYE_WAIT_MS 200

int rr_far_asks(const struct conn *c)
{
	return c->sd->meter != NULL;
}

int rr_far_settle(struct conn *c, char *err, size_t errlen)
{
	struct rr_work *w = rr_work_of(c);
	const struct rxreport_reader *rd = &w->rp.rd;
	size_t head = strlen(HEAD);
	int rc;

	rx_report_start(&w->rp, 1);
	rc = send_await_close(c->sd, &c->t, &w->rp, NULL, err, errlen);
	if (rc != 0)
		return rc;
	/* What came first is not a report's beginning: a long answer. */
	if (rd->have && memcmp(rd->line, HEAD, rd->have < head ? rd->have : head) != 0) {
		snprintf(err, errlen, "%s: the server answered more than asked (bytes after "
			 "answer %" PRIu64 ")", c->peer, w->f.answered);
		return -2;
	}
	c->rx_ok = rx_report_judge(&w->rp, c->peer, w->f.answered * w->h.req_bytes, &c->rx);
	if (c->rx_ok && (!c->rx.rr || c->rx.transactions != w->f.answered)) {
		fprintf(stderr, "%s: %s: the server's report counts %" PRIu64 " transactions, "
			"zcc made %" PRIu64 ": the figures are zcc's alone\n",
			program_invocation_short_name, c->peer, c->rx.transactions,
			w->f.answered);
		c->rx_ok = 0;
	}
	return 0;
}

/* The figures are zcc's alone: why, once a run. */
static int alone(const struct conn *c, const char *why)
{
	static int said;

	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		fprintf(stderr, "%s: %s: %s: the figures are zcc's alone\n",
			program_invocation_short_name, c->peer, why);
	return 0;
}

/* The report's datagram into buf (late answers passed over): its length, or -1. */
static ssize_t bye_answer(const struct conn *c, const unsigned char *bye, char *buf, size_t len)
{
	struct pollfd p = { .fd = c->t.sock, .events = POLLIN };
	ssize_t n;

	for (int t = 0; t < BYE_TRIES; t++) {
		uint64_t end = now_ns() + (uint64_t)BYE_WAIT_MS * 1000000;

		if (rr_dgram_send(c, bye, RR_BYE_LEN) < 0 && errno != ECONNREFUSED)
			return -1;
		while (now_ns() < end &&
		       poll(&p, 1, (int)((end - now_ns()) / 1000000) + 1) == 1) {
			n = rr_dgram_recv(c, buf, len, NULL);
			if (n >= (ssize_t)strlen(HEAD) && !memcmp(buf, HEAD, strlen(HEAD)))
				return n <= (ssize_t)len ? n : -1;
		}
	}
	return -1;
}

int rr_far_udp(struct conn *c)
{
	struct rr_work *w = rr_work_of(c);
	unsigned char bye[RR_BYE_LEN] = { 0 };
	char buf[RXREPORT_MAX], why[256], detail[128];
	ssize_t n;

	rr_msg_encode(bye, &(struct rr_msg){ .kind = RR_BYE, .run = w->h.run, .flow = w->h.flow,
					     .length = RR_BYE_LEN, .seq = w->f.sent });
	n = bye_answer(c, bye, buf, sizeof(buf));
	if (n < 0)
		return alone(c, "the receiver sent no report over UDP (a zcs without one?)");
	if (rxreport_parse(buf, (size_t)n, &c->rx, detail, sizeof(detail)) < 0) {
		snprintf(why, sizeof(why), "the receiver's report is malformed: %s", detail);
		return alone(c, why);
	}
	/* Answered by zcs: at least those whose answers came, at most those sent. */
	if (!c->rx.rr || c->rx.transactions < w->f.answered || c->rx.transactions > w->f.sent) {
		snprintf(why, sizeof(why), "the server's report counts %" PRIu64 " transactions, "
			 "zcc sent %" PRIu64 " and had %" PRIu64 " answered", c->rx.transactions,
			 w->f.sent, w->f.answered);
		return alone(c, why);
	}
	c->rx_ok = 1;
	return 0;
}
