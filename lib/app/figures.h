/*
 * The figures a run gives, as one table (netperf's omni output selectors
 * are the model): each figure's name, unit, JSON key, text column, which
 * way is better, and how it is read from a run's record. The round
 * lines, the comparison table, --baseline's reader and table, --plot and
 * the JSON round and compare events all walk this table; none of them
 * names a figure but the deciding one they are asked for.
 *
 * A run's record (struct fig_run) holds one value per figure the
 * programs measure, NAN where the run did not measure it (no -c, no
 * receiver's report). A figure made from others (both ends' service
 * demand added) has a computation instead: its value is worked out from
 * the record whenever it is read. Adding a figure is its entry in
 * figures.c (and its id here); the program that measures it sets it in
 * the record, or the entry computes it from the others.
 */
#ifndef ZC_APP_FIGURES_H
#define ZC_APP_FIGURES_H

#include <stddef.h>

/* The figures, in the order of a round line and its JSON event. */
enum fig_id {
	FIG_RATE,		/* kbytes/sec */
	FIG_TPS,		/* --rr: transactions/sec */
	FIG_P50,		/* --rr: round-trip percentiles, us */
	FIG_P90,
	FIG_P99,
	FIG_P999,
	FIG_LOAD,		/* the machine's load, 0..1 */
	FIG_DEMAND,		/* service demand, us/KB */
	FIG_TRAN,		/* --rr -c: the machine's CPU time per transaction, us */
	FIG_OWN,		/* the program's own CPU time, us/KB */
	FIG_OWN_TRAN,		/* --rr: the program's own, us per transaction */
	FIG_RX_OWN,		/* the receiver's, by its report */
	FIG_RX_LOAD,
	FIG_RX_DEMAND,
	FIG_PATH,		/* both ends' service demand added */
	FIG_N
};

/* When a figure is there: a stream's (rate, own us/KB), with -c (the
 * load; a stream's service demand), with the receiver's report, with a
 * receiver that metered, a request/response run's (its rate and times),
 * and such a run with -c. A group shows (a column, a round line's part)
 * when every figure of it is there. */
enum fig_group { FIG_STREAM, FIG_METERED, FIG_RX, FIG_RX_METERED, FIG_LOADED, FIG_RR,
		 FIG_RR_METERED, FIG_GROUPS };

/* Which way is better: what a verdict's words mean for the figure. */
enum fig_better { FIG_LOWER, FIG_HIGHER };

/* A run's record: NAN where the run did not measure the figure. */
struct fig_run {
	double v[FIG_N];
};

struct fig_def {
	const char *name;	/* "service demand", as a header says it */
	const char *unit;	/* "us/KB" */
	const char *key;	/* a round event's key; +"_median": the compare event's */
	const char *head;	/* the table's column head; NULL: not a column */
	const char *line;	/* the round line's text of the value; NULL: none */
	double scale;		/* shown = value x scale (a load, 0..1, as a percentage) */
	const char *title;	/* as the deciding figure ("the receiver's service demand") */
	const char *title_rx;	/* the sender's, beside the receiver's columns */
	const char *ratio_of;	/* under the table: "the variant's <ratio_of> over ..." */
	double (*of)(const struct fig_run *r);	/* made from others; NULL: measured */
	int width, prec;	/* the column's width, digits after the point */
	int named;		/* head and line follow the program's name ("zcc us/KB") */
	enum fig_better better;
	enum fig_group group;
	int col;		/* the column's place in the table, from 0 */
};

extern const struct fig_def fig_defs[FIG_N];

/* fig_run_none - a record with no figure measured. */
struct fig_run fig_run_none(void);

/* fig_value - figure id of r, measured or made from the others. */
double fig_value(const struct fig_run *r, enum fig_id id);

/*
 * One variant's rounds: records[0..n), cap of room. fig_rounds_put - r as
 * round's (grown as needed; a round skipped meanwhile holds no figure);
 * fig_rounds_free. Out of memory: one line, exit 1.
 */
struct fig_rounds {
	struct fig_run *r;
	size_t n, cap;
};

void fig_rounds_put(struct fig_rounds *f, size_t round, const struct fig_run *r);
void fig_rounds_free(struct fig_rounds *f);

/* fig_column - figure id's values in the runs r[0..n), into out. */
void fig_column(const struct fig_run *r, size_t n, enum fig_id id, double *out);

/*
 * fig_groups - the groups (a bit each, 1 << group) every figure of which
 * is there in each of the runs r[0..n).
 */
unsigned fig_groups(const struct fig_run *r, size_t n);

/*
 * fig_run_json - the figures event o holds into r (a figure whose key it
 * lacks is left as it was); receivers: o is the receiver's event, its
 * keys the receiver's figures' without "rx_".
 */
struct jsonl_obj;
void fig_run_json(struct fig_run *r, const struct jsonl_obj *o, int receivers);

/* fig_shown - figure id is a column, or a round line's part, under groups. */
int fig_shown(enum fig_id id, unsigned groups);

#endif
