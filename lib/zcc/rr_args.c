/*
 * zcc --rr's options checked against the rest of the command line, at
 * the door: what means nothing with request/response is one usage line,
 * exit 2 (lib/zcc/rr.h). -M, -b, --gap and --proto take comma lists
 * (lib/app/opt_values.h): every combination is a variant, compared in
 * rounds as a stream's methods and sizes are (lib/zcc/compare.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "app/opt.h"
#include "app/opt_values.h"
#include "app/optab.h"
#include "base/safe_text.h"
#include "zcc/rr.h"
#include "zcc/rr_args.h"
#include "wire/rr_proto.h"
#include "wire/tstamp_every.h"

/* --gap's, --proto's and --busy-poll's lists, as the parser read them. */
static struct opt_value cfg_gaps[COMPARE_MAX], cfg_protos[4], cfg_busy[COMPARE_MAX];
static unsigned cfg_n_gaps, cfg_n_protos, cfg_n_busy;

/* The lists crossed into variants: -M, --proto, -b, --gap, --busy-poll. */
#define DIMS 5

static const char *proto_name(int i)
{
	static const char *const names[] = { "tcp", "udp", "ip", "packet", NULL };

	return i >= 0 && i < 4 ? names[i] : NULL;
}

static const char *tx_name(int i)
{
	return tx_methods[i] ? tx_methods[i]->name : NULL;
}

/* --proto udp, ip or packet (name): what a datagram run of those sizes needs. */
static void check_udp(const char *name, uint32_t req, uint32_t resp, int mptcp)
{
	if (!rr_timed(req, resp))
		usage_error("--proto %s: every datagram carries its number: -b and --response "
			    "of at least %d bytes", name, RR_MSG_HDR);
	if (req > RR_UDP_MAX)
		usage_error("--proto %s: a datagram holds at most %u bytes (-b)", name, RR_UDP_MAX);
	if (resp > req)
		usage_error("--proto %s: --response %" PRIu32 " above -b %" PRIu32 ": over a "
			    "datagram protocol an answer is never larger than its request (no "
			    "amplifier)", name, resp, req);
	if (mptcp)
		usage_error("--proto %s: --mptcp is TCP's", name);
}

/* --ip-proto and --ifname: with the protocol they belong to. */
static void check_raw(const struct rr_cfg *rc, int any_ip, int any_packet)
{
	if (rc->ip_proto && !any_ip)
		usage_error("--ip-proto is for --proto ip");
	if (rc->ifname && !any_packet)
		usage_error("--ifname is for --proto packet");
}

/* -M's list: send and write suit a message of a few bytes; the rest, why not. */
static unsigned rr_methods(const char *arg, struct opt_value *m)
{
	static const struct opt_spec spec = { .opt = 'M', .kind = OPT_NAMES,
		.what = "method", .name = tx_name };
	unsigned n = opt_values(&spec, arg ? arg : "send", m, COMPARE_MAX);
	const char *name, *why;

	for (unsigned i = 0; i < n; i++) {
		name = tx_methods[m[i].index]->name;
		if (!strcmp(name, "send") || !strcmp(name, "write") || !strcmp(name, "uring"))
			continue;
		why = tx_methods[m[i].index]->flags & TX_PAGES || !strcmp(name, "mmap") ?
			"it sends from a file, and --rr's messages are in memory" :
			strstr(name, "zc") || !strcmp(name, "zerocopy") ?
			"zero copy pins a message's pages and waits for its completion, which "
			"costs more than copying a small message" :
			"--rr's requests go by send, write or uring only";
		usage_error("--rr -M %s: %s", name, why);
	}
	return n;
}

/* The labels of the lists of more than one item, joined: "write/udp/200/1ms". */
static void variant_name(struct variant *v, const struct opt_value *const at[DIMS],
			 const unsigned count[DIMS])
{
	size_t len = 0;

	v->name[0] = '\0';
	for (int d = 0; d < DIMS; d++)
		if (count[d] > 1)
			len += (size_t)snprintf(v->name + len, sizeof(v->name) - len, "%s%s",
						len ? "/" : "", at[d]->label);
	if (!len)
		snprintf(v->name, sizeof(v->name), "%s", at[0]->label);
}

