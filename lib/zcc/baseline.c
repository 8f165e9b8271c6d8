/*
 * --baseline: the reader of an earlier zcc -J run (baseline.h): its
 * rounds per variant, its records, and the refusals of a file that is
 * not one whole run.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zcc/baseline.h"
#include "zcc/compare.h"
#include "zcc/env_read.h"
#include "zcc/run_record.h"
#include "app/opt.h"
#include "base/jsonl.h"
#include "base/parse.h"
#include "base/safe_text.h"
#include "base/plural.h"

/* The baseline's variant of name; NULL: none. */
static struct baseline_variant *find(const struct baseline *b, const char *name)
{
	for (unsigned i = 0; i < b->n; i++)
		if (strcmp(b->v[i].name, name) == 0)
			return &b->v[i];
	return NULL;
}

/* The baseline's variant of name, made if it has none. */
static struct baseline_variant *variant(struct baseline *b, const char *name)
{
	struct baseline_variant *v = find(b, name);

	if (v)
		return v;
	v = realloc(b->v, (b->n + 1) * sizeof(*b->v));
	if (!v)
		error(1, errno, "memory");
	b->v = v;
	v = &b->v[b->n++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	return v;
}

/* A round of v from event o's figures. */
static void add_round(struct baseline_variant *v, const struct jsonl_obj *o)
{
	struct fig_run r = fig_run_none();

	fig_run_json(&r, o, 0);
	fig_rounds_put(&v->rounds, v->rounds.n, &r);
}

/* The last round of v, for the events that follow its sent event. */
static struct fig_run *last_round(struct baseline_variant *v)
{
	return &v->rounds.r[v->rounds.n - 1];
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
 * variant's -R runs). Round events win where there are any. What tells
 * the runs apart (each begins with its env event) and a cut one (the
 * table or the summary that ends it) is counted on the way.
 */
struct reading {
	struct baseline rounds, sents;
	struct baseline_variant *last;	/* the sent event a cpu event belongs to */
	struct baseline_variant *last_rx;	/* ... a receiver event belongs to */
	int zcc_lines;
	unsigned envs, env_line[2];	/* the first two runs' env events */
	double env_time[2];
	unsigned tables, summaries;
};

static void take_env(struct baseline *b, struct reading *rd, const struct jsonl_obj *o,
		     unsigned lineno)
{
	if (rd->envs < 2) {
		rd->env_line[rd->envs] = lineno;
		rd->env_time[rd->envs] = jsonl_num(o, "time");
	}
	if (rd->envs++ == 0) {
		env_from_json(&b->env, o);
		b->has_env = 1;
	}
}

/* A receiver event: the receiver's record, and a lone run's figures. */
static void take_receiver(struct baseline *b, struct reading *rd, const struct jsonl_obj *o)
{
	const char *method = jsonl_str(o, "method");
	double size = jsonl_num(o, "read_bytes");
	struct baseline_variant *v = rd->last_rx;

	if (method && isfinite(size) && size >= 0)
		run_record_rx_add(&b->rx, method, (uint64_t)size);
	rd->last_rx = NULL;
	if (v)
		fig_run_json(last_round(v), o, 1);
}

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
	if (strcmp(event, "env") == 0) {
		take_env(b, rd, o, lineno);
	} else if (strcmp(event, "settings") == 0 && !b->has_settings) {
		run_record_init(&b->settings);
		env_record_from_json(&b->settings, o);
		b->has_settings = 1;
	} else if (strcmp(event, "round") == 0 && (name = jsonl_str(o, "variant"))) {
		add_round(variant(&rd->rounds, name), o);
	} else if (strcmp(event, "sent") == 0) {
		rd->last = rd->last_rx = NULL;
		name = jsonl_str(o, "method");
		if (!name || (intr && intr->type == JSONL_BOOL && intr->boolean) ||
		    jsonl_get(o, "ended"))
			return;		/* not a whole run */
		rd->last = rd->last_rx = variant(&rd->sents, name);
		add_round(rd->last, o);		/* no load or demand: NAN */
	} else if (strcmp(event, "cpu") == 0 && rd->last) {
		fig_run_json(last_round(rd->last), o, 0);
		rd->last = NULL;
	} else if (strcmp(event, "receiver") == 0) {
		take_receiver(b, rd, o);
	} else if (strcmp(event, "compare") == 0) {
		rd->tables++;
	} else if (strcmp(event, "summary") == 0) {
		rd->summaries++;
	}
}

/* "line N (at HH:MM:SS UTC)" of the i-th run's env event. */
static const char *run_at(const struct reading *rd, int i, char *buf, size_t len)
{
	time_t t = (time_t)rd->env_time[i];
	struct tm tm;
	char when[32] = "";

	if (isfinite(rd->env_time[i]) && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), " (at %F %T UTC)", &tm);
	snprintf(buf, len, "line %u%s", rd->env_line[i], when);
	return buf;
}

