/* zcc --rr's command line checked at the door (lib/zcc/rr_args.c). */
#ifndef ZC_ZCC_RR_ARGS_H
#define ZC_ZCC_RR_ARGS_H

#include "app/optab.h"
#include "zcc/compare.h"
#include "zcc/rr.h"
#include "zcc/send.h"

/* --rr's long options, beside zcc.c's (which end below 320), and the
 * time across each call's, which streams take too. */
enum { OPT_RR = 320, OPT_RESPONSE, OPT_GAP, OPT_BUDGET, OPT_PROTO, OPT_LOG,
       OPT_CLOCKS_SYNCED };
enum { OPT_CALL_TIMES = 340 };
enum { OPT_STAMPS = 350 };
enum { OPT_IP_PROTO = 360, OPT_IFNAME };
enum { OPT_BUSY_POLL = 370 };
#define RR_BUSY_POLL_MAX 1000000	/* --busy-poll's largest, us: a second */

/* Their entries in zcc.c's one option table (lib/app/optab.h). */
#define RR_OPTAB \
	{ OPT_RR, "rr", NULL, "request/response with zcs instead of files (zcc(1)): requests " \
	  "of -b bytes (default 1), closed loop; -n counts requests; prints rr: and latency:. " \
	  "-M (send, write, uring), -b, --gap and --proto take comma lists: each combination a " \
	  "variant, compared in rounds (-R) on --decide's figure; -R alone: a summary of " \
	  "the transaction rate, p50 and p99 (and us/Tran with -c)" }, \
	{ OPT_RESPONSE, "response", "BYTES", "with --rr: the answer's size (default -b's)" }, \
	{ OPT_GAP, "gap", "TIME", "with --rr: open loop, a request every TIME (100us, 1ms, 2s) " \
	  "whatever the answers; latency from when each was due, and from its send; " \
	  "a comma list (10ms,1ms,100us) makes a variant of each gap" }, \
	{ OPT_BUDGET, "budget", "TIME", "with --rr or --call-times: count the round trips " \
	  "and the timed calls over TIME, each latency: and call-times: line its own" }, \
	{ OPT_CALL_TIMES, "call-times", NULL, "time each system call that moves data: its " \
	  "distribution and max (call-times: line; with --rr one for send, one for recv)" }, \
	{ OPT_STAMPS, "stamps", NULL, "the kernel's stamps (SO_TIMESTAMPING) of each request " \
	  "and answer with --rr, of one send in 64 with -M send: the stages: line, user to " \
	  "qdisc, qdisc to device, device to ACK, device to program" }, \
	{ OPT_PROTO, "proto", "PROTO", "with --rr: tcp (default), udp, ip (raw IP) or packet " \
	  "(raw Ethernet): the last three stamped messages of 64 bytes or more, answers no " \
	  "longer than requests; lost, duplicated, reordered; ip and packet need CAP_NET_RAW " \
	  "and a message within the MTU; tcp,udp makes a variant of each" }, \
	{ OPT_IP_PROTO, "ip-proto", "N", "with --proto ip: the IP protocol number (default 253, " \
	  "for experiments; one the kernel speaks itself is refused)" }, \
	{ OPT_IFNAME, "ifname", "IF", "with --proto packet: the interface (default: the one " \
	  "that routes to the server); the server's MAC from the neighbour table" }, \
	{ OPT_LOG, "log", "FILE", "with --rr: every answer's times into FILE, one CSV row " \
	  "each under a header naming the columns (ns); FILE must not exist" }, \
	{ OPT_BUSY_POLL, "busy-poll", "US", "with --rr: busy-poll the device's queue for up " \
	  "to US microseconds in each receive (SO_BUSY_POLL, SO_PREFER_BUSY_POLL; 0: off), " \
	  "where the connection has a NAPI ID (not loopback); a list (0,50) makes a variant " \
	  "of each" }, \
	{ OPT_CLOCKS_SYNCED, "clocks-synced", NULL, "with --rr: the two ends' realtime " \
	  "clocks are synchronised (NTP, PTP): one-way times across machines, each end's " \
	  "clock error stated and no figure finer than it" }

/* rr_opt - opt (one of the enum above) with its arg into *rc; any other: opt_refused. */
void rr_opt(int opt, const char *arg, struct rr_cfg *rc);

/* What else the command line gave, that --rr has to judge. */
struct rr_given {
	int n_names;			/* files */
	const char *method;		/* -M */
	const char *chunks;		/* -b as given */
	uint32_t loops;			/* -n */
	const int *stream_only;		/* the options of streaming files, 0 ended */
	int mptcp;			/* --mptcp */
	int baseline;			/* --baseline */
};

/*
 * rr_check_args - --rr with the rest of the command line (p, parsed with
 * rows): one usage line and exit 2 for what means nothing; the variants
 * of -M, --proto, -b, --gap and --busy-poll (each a comma list) into vs, every one
 * checked (-M: send or write, another refused with the reason; UDP's
 * sizes), the first's settings into *rc (a request of 1 byte by default,
 * as netperf's TCP_RR, 64 with UDP; the answer as the request), -n's
 * count, and without -n or -t, -t RR_DEFAULT_SECS.
 */
void rr_check_args(const struct optab_parser *p, const struct optab *rows,
		   const struct rr_given *g, struct rr_cfg *rc, struct send_cfg *sc,
		   struct variants *vs);

/*
 * rr_decide_arg - --decide's value under --rr (NULL: the default, p99): a
 * round trip's percentile or us/Tran (which needs -c, measured). Anything
 * else: one usage line, exit 2. rr_decide_name - arg's place among those
 * names, or -1.
 */
enum fig_id rr_decide_arg(const char *arg, int measured);
int rr_decide_name(const char *arg);

/*
 * rr_stream_settings - what stream mode takes of rc into sc: --call-times
 * and --budget, and --stamps (one send in TSTAMP_EVERY, -M send only:
 * method, as -M gave it, NULL: the default; else one usage line, exit 2).
 * Under --rr the request/response work times and stamps its own.
 */
void rr_stream_settings(const struct rr_cfg *rc, const char *method, struct send_cfg *sc);

/* rr_check_unused - without --rr, an RR option is a usage error (--budget
 * is --call-times' too). */
void rr_check_unused(const struct rr_cfg *rc);

#endif
