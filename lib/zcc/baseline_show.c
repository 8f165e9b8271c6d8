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
			const struct env_record *settings)
{
	struct diff d = { 0 };

	line_begin("baseline_env");
	line_text("changed:");
	if (out_json())
		out_array("changes");
	diff_record(&d, "environment", &b->env, b->has_env, env, NULL);
	diff_record(&d, "settings", &b->settings, b->has_settings, settings,
		    run_record_compared);
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

/* A row's medians from its rounds; load and demand only when measured. */
static void medians(struct compare_row *row, const double *rate, const double *load,
		    const double *own, const double *demand, size_t n, int measured)
{
	row->rounds = n;
	row->agree = -1;	/* unpaired: no round has a partner */
	row->rate = compare_median(rate, n);
	row->own = compare_median(own, n);
	row->load = measured ? compare_median(load, n) : NAN;
	row->demand = measured ? compare_median(demand, n) : NAN;
}

void baseline_print_variant(const struct baseline *b, const struct baseline_now *now)
{
	const struct baseline_variant *v = baseline_variant_of(b, now->v->name);
	struct compare_row rows[2] = { { 0 } };
	char name[80], how[160];
	int measured;

	if (!v)
		return;
	measured = all_finite(now->demand, now->n) && all_finite(v->demand, v->n) &&
		   all_finite(now->load, now->n) && all_finite(v->load, v->n);
	snprintf(name, sizeof(name), "baseline:%s", v->name);
	rows[0].name = name;
	medians(&rows[0], v->rate, v->load, v->own, v->demand, v->n, measured);
	rows[1].name = now->v->name;
	rows[1].method = now->v->method->name;
	rows[1].size = now->v->chunk;
	rows[1].sized = (now->v->method->flags & TX_CHUNKED) != 0;
	medians(&rows[1], now->rate, now->load, now->own, now->demand, now->n, measured);
	rows[1].has_ratio = 1;
	stats_unpaired(measured ? now->demand : now->own, now->n,
		       measured ? v->demand : v->own, v->n, &rows[1].ratio);
	rows[1].verdict = stats_ratio_verdict(&rows[1].ratio);
	snprintf(how, sizeof(how), "unpaired: this run's %zu round%s against the "
		 "baseline's %zu, every pair's ratio", now->n, now->n == 1 ? "" : "s", v->n);
	compare_table(&compare_zcc_look, rows, 2, measured, how);
}

void baseline_report_runs(const struct baseline *b, const struct variant *v,
			  const struct send_result *rs, unsigned n)
{
	double *f = calloc(4 * (size_t)n + 1, sizeof(*f));
	struct baseline_now now = { .v = v, .n = n };

	if (!f)
		error(1, errno, "memory");
	for (unsigned i = 0; i < n; i++) {
		f[i] = rs[i].own;
		f[n + i] = rs[i].measured ? rs[i].demand : NAN;
		f[2 * (size_t)n + i] = rs[i].rate;
		f[3 * (size_t)n + i] = rs[i].measured ? rs[i].load : NAN;
	}
	now.own = f, now.demand = f + n;
	now.rate = f + 2 * (size_t)n, now.load = f + 3 * (size_t)n;
	baseline_report(b, &now, 1);
	free(f);
}

void baseline_report(const struct baseline *b, const struct baseline_now *now, unsigned n)
{
	baseline_print_env(b, env_last(), run_record_last());
	for (unsigned i = 0; i < n; i++)
		baseline_print_variant(b, &now[i]);
	if (out_failed())
		exit(1);	/* the at-exit check says why */
}
