/*
 * zcc's lines: the sent: line of a run and, with -c, its cpu: line (and
 * -W's where lines); the summary of -R; the -d lines beside them.
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/out.h"
#include "zcc/report.h"
#include "zcc/run_record.h"
#include "zcc/rxreport.h"
#include "zcc/send_internal.h"
#include "app/hist_out.h"
#include "app/others_out.h"
#include "app/where_out.h"
#include "base/rate.h"
#include "base/stats.h"

/*
 * --mptcp, a method that hands the socket pages (sendfile, splice): no
 * completion says whether the kernel copied them (MPTCP's send path
 * does), so the line says that it cannot say, and how to find out.
 */
static void print_unreported(const char *method)
{
	char text[160];

	snprintf(text, sizeof(text), " (--mptcp: the kernel does not report whether %s "
		 "copied; -M %s,send -c compares)", method, method);
	line_bool("copy_unreported", 1, text);
}

static void print_sent(const struct sender *sd, const struct send_result *r)
{
	line_begin("sent");
	line_text("sent: ");
	line_u64("bytes", r->bytes, "%" PRIu64 " bytes");
	line_num("seconds", (double)r->ns / 1e9, 3, " in %.3f s");
	line_num("kbytes_per_sec", kbytes_per_sec(r->bytes, r->ns), 0, ", %.0f kbytes/sec");
	line_str("method", sd->cfg->method->name, NULL);
	line_bool("interrupted", r->interrupted, " (interrupted)");
	if (r->ended)
		line_str("ended", r->ended, " (%s)");
	/* After the 2001 fields, so that a line of theirs still parses. */
	line_num("stopped_seconds", (double)r->stopped_ns / 1e9, 3,
		 r->stopped_ns >= 50000000u ? " (%.1f s stopped)" : NULL);
	line_num("own_us_per_kb", r->own, 3, NULL);
	if (sd->cfg->streams > 1)
		line_int("streams", sd->cfg->streams, NULL);
	if (r->zc_sends) {
		line_u64("zc_sends", r->zc_sends, NULL);
		line_u64("zc_copied", r->zc_copied, NULL);
	}
	/* A zero-copy method that copied every send is no zero-copy figure. */
	if (r->zc_sends && r->zc_copied == r->zc_sends && !r->interrupted)
		line_text(" (zero-copy: the kernel copied all %" PRIu64 " sends)", r->zc_sends);
	report_tcp_keys(&r->tcp);
	if (sd->mptcp && sd->cfg->streams == 1)
		line_nested(mptcp_json, NULL, &sd->subflows);
	if (sd->mptcp && (sd->cfg->method->flags & TX_PAGES))
		print_unreported(sd->cfg->method->name);
	line_end();
}

void report_tcp_keys(const struct tcp_figures *tcp)
{
	line_u64("retransmits", tcp->retransmits, NULL);
	line_u64("rtt_us", tcp->rtt_us, NULL);
	line_u64("cwnd_bytes", tcp->cwnd_bytes, NULL);
}

void report_tcp(const char *what, const struct tcp_figures *tcp)
{
	fprintf(stderr, "%s: %stcp: %" PRIu64 " retransmits, rtt %.3f ms, cwnd %" PRIu64
		" KB\n", program_invocation_short_name, what, tcp->retransmits,
		(double)tcp->rtt_us / 1000, tcp->cwnd_bytes / 1024);
}

static void print_cpu(const struct sender *sd, const struct send_result *r)
{
	line_begin("cpu");
	line_num("load_pct", r->load * 100, 1, "cpu: load %.1f%%");
	line_int("ncpus", r->ncpus, " of %lld CPUs");
	line_num("service_demand_us_per_kb", r->demand, 3, ", service demand %.3f us/KB");
	line_num("own_us_per_kb", r->own, 3, ", zcc itself %.3f us/KB");
	line_str("meter", r->meter, NULL);
	line_num("soaker_switches_per_sec", r->soaker_switches, 0, NULL);
	others_line(&r->others, "the service demand");
	if (sd->where)
		where_line(where_span_report(sd->run));
	line_end();
}

/*
 * Why a failure with errnum ended a run, as its sent: line says it; NULL
 * when the peer is not the cause (a file that shrank): no line then.
 * ETIME: the wait for the server's close ran out (-T).
 */
