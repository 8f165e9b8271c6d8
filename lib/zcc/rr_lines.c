/*
 * zcc --rr's lines of the times beyond the round trip (lib/zcc/rr.h):
 *
 *   one-way: out p50 X us, ..., sd X us; back p50 X us, ..., sd X us (one clock)
 *   one-way: ... (clocks synced: error E us here, E us at the server; to S us)
 *   one-way: none: WHY
 *   RATE transactions/sec, p50 X us, ..., sd X us        (each -I interval)
 *
 * Across machines (--clocks-synced) no figure is finer than the larger of
 * the two ends' clock errors: each is rounded to a step of 1, 2 or 5
 * times a power of ten at or above it, and one that rounds to nothing is
 * said to be under the step (JSON: null): below the clock error.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/out.h"
#include "app/where_out.h"
#include "zcc/rr_internal.h"

/* The figures of a latency distribution: JSON key (after a prefix), text. */
static const struct { double q; const char *key, *text; } figs[] = {
	{ 50, "p50_us", "p50" }, { 90, "p90_us", "p90" }, { 99, "p99_us", "p99" },
	{ 99.9, "p99_9_us", "p99.9" }, { 99.99, "p99_99_us", "p99.99" },
	{ 100, "max_us", "max" }, { -1, "mean_us", "mean" }, { -2, "sd_us", "sd" },
};

/* Figure i of h, ns. */
static double fig_of(const struct hist *h, size_t i)
{
	if (figs[i].q == -1)
		return hist_mean(h);
	if (figs[i].q == -2)
		return hist_sd(h);
	return (double)(figs[i].q == 100 ? hist_max(h) : hist_at(h, figs[i].q));
}

void rr_figs_line(const char *prefix, const struct hist *h, double step_us)
{
	char key[64], fmt[64];
	double v;

	if (!hist_count(h))
		line_text("none");
	for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		snprintf(key, sizeof(key), "%s%s", prefix, figs[i].key);
		if (!hist_count(h)) {	/* no figure at all: null */
			line_num(key, NAN, 0, NULL);
			continue;
		}
		v = rr_clock_round(fig_of(h, i) / 1e3, step_us);
		if (isnan(v)) {	/* below the clock error */
			line_num(key, NAN, 0, NULL);
			line_text("%s%s under %.0f us", i ? ", " : "", figs[i].text, step_us);
			continue;
		}
		snprintf(fmt, sizeof(fmt), "%s%s %%.%df us", i ? ", " : "", figs[i].text,
			 step_us > 0 ? 0 : 1);
		line_num(key, v, 3, fmt);
	}
}

/* The one-way line when there are no one-way times to give, saying why. */
static void no_one_way(const struct rr_figures *f)
{
	const char *why;

	if (f->clocks == RR_CLOCKS_BARE)
		why = "messages under 64 bytes carry no times: give -b and --response of "
		      "at least 64";
	else if (f->err_here_us == UINT32_MAX && f->err_there_us == UINT32_MAX)
		why = "neither end's clock is synchronised (adjtimex), whatever --clocks-synced says";
	else if (f->err_here_us == UINT32_MAX)
		why = "this machine's clock is not synchronised (adjtimex), whatever --clocks-synced says";
	else
		why = "the server's clock is not synchronised (adjtimex), whatever --clocks-synced says";
	line_begin("one_way");
	line_str("none", f->clocks == RR_CLOCKS_BARE ? "bare" : "unsynchronised", NULL);
	line_text("one-way: none: %s", why);
	line_end();
}

/* JSON: a clock error, null when unsynchronised. */
static double err_us(uint32_t err)
{
	return err == UINT32_MAX ? NAN : (double)err;
}

void rr_one_way_line(const struct rr_figures *f)
{
	int synced = f->clocks == RR_CLOCKS_SYNCED;
	double step = synced ? rr_clock_step_us(f->err_here_us, f->err_there_us) : 0;

	if (f->clocks == RR_CLOCKS_APART)
		return;
	if (f->clocks != RR_CLOCKS_ONE && !synced) {
		no_one_way(f);
		return;
	}
	line_begin("one_way");
	line_str("clock", synced ? "synced" : "one", NULL);
	line_text("one-way: out ");
	rr_figs_line("out_", &f->out, step);
	line_text("; back ");
	rr_figs_line("back_", &f->back, step);
	line_u64("count", hist_count(&f->out), NULL);
	line_u64("left_out", f->clock_off, f->clock_off ? ", %" PRIu64 " left out: the "
		 "clocks disagreed or one stepped" : NULL);
	line_num("clock_err_us", err_us(f->err_here_us), 0,
		 synced ? " (clocks synced: error %.0f us here" : NULL);
	line_num("server_clock_err_us", err_us(f->err_there_us), 0,
		 synced ? ", %.0f us at the server" : NULL);
	line_num("step_us", step, 0, synced ? "; figures to %.0f us)" : NULL);
	line_bool("one_clock", !synced, " (one clock)");
	line_end();
}

/* The first connection's clocks that knows them (every one asks one server). */
void rr_clocks_merge(struct rr_figures *f, const struct rr_figures *one)
{
	hist_merge(&f->out, &one->out);
	hist_merge(&f->back, &one->back);
	f->clock_off += one->clock_off;
	if (f->clocks != RR_CLOCKS_APART || one->clocks == RR_CLOCKS_APART)
		return;
	f->clocks = one->clocks;
	f->err_here_us = one->err_here_us;
	f->err_there_us = one->err_there_us;
}

void rr_interval(const struct engine *e, uint64_t ns, const struct where_report *rep)
{
	static struct hist h;	/* the watcher's alone: too large for a stack */
	struct rr_work *w;
	double secs = (double)ns / 1e9;

	hist_init(&h, rr_settings_of()->budget_ns);
	for (unsigned i = 0; i < e->n; i++) {
		w = rr_work_of(&e->c[i]);
		if (!w || !w->ival)
			continue;
		pthread_mutex_lock(&w->ival_lock);
		hist_merge(&h, w->ival);
		hist_reset(w->ival);
		pthread_mutex_unlock(&w->ival_lock);
	}
	line_begin("interval");
	line_num("seconds", secs, 3, NULL);
	line_u64("transactions", hist_count(&h), NULL);
	line_num("transactions_per_sec", secs > 0 ? (double)hist_count(&h) / secs : 0, 0,
		 "%.0f transactions/sec, ");
	rr_figs_line("", &h, 0);
	if (rep)
		where_line(rep);
	line_end();
	fflush(stdout);
}
