/*
 * --baseline's lines (baseline.h): the changed: line of the two runs'
 * records, then per variant the comparison table of the baseline's
 * rounds against this run's, unpaired.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcc/baseline.h"
#include "zcc/compare.h"
#include "zcc/run_record.h"
#include "app/out.h"
#include "base/stats_unpaired.h"

/* What the changed: line has found so far. */
struct diff {
	int changes;
	char unknown[1024];	/* the keys unknown in both runs */
	const char *missing[2], *who[2];	/* the records a side lacks, which side */
	int n_missing;
};

/* A key whose value differs: " key then -> now", and its JSON object. */
static void changed(struct diff *d, const struct env_field *was, const struct env_field *f)
{
	line_text("%s %s %s -> %s", d->changes++ ? "," : "", f->key,
		  was ? env_value(was) : "unknown", env_value(f));
	if (!out_json())
		return;
	out_object(NULL);
	out_str("key", f->key);
	env_field_json("baseline", was);
	env_field_json("now", f);
	out_object_end();
}

/* Every key of now that then holds otherwise; what neither knows, noted. */
static void diff_record(struct diff *d, const char *what, const struct env_record *then,
			int has_then, const struct env_record *now, int (*compared)(const char *))
{
	size_t used;

	if (!has_then || !now) {
		d->who[d->n_missing] = now ? "the baseline" : "this run";
		d->missing[d->n_missing++] = what;
		return;
	}
	for (int i = 0; i < now->n; i++) {
		const struct env_field *f = &now->f[i];
		const struct env_field *was = env_field_find(then, f->key);

		if (compared && !compared(f->key))
			continue;
		if (!f->known && (!was || !was->known)) {
			used = strlen(d->unknown);
			snprintf(d->unknown + used, sizeof(d->unknown) - used, "%s%s",
				 used ? ", " : "", f->key);
		} else if (!was || was->known != f->known || strcmp(was->text, f->text) != 0) {
			changed(d, was, f);
		}
	}
}

static void unknown_keys(const struct diff *d)
{
	char key[64];

	out_array("unknown_in_both");
	for (const char *p = d->unknown; *p; p += strcspn(p, ","), p += strspn(p, ", ")) {
		snprintf(key, sizeof(key), "%.*s", (int)strcspn(p, ","), p);
		out_str(NULL, key);
	}
	out_array_end();
}

void baseline_print_env(const struct baseline *b, const struct env_record *env,
			const struct env_record *settings, const struct env_record *rx)
{
	struct diff d = { 0 };

	line_begin("baseline_env");
	line_text("changed:");
	if (out_json())
		out_array("changes");
	diff_record(&d, "environment", &b->env, b->has_env, env, NULL);
	diff_record(&d, "settings", &b->settings, b->has_settings, settings,
		    run_record_compared);
	diff_record(&d, "receiver's", &b->rx, 1, rx, NULL);
	if (out_json()) {
		out_array_end();
		unknown_keys(&d);
	}
	if (!d.changes)
		line_text(" nothing %s", d.unknown[0] || d.n_missing ? "known" :
			  "in the environment record or the settings");
	if (d.unknown[0])
		line_text("; unknown in both runs: %s", d.unknown);
	for (int i = 0; i < d.n_missing; i++)
		line_text("; unknown: %s has no %s record", d.who[i], d.missing[i]);
	line_bool("record_missing", !b->has_env || !env, NULL);
	line_bool("settings_missing", !b->has_settings || !settings, NULL);
	line_end();
}

static int all_finite(const double *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return v != NULL && n > 0;
}

/* One side's rounds as the comparison's figures (app/compare.h), so that
 * compare_decider reads them; the caller sets what both sides measured. */
static struct compare_figs side(const double *rate, const double *load, const double *own,
				const double *demand, const double *rx_own,
				const double *rx_load, const double *rx_demand)
{
	return (struct compare_figs){ .rate = (double *)rate, .load = (double *)load,
		.own = (double *)own, .demand = (double *)demand, .rx_own = (double *)rx_own,
		.rx_load = (double *)rx_load, .rx_demand = (double *)rx_demand };
}

/* What both runs have of variant now's figures: the sender's load and
 * demand (*measured), the receiver's report (*has_rx), its meter's. */
static void both_have(const struct baseline_variant *v, const struct baseline_now *now,
		      int *measured, int *has_rx, int *rx_measured)
{
	*measured = all_finite(now->demand, now->n) && all_finite(v->demand, v->n) &&
		    all_finite(now->load, now->n) && all_finite(v->load, v->n);
	*has_rx = all_finite(now->rx_own, now->n) && all_finite(v->rx_own, v->n);
	*rx_measured = *has_rx && all_finite(now->rx_demand, now->n) &&
		       all_finite(v->rx_demand, v->n) && all_finite(now->rx_load, now->n) &&
		       all_finite(v->rx_load, v->n);
}

