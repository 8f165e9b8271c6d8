/*
 * zcc --rr's options checked against the rest of the command line, at
 * the door: what means nothing with request/response is one usage line,
 * exit 2 (lib/zcc/rr.h).
 */
#include <inttypes.h>
#include <string.h>

#include "app/opt.h"
#include "app/optab.h"
#include "zcc/rr.h"
#include "zcc/rr_args.h"
#include "wire/rr_proto.h"
#include "wire/tstamp_every.h"

/* --proto udp: what a datagram run needs. */
static void check_udp(const struct rr_cfg *rc, const struct rr_given *g)
{
	if (!rr_timed(rc->req_bytes, rc->resp_bytes))
		usage_error("--proto udp: every datagram carries its number: -b and --response "
			    "of at least %d bytes", RR_MSG_HDR);
	if (rc->req_bytes > RR_UDP_MAX)
		usage_error("--proto udp: a datagram holds at most %u bytes (-b)", RR_UDP_MAX);
	if (rc->resp_bytes > rc->req_bytes)
		usage_error("--proto udp: --response %" PRIu32 " above -b %" PRIu32 ": over UDP an "
			    "answer is never larger than its request (no amplifier)",
			    rc->resp_bytes, rc->req_bytes);
	if (g->mptcp)
		usage_error("--proto udp: --mptcp is TCP's");
}

void rr_check_args(const struct optab_parser *p, const struct optab *rows,
		   const struct rr_given *g, struct rr_cfg *rc, struct send_cfg *sc)
{
	const struct optab *o;

	for (const int *k = g->stream_only; *k; k++) {
		if (!optab_given(p, *k) || !(o = optab_find(rows, *k)))
			continue;
		if (*k < 256)
			usage_error("--rr: -%c is for streaming files", *k);
		usage_error("--rr: --%s is for streaming files", o->name);
	}
	if (g->n_names)
		usage_error("--rr sends requests, not files: give no file names");
	if (g->method && strcmp(g->method, "send") != 0 && strcmp(g->method, "write") != 0)
		usage_error("--rr -M %s: messages go by send (or write, the same here); the "
			    "file methods have no file to send", g->method);
	if (g->chunks && strchr(g->chunks, ','))
		usage_error("--rr -b %s: one request size (--rr compares no lists yet)", g->chunks);
	rc->req_bytes = g->chunks ? (uint32_t)opt_size('b', g->chunks, 1, RR_MSG_MAX) :
			rc->udp ? RR_MSG_HDR : 1;
	if (!rc->resp_bytes)
		rc->resp_bytes = rc->req_bytes;
	if (rc->udp)
		check_udp(rc, g);
	if (rc->log)
		rr_log_check(rc->log);
	rc->msgs = optab_given(p, 'n') ? g->loops : 0;
	if (!rc->msgs && sc->secs == 0)
		sc->secs = RR_DEFAULT_SECS;
}

void rr_opt(int opt, const char *arg, struct rr_cfg *rc)
{
	switch (opt) {
	case OPT_RR: rc->on = 1; break;
	case OPT_RESPONSE: rc->resp_bytes = (uint32_t)opt_size(opt, arg, 1, RR_MSG_MAX); break;
	case OPT_GAP: rc->gap_ns = rr_time_arg("--gap", arg, 1000, 1000000000000u); break;
	case OPT_BUDGET: rc->budget_ns = rr_time_arg("--budget", arg, 1, UINT64_MAX / 2); break;
	case OPT_LOG: rc->log = arg; break;
	case OPT_CLOCKS_SYNCED: rc->clocks_synced = 1; break;
	case OPT_CALL_TIMES: rc->call_times = 1; break;
	case OPT_STAMPS: rc->stamps = 1; break;
	case OPT_PROTO:
		if (strcmp(arg, "tcp") != 0 && strcmp(arg, "udp") != 0)
			usage_error("--proto '%s': tcp or udp", arg);
		rc->udp = strcmp(arg, "udp") == 0;
		rc->proto_given = 1;
		break;
	default: opt_refused(opt);
	}
}

void rr_stream_settings(const struct rr_cfg *rc, const char *method, struct send_cfg *sc)
{
	sc->call_times = rc->call_times && !rc->on;
	sc->budget_ns = rc->budget_ns;
	sc->stamps = rc->stamps && !rc->on;
	if (sc->stamps && (!method || strcmp(method, "send") != 0))
		usage_error("--stamps without --rr stamps one send in %d by its control data: "
			    "give -M send (%s%s sends none)", TSTAMP_EVERY, method ? "-M " : "the default ",
			    method ? method : "sendfile");
}

void rr_check_unused(const struct rr_cfg *rc)
{
	if (rc->resp_bytes || rc->gap_ns || rc->proto_given || rc->log || rc->clocks_synced)
		usage_error("--%s is for request/response: give --rr", rc->resp_bytes ? "response" :
			    rc->gap_ns ? "gap" : rc->proto_given ? "proto" : rc->log ? "log" :
			    "clocks-synced");
	if (rc->budget_ns != UINT64_MAX && !rc->call_times)
		usage_error("--budget counts round trips (--rr) or system calls (--call-times): "
			    "give one");
}
