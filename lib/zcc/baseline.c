/*
 * --baseline: the reader of an earlier zcc -J run, the environment's
 * differences and the unpaired verdict per variant.
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcc/baseline.h"
#include "app/opt.h"
#include "app/out.h"
#include "base/jsonl.h"
#include "base/safe_text.h"
#include "base/stats_unpaired.h"

/* The baseline's variant of name, made when make is set; NULL else. */
static struct baseline_variant *variant(struct baseline *b, const char *name, int make)
{
	struct baseline_variant *v;

	for (unsigned i = 0; i < b->n; i++)
		if (strcmp(b->v[i].name, name) == 0)
			return &b->v[i];
	if (!make)
		return NULL;
	v = realloc(b->v, (b->n + 1) * sizeof(*b->v));
	if (!v)
		error(1, errno, "memory");
	b->v = v;
	v = &b->v[b->n++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	return v;
}

static void add_round(struct baseline_variant *v, double own, double demand)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 8;
		v->own = realloc(v->own, v->cap * sizeof(*v->own));
		v->demand = realloc(v->demand, v->cap * sizeof(*v->demand));
		if (!v->own || !v->demand)
			error(1, errno, "memory");
	}
	v->own[v->n] = own;
	v->demand[v->n++] = demand;
}

/* A usage error about the file: one line, exit 2. */
static void __attribute__((noreturn, format(printf, 2, 3)))
refuse(const struct baseline *b, const char *fmt, ...)
{
	char shown[SAFE_LEN], why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	usage_error("--baseline %s: %s", safe_text(b->path, shown, sizeof(shown)), why);
}

/*
 * The rounds of the file, two ways at once: round events (several
 * variants), and sent events with the cpu event after each (one
 * variant's -R runs). Round events win where there are any.
 */
struct reading {
	struct baseline rounds, sents;
	struct baseline_variant *last;	/* the sent event a cpu event belongs to */
	int zcc_lines;
};

static void take(struct baseline *b, struct reading *rd, const struct jsonl_obj *o,
		 unsigned lineno)
{
	const char *program = jsonl_str(o, "program"), *event = jsonl_str(o, "event");
	const struct jsonl_field *intr = jsonl_get(o, "interrupted");
	const char *name;

	if (!program || !event)
		refuse(b, "line %u: no \"program\" and \"event\": not a zcc -J run", lineno);
	if (strcmp(program, "zcc") != 0)
		refuse(b, "line %u: written by %s: not a zcc -J run", lineno, program);
	rd->zcc_lines++;
	if (strcmp(event, "env") == 0 && !b->has_env) {
		env_from_json(&b->env, o);
		b->has_env = 1;
	} else if (strcmp(event, "round") == 0 && (name = jsonl_str(o, "variant"))) {
		add_round(variant(&rd->rounds, name, 1), jsonl_num(o, "own_us_per_kb"),
			  jsonl_num(o, "service_demand_us_per_kb"));
	} else if (strcmp(event, "sent") == 0) {
		rd->last = NULL;
		name = jsonl_str(o, "method");
		if (!name || (intr && intr->type == JSONL_BOOL && intr->boolean))
			return;		/* not a whole run */
		rd->last = variant(&rd->sents, name, 1);
		add_round(rd->last, jsonl_num(o, "own_us_per_kb"), NAN);
	} else if (strcmp(event, "cpu") == 0 && rd->last) {
		rd->last->demand[rd->last->n - 1] = jsonl_num(o, "service_demand_us_per_kb");
		rd->last = NULL;
	}
}

void baseline_load(struct baseline *b, const char *path)
{
	static struct jsonl_obj o;
	struct reading rd = { 0 };
	char *line = NULL, err[256];
	size_t cap = 0;
	unsigned lineno = 0;
	FILE *f;

	memset(b, 0, sizeof(*b));
	b->path = path;
	f = fopen(path, "re");
	if (!f)
		refuse(b, "%s", strerror(errno));
	rd.rounds.path = rd.sents.path = path;
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (jsonl_parse(line, &o, err, sizeof(err)) < 0)
			refuse(b, "line %u: %s: not a zcc -J run", lineno, err);
		take(b, &rd, &o, lineno);
	}
	if (ferror(f))
		refuse(b, "%s", strerror(errno));
	free(line);
	fclose(f);
	if (!rd.zcc_lines)
		refuse(b, "empty: not a zcc -J run");
	if (rd.rounds.n) {
		b->v = rd.rounds.v, b->n = rd.rounds.n;
		baseline_free(&rd.sents);
	} else {
		b->v = rd.sents.v, b->n = rd.sents.n;
	}
	if (!b->n)
		refuse(b, "no whole run in it (its sent lines are missing or interrupted)");
}