/* The deciding figure of each of f's n rounds, into out. */
static void deciders(const struct compare_look *look, const struct compare_figs *f,
		     size_t n, double *out)
{
	for (size_t k = 0; k < n; k++)
		out[k] = compare_decider(look, f, k);
}

void baseline_print_variant(const struct baseline *b, const struct baseline_now *now,
			    enum compare_decide decide)
{
	const struct baseline_variant *v = baseline_variant_of(b, now->v->name);
	struct compare_look look = compare_zcc_look;
	struct compare_row rows[2] = { { 0 } };
	struct compare_figs f[2];
	char name[80], how[160];
	int measured, has_rx, rx_measured;
	double *a, *r;

	if (!v)
		return;
	both_have(v, now, &measured, &has_rx, &rx_measured);
	look.decide = decide;
	f[0] = side(v->rate, v->load, v->own, v->demand, v->rx_own, v->rx_load, v->rx_demand);
	f[1] = side(now->rate, now->load, now->own, now->demand, now->rx_own, now->rx_load,
		    now->rx_demand);
	snprintf(name, sizeof(name), "baseline:%s", v->name);
	rows[0].name = name;
	rows[1].name = now->v->name;
	rows[1].method = now->v->method->name;
	rows[1].size = now->v->chunk;
	rows[1].sized = (now->v->method->flags & TX_CHUNKED) != 0;
	a = calloc(now->n + v->n + 1, sizeof(*a));
	if (!a) {
		error(1, errno, "memory");
		return;
	}
	r = a + now->n;
	for (int i = 0; i < 2; i++) {
		f[i].measured = measured, f[i].has_rx = has_rx, f[i].rx_measured = rx_measured;
		compare_medians(&rows[i], &f[i], i ? now->n : v->n);
	}
	deciders(&look, &f[1], now->n, a);
	deciders(&look, &f[0], v->n, r);
	rows[1].has_ratio = 1;
	stats_unpaired(a, now->n, r, v->n, &rows[1].ratio);
	rows[1].verdict = stats_ratio_verdict(&rows[1].ratio);
	free(a);
	snprintf(how, sizeof(how), "unpaired: this run's %zu round%s against the "
		 "baseline's %zu, every pair's ratio", now->n, now->n == 1 ? "" : "s", v->n);
	compare_table(&look, rows, 2, measured, how);
}

enum compare_decide baseline_decided(const struct baseline *b, const struct baseline_now *now,
				     unsigned n, enum compare_decide decide)
{
	const char *lacks = NULL;

	for (unsigned i = 0; decide != COMPARE_SELF && i < n && !lacks; i++) {
		const struct baseline_variant *v = baseline_variant_of(b, now[i].v->name);
		int measured, has_rx, rx_measured;

		if (!v)
			continue;
		both_have(v, &now[i], &measured, &has_rx, &rx_measured);
		if (decide == COMPARE_RECEIVER ? !has_rx : !(measured && rx_measured))
			lacks = now[i].v->name;
	}
	if (!lacks)
		return decide;
	error(0, 0, "--baseline: not every round of the baseline's %s has the receiver's "
	      "%s; the comparison with it decides on zcc's figure", lacks,
	      decide == COMPARE_PATH ? "metered report and zcc's -c" : "report");
	return COMPARE_SELF;
}

void baseline_report_runs(const struct baseline *b, const struct variant *v,
			  const struct send_result *rs, unsigned n)
{
	const size_t k = n;	/* seven figures a run, k apart */
	double *f = calloc(7 * k + 1, sizeof(*f));
	struct baseline_now now = { .v = v, .n = n };

	if (!f)
		error(1, errno, "memory");
	for (size_t i = 0; i < k; i++) {
		f[i] = rs[i].own;
		f[k + i] = rs[i].measured ? rs[i].demand : NAN;
		f[2 * k + i] = rs[i].rate;
		f[3 * k + i] = rs[i].measured ? rs[i].load : NAN;
		f[4 * k + i] = rs[i].rx_ok ? rs[i].rx.own : NAN;
		f[5 * k + i] = rs[i].rx_ok && rs[i].rx.metered ? rs[i].rx.demand : NAN;
		f[6 * k + i] = rs[i].rx_ok && rs[i].rx.metered ? rs[i].rx.load : NAN;
	}
	now.own = f, now.demand = f + k, now.rate = f + 2 * k, now.load = f + 3 * k;
	now.rx_own = f + 4 * k, now.rx_demand = f + 5 * k, now.rx_load = f + 6 * k;
	baseline_report(b, &now, 1, COMPARE_SELF);
	free(f);
}

void baseline_report(const struct baseline *b, const struct baseline_now *now, unsigned n,
		     enum compare_decide decide)
{
	baseline_print_env(b, env_last(), run_record_last(), run_record_rx_last());
	decide = baseline_decided(b, now, n, decide);
	for (unsigned i = 0; i < n; i++)
		baseline_print_variant(b, &now[i], decide);
	if (out_failed())
		exit(1);	/* the at-exit check says why */
}