/* More than one run, or one cut short: refused. */
static void whole_run(const struct baseline *b, const struct reading *rd, unsigned sents)
{
	const struct env_field *runs = env_field_find(&b->settings, "runs");
	long long want = 0;
	const char *why;
	char one[96], two[96];

	if (b->has_settings && runs->known &&
	    parse_num(runs->text, 0, UINT32_MAX, &want, &why) < 0)
		want = 0;
	if (rd->envs > 1)
		refuse(b, "holds %u runs, the first from %s, the second from %s: give one "
		       "run a file", rd->envs, run_at(rd, 0, one, sizeof(one)),
		       run_at(rd, 1, two, sizeof(two)));
	if (rd->rounds.n && !rd->tables)
		refuse(b, "cut short: its rounds have no table after them");
	if (!rd->rounds.n && !rd->summaries && (want > 1 || sents > 1))
		refuse(b, "cut short: %u whole run%s of %lld and no summary line after them",
		       sents, plural_s(sents), want > 1 ? want : (long long)sents);
}

static FILE *open_path(const struct baseline *b)
{
	FILE *f = strcmp(b->path, "-") == 0 ? stdin : fopen(b->path, "re");

	if (!f)
		refuse(b, "%s", strerror(errno));
	return f;
}

void baseline_load(struct baseline *b, const char *path)
{
	static struct jsonl_obj o;
	struct reading rd = { 0 };
	char *line = NULL, err[256];
	size_t cap = 0;
	unsigned lineno = 0, sents = 0;
	FILE *f;

	memset(b, 0, sizeof(*b));
	b->path = path;
	run_record_rx_init(&b->rx);
	f = open_path(b);
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
	if (f != stdin)
		fclose(f);
	if (!rd.zcc_lines)
		refuse(b, "empty: not a zcc -J run");
	for (unsigned i = 0; i < rd.sents.n; i++)
		sents += (unsigned)rd.sents.v[i].rounds.n;
	whole_run(b, &rd, sents);
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
		same = find(b, names[i]) != NULL;
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

const struct baseline_variant *baseline_variant_of(const struct baseline *b,
						   const char *name)
{
	return find(b, name);
}

void baseline_free(struct baseline *b)
{
	for (unsigned i = 0; i < b->n; i++)
		fig_rounds_free(&b->v[i].rounds);
	free(b->v);
	b->v = NULL;
	b->n = 0;
}

void baseline_load_variants(struct baseline *b, const char *path, const struct variants *v)
{
	const char *names[COMPARE_MAX];

	baseline_load(b, path);
	for (unsigned i = 0; i < v->n; i++)
		names[i] = v->v[i].name;
	baseline_match(b, names, v->n);
	for (unsigned i = 0; i < b->n; i++)
		if (!(fig_groups(b->v[i].rounds.r, b->v[i].rounds.n) >> FIG_RR & 1u) != !v->rr)
			refuse(b, "its rounds of %s are %s, this run's %s", b->v[i].name,
			       v->rr ? "a stream's" : "request/response (--rr)",
			       v->rr ? "request/response (--rr)" : "a stream's");
}
