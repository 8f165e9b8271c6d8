/*
 * zcs's rounds of receive variants (serve_rounds.h): which variant serves
 * each sender's run, the runs' figures gathered from their processes,
 * and the comparison's lines after every complete round.
 */
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zcs/serve_conns.h"
#include "zcs/serve_rounds.h"
#include "zcs/serve_total.h"
#include "zcs/turn_plan.h"
#include "zcs/serve_load.h"
#include "app/meter_session.h"
#include "app/others_tally.h"
#include "base/clock.h"
#include "base/rate.h"
#include "meter/meter.h"

/* A connection of a turn, and what its process sent. */
struct member {
	pid_t pid;
	int live, has;
	struct serve_result r;
};

/* What one process sends: small enough for one atomic pipe write. */
struct record {
	pid_t pid;
	struct serve_result r;
};
_Static_assert(sizeof(struct record) <= PIPE_BUF, "a record is one atomic write");

/* A turn: its place, its host, its connections. */
struct turn {
	int used;
	uint64_t opened;	/* now_ns() at its first connection */
	struct plan_place at;
	unsigned variant;
	char host[CONN_PEER_LEN];
	struct member *m;
	unsigned n, cap;
};

#define TURNS 8		/* turns whose processes are still being reaped */

static const struct compare_look zcs_look = {
	.self = "zcs", .size_key = "read_bytes", .size_name = "read size", .open = 1,
};

static struct {
	const struct rx_variants *vs;
	const char *plot;
	int pipe[2];			/* children write records, the parent reads */
	struct fig_rounds *figs;	/* per variant */
	struct compare_row rows[COMPARE_MAX];
	unsigned *counted;		/* per round, its turns counted */
	size_t counted_cap;
	size_t complete;		/* rounds complete, from the first */
	struct turn_plan plan;		/* the turns' places and variants */
	struct turn turns[TURNS];
	struct turn *open;		/* the turn a connection may join, or NULL */
	struct turn *joining;		/* picked, its process not yet made */
	struct others_tally others;	/* other processes' share, turn by turn */
} rs = { .pipe = { -1, -1 } };

int serve_rounds_on(void)
{
	return rs.vs != NULL;
}

/* Room for the counts of rounds up to round. */
static void room_for(size_t round)
{
	size_t cap = rs.counted_cap;

	if (round < cap)
		return;
	rs.counted = realloc(rs.counted, 2 * cap * sizeof(*rs.counted));
	if (!rs.counted)
		error(1, errno, "memory");
	memset(rs.counted + cap, 0, cap * sizeof(*rs.counted));
	rs.counted_cap = 2 * cap;
}

void serve_rounds_open(const struct rx_variants *vs, const char *plot)
{
	rs.vs = vs;
	rs.plot = plot;
	plan_init(&rs.plan, vs->n);
	rs.figs = calloc(vs->n, sizeof(*rs.figs));
	rs.counted = calloc(16, sizeof(*rs.counted));
	rs.counted_cap = 16;
	if (!rs.counted || !rs.figs)
		error(1, errno, "memory");
	for (unsigned i = 0; i < vs->n; i++)
		rs.rows[i] = (struct compare_row){ .name = vs->v[i].name,
			.method = vs->v[i].method->name, .size = vs->v[i].read_size,
			.sized = 1 };
	if (pipe2(rs.pipe, O_CLOEXEC) < 0 || fcntl(rs.pipe[0], F_SETFL, O_NONBLOCK) < 0)
		error(1, errno, "pipe");
}

/* The host of "ADDR port N": the address alone. */
static void host_of(const char *peer, char *host, size_t len)
{
	const char *port = strstr(peer, " port ");
	size_t n = port ? (size_t)(port - peer) : strlen(peer);

	snprintf(host, len, "%.*s", (int)n, peer);
}

/* A new turn at the next place (or one served again); NULL: no room. */
static struct turn *new_turn(const char *host)
{
	struct turn *t = NULL;

	for (unsigned i = 0; i < TURNS && !t; i++)
		if (!rs.turns[i].used)
			t = &rs.turns[i];
	if (!t)
		return NULL;
	t->used = 1;
	t->n = 0;
	t->opened = now_ns();
	t->at = plan_take(&rs.plan);
	room_for(t->at.round + 1);
	t->variant = plan_variant(&rs.plan, t->at);
	snprintf(t->host, sizeof(t->host), "%s", host);
	return t;
}

const struct rx_variant *serve_rounds_pick(const char *peer)
{
	char host[CONN_PEER_LEN];
	int same, flowing = serve_total_streaming() > 0;

	host_of(peer, host, sizeof(host));
	same = rs.open && strcmp(host, rs.open->host) == 0;
	if (rs.open && plan_joins(same, flowing, rs.open->opened, now_ns())) {
		rs.joining = rs.open;
		return &rs.vs->v[rs.open->variant];
	}
	if (rs.open && !same && flowing) {
		rs.joining = NULL;	/* another host meanwhile: not counted */
		return &rs.vs->v[rs.open->variant];
	}
	rs.open = rs.joining = new_turn(host);
	return &rs.vs->v[rs.open ? rs.open->variant : 0];
}

static void maybe_done(struct turn *t);

void serve_rounds_spawned(pid_t pid)
{
	struct turn *t = rs.joining;

	if (!t)
		return;
	rs.joining = NULL;
	if (pid < 0) {
		maybe_done(t);	/* refused: a turn of none is no turn */
		return;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		t->m = realloc(t->m, t->cap * sizeof(*t->m));
		if (!t->m)
			error(1, errno, "memory");
	}
	t->m[t->n++] = (struct member){ .pid = pid, .live = 1 };
}

