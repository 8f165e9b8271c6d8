/*
 * --baseline's lines (baseline.h): the changed: line of the two runs'
 * records, then per variant the comparison table of the baseline's
 * rounds against this run's, unpaired.
 */
#include <errno.h>
#include <error.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcc/baseline.h"
#include "zcc/compare.h"
#include "zcc/run_record.h"
#include "app/out.h"
#include "base/stats_unpaired.h"
#include "base/plural.h"

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

/* The groups of figures (app/figures.h) both runs have of now's variant v. */
static unsigned both_have(const struct baseline_variant *v, const struct baseline_now *now)
{
	return fig_groups(v->rounds.r, v->rounds.n) & fig_groups(now->r, now->n);
}

/* Row row's name, method and size: variant v's. */
static void name_row(struct compare_row *row, const struct variant *v)
{
	row->name = v->name;
	row->method = v->method->name;
	row->size = v->chunk;
	row->sized = (v->method->flags & TX_CHUNKED) != 0;
}

void baseline_print_variant(const struct baseline *b, const struct baseline_now *now,
			    enum compare_decide decide)
{
	const struct baseline_variant *v = baseline_variant_of(b, now->v->name);
	struct compare_look look = compare_zcc_look;
	struct compare_row rows[2] = { { 0 } };
	char name[80], how[160];
	size_t m;
	unsigned groups;
	enum fig_id fig;
	double *a, *r;

	if (!v)
		return;
	m = v->rounds.n;
	groups = both_have(v, now);
	if (decide == COMPARE_FIGURE)	/* --rr's rounds */
		look = compare_rr_look;
	look.decide = decide;
	look.fig = fig_shown(now->fig, groups) ? now->fig : FIG_P99;	/* us/Tran lacked */
	snprintf(name, sizeof(name), "baseline:%s", v->name);
	rows[0].name = name;
	name_row(&rows[1], now->v);
	compare_medians(&rows[0], v->rounds.r, m);
	compare_medians(&rows[1], now->r, now->n);
	rows[0].groups = rows[1].groups = groups;
	a = calloc(now->n + m + 1, sizeof(*a));
	if (!a)
		error(1, errno, "memory");
	r = a + now->n;	// cppcheck-suppress nullPointerArithmeticRedundantCheck ; error(1, ...) does not return
	fig = compare_deciding(&look, groups);
	fig_column(now->r, now->n, fig, a);
	fig_column(v->rounds.r, m, fig, r);
	rows[1].has_ratio = 1;
	stats_unpaired(a, now->n, r, m, &rows[1].ratio);
	compare_verdict(&rows[1], fig, now->n, m);
	free(a);
	snprintf(how, sizeof(how), "unpaired: this run's %zu round%s against the "
		 "baseline's %zu, every pair's ratio", now->n, plural_s(now->n), m);
	compare_table(&look, rows, 2, how);
}

enum compare_decide baseline_decided(const struct baseline *b, const struct baseline_now *now,
				     unsigned n, enum compare_decide decide)
{
	unsigned need = decide == COMPARE_RECEIVER ? 1u << FIG_RX :
		decide == COMPARE_FIGURE ? 1u << fig_defs[now[0].fig].group :
		1u << FIG_METERED | 1u << FIG_RX_METERED;
	const char *lacks = NULL;

	for (unsigned i = 0; decide != COMPARE_SELF && i < n && !lacks; i++) {
		const struct baseline_variant *v = baseline_variant_of(b, now[i].v->name);

		if (v && (both_have(v, &now[i]) & need) != need)
			lacks = now[i].v->name;
	}
	if (!lacks)
		return decide;
	if (decide == COMPARE_FIGURE) {	/* us/Tran: a baseline without -c */
		error(0, 0, "--baseline: not every round of the baseline's %s has zcc's -c; "
		      "the comparison with it decides on p99", lacks);
		return decide;
	}
	error(0, 0, "--baseline: not every round of the baseline's %s has the receiver's "
	      "%s; the comparison with it decides on zcc's figure", lacks,
	      decide == COMPARE_PATH ? "metered report and zcc's -c" : "report");
	return COMPARE_SELF;
}

void baseline_report_runs(const struct baseline *b, const struct variant *v,
			  const struct send_result *rs, unsigned n)
{
	struct fig_run *r = calloc(n + 1, sizeof(*r));

	if (!r)
		error(1, errno, "memory");
	for (unsigned i = 0; i < n; i++)
		r[i] = compare_fig_of(&rs[i]);
	baseline_report(b, &(struct baseline_now){ .v = v, .r = r, .n = n }, 1, COMPARE_SELF);
	free(r);
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