/* Every combination of methods, protocols, sizes, gaps and busy polls, into vs. */
static void cross(struct variants *vs, const struct opt_value *const list[DIMS],
		  const unsigned count[DIMS])
{
	unsigned n = count[0] * count[1] * count[2] * count[3] * count[4];

	if (n > COMPARE_MAX)
		usage_error("--rr: -M, --proto, -b, --gap and --busy-poll make %u variants, more "
			    "than %d", n, COMPARE_MAX);
	for (unsigned k = 0; k < n; k++) {
		const struct opt_value *at[DIMS];
		struct variant *v = &vs->v[k];
		unsigned rest = k;

		for (int d = DIMS - 1; d >= 0; d--) {
			at[d] = &list[d][rest % count[d]];
			rest /= count[d];
		}
		v->method = tx_methods[at[0]->index];
		v->udp = at[1]->index >= 1;
		v->proto = at[1]->index + RR_TCP;
		v->chunk = (size_t)at[2]->value;
		v->gap_ns = cfg_n_gaps ? (uint64_t)(at[3]->value * 1e9 + 0.5) : 0;
		v->busy_us = (uint32_t)at[4]->value;
		variant_name(v, at, count);
	}
	vs->n = n;
	vs->rr = 1;
	vs->by_size = count[2] > 1 && count[1] == 1 && count[3] == 1 && count[4] == 1;
}

/* The variants of the lists: each checked, the first's settings into rc. */
static void rr_variants(const struct rr_given *g, struct rr_cfg *rc, struct variants *vs)
{
	static const struct opt_spec bspec = { .opt = 'b', .kind = OPT_SIZES, .min = 1,
		.max = RR_MSG_MAX };
	struct opt_value m[COMPARE_MAX], b[COMPARE_MAX], none = { .label = "" };
	struct opt_value tcp = { .index = 0, .label = "tcp" };
	unsigned count[DIMS] = { rr_methods(g->method, m), cfg_n_protos ? cfg_n_protos : 1, 0,
				 cfg_n_gaps ? cfg_n_gaps : 1, cfg_n_busy ? cfg_n_busy : 1 };
	int any_udp = cfg_n_protos > 1 || rc->udp, any_ip = 0, any_packet = 0;
	char dflt[16];
	uint32_t resp;

	snprintf(dflt, sizeof(dflt), "%d", any_udp ? RR_MSG_HDR : 1);
	count[2] = opt_values(&bspec, g->chunks ? g->chunks : dflt, b, COMPARE_MAX);
	cross(vs, (const struct opt_value *const[DIMS]){ m, cfg_n_protos ? cfg_protos : &tcp, b,
	      cfg_n_gaps ? cfg_gaps : &none, cfg_n_busy ? cfg_busy : &none }, count);
	rc->resp_same = !rc->resp_bytes;
	for (unsigned i = 0; i < vs->n; i++) {
		resp = rc->resp_same ? (uint32_t)vs->v[i].chunk : rc->resp_bytes;
		any_ip |= vs->v[i].proto == RR_IP;
		any_packet |= vs->v[i].proto == RR_PACKET;
		if (vs->v[i].udp)
			check_udp(proto_name(vs->v[i].proto - RR_TCP), (uint32_t)vs->v[i].chunk, resp,
				  g->mptcp);
		if (vs->v[i].proto > RR_UDP && strcmp(vs->v[i].method->name, "send") != 0)
			usage_error("--rr -M %s: with --proto %s a request goes by send (its frame "
				    "is zc's to build)", vs->v[i].method->name,
				    proto_name(vs->v[i].proto - RR_TCP));
		if (vs->v[i].udp && !strcmp(vs->v[i].method->name, "uring"))
			usage_error("--rr -M uring: over TCP only (with --proto %s: send or write)",
				    proto_name(vs->v[i].proto - RR_TCP));
		if (vs->v[i].busy_us && !strcmp(vs->v[i].method->name, "uring"))
			usage_error("--rr -M uring --busy-poll: the socket's busy polling is its "
				    "receive call's, which io_uring's receive does not make: send or "
				    "write");
		if (rc->stamps && !strcmp(vs->v[i].method->name, "uring"))
			usage_error("--rr -M uring --stamps: an answer's arrival stamp comes with "
				    "recvmsg's control data, which io_uring's receive here does not "
				    "read: send or write");
	}
	rc->req_bytes = (uint32_t)vs->v[0].chunk;
	rc->resp_bytes = rc->resp_same ? rc->req_bytes : rc->resp_bytes;
	rc->gap_ns = vs->v[0].gap_ns;
	rc->busy_us = vs->v[0].busy_us;
	rc->udp = vs->v[0].udp;
	rc->proto = vs->v[0].proto;
	check_raw(rc, any_ip, any_packet);
	rc->use_write = !strcmp(vs->v[0].method->name, "write");
	rc->use_uring = !strcmp(vs->v[0].method->name, "uring");
}

