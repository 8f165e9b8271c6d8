/*
 * zcc --rr's lines (lib/zcc/rr.h): the run's connections' figures merged,
 * then
 *
 *   rr: N transactions in S s, RATE transactions/sec, request B bytes, response B bytes
 *   latency: p50 X us, p90 .., p99 .., p99.9 .., p99.99 .., max .., mean .., sd .. us
 *            [, over BUDGET us: K of N, P%]
 *   sent-time: the same from each request's actual send (--gap)
 *   schedule: S of D requests sent, behind by at most X us (mean Y us) (--gap)
 *   one-way: ... (where the clocks allow: lib/zcc/rr_lines.c)
 *   cpu: load PCT% of NCPUS CPUs, X us/Tran, zcc itself Y us/Tran (-c)
 *        [; zcs: ...: the far end's, by its report (lib/zcc/rr_far.c)]
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/hist_out.h"
#include "app/out.h"
#include "app/where_out.h"
#include "base/parse.h"
#include "base/safe_text.h"
#include "app/opt.h"
#include "zcc/rr.h"
#include "zcc/rr_stamps.h"
#include "zcc/send_internal.h"

/* One latency line of h: event (latency, latency_sent), its text's head. */
static void latency_line(const char *event, const char *head, const struct hist *h,
			 uint64_t budget_ns)
{
	line_begin(event);
	line_text("%s", head);
	hist_pieces(h, budget_ns);
	line_end();
}

static void rr_line(const struct rr_figures *f, const struct send_result *r,
		    const struct rr_cfg *rc)
{
	double secs = (double)r->ns / 1e9;

	line_begin("rr");
	line_u64("transactions", f->answered, "rr: %" PRIu64 " transactions");
	line_num("seconds", secs, 3, " in %.3f s");
	line_num("transactions_per_sec", secs > 0 ? (double)f->answered / secs : 0, 0,
		 ", %.0f transactions/sec");
	line_u64("request_bytes", rc->req_bytes, ", request %" PRIu64 " bytes");
	line_u64("response_bytes", rc->resp_bytes, ", response %" PRIu64 " bytes");
	line_u64("requests", f->sent, NULL);
	if (rc->gap_ns)
		line_num("gap_us", (double)rc->gap_ns / 1e3, 3, NULL);
	line_str("proto", rc->proto == RR_IP ? "ip" : rc->proto == RR_PACKET ? "packet" :
		 rc->udp ? "udp" : "tcp", rc->proto > RR_UDP ? " over %s" : NULL);
	if (rc->udp) {
		line_u64("lost", f->lost, ", lost %" PRIu64);
		line_u64("duplicated", f->duplicated, ", duplicated %" PRIu64);
		line_u64("reordered", f->reordered, ", reordered %" PRIu64);
	}
	if (rc->proto > RR_UDP)
		line_u64("foreign", f->foreign, ", foreign %" PRIu64);
	line_u64("busy_poll_us", rc->busy_us, rc->busy_us ? ", busy polling %" PRIu64 " us" : NULL);
	line_bool("interrupted", r->interrupted, " (interrupted)");
	line_num("stopped_seconds", (double)r->stopped_ns / 1e9, 3,
		 r->stopped_ns >= 50000000u ? " (%.1f s stopped)" : NULL);
	report_tcp_keys(&r->tcp);
	line_end();
}

/* --gap: how the sender kept its schedule. */
static void schedule_line(const struct rr_figures *f)
{
	line_begin("schedule");
	line_u64("requests", f->sent, "schedule: %" PRIu64);
	line_u64("due", f->due_count, " of %" PRIu64 " requests sent");
	line_num("lag_max_us", (double)f->lag_max / 1e3, 3, ", behind by at most %.1f us");
	line_num("lag_mean_us", f->lag_mean / 1e3, 3, " (mean %.1f us)");
	line_u64("behind", f->behind, ", %" PRIu64 " sends late");
	line_u64("pauses", f->pauses, NULL);
	line_num("pause_max_us", (double)f->pause_max / 1e3, 3,
		 f->pauses ? ", the sender paused, at most %.1f us" : NULL);
	line_bool("cannot_keep", f->cannot_keep, " (the gap cannot be kept here)");
	line_end();
}

