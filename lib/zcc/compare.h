/*
 * zcc's comparisons: variants (a transmit method and a chunk size each,
 * from -M and -b lists) run in rounds, every variant once a round on a
 * fresh connection, the order rotated from round to round; then a table
 * of each variant's medians and, for each after the first, its verdict
 * against the first on the figure that decides: the median of the rounds'
 * ratios with their distribution-free interval (lib/base/stats.h).
 *
 * compare_args.c reads the lists and --rate, compare.c runs the rounds;
 * the round lines, the table and the chart are every program's
 * (lib/app/compare.h).
 */
#ifndef ZC_ZCC_COMPARE_H
#define ZC_ZCC_COMPARE_H

#include <stdint.h>

#include "app/compare.h"
#include "zcc/baseline.h"
#include "zcc/rr.h"
#include "zcc/send.h"

/* zcc's look in the comparison's lines (app/compare.h): its own us/KB,
 * chunk sizes. */
extern const struct compare_look compare_zcc_look;

/* --rr's: request sizes, deciding on one figure (the look's fig). */
extern const struct compare_look compare_rr_look;

struct variant {
	const struct tx_method *method;
	size_t chunk;		/* -b; for a method that sends whole files, unused */
	char name[48];		/* "send", or "send/4K" with a -b list */
	uint64_t gap_ns;	/* --rr: --gap's; 0: closed loop */
	int udp;		/* --rr: --proto udp, ip or packet: datagrams */
	int proto;		/* --rr: --proto's (enum rr_proto) */
	uint32_t busy_us;	/* --rr: --busy-poll's; 0: none */
};

struct variants {
	struct variant v[COMPARE_MAX];
	unsigned n;
	int by_size;		/* -b was a list: the chart draws against size */
	int rr;			/* --rr's: request sizes, gaps and protocols */
};

/*
 * compare_variants - every combination of methods (-M's value, a comma
 * list) and chunks (-b's, a comma list of sizes; NULL: 64K), into vs. A
 * method that sends whole files is one variant whatever the sizes. An
 * empty item, a repeated one, an unknown method, a bad size, more than
 * COMPARE_MAX variants, or a -b list for methods that take no chunk size:
 * one usage line, exit 2.
 */
void compare_variants(struct variants *vs, const char *methods, const char *chunks);

/*
 * compare_methods - compare_variants of -M's methods (NULL: none given),
 * -b's chunks, and -S (copy_path) and -w (use_write): -S means -M send,
 * -S -w -M write, with no -M the first method of lib/wire/tx.h. -w
 * without -S, or -S beside another method: one usage line, exit 2.
 */
void compare_methods(struct variants *vs, const char *methods, const char *chunks,
		     int copy_path, int use_write);

/*
 * compare_usable - ask the kernel, before any connection, whether it will
 * do each variant's method (tx_usable): a lone variant it refuses is one
 * line with the kernel's reason and exit 1; in a list each refused one is
 * left out with such a line, and a list left empty is exit 1.
 */
void compare_usable(struct variants *vs);

/*
 * compare_decide_arg - --decide's value: sender (the default), receiver
 * or path (both ends' service demand added); both but the first need
 * --receiver-report (rx_report). Anything else: a usage line, exit 2.
 */
enum compare_decide compare_decide_arg(const char *arg, int rx_report);

/*
 * compare_decide_check - --decide's value at the door, for a comparison
 * of n variants: with rr one of --rr's figures (rr_decide_arg, measured:
 * -c), else one of compare_decide_arg's (a round trip's figure refused).
 * Anything amiss: one usage line, exit 2.
 */
void compare_decide_check(const char *arg, unsigned n, int rr, int measured, int rx_report);

/*
 * compare_rate - --rate's value in bits/s: digits, a fraction allowed,
 * then K, M or G (powers of 1000, as link rates are written). Anything
 * else, or a rate under 8 bits/s or above 1000G: a usage line, exit 2.
 */
double compare_rate(const char *opt, const char *arg);

/* compare_fig_of - a run's figures as the comparison keeps them, the
 * receiver's beside. */
struct fig_run compare_fig_of(const struct send_result *r);

/*
 * compare_rate_short - with --rate, a run more than 5% short of it is
 * named on one line on stderr (name: the variant, or NULL).
 */
void compare_rate_short(const char *name, const struct send_result *r, double rate);

/* How to run the comparison. */
struct compare_cfg {
	unsigned rounds;	/* -R */
	uint32_t loops;		/* -n; with -t (cfg->secs) each run ends itself */
	double rate;		/* --rate, bits/s; 0: none */
	const char *plot;	/* --plot FILE; NULL: none */
	const struct baseline *base;	/* --baseline; NULL: none */
	enum compare_decide decide;	/* --decide */
	enum fig_id fig;		/* --decide of one figure (COMPARE_FIGURE) */
	const struct rr_cfg *rr;	/* --rr's settings; NULL: files are sent */
};

/*
 * compare_decide_set - cc's deciding figure from --decide's value arg
 * (NULL: the default) and its --rr settings (rr; NULL: files are sent).
 */
void compare_decide_set(struct compare_cfg *cc, const char *arg, const struct rr_cfg *rr,
			int measured);

/*
 * compare_run - the rounds of vs on sd (cfg is sd's settings, whose method
 * and chunk each run sets), each run's lines as a single run prints them
 * and a round line after, then the table (and the chart of --plot). A stop
 * signal ends it with the table of the rounds that ran whole, then the
 * program by the signal. With --baseline, the environment's differences
 * and each variant's rounds against the baseline's follow the table.
 * Returns 0.
 */
int compare_run(struct sender *sd, struct send_cfg *cfg, const struct variants *vs,
		const struct compare_cfg *cc);

#endif
