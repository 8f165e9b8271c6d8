/*
 * zcc --rr's lines of the probes (lib/zcc/rr_stamps.h), after the
 * round trip's:
 *
 *   stages: user to qdisc p50 X us, p99 Y us, max Z us; qdisc to device
 *           ...; device to ACK ...; device to program ...; medians add
 *           to S us of a round trip's p50 R us; stamps missing M, late
 *           L, again A, stepped K, arrivals unstamped U
 *   call-times: N send calls, p50 ... (lib/app/hist_out.h)
 *   call-times: N recv calls, p50 ...
 *
 * The stages are the request's way out (user to qdisc, qdisc to device),
 * for TCP its acknowledgement (device to ACK: the ACK rides on the
 * answer, so this is the wire, the server and the way back), and the
 * answer's arrival at zcc (device to program: the wake-up). The server's
 * side is not stamped. A stage no stamp came for is said ("not stamped
 * here": loopback and a device whose driver stamps nothing), never zero.
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

/* One stage's pieces: its percentiles, or that it got no stamp. */
static void stage_pieces(const struct tstamp_track *t, enum tstamp_stage s, int first)
{
	const struct hist *h = &t->stage[s];
	const char *key = tstamp_stage_key(s);
	char k[64];

	line_text("%s%s", first ? "" : "; ", tstamp_stage_name(s));
	snprintf(k, sizeof(k), "%s_count", key);
	line_u64(k, hist_count(h), NULL);
	snprintf(k, sizeof(k), "%s_p50_us", key);
	line_num(k, hist_count(h) ? (double)hist_at(h, 50) / 1e3 : NAN, 3,
		 hist_count(h) ? " p50 %.1f us" : ": not stamped here");
	snprintf(k, sizeof(k), "%s_p99_us", key);
	line_num(k, hist_count(h) ? (double)hist_at(h, 99) / 1e3 : NAN, 3,
		 hist_count(h) ? ", p99 %.1f us" : NULL);
	snprintf(k, sizeof(k), "%s_max_us", key);
	line_num(k, hist_count(h) ? (double)hist_max(h) / 1e3 : NAN, 3,
		 hist_count(h) ? ", max %.1f us" : NULL);
}

void zcc_stages_line(const struct stages_of *of)
{
	const struct tstamp_track *t = of->t;
	double sum = 0;

	line_begin("stages");
	line_text("stages");
	if (!of->rtt) {
		line_u64("every", of->every, " (1 send in %" PRIu64);
		line_u64("stamped_sends", t->sent, ", %" PRIu64 " stamped)");
	}
	line_text(": ");
	for (int s = 0; s < TS_STAGES; s++) {
		stage_pieces(t, (enum tstamp_stage)s, s == 0);
		if (hist_count(&t->stage[s]))
			sum += (double)hist_at(&t->stage[s], 50) / 1e3;
	}
	line_num("sum_p50_us", sum, 3, "; medians add to %.1f us");
	if (of->rtt)
		line_num("rtt_p50_us", hist_count(of->rtt) ? (double)hist_at(of->rtt, 50) / 1e3 :
			 NAN, 3, " of a round trip's p50 %.1f us");
	line_u64("stamps_missing", tstamp_track_missing(t), "; stamps missing %" PRIu64);
	line_u64("stamps_late", t->late, ", late %" PRIu64);
	line_u64("stamps_again", t->again, ", again %" PRIu64);
	line_u64("stamps_stepped", t->stepped, ", stepped %" PRIu64);
	if (of->rtt)
		line_u64("arrivals_unstamped", of->unstamped, ", arrivals unstamped %" PRIu64);
	line_u64("errqueue_errors", of->errors, of->errors ? ", error queue failed %" PRIu64
		 " times" : NULL);
	line_end();
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
	struct stages_of of = { .rtt = rtt };

	if (!all)
		return;
	merge(e, all, &of.unstamped, &of.errors);
	of.t = all->tx;
	if (all->stamps)
		zcc_stages_line(&of);
	if (all->calls) {
		calls_line("send", &all->send_calls, rc->budget_ns);
		calls_line("recv", &all->recv_calls, rc->budget_ns);
	}
	rr_probe_free(all);
}
