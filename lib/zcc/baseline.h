/*
 * zcc --baseline FILE: an earlier run's -J output read back and set
 * beside this run. Its rounds per variant: the round events of a run of
 * several variants, or else each whole sent event (a single variant's -R
 * runs, the variant named by its method) with the service demand of the
 * cpu event after it. Its env event, against this run's record: every key
 * that differs is named ("mtu 1500 -> 9000", "tso on -> off") above the
 * verdicts. The verdict per variant rests on the two runs' rounds taken
 * unpaired (lib/base/stats_unpaired.h): the ratio of this run's median to
 * the baseline's on the deciding figure (service demand when both runs
 * measured it with -c, zcc's own us/KB otherwise), its interval, and
 * cheaper, dearer or ~ (the interval holds 1).
 */
#ifndef ZC_ZCC_BASELINE_H
#define ZC_ZCC_BASELINE_H

#include <stddef.h>

#include "app/env_out.h"
#include "zcc/send.h"

/* One variant's rounds in the baseline. */
struct baseline_variant {
	char name[64];
	double *own, *demand;	/* us/KB per round; demand NAN unmeasured */
	size_t n, cap;
};

struct baseline {
	const char *path;
	int has_env;
	struct env_record env;
	struct baseline_variant *v;
	unsigned n;
};

/*
 * baseline_load - read path into *b. A file that cannot be read, is not
 * zcc's -J output (not JSON Lines, another program's) or holds no whole
 * round: one line naming it, exit 2.
 */
void baseline_load(struct baseline *b, const char *path);

/*
 * baseline_match - this run's variants names[0..n) must be the baseline's,
 * in any order: else one line naming both lists, exit 2.
 */
void baseline_match(const struct baseline *b, const char *const *names, unsigned n);

/*
 * baseline_print_env - every key of the environment record that differs
 * between the baseline and now (NULL: this run printed none): a
 * "changed:" line, or the baseline_env event with -J.
 */
void baseline_print_env(const struct baseline *b, const struct env_record *now);

/*
 * baseline_print_variant - the verdict on variant name: this run's rounds
 * (own and demand us/KB, n of them; demand NULL or NAN when unmeasured)
 * against the baseline's. A line, or the baseline event with -J.
 */
void baseline_print_variant(const struct baseline *b, const char *name,
			    const double *own, const double *demand, size_t n);

/*
 * baseline_report_runs - a single variant's -R runs rs[0..n) against the
 * baseline: the environment's differences, then the verdict. A failed
 * stdout is exit 1.
 */
void baseline_report_runs(const struct baseline *b, const char *variant,
			  const struct send_result *rs, unsigned n);

/* baseline_free - what baseline_load took. */
void baseline_free(struct baseline *b);

#endif
