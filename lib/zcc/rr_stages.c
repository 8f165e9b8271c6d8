/*
 * zcc --rr's lines of the probes (lib/zcc/rr_stamps.h), after the
 * round trip's: the stages: line (lib/app/stages_out.h) of every
 * connection's stamps merged, then
 *
 *   call-times: N send calls, p50 ... (lib/app/hist_out.h)
 *   call-times: N recv calls, p50 ...
 *
 * The stages are the request's way out (user to qdisc, qdisc to device),
 * for TCP its acknowledgement (device to ACK: the ACK rides on the
 * answer, so this is the wire, the server and the way back), and the
 * answer's arrival at zcc (device to program: the wake-up). The server's
 * side is zcs --stamps's.
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/hist_out.h"
#include "app/out.h"
#include "zcc/rr_internal.h"
#include "zcc/rr_stamps.h"
#include "zcc/send_internal.h"

struct rr_probe *rr_probe_of(const struct conn *c)
{
	return rr_work_of(c)->probe;
}

struct rr_probe *rr_probe_new(const struct rr_cfg *rc)
{
	struct rr_probe *p = rr_probe_make(rc->call_times, rc->stamps, !rc->udp, rc->req_bytes,
					   rc->budget_ns);

	if (!p && (rc->call_times || rc->stamps))
		error(1, ENOMEM, "memory");
	return p;
}

/* One call-times: line, dir "send" or "recv". */
static void calls_line(const char *dir, const struct hist *h, uint64_t budget_ns)
{
	line_begin("call_times");
	line_str("direction", dir, NULL);
	hist_calls_pieces(dir, h, budget_ns);
	line_end();
}

/* The run's probe: every connection's merged into all. */
static void merge(const struct engine *e, struct rr_probe *all, uint64_t *unstamped,
		  uint64_t *errors)
{
	const struct rr_probe *one;

	for (unsigned i = 0; i < e->n; i++) {
		if (!(one = rr_probe_of(&e->c[i])))
			continue;
		hist_merge(&all->send_calls, &one->send_calls);
		hist_merge(&all->recv_calls, &one->recv_calls);
		if (!all->stamps)
			continue;
		tstamp_track_merge(all->tx, one->tx);
		tstamp_track_merge(all->tx, one->wake);
		*unstamped += one->unstamped;
		*errors += one->errors;
	}
}

void rr_probe_lines(const struct engine *e, const struct hist *rtt)
{
	const struct rr_cfg *rc = rr_settings_of();
	struct rr_probe *all = rr_probe_new(rc);
	struct stages_of of = { .rtt = rtt, .arrivals = 1 };

	if (!all)
		return;
	merge(e, all, &of.unstamped, &of.errors);
	of.t = all->tx;
	if (all->stamps)
		stages_line(&of);
	if (all->calls) {
		calls_line("send", &all->send_calls, rc->budget_ns);
		calls_line("recv", &all->recv_calls, rc->budget_ns);
	}
	rr_probe_free(all);
}
