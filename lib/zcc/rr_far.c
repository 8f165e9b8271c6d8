/*
 * The far end's CPU per transaction (lib/zcc/rr_internal.h): a TCP
 * connection of zcc --rr with -c asks zcs in its
 * hello (RR_ASK_REPORT, lib/wire/rr_proto.h) for the receiver's report,
 * version 2 (lib/wire/rxreport.h), which zcs writes once it has read
 * the end of the requests; the wait for it is the stream's
 * (send_await_close), with its bound and -T.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "zcc/rr_internal.h"

#define HEAD "zc-report "

int rr_far_asks(const struct conn *c)
{
	return !rr_settings_of()->udp && c->sd->meter != NULL;
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