static const char *ended_why(int errnum, int stalled)
{
	if (stalled || errnum == ETIME)
		return "stalled";
	switch (errnum) {
	case EPIPE:
	case ECONNRESET:
	case ECONNABORTED:
		return "peer reset";
	case ETIMEDOUT:
	case ENOTCONN:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case ENETDOWN:
	case EHOSTDOWN:
		return "peer lost";
	default:
		return NULL;
	}
}

void report_ended(const struct sender *sd, struct send_result *r, int errnum, int stalled)
{
	r->ended = ended_why(errnum, stalled);
	if (!r->ended)
		return;
	print_sent(sd, r);
	fflush(stdout);
}

void report_result(const struct sender *sd, const struct send_result *r)
{
	print_sent(sd, r);
	if (r->measured)
		print_cpu(sd, r);
	if (r->rx_ok) {
		rx_report_line(&r->rx);
		run_record_rx(r->rx.method, r->rx.read_bytes);
	}
	if (out_failed())
		exit(1);	/* the at-exit check says why */
	if (r->zc_sends && sd->cfg->debug)
		fprintf(stderr, "%s: zero-copy: %" PRIu64 " sends, %" PRIu64
			" copied by the kernel\n", program_invocation_short_name,
			r->zc_sends, r->zc_copied);
	if (sd->cfg->debug)
		report_tcp("", &r->tcp);
	if (sd->cfg->debug && sd->mptcp && sd->cfg->streams == 1)
		mptcp_debug("", &sd->subflows);
	if (r->measured && !r->interrupted && r->ns < 1000000000u)
		error(0, 0, "warning: a transfer of %.3f s is too short for "
		      "a steady load figure: raise -n or -t", (double)r->ns / 1e9);
}

void report_call_times(const struct sender *sd, const struct hist *h)
{
	line_begin("call_times");
	hist_calls_pieces(sd->cfg->method->name, h, sd->cfg->budget_ns);
	line_end();
	if (out_failed())
		exit(1);	/* the at-exit check says why */
}

void report_interval(uint64_t bytes, uint64_t ns, const struct tcp_figures *tcp,
		     const struct where_report *rep)
{
	line_begin("interval");
	line_num("seconds", (double)ns / 1e9, 3, NULL);
	line_u64("bytes", bytes, NULL);
	line_num("kbytes_per_sec", kbytes_per_sec(bytes, ns), 0, "%.0f kbytes/sec");
	if (rep)
		where_line(rep);
	report_tcp_keys(tcp);
	line_end();
	fflush(stdout);
}

/* One connection's rate, kbytes/sec, over its own time. */
static double conn_rate(const struct conn *c)
{
	return kbytes_per_sec(c->t.bytes, c->t_end - c->t0);
}

/* -d: a line per connection, and how far apart the slowest and fastest are. */
static void debug_conns(const struct engine *e)
{
	const struct conn *c, *slow = &e->c[0], *fast = &e->c[0];
	char what[32];

	for (unsigned i = 0; i < e->n; i++) {
		c = &e->c[i];
		fprintf(stderr, "%s: stream %u: %" PRIu64 " bytes in %.3f s, %.0f kbytes/sec%s\n",
			program_invocation_short_name, c->idx, c->t.bytes,
			(double)(c->t_end - c->t0) / 1e9, conn_rate(c),
			c->interrupted ? " (interrupted)" : "");
		if (conn_rate(c) < conn_rate(slow))
			slow = c;
		if (conn_rate(c) > conn_rate(fast))
			fast = c;
		snprintf(what, sizeof(what), "stream %u: ", c->idx);
		if (e->sd->cfg->debug > 1) {
			report_tcp(what, &c->tcp);
			c->ops->debug(c, what);
		}
		if (c->mptcp)
			mptcp_debug(what, &c->subflows);
	}
	fprintf(stderr, "%s: streams: slowest/fastest %.3f (stream %u, stream %u)\n",
		program_invocation_short_name,
		conn_rate(fast) > 0 ? conn_rate(slow) / conn_rate(fast) : 0,
		slow->idx, fast->idx);
}

