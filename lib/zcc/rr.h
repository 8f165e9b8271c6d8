/*
 * zcc --rr: request/response over the wire of lib/wire/rr_proto.h. Each
 * connection of the engine (lib/zcc/conn.h) does the work conn_rr: the
 * hello and its ack, then requests closed loop (the next when the
 * answer is in) or open loop (--gap: one every gap, lib/base/pace.h),
 * each round trip recorded into the connection's histograms
 * (lib/base/hist.h); the run's lines merge them (lib/zcc/rr_report.c).
 */
#ifndef ZC_ZCC_RR_H
#define ZC_ZCC_RR_H

#include <stdint.h>

#include "app/figures.h"
#include "base/hist.h"
#include "zcc/conn.h"

#define RR_DEFAULT_SECS 10	/* --rr without -n or -t, as netperf */

/* What the command line says about --rr, set by the program's parser. */
struct rr_cfg {
	int on;			/* --rr */
	int udp;		/* --proto udp */
	int proto_given;	/* --proto */
	uint32_t req_bytes;	/* -b */
	uint32_t resp_bytes;	/* --response */
	uint64_t msgs;		/* -n: requests per connection; 0: -t */
	uint64_t gap_ns;	/* --gap; 0: closed loop */
	uint64_t budget_ns;	/* --budget; UINT64_MAX: none */
	int use_write;		/* -M write: write() instead of send() */
	int resp_same;		/* no --response: each answer the size of its request */
};

/* One connection's figures, merged into the run's by rr_report. */
struct rr_figures {
	uint64_t sent, answered;
	uint64_t lost, duplicated, reordered;	/* UDP */
	struct hist due;	/* from when each request was due (closed loop: sent) */
	struct hist sent_h;	/* --gap: from when it went out */
	uint64_t lag_max, behind, pauses, pause_max, due_count;
	double lag_mean;
	int cannot_keep;
};

/* The request/response work (lib/zcc/conn_rr.c); needs rr_cfg_set first. */
extern const struct conn_ops conn_rr;

/* rr_cfg_set - the settings conn_rr's connections read; rr_settings_of - them. */
void rr_cfg_set(const struct rr_cfg *rc);
const struct rr_cfg *rr_settings_of(void);

/*
 * rr_send_run - one run of conn_rr on sd's connections (send_run's
 * engine, sd opened by send_open without files), its lines printed.
 */
struct send_result rr_send_run(struct sender *sd);

/* rr_figures_of - c's figures (a connection of conn_rr's). */
const struct rr_figures *rr_figures_of(const struct conn *c);

/*
 * rr_report - the engine's lines of a run of conn_rr: rr:, latency:,
 * with --gap the sent-time and schedule lines, with -c the cpu: line per
 * transaction (lib/zcc/rr_report.c); the run's figures into r->rr.
 */
struct engine;
struct send_result;
void rr_report(const struct engine *e, struct send_result *r);

/*
 * rr_keep - f's figures (a run's, its connections' merged) into r->rr:
 * transactions/sec over r's seconds, the percentiles of f->due, and per
 * transaction the machine's CPU time (with -c: load x CPUs x seconds /
 * transactions, netperf's service demand for RR) and zcc's own
 * (lib/zcc/rr_rounds.c).
 */
void rr_keep(struct send_result *r, const struct rr_figures *f);

/* rr_fig_of - a run's figures (r->rr, the load with -c) as figures.h keeps them. */
struct fig_run rr_fig_of(const struct send_result *r);

/*
 * rr_summary - -R: the median, least and most of the n runs' transaction
 * rates, p50 and p99 (and us/Tran with -c), one line. A failed stdout is
 * exit 1.
 */
void rr_summary(const struct send_result *rs, unsigned n);

/*
 * rr_variant_run - one run of variant v (its request size, gap, protocol
 * and method) with the rest of asked, on sd; its lines printed.
 */
struct variant;
struct send_result rr_variant_run(struct sender *sd, const struct rr_cfg *asked,
				  const struct variant *v);

/*
 * rr_time_arg - a time such as 100us, 10ms, 1.5s or 2 (seconds) given to
 * option name, in ns, min_ns..max_ns; a bad one is one usage line, exit 2.
 */
uint64_t rr_time_arg(const char *name, const char *arg, uint64_t min_ns, uint64_t max_ns);

#endif
