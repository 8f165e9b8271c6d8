/*
 * zcc --baseline FILE: an earlier run's -J output read back and set
 * beside this run. Its rounds per variant: the round events of a run of
 * several variants, or else each whole sent event (a single variant's -R
 * runs, the variant named by its method) with the cpu event after it.
 * Its env and settings events (lib/zcc/run_record.h), against this run's:
 * every key that differs is named ("mtu 1500 -> 9000", "chunk_bytes 256
 * -> 65536") above the verdicts, and every key neither run could read is
 * said to be unknown in both. The verdict per variant rests on the two
 * runs' rounds taken unpaired (lib/base/stats_unpaired.h), printed
 * through the comparison table (compare.h) with the baseline's rounds as
 * the reference row: the ratio of this run's median to the baseline's on
 * the deciding figure (service demand when both runs measured it with
 * -c, zcc's own us/KB otherwise; the receiver's or the path's as
 * --decide asks, when both runs have them), its interval, and cheaper,
 * dearer or ~. The receiver's columns show where both runs had its
 * report in every round; its method and read size are a record of
 * their own (run_record.h), compared as the settings are.
 * A file holding more than one run, or a run cut short, is refused.
 */
#ifndef ZC_ZCC_BASELINE_H
#define ZC_ZCC_BASELINE_H

#include <stddef.h>

#include "app/env_out.h"
#include "app/figures.h"
#include "zcc/send.h"

struct variant;

/* One variant's rounds in the baseline (a figure a round lacks: NAN). */
struct baseline_variant {
	char name[64];
	struct fig_rounds rounds;
};

struct baseline {
	const char *path;	/* "-": standard input */
	int has_env, has_settings;
	struct env_record env, settings;
	struct env_record rx;	/* the receiver's record, from its receiver events */
	struct baseline_variant *v;
	unsigned n;
};

/*
 * baseline_load - read path ("-": standard input) into *b. A file that
 * cannot be read, is not zcc's -J output (not JSON Lines, another
 * program's), holds no whole round, holds more than one run (each run's
 * env event starts it: both are named) or a run cut short (round events
 * without the table after them, runs of -R without the summary): one
 * line naming it, exit 2.
 */
void baseline_load(struct baseline *b, const char *path);

/*
 * baseline_match - this run's variants names[0..n) must be the baseline's,
 * in any order: else one line naming both lists, exit 2.
 */
void baseline_match(const struct baseline *b, const char *const *names, unsigned n);

/* baseline_variant_of - the baseline's rounds of the variant name; NULL: none. */
const struct baseline_variant *baseline_variant_of(const struct baseline *b,
						   const char *name);

/*
 * baseline_print_env - every key of the environment, settings and
 * receiver's records that differs between the baseline and now (env,
 * settings, rx: this run's; NULL: it printed none), and the keys unknown
 * in both: a "changed:" line, or the baseline_env event with -J.
 */
void baseline_print_env(const struct baseline *b, const struct env_record *env,
			const struct env_record *settings, const struct env_record *rx);

/* This run's rounds of one variant: r[0..n); fig: the figure of COMPARE_FIGURE. */
struct baseline_now {
	const struct variant *v;
	const struct fig_run *r;
	size_t n;
	enum fig_id fig;
};

/*
 * baseline_decided - the figure decide (--decide, as the live comparison
 * kept it) can be against the baseline for now[0..n): the receiver's when
 * every round of both runs had the report, the path's when both ends
 * metered in both; else one line on stderr saying which run lacks it, and
 * COMPARE_SELF.
 */
enum compare_decide baseline_decided(const struct baseline *b, const struct baseline_now *now,
				     unsigned n, enum compare_decide decide);

/*
 * baseline_print_variant - the table of the baseline's rounds of now's
 * variant (the reference row) and this run's (compare.h's table), the
 * receiver's columns where both runs have them, decided on decide.
 */
void baseline_print_variant(const struct baseline *b, const struct baseline_now *now,
			    enum compare_decide decide);

/*
 * baseline_report - the one report against the baseline of this run's
 * variants now[0..n): the changed: line, then each variant's table on
 * the figure decide names (baseline_decided). A failed stdout: exit 1.
 * baseline_report_runs - the same for a single variant v's -R runs
 * rs[0..n), on the sender's figure.
 */
void baseline_report(const struct baseline *b, const struct baseline_now *now, unsigned n,
		     enum compare_decide decide);

void baseline_report_runs(const struct baseline *b, const struct variant *v,
			  const struct send_result *rs, unsigned n);

struct variants;	/* lib/zcc/compare.h */

/*
 * baseline_load_variants - baseline_load, then baseline_match of v's
 * names; a baseline of the other mode (--rr's rounds against files', or
 * the other way) is refused as a mismatch is.
 */
void baseline_load_variants(struct baseline *b, const char *path, const struct variants *v);

/* baseline_free - what baseline_load took. */
void baseline_free(struct baseline *b);

#endif