/* "a, b, c" of names[0..n) into buf. */
static void list(char *buf, size_t len, const char *const *names, unsigned n)
{
	buf[0] = '\0';
	for (unsigned i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", names[i]);
}

void baseline_match(const struct baseline *b, const char *const *names, unsigned n)
{
	char theirs[1024], ours[1024];
	const char **their_names;
	int same = b->n == n;

	for (unsigned i = 0; same && i < n; i++)
		same = variant((struct baseline *)b, names[i], 0) != NULL;
	if (same)
		return;
	their_names = calloc(b->n + 1, sizeof(*their_names));
	if (!their_names)
		error(1, errno, "memory");
	for (unsigned i = 0; i < b->n; i++)
		their_names[i] = b->v[i].name;
	list(theirs, sizeof(theirs), their_names, b->n);
	list(ours, sizeof(ours), names, n);
	free(their_names);
	refuse(b, "its variants (%s) are not this run's (%s)", theirs, ours);
}

void baseline_print_env(const struct baseline *b, const struct env_record *now)
{
	int changes = 0;

	line_begin("baseline_env");
	line_text("changed:");
	if (out_json())
		out_array("changes");
	for (int i = 0; now && b->has_env && i < now->n; i++) {
		const struct env_field *f = &now->f[i];
		const struct env_field *was = env_field_find(&b->env, f->key);
		const char *then = was ? env_value(was) : "unknown";

		if (strcmp(then, env_value(f)) == 0)
			continue;
		line_text("%s %s %s -> %s", changes++ ? "," : "", f->key, then, env_value(f));
		if (out_json()) {
			out_object(NULL);
			out_str("key", f->key);
			out_str("baseline", then);
			out_str("now", env_value(f));
			out_object_end();
		}
	}
	if (out_json())
		out_array_end();
	if (!b->has_env || !now)
		line_text(" unknown (%s has no environment record)",
			  !now ? "this run" : "the baseline");
	else if (!changes)
		line_text(" nothing in the environment record");
	line_bool("record_missing", !b->has_env || !now, NULL);
	line_end();
}

static int all_finite(const double *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return v != NULL && n > 0;
}

/* The median of v[0..n), left as it is. */
static double median_of(const double *v, size_t n)
{
	double *copy = calloc(n + 1, sizeof(*copy)), m;

	if (!copy)
		error(1, errno, "memory");
	for (size_t i = 0; i < n; i++)
		copy[i] = v[i];
	m = stats_median(copy, n);
	free(copy);
	return m;
}

static const char *word(const struct stats_ratio *r)
{
	if (r->n == 0 || (r->lo <= 1 && r->hi >= 1))
		return "~";
	return r->hi < 1 ? "cheaper" : "dearer";
}

void baseline_print_variant(const struct baseline *b, const char *name,
			    const double *own, const double *demand, size_t n)
{
	const struct baseline_variant *v = variant((struct baseline *)b, name, 0);
	int by_demand = v && all_finite(demand, n) && all_finite(v->demand, v->n);
	const double *now = by_demand ? demand : own, *then;
	struct stats_ratio r;

	if (!v)
		return;
	then = by_demand ? v->demand : v->own;
	stats_unpaired(now, n, then, v->n, &r);
	line_begin("baseline");
	line_str("variant", name, "baseline %s: ");
	line_str("figure", by_demand ? "service_demand_us_per_kb" : "own_us_per_kb",
		 NULL);
	line_text("%s", by_demand ? "service demand" : "zcc itself");
	line_num("median", median_of(now, n), 3, " %.3f us/KB");
	line_u64("rounds", n, " (%" PRIu64 " rounds)");
	line_num("baseline_median", median_of(then, v->n), 3, " against %.3f");
	line_u64("baseline_rounds", v->n, " (%" PRIu64 ")");
	/* No round above 0 on a side (a figure not measured): no ratio. */
	line_num("ratio", r.median, 3, r.n ? ": ratio %.3f" : NULL);
	line_num("ratio_lo", r.lo, 3, r.n ? ", interval %.3f" : NULL);
	line_num("ratio_hi", r.hi, 3, r.n ? " to %.3f" : NULL);
	line_num("conf_pct", r.conf * 100, 1, r.n ? " (%.1f%%, unpaired)" : NULL);
	if (!r.n)
		line_text(": no ratio (a side has no round above 0)");
	line_str("verdict", word(&r), ", %s");
	line_end();
}

void baseline_report_runs(const struct baseline *b, const char *variant_name,
			  const struct send_result *rs, unsigned n)
{
	double *own = calloc(n + 1, sizeof(*own)), *demand = calloc(n + 1, sizeof(*demand));

	if (!own || !demand)
		error(1, errno, "memory");
	for (unsigned i = 0; i < n; i++) {
		own[i] = rs[i].own;
		demand[i] = rs[i].measured ? rs[i].demand : NAN;
	}
	baseline_print_env(b, env_last());
	baseline_print_variant(b, variant_name, own, demand, n);
	free(own);
	free(demand);
	if (out_failed())
		exit(1);	/* the at-exit check says why */
}

void baseline_free(struct baseline *b)
{
	for (unsigned i = 0; i < b->n; i++) {
		free(b->v[i].own);
		free(b->v[i].demand);
	}
	free(b->v);
	b->v = NULL;
	b->n = 0;
}