void report_conns(const struct engine *e)
{
	const struct conn *c;

	for (unsigned i = 0; i < e->n; i++) {	/* -J: an event each, no text line */
		c = &e->c[i];
		line_begin("stream");
		line_int("stream", c->idx, NULL);
		line_u64("bytes", c->t.bytes, NULL);
		line_num("seconds", (double)(c->t_end - c->t0) / 1e9, 3, NULL);
		line_num("kbytes_per_sec", conn_rate(c), 0, NULL);
		line_bool("interrupted", c->interrupted, NULL);
		report_tcp_keys(&c->tcp);
		if (e->sd->cfg->sockopts.mptcp)	/* the kernel's word on its connection */
			line_bool("mptcp", c->mptcp, NULL);
		if (c->mptcp)
			line_nested(mptcp_json, NULL, &c->subflows);
		line_end();
	}
	if (e->sd->cfg->debug)
		debug_conns(e);
}

/* The figures of a run that the summary takes the median, least and most of. */
enum figure { FIG_RATE, FIG_LOAD, FIG_DEMAND, FIG_RX_OWN, FIG_RX_LOAD, FIG_RX_DEMAND };

static double figure_of(const struct send_result *r, enum figure f)
{
	switch (f) {
	case FIG_LOAD:
		return r->load;
	case FIG_DEMAND:
		return r->demand;
	case FIG_RX_OWN:
		return r->rx.own;
	case FIG_RX_LOAD:
		return r->rx.load;
	case FIG_RX_DEMAND:
		return r->rx.demand;
	case FIG_RATE:
	default:
		return r->rate;
	}
}

/* The median, least and most of one figure of every run. */
static void summarise_one(const struct send_result *rs, unsigned n, enum figure f,
			  double scale, struct stats_sum *sum)
{
	double *v = calloc(n, sizeof(*v));

	if (!v)
		error(1, errno, "memory");
	for (unsigned i = 0; i < n; i++)
		v[i] = figure_of(&rs[i], f) * scale;
	stats_summarise(v, n, sum);
	free(v);
}

/*
 * --receiver-report, every run reported: the receiver's medians, a text
 * line of their own in the summary's object.
 */
static void summary_receiver(const struct send_result *rs, unsigned n)
{
	struct stats_sum own, load, demand;
	int metered = 1;

	for (unsigned i = 0; i < n; i++)
		if (!rs[i].rx_ok)
			return;
		else
			metered &= rs[i].rx.metered;
	summarise_one(rs, n, FIG_RX_OWN, 1, &own);
	line_num("rx_own_us_per_kb_median", own.median, 3,
		 "\nsummary receiver: zcs itself median %.3f us/KB");
	if (!metered)
		return;
	summarise_one(rs, n, FIG_RX_LOAD, 100, &load);
	summarise_one(rs, n, FIG_RX_DEMAND, 1, &demand);
	line_num("rx_load_pct_median", load.median, 1, ", load median %.1f%%");
	line_num("rx_service_demand_us_per_kb_median", demand.median, 3,
		 ", service demand median %.3f us/KB");
}

/*
 * -R: the rates; measured, the loads and service demands too, in the same
 * JSON object but a text line of their own; so the receiver's with
 * --receiver-report.
 */
void report_summary(const struct send_result *rs, unsigned n)
{
	struct stats_sum rate, load, demand;

	summarise_one(rs, n, FIG_RATE, 1, &rate);
	line_begin("summary");
	line_int("runs", n, "summary: %lld runs");
	line_num("kbytes_per_sec_median", rate.median, 0, ", median %.0f kbytes/sec");
	line_num("kbytes_per_sec_min", rate.min, 0, " (min %.0f");
	line_num("kbytes_per_sec_max", rate.max, 0, ", max %.0f)");
	if (rs[0].measured) {
		summarise_one(rs, n, FIG_LOAD, 100, &load);
		summarise_one(rs, n, FIG_DEMAND, 1, &demand);
		line_num("load_pct_median", load.median, 1, "\nsummary cpu: load median %.1f%%");
		line_num("load_pct_min", load.min, 1, " (min %.1f");
		line_num("load_pct_max", load.max, 1, ", max %.1f)");
		line_num("service_demand_us_per_kb_median", demand.median, 3,
			 ", service demand median %.3f us/KB");
		line_num("service_demand_us_per_kb_min", demand.min, 3, " (min %.3f");
		line_num("service_demand_us_per_kb_max", demand.max, 3, ", max %.3f)");
	}
	summary_receiver(rs, n);
	line_end();
	if (out_failed())
		exit(1);
}
