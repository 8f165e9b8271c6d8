/*
 * Sending as zcc does: the whole protocol stream of a file set to a zcs,
 * on one connection or on each of the N of -P, with the interval lines
 * and stall limit of -I and -T, and with -c the meter's reading over it. What a run measured is a send_result, printed
 * by lib/zcc/report.h. These are the program layer: a failure is one
 * line and exit 1, a stop signal ends the run with what was sent so far
 * (interrupted).
 */
#ifndef ZC_ZCC_SEND_H
#define ZC_ZCC_SEND_H

#include <stdint.h>

#include "zcc/fileset.h"
#include "zcc/rxreport.h"
#include "app/mptcp_out.h"
#include "app/where_session.h"
#include "meter/meter.h"
#include "meter/others.h"
#include "wire/net.h"
#include "wire/tcpinfo.h"
#include "wire/tx.h"

/* What the command line says about sending, set by the program's parser. */
struct send_cfg {
	const char *host;		/* -s */
	unsigned port;			/* -p */
	const struct tx_method *method;	/* -M, -S, -w */
	size_t chunk;			/* -b */
	int cork;			/* -k */
	struct net_opts sockopts;	/* -i, -o, -D; connect_secs: -T */
	double interval;		/* -I; 0: none */
	double stall;			/* -T; 0: wait for ever */
	unsigned streams;		/* -P */
	double secs;			/* -t: each run lasts this long; 0: -n */
	int *cpus;			/* -B: the CPUs of the list */
	int n_cpus;
	int debug;			/* -d */
	int rx_report;			/* --receiver-report */
	int call_times;			/* --call-times */
	int stamps;			/* --stamps: one send in TSTAMP_EVERY stamped (-M send) */
	uint64_t budget_ns;		/* --budget; UINT64_MAX: none */
};

/* What a run of --rr measured, as its figures (us). */
struct rr_run {
	int on;				/* a run of --rr: the figures are set */
	double tps;			/* transactions/sec */
	double p50, p90, p99, p999;	/* the round trip's percentiles */
	double tran, own_tran;		/* the machine's CPU (-c), zcc's own, per transaction */
};

/* What one run measured. */
struct send_result {
	uint64_t bytes, ns;
	uint64_t calls;		/* system calls that moved the data (-W) */
	uint64_t ns_closed;	/* from the first byte to the server's close */
	uint64_t stopped_ns;	/* zcc itself was stopped (lib/zcc/suspended.h) */
	double rate;		/* kbytes/sec */
	int interrupted;
	const char *ended;	/* a failure ended it: why, in a word or two */
	int refused;		/* the kernel refused the method (sender.refusal) */
	uint64_t zc_sends, zc_copied;	/* zero-copy methods */
	struct tcp_figures tcp;	/* TCP_INFO at the end (-P: summed, rtt the mean) */
	int measured;		/* -c: the cpu figures below are set */
	double load, demand, own;
	double soaker_switches;	/* a second per CPU (meter_presence); NAN: none */
	int ncpus;
	const char *meter;	/* the meter's method */
	struct others_report others;	/* other processes' share, same period */
	int rx_ok;		/* --receiver-report: rx holds the receiver's */
	struct rxreport rx;
	struct rr_run rr;	/* --rr */
};

/* One sender: its settings, its files, and with -c its meter. */
struct sender {
	const struct send_cfg *cfg;
	struct file_set files;
	struct meter *meter;		/* -c; NULL: none */
	struct where_session *where;		/* -W; NULL: none */
	struct where_span *run;		/* -W: the run's stretch, its report after it */
	struct where_span *interval;		/* -W -I: the interval's (the watcher's) */
	struct others_span *others;	/* -c: other processes over the run */
	int env_due;			/* the env record waits for a connection */
	int mptcp;			/* --mptcp, and the kernel says the run's
					 * connection (-P: any) is MPTCP */
	struct mptcp_subflows subflows;	/* --mptcp: the run's connection's */
	int refusal_ok;			/* a refused method ends the run, not zcc */
	char refusal[512];		/* and why */
};

/*
 * send_open - ready sd for its runs: the machine's env record read early
 * (the first run prints it), the open-file and thread limits checked
 * for n_names files and the streams, the files opened (names NULL: none),
 * with meter (-c; NULL: none) the meter opened and with where -W over it,
 * then with cpu >= 0 this process bound to it (-B). A refusal is one line
 * and exit 1.
 */
void send_open(struct sender *sd, const char *const *names, int n_names,
	       const struct meter_cfg *meter, int where, int cpu);

/*
 * send_meter - read m over every run from now on; with where, also where
 * its load went (-W): a refusal is one line and exit 1, kernel work that
 * cannot be sampled a warning.
 */
void send_meter(struct sender *sd, struct meter *m, int where);

/*
 * send_run - one run: sd->cfg->streams connections (one, or the N of -P,
 * the CPUs of a -B list spread over them round robin), each the whole
 * stream of loops of sd's files (with -t: for the time, lib/zcc/deadline.h)
 * on a connection of its own, seen closed by the server. Prints the run's
 * lines (lib/zcc/report.h): the sent: line of their sum (one stream: the
 * seconds of its sending; -P: from the first stream's start to the last
 * close); with -P and -J a stream event per stream, with -P and -d a line
 * per stream and the slowest/fastest ratio. A failure is one line (-P:
 * naming the stream; the others are shut) and exit 1; a stop signal ends
 * the run with what was sent so far (interrupted). One stream whose method
 * the kernel refuses on the connection is exit 1 too, or with
 * sd->refusal_ok a result refused, printed by none (nothing was sent, the
 * connection is closed; sd->refusal says why).
 */
struct send_result send_run(struct sender *sd, uint32_t loops);

#endif
