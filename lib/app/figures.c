/*
 * The table of figures (figures.h) and the records of runs and rounds.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/figures.h"
#include "base/jsonl.h"

static double path_demand(const struct fig_run *r)
{
	return r->v[FIG_DEMAND] + r->v[FIG_RX_DEMAND];
}

const struct fig_def fig_defs[FIG_N] = {
	[FIG_RATE] = { .name = "rate", .unit = "kbytes/sec", .key = "kbytes_per_sec",
		.head = "kbytes/sec", .width = 11, .prec = 0, .line = " %.0f kbytes/sec",
		.scale = 1, .better = FIG_HIGHER, .group = FIG_STREAM, .col = 0 },
	[FIG_TPS] = { .name = "transaction rate", .unit = "transactions/sec",
		.key = "transactions_per_sec", .head = "tran/s", .width = 9, .prec = 0,
		.line = " %.0f transactions/sec", .scale = 1, .better = FIG_HIGHER,
		.group = FIG_RR, .col = 0 },
	[FIG_P50] = { .name = "p50", .unit = "us", .key = "p50_us", .head = "p50 us",
		.width = 9, .prec = 1, .line = ", p50 %.1f us", .scale = 1, .better = FIG_LOWER,
		.group = FIG_RR, .col = 1, .title = "the round trip's p50", .ratio_of = "p50" },
	[FIG_P90] = { .name = "p90", .unit = "us", .key = "p90_us", .head = "p90 us",
		.width = 9, .prec = 1, .line = ", p90 %.1f us", .scale = 1, .better = FIG_LOWER,
		.group = FIG_RR, .col = 2, .title = "the round trip's p90", .ratio_of = "p90" },
	[FIG_P99] = { .name = "p99", .unit = "us", .key = "p99_us", .head = "p99 us",
		.width = 9, .prec = 1, .line = ", p99 %.1f us", .scale = 1, .better = FIG_LOWER,
		.group = FIG_RR, .col = 3, .title = "the round trip's p99", .ratio_of = "p99" },
	[FIG_P999] = { .name = "p99.9", .unit = "us", .key = "p99_9_us", .head = "p99.9 us",
		.width = 9, .prec = 1, .line = ", p99.9 %.1f us", .scale = 1, .better = FIG_LOWER,
		.group = FIG_RR, .col = 4, .title = "the round trip's p99.9", .ratio_of = "p99.9" },
	[FIG_LOAD] = { .name = "load", .unit = "%", .key = "load_pct",
		.head = "load %", .width = 7, .prec = 1, .line = ", load %.1f%%",
		.scale = 100, .better = FIG_LOWER, .group = FIG_LOADED, .col = 5 },
	[FIG_TRAN] = { .name = "CPU per transaction", .unit = "us/Tran", .key = "us_per_tran",
		.head = "us/Tran", .width = 9, .prec = 3, .line = ", %.3f us/Tran", .scale = 1,
		.better = FIG_LOWER, .group = FIG_RR_METERED, .col = 6,
		.title = "CPU time per transaction", .ratio_of = "us/Tran" },
	[FIG_OWN_TRAN] = { .name = "own CPU per transaction", .unit = "us/Tran",
		.key = "own_us_per_tran", .head = "us/Tran", .width = 11, .prec = 3,
		.line = " itself %.3f us/Tran", .named = 1, .scale = 1, .better = FIG_LOWER,
		.group = FIG_RR, .col = 7 },
	[FIG_DEMAND] = { .name = "service demand", .unit = "us/KB",
		.key = "service_demand_us_per_kb", .head = "demand us/KB", .width = 13,
		.prec = 3, .line = ", service demand %.3f us/KB", .scale = 1,
		.better = FIG_LOWER, .group = FIG_METERED, .col = 6,
		.title = "service demand", .title_rx = "the sender's service demand",
		.ratio_of = "service demand" },
	[FIG_OWN] = { .name = "own CPU time", .unit = "us/KB", .key = "own_us_per_kb",
		.head = "us/KB", .width = 10, .prec = 3, .line = " itself %.3f us/KB",
		.named = 1, .scale = 1, .better = FIG_LOWER, .group = FIG_STREAM, .col = 7,
		.title = "own CPU time", .title_rx = "own CPU time, the sender's",
		.ratio_of = "own us/KB" },
	[FIG_RX_OWN] = { .name = "the receiver's own CPU time", .unit = "us/KB",
		.key = "rx_own_us_per_kb", .head = "rcv us/KB", .width = 9, .prec = 3,
		.line = "; receiver %.3f us/KB", .scale = 1, .better = FIG_LOWER,
		.group = FIG_RX, .col = 10, .title = "the receiver's own CPU time",
		.ratio_of = "receiver's own us/KB" },
	[FIG_RX_LOAD] = { .name = "the receiver's load", .unit = "%", .key = "rx_load_pct",
		.head = "rcv load %", .width = 10, .prec = 1, .line = ", load %.1f%%",
		.scale = 100, .better = FIG_LOWER, .group = FIG_RX_METERED, .col = 8 },
	[FIG_RX_DEMAND] = { .name = "the receiver's service demand", .unit = "us/KB",
		.key = "rx_service_demand_us_per_kb", .head = "rcv demand", .width = 10,
		.prec = 3, .line = ", service demand %.3f us/KB", .scale = 1,
		.better = FIG_LOWER, .group = FIG_RX_METERED, .col = 9,
		.title = "the receiver's service demand",
		.ratio_of = "receiver's service demand" },
	[FIG_PATH] = { .name = "both ends' service demand added", .unit = "us/KB",
		.key = "path_service_demand_us_per_kb", .scale = 1, .better = FIG_LOWER,
		.group = FIG_RX_METERED, .title = "both ends' service demand added",
		.ratio_of = "path's service demand", .of = path_demand },
};

struct fig_run fig_run_none(void)
{
	struct fig_run r;

	for (int i = 0; i < FIG_N; i++)
		r.v[i] = NAN;
	return r;
}

double fig_value(const struct fig_run *r, enum fig_id id)
{
	return fig_defs[id].of ? fig_defs[id].of(r) : r->v[id];
}

void fig_rounds_put(struct fig_rounds *f, size_t round, const struct fig_run *r)
{
	if (round >= f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 8;
		struct fig_run *g;

		while (cap <= round)
			cap *= 2;
		g = realloc(f->r, cap * sizeof(*g));
		if (!g)
			error(1, errno, "memory");
		f->r = g;
		f->cap = cap;
	}
	while (f->n < round)
		f->r[f->n++] = fig_run_none();
	f->r[round] = *r;
	if (f->n <= round)
		f->n = round + 1;
}

void fig_rounds_free(struct fig_rounds *f)
{
	free(f->r);
	memset(f, 0, sizeof(*f));
}

void fig_column(const struct fig_run *r, size_t n, enum fig_id id, double *out)
{
	for (size_t k = 0; k < n; k++)
		out[k] = fig_value(&r[k], id);
}

unsigned fig_groups(const struct fig_run *r, size_t n)
{
	unsigned groups = (1u << FIG_GROUPS) - 1;

	for (size_t k = 0; k < n; k++)
		for (int i = 0; i < FIG_N; i++)
			if (!fig_defs[i].of && !isfinite(r[k].v[i]))
				groups &= ~(1u << fig_defs[i].group);
	if (!(groups & (1u << FIG_RX)))
		groups &= ~(1u << FIG_RX_METERED);	/* metered, but no report */
	return groups;
}

int fig_shown(enum fig_id id, unsigned groups)
{
	return (int)((groups >> fig_defs[id].group) & 1u);
}

void fig_run_json(struct fig_run *r, const struct jsonl_obj *o, int receivers)
{
	for (int i = 0; i < FIG_N; i++) {
		const struct fig_def *d = &fig_defs[i];
		const char *key = d->key;
		int rx = d->group == FIG_RX || d->group == FIG_RX_METERED;

		if (d->of || (receivers && !rx))
			continue;
		if (receivers)
			key += strlen("rx_");
		if (jsonl_get(o, key))
			r->v[i] = jsonl_num(o, key) / d->scale;
	}
}
