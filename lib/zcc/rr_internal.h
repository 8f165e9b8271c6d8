/*
 * What lib/zcc/conn_rr.c and its UDP part, lib/zcc/conn_rr_udp.c, share:
 * a connection's request/response state.
 */
#ifndef ZC_ZCC_RR_INTERNAL_H
#define ZC_ZCC_RR_INTERNAL_H

#include "base/pace.h"
#include "wire/rr_proto.h"
#include "wire/rr_seq.h"
#include "zcc/rr.h"
#include "zcc/rxreport.h"
#include "zcc/send_internal.h"

/*
 * RR_CLOCKS 0: a build for the bench alone (tests/bench/rr.sh, compiled
 * with -DRR_CLOCKS=0 in a directory of its own), whose closed loop reads
 * no clock and records nothing, with -n ending it: the same loop's rate
 * beside the real one's is what the clocks and the histogram cost.
 */
#ifndef RR_CLOCKS
#define RR_CLOCKS 1
#endif

#define RR_RING 4096		/* bare open loop: requests in flight at most */
#define RR_UDP_LOST_MS 500	/* UDP: an answer not in by then is lost */

struct rr_work {
	struct rr_hello h;
	int timed;
	int udp;			/* --proto udp */
	unsigned char *req, *resp;	/* resp: one byte more than an answer */
	struct rr_figures f;
	struct rr_seq seq;		/* UDP: the answers' numbers */
	struct pace pace;		/* --gap */
	uint64_t ring_due[RR_RING], ring_tx[RR_RING];	/* bare --gap */
	int done_sending;		/* --gap: the reader takes the rest */
	int read_rc;			/* --gap: the reader's end */
	char read_err[256];
	struct rx_report_wait rp;	/* RR_ASK_REPORT: the far end's report */
};

struct rr_work *rr_work_of(const struct conn *c);

/* rr_send_request - request seq of c, due at due, out now: 0, or -1 with err. */
int rr_send_request(struct conn *c, uint64_t seq, uint64_t due, char *err, size_t errlen);

/*
 * The UDP side (lib/zcc/conn_rr_udp.c): the connected socket (-1 with
 * err), the hello (resent until an ack comes, RR_ACK_WAIT_MS at most),
 * closed loop (an answer not in within RR_UDP_LOST_MS is lost: the next
 * request goes), and open loop's reader thread.
 */
int rr_udp_connect(struct conn *c, char *err, size_t errlen);
int rr_udp_open(struct conn *c, char *err, size_t errlen);
int rr_udp_closed(struct conn *c, char *err, size_t errlen);
void *rr_udp_reader(void *arg);

/*
 * The far end's report (lib/zcc/rr_far.c). rr_far_asks - whether c's
 * hello asks for it: -c, over TCP. rr_far_settle -
 * after the last answer, the client's side shut, the report read
 * into c->rx (c->rx_ok) until the server closes: a settle hook's result.
 */
int rr_far_asks(const struct conn *c);
int rr_far_settle(struct conn *c, char *err, size_t errlen);

#endif
