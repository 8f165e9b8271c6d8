/*
 * zcc --rr's options checked against the rest of the command line, at
 * the door: what means nothing with request/response is one usage line,
 * exit 2 (lib/zcc/rr.h).
 */
#include <string.h>

#include "app/opt.h"
#include "app/optab.h"
#include "zcc/rr.h"
#include "zcc/rr_args.h"
#include "wire/rr_proto.h"

/* The options of stream mode that --rr has no use for. */
static const char stream_only[] = "SwkR";

void rr_check_args(const struct optab_parser *p, struct rr_cfg *rc, const struct rr_given *g)
{
	for (const char *o = stream_only; *o; o++)
		if (optab_given(p, *o))
			usage_error("--rr: -%c is for streaming files", *o);
	if (g->n_names || g->files_from)
		usage_error("--rr sends requests, not files: give no file names");
	if (g->method && strcmp(g->method, "send") && strcmp(g->method, "write"))
		usage_error("--rr -M %s: a message is sent by send (write is the same call "
			    "here); the file methods have no file to send", g->method);
	if (g->chunks && strchr(g->chunks, ','))
		usage_error("--rr -b %s: one request size (lists are not compared in --rr yet)",
			    g->chunks);
	if (g->other)
		usage_error("--rr: --%s is for streaming files", g->other);
	rc->req_bytes = g->chunks ? (uint32_t)opt_size('b', g->chunks, 1, RR_MSG_MAX) : 1;
	if (!rc->resp_bytes)
		rc->resp_bytes = rc->req_bytes;
}

void rr_check_unused(const struct rr_cfg *rc)
{
	if (rc->resp_bytes || rc->gap_ns || rc->budget_ns != UINT64_MAX)
		usage_error("--%s is for request/response: give --rr",
			    rc->resp_bytes ? "response" : rc->gap_ns ? "gap" : "budget");
}