void rr_check_args(const struct optab_parser *p, const struct optab *rows,
		   const struct rr_given *g, struct rr_cfg *rc, struct send_cfg *sc,
		   struct variants *vs)
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
	rr_variants(g, rc, vs);
	if (g->baseline && vs->n < 2)
		usage_error("--rr --baseline: sets rounds of variants beside the baseline's: give "
			    "-M, -b, --gap, --proto or --busy-poll a list");
	if (rc->log)
		rr_log_check(rc->log);
	rc->msgs = optab_given(p, 'n') ? g->loops : 0;
	if (!rc->msgs && sc->secs == 0)
		sc->secs = RR_DEFAULT_SECS;
}

void rr_opt(int opt, const char *arg, struct rr_cfg *rc)
{
	static const struct opt_spec gspec = { .opt = OPT_GAP, .kind = OPT_TIMES,
		.min = 1e-6, .max = 1000 };
	static const struct opt_spec pspec = { .opt = OPT_PROTO, .kind = OPT_NAMES,
		.what = "protocol", .name = proto_name };
	static const struct opt_spec bpspec = { .opt = OPT_BUSY_POLL, .kind = OPT_NUMS,
		.min = 0, .max = RR_BUSY_POLL_MAX };

	switch (opt) {
	case OPT_RR: rc->on = 1; break;
	case OPT_RESPONSE: rc->resp_bytes = (uint32_t)opt_size(opt, arg, 1, RR_MSG_MAX); break;
	case OPT_GAP:
		cfg_n_gaps = opt_values(&gspec, arg, cfg_gaps, COMPARE_MAX);
		rc->gap_ns = (uint64_t)(cfg_gaps[0].value * 1e9 + 0.5);
		break;
	case OPT_BUDGET: rc->budget_ns = rr_time_arg("--budget", arg, 1, UINT64_MAX / 2); break;
	case OPT_LOG: rc->log = arg; break;
	case OPT_CLOCKS_SYNCED: rc->clocks_synced = 1; break;
	case OPT_CALL_TIMES: rc->call_times = 1; break;
	case OPT_STAMPS: rc->stamps = 1; break;
	case OPT_BUSY_POLL:
		cfg_n_busy = opt_values(&bpspec, arg, cfg_busy, COMPARE_MAX);
		for (unsigned i = 0; i < cfg_n_busy; i++)	/* its name among the variants */
			snprintf(cfg_busy[i].label, sizeof(cfg_busy[i].label), "busy%.0f",
				 cfg_busy[i].value);
		rc->busy_given = 1;
		break;
	case OPT_PROTO:
		cfg_n_protos = opt_values(&pspec, arg, cfg_protos, 4);
		rc->udp = cfg_protos[0].index >= 1;
		rc->proto_given = 1;
		break;
	case OPT_IP_PROTO: rc->ip_proto = opt_ip_proto(opt, arg); break;
	case OPT_IFNAME: rc->ifname = arg; break;
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
	if (rc->resp_bytes || rc->gap_ns || rc->proto_given || rc->log || rc->clocks_synced ||
	    rc->busy_given || rc->ip_proto || rc->ifname)
		usage_error("--%s is for request/response: give --rr", rc->resp_bytes ? "response" :
			    rc->gap_ns ? "gap" : rc->proto_given ? "proto" : rc->log ? "log" :
			    rc->busy_given ? "busy-poll" : rc->ip_proto ? "ip-proto" :
			    rc->ifname ? "ifname" : "clocks-synced");
	if (rc->budget_ns != UINT64_MAX && !rc->call_times)
		usage_error("--budget counts round trips (--rr) or system calls (--call-times): "
			    "give one");
}

/* --decide's figures under --rr. */
static const struct { const char *name; enum fig_id fig; } decide_figs[] = {
	{ "p50", FIG_P50 }, { "p90", FIG_P90 }, { "p99", FIG_P99 }, { "p99.9", FIG_P999 },
	{ "us/Tran", FIG_TRAN },
};

int rr_decide_name(const char *arg)
{
	for (size_t i = 0; i < sizeof(decide_figs) / sizeof(decide_figs[0]); i++)
		if (strcmp(arg, decide_figs[i].name) == 0)
			return (int)i;
	return -1;
}

enum fig_id rr_decide_arg(const char *arg, int measured)
{
	char shown[SAFE_LEN];
	int i = rr_decide_name(arg ? arg : "p99");

	if (i < 0)
		usage_error("--rr --decide: '%s': p50, p90, p99 (the default), p99.9 or us/Tran",
			    safe_text(arg, shown, sizeof(shown)));
	if (decide_figs[i].fig == FIG_TRAN && !measured)
		usage_error("--decide us/Tran: the CPU per transaction comes with -c: give it");
	return decide_figs[i].fig;
}