/* -c: per transaction (rr_keep's figures). */
static void cpu_line(const struct sender *sd, const struct send_result *r)
{
	line_begin("cpu");
	line_num("load_pct", r->load * 100, 1, "cpu: load %.1f%%");
	line_int("ncpus", r->ncpus, " of %lld CPUs");
	line_num("us_per_tran", r->rr.tran, 3, ", %.3f us/Tran");
	line_num("own_us_per_tran", r->rr.own_tran, 3, ", zcc itself %.3f us/Tran");
	line_str("meter", r->meter, NULL);
	if (r->rx_ok && r->rx.rr)
		rx_report_tran(&r->rx);
	if (sd->where)
		where_line(where_span_report(sd->run));
	line_end();
}

/* The run's figures: every connection's summed, their histograms merged. */
static void merge(const struct engine *e, struct rr_figures *f)
{
	const struct rr_figures *one;

	for (unsigned i = 0; i < e->n; i++) {
		one = rr_figures_of(&e->c[i]);
		f->sent += one->sent;
		f->answered += one->answered;
		f->lost += one->lost;
		f->foreign += one->foreign;
		f->duplicated += one->duplicated;
		f->reordered += one->reordered;
		hist_merge(&f->due, &one->due);
		hist_merge(&f->sent_h, &one->sent_h);
		f->due_count += one->due_count;
		f->behind += one->behind;
		f->pauses += one->pauses;
		f->lag_max = one->lag_max > f->lag_max ? one->lag_max : f->lag_max;
		f->pause_max = one->pause_max > f->pause_max ? one->pause_max : f->pause_max;
		f->lag_mean += one->lag_mean / e->n;
		f->cannot_keep |= one->cannot_keep;
		rr_clocks_merge(f, one);
	}
}

void rr_report(const struct engine *e, struct send_result *r)
{
	static struct rr_figures run;	/* two histograms: too large for a stack */
	const struct rr_cfg *rc = rr_settings_of();
	struct rr_figures *f = &run;

	memset(f, 0, sizeof(*f));
	hist_init(&f->due, rc->budget_ns);
	hist_init(&f->sent_h, rc->budget_ns);
	hist_init(&f->out, rc->budget_ns);
	hist_init(&f->back, rc->budget_ns);
	merge(e, f);
	rr_keep(r, f);
	rr_line(f, r, rc);
	latency_line("latency", rc->gap_ns ? "latency from due: " : "latency: ", &f->due,
		     rc->budget_ns);
	if (rc->gap_ns) {
		latency_line("latency_sent", "latency from send: ", &f->sent_h, rc->budget_ns);
		schedule_line(f);
	}
	rr_one_way_line(f);
	rr_probe_lines(e, rc->gap_ns ? &f->sent_h : &f->due);	/* --stamps, --call-times */
	if (r->measured)
		cpu_line(e->sd, r);
	if (rc->plot)	/* after every line: a chart that fails loses none */
		rr_plot(rc->plot, f, rc->gap_ns > 0);
	if (out_failed())
		exit(1);
}

uint64_t rr_time_arg(const char *name, const char *arg, uint64_t min_ns, uint64_t max_ns)
{
	char shown[SAFE_LEN];
	const char *why;
	double v;

	if (parse_time(arg, (double)min_ns / 1e9, (double)max_ns / 1e9, &v, &why) < 0)
		usage_error("%s '%s': %s (a time: 100us, 10ms, 1.5s; %g to %g s)", name,
			    safe_text(arg, shown, sizeof(shown)), why, (double)min_ns / 1e9,
			    (double)max_ns / 1e9);
	return (uint64_t)(v * 1e9 + 0.5);
}
