/*
 * zcc --rr's runs as figures (lib/app/figures.h): a run's rate, round-trip
 * percentiles and CPU per transaction kept from its merged histogram, so
 * -R's summary and the comparison's rounds, table and chart read them as
 * they read a stream's; and one run of a comparison's variant.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/out.h"
#include "base/stats.h"
#include "zcc/compare.h"
#include "zcc/rr.h"

void rr_keep(struct send_result *r, const struct rr_figures *f)
{
	double secs = (double)r->ns / 1e9, n = (double)f->answered;
	double own = r->own * ((double)r->bytes / 1024);	/* us/KB into us */

	r->rr.on = 1;
	r->rr.tps = secs > 0 ? n / secs : 0;
	r->rr.p50 = (double)hist_at(&f->due, 50) / 1e3;
	r->rr.p90 = (double)hist_at(&f->due, 90) / 1e3;
	r->rr.p99 = (double)hist_at(&f->due, 99) / 1e3;
	r->rr.p999 = (double)hist_at(&f->due, 99.9) / 1e3;
	r->rr.tran = n > 0 && r->measured ? r->load * r->ncpus * secs * 1e6 / n : NAN;
	r->rr.own_tran = n > 0 ? own / n : NAN;
}

struct fig_run rr_fig_of(const struct send_result *r)
{
	struct fig_run f = fig_run_none();

	f.v[FIG_TPS] = r->rr.tps;
	f.v[FIG_P50] = r->rr.p50;
	f.v[FIG_P90] = r->rr.p90;
	f.v[FIG_P99] = r->rr.p99;
	f.v[FIG_P999] = r->rr.p999;
	f.v[FIG_OWN_TRAN] = r->rr.own_tran;
	if (r->measured) {
		f.v[FIG_LOAD] = r->load;
		f.v[FIG_TRAN] = r->rr.tran;
	}
	return f;
}

/* One figure's median, least and most of the runs r[0..n), into the line. */
static void summary_part(const struct fig_run *r, unsigned n, enum fig_id id, const char *label)
{
	const struct fig_def *d = &fig_defs[id];
	double *v = calloc(n + 1, sizeof(*v));
	char key[80], fmt[80];
	struct stats_sum s;

	if (!v)
		error(1, errno, "memory");
	fig_column(r, n, id, v);
	stats_summarise(v, n, &s);
	free(v);
	snprintf(key, sizeof(key), "%s_median", d->key);
	snprintf(fmt, sizeof(fmt), ",%s%s median %%.%df %s", *label ? " " : "", label, d->prec,
		 d->unit);
	line_num(key, s.median * d->scale, d->prec, fmt);
	snprintf(key, sizeof(key), "%s_min", d->key);
	snprintf(fmt, sizeof(fmt), " (min %%.%df", d->prec);
	line_num(key, s.min * d->scale, d->prec, fmt);
	snprintf(key, sizeof(key), "%s_max", d->key);
	snprintf(fmt, sizeof(fmt), ", max %%.%df)", d->prec);
	line_num(key, s.max * d->scale, d->prec, fmt);
}

void rr_summary(const struct send_result *rs, unsigned n)
{
	static const struct { enum fig_id id; const char *label; } parts[] = {
		{ FIG_TPS, "" }, { FIG_P50, "p50" }, { FIG_P99, "p99" }, { FIG_TRAN, "cpu" },
	};
	struct fig_run *r = calloc(n + 1, sizeof(*r));
	unsigned groups;

	if (!r)
		error(1, errno, "memory");
	for (unsigned i = 0; i < n; i++)
		r[i] = rr_fig_of(&rs[i]);
	groups = fig_groups(r, n);
	line_begin("summary");
	line_int("runs", n, "summary: %lld runs");
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (fig_shown(parts[i].id, groups))
			summary_part(r, n, parts[i].id, parts[i].label);
	line_end();
	free(r);
	if (out_failed())
		exit(1);
}

struct send_result rr_variant_run(struct sender *sd, const struct rr_cfg *asked,
				  const struct variant *v)
{
	static struct rr_cfg now;	/* conn_rr reads it during the run */

	now = *asked;
	now.req_bytes = (uint32_t)v->chunk;
	if (asked->resp_same)
		now.resp_bytes = now.req_bytes;
	now.gap_ns = v->gap_ns;
	now.udp = v->udp;
	now.busy_us = v->busy_us;
	now.proto = v->proto;
	now.use_write = strcmp(v->method->name, "write") == 0;
	now.use_uring = strcmp(v->method->name, "uring") == 0;
	rr_cfg_set(&now);
	return rr_send_run(sd);
}
