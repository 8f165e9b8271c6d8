/*
 * The insides of zcs's verb for one connection (lib/zcs/serve.c), shared
 * with its -W part (lib/zcs/serve_where.c): the connection being served.
 */
#ifndef ZC_ZCS_SERVE_INTERNAL_H
#define ZC_ZCS_SERVE_INTERNAL_H

#include <stdint.h>

#include "app/meter_session.h"
#include "app/others_out.h"
#include "app/watch.h"
#include "app/mptcp_out.h"
#include "wire/proto.h"
#include "wire/rx.h"
#include "zcs/serve.h"
#include "zcs/serve_sampler.h"
#include "zcs/serve_load.h"

/* One connection being served. */
struct conn {
	const struct serve_cfg *cfg;
	const char *peer;
	char prefix[96];		/* "PEER: " on rate and where lines with -d */
	struct rx rx;
	struct proto_rx p;
	uint64_t start, end;		/* now_ns at the first and last byte's moment */
	unsigned tick_seen;
	struct watch watch;		/* lib/app/watch.h: -t lines and the -T rule */
	struct serve_sampler_mark first, last;	/* -c: ledger at start, at last line */
	struct serve_load done_load;	/* -c: the done line's figures */
	struct others_span *others;	/* -c: other processes, from first on */
	struct others_report others_done;	/* and the done line's report */
	struct where_span *whole, *since;	/* -W: from its start, from its last line */
	const struct where_report *where_rep;	/* -W: the last line's */
	int mptcp;			/* the kernel says the connection is MPTCP */
	struct mptcp_subflows subflows;	/* and its subflows, at the end */
	uint64_t where_calls;		/* receive calls at the last where line */
};

/* How a connection's receiving ended. */
enum end { END_EOF, END_EXCESS, END_ERROR, END_STALL, END_STOP };

/* serve_give_up - said why already: alone, exit 1; else tell the parent to
 * give up too. */
__attribute__((noreturn)) void serve_give_up(const struct conn *c);

/*
 * -W: serve_where_start as the connection begins; serve_where_read over the
 * load of its last line (whole: of the whole connection, then the next
 * line's span starts there); serve_where_end frees. Nothing without -W. A
 * failure of -W's reads is said and gives up (serve_give_up).
 */
void serve_where_start(struct conn *c);
void serve_where_read(struct conn *c, double load, uint64_t bytes, int whole);
void serve_where_end(struct conn *c);

#endif
