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
	int udp;		/* --proto udp, ip or packet: datagrams with numbers */
	int proto;		/* --proto's (enum rr_proto, lib/wire/rr_proto.h); 0: tcp */
	int proto_given;	/* --proto */
	int ip_proto;		/* --ip-proto; 0: none given (RAW_IP_PROTO) */
	const char *ifname;	/* --ifname; NULL: the route's interface */
	uint32_t req_bytes;	/* -b */
	uint32_t resp_bytes;	/* --response */
	uint64_t msgs;		/* -n: requests per connection; 0: -t */
	uint64_t gap_ns;	/* --gap; 0: closed loop */
	uint64_t budget_ns;	/* --budget; UINT64_MAX: none */
	int clocks_synced;	/* --clocks-synced */
	const char *log;	/* --log FILE; NULL: none */
	const char *plot;	/* --plot FILE; NULL: none */
	int call_times;		/* --call-times */
	int use_write;		/* -M write: write() instead of send() */
	int use_uring;		/* -M uring: io_uring's send and receive */
	int resp_same;		/* no --response: each answer the size of its request */
	int stamps;		/* --stamps */
	uint32_t busy_us;	/* --busy-poll: SO_BUSY_POLL's; 0: none */
	int busy_given;		/* --busy-poll */
};

/* What one-way times the two ends' clocks allow (lib/zcc/rr_times.c). */
enum rr_clocks {
	RR_CLOCKS_APART,	/* boot ids differ or unknown, no --clocks-synced: none */
	RR_CLOCKS_BARE,		/* the messages carry no stamps (under RR_MSG_HDR) */
	RR_CLOCKS_ONE,		/* one boot id: one clock */
	RR_CLOCKS_SYNCED,	/* --clocks-synced, each end's error known */
	RR_CLOCKS_UNSYNCED,	/* --clocks-synced, but an end is not synchronised */
};

struct engine;
struct send_result;

/* One connection's figures, merged into the run's by rr_report. */
struct rr_figures {
	uint64_t sent, answered;
	uint64_t lost, duplicated, reordered;	/* datagrams */
	uint64_t foreign;	/* raw: packets of another run, or cut short */
	struct hist due;	/* from when each request was due (closed loop: sent) */
	struct hist sent_h;	/* --gap: from when it went out */
	uint64_t lag_max, behind, pauses, pause_max, due_count;
	double lag_mean;
	int cannot_keep;
	enum rr_clocks clocks;	/* one-way times: */
	uint32_t err_here_us, err_there_us;	/* adjtimex esterror, UINT32_MAX: unsynchronised */
	struct hist out, back;	/* one-way, client to server and back */
	uint64_t clock_off;	/* answers left out of them: the clocks disagreed or stepped */
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
 * with --gap the sent-time and schedule lines, one-way: where it applies,
 * with -c the cpu: line per transaction, then --plot's chart
 * (lib/zcc/rr_report.c); the run's figures into r->rr.
 */
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
 * The lines of the times beyond the round trip (lib/zcc/rr_lines.c).
 * rr_one_way_line - one-way:, when the clocks allow or --clocks-synced
 * asked (else nothing). rr_clocks_merge - one connection's one-way
 * figures into the run's f. rr_interval - conn_rr's -I line over ns
 * (each connection's interval histogram taken and reset; rep: -W's).
 * rr_figs_line - h's percentiles, max, mean and sd, JSON keys after
 * prefix, in us rounded to step_us (0: to 0.1 us); of no values the
 * text "none", every key null.
 */
struct where_report;
void rr_one_way_line(const struct rr_figures *f);
void rr_clocks_merge(struct rr_figures *f, const struct rr_figures *one);
void rr_interval(const struct engine *e, uint64_t ns, const struct where_report *rep);
void rr_figs_line(const char *prefix, const struct hist *h, double step_us);

/* rr_plot - --plot: f's distributions as an SVG chart into path (lib/zcc/rr_plot.c). */
void rr_plot(const char *path, const struct rr_figures *f, int open_loop);

/*
 * --log FILE (lib/zcc/rr_log.c): rr_log_check - at the door: a file that
 * exists is one usage line, exit 2. rr_log_open - create it (once, for
 * the first run), its header written; it exists by now: exit 2, it cannot
 * be made: exit 1. rr_log_sync - after a run, its rows written (a write
 * that failed: one line, exit 1); nothing without --log.
 */
void rr_log_check(const char *path);
void rr_log_open(const char *path);
void rr_log_sync(void);

/*
 * rr_time_arg - a time such as 100us, 10ms, 1.5s or 2 (seconds) given to
 * option name, in ns, min_ns..max_ns; a bad one is one usage line, exit 2.
 */
uint64_t rr_time_arg(const char *name, const char *arg, uint64_t min_ns, uint64_t max_ns);

#endif