void serve_rounds_result(const struct serve_result *r)
{
	struct record rec = { .pid = getpid(), .r = *r };

	if (rs.pipe[1] >= 0 && write(rs.pipe[1], &rec, sizeof(rec)) < 0) {
		/* The parent is gone: nobody to tell. */
	}
}

/* The member that is process pid, in whatever turn; NULL: none. */
static struct member *member_of(pid_t pid, struct turn **in)
{
	for (unsigned i = 0; i < TURNS; i++)
		for (unsigned k = 0; rs.turns[i].used && k < rs.turns[i].n; k++)
			if (rs.turns[i].m[k].pid == pid) {
				*in = &rs.turns[i];
				return &rs.turns[i].m[k];
			}
	return NULL;
}

/* The records sent so far, each to its member. */
static void take_records(void)
{
	struct record rec;
	struct member *m;
	struct turn *t;

	while (read(rs.pipe[0], &rec, sizeof(rec)) == (ssize_t)sizeof(rec))
		if ((m = member_of(rec.pid, &t)) != NULL) {
			m->has = 1;
			m->r = rec.r;
		}
}

/* A turn's figures: its connections summed over the span they cover. */
static struct fig_run turn_fig(const struct turn *t)
{
	struct fig_run f = fig_run_none();
	const struct serve_sampler_mark *first = NULL, *last = NULL;
	uint64_t bytes = 0, start = UINT64_MAX, end = 0, all;
	double own = 0, secs;
	int measured = 1;

	for (unsigned i = 0; i < t->n; i++) {
		const struct serve_result *r = &t->m[i].r;

		bytes += r->bytes;
		own += r->own_secs;
		start = r->start_ns < start ? r->start_ns : start;
		end = r->end_ns > end ? r->end_ns : end;
		measured &= r->metered;
		if (!first || r->first.secs < first->secs)
			first = &r->first;
		if (!last || r->last.secs > last->secs)
			last = &r->last;
	}
	f.v[FIG_RATE] = kbytes_per_sec(bytes, end > start ? end - start : 0);
	f.v[FIG_OWN] = cpu_us_per_kb(own, bytes);
	if (!first || !last)	/* a turn of no connection: no load figure */
		return f;
	secs = measured ? last->secs - first->secs : 0;
	if (secs > 0) {
		struct serve_load l;

		all = last->counted && first->counted ? last->all_bytes - first->all_bytes : bytes;
		l = serve_load_of((last->load_secs - first->load_secs) / secs, last->ncpus, secs, all);
		f.v[FIG_LOAD] = l.load;
		f.v[FIG_DEMAND] = l.demand;
	}
	return f;
}

/* Other processes in a turn: its connection that saw the most (-P's
 * connections overlap, each over its own span). */
static const struct others_report *turn_others(const struct turn *t)
{
	const struct others_report *o = &t->m[0].r.others;

	for (unsigned i = 1; i < t->n; i++)
		if (t->m[i].r.others.valid && t->m[i].r.others.pct > o->pct)
			o = &t->m[i].r.others;
	return o;
}

/* The rounds complete from the first: the table over them, and the chart. */
static void tables(void)
{
	while (rs.counted[rs.complete] == rs.vs->n) {
		size_t done = ++rs.complete;

		room_for(done);
		compare_rows(&zcs_look, rs.rows, rs.vs->n, rs.figs, done);
		compare_table(&zcs_look, rs.rows, rs.vs->n, "the median of the rounds' ratios");
		others_tally_line(&rs.others, "the service demand");
		if (rs.plot)
			compare_plot(&zcs_look, rs.plot, rs.rows, rs.figs, rs.vs->n, done,
				     rs.vs->by_size);
	}
}

/* Turn t's connections have all ended: count it, or serve its place again. */
static void turn_done(struct turn *t)
{
	const struct rx_variant *v = &rs.vs->v[t->variant];
	struct fig_run f;
	int whole = t->n > 0;

	for (unsigned i = 0; i < t->n; i++)
		whole &= t->m[i].has && t->m[i].r.whole;
	if (!whole) {
		if (t->n > 0)
			error(0, 0, "round %zu: %s's turn is not counted (a stream did not "
			      "end whole): %s serves the next", t->at.round + 1, v->name, v->name);
		plan_again(&rs.plan, t->at);
		return;
	}
	f = turn_fig(t);
	fig_rounds_put(&rs.figs[t->variant], t->at.round, &f);
	others_tally_add(&rs.others, v->name, turn_others(t));
	compare_round_line(&zcs_look, &rs.rows[t->variant], t->at.round, 0, t->at.at, &f,
			   turn_others(t));
	rs.counted[t->at.round]++;
	tables();
}

/* A turn ends when none of its connections is live nor about to be. */
static void maybe_done(struct turn *t)
{
	for (unsigned i = 0; i < t->n; i++)
		if (t->m[i].live)
			return;
	if (rs.joining == t)
		return;
	if (rs.open == t)
		rs.open = NULL;
	turn_done(t);
	t->used = 0;
}

void serve_rounds_ended(pid_t pid)
{
	struct member *m;
	struct turn *t;

	take_records();
	m = member_of(pid, &t);
	if (!m)
		return;
	m->live = 0;
	maybe_done(t);
}
