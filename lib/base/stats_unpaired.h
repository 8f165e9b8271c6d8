/*
 * Two samples that do not pair: the rounds of an earlier run (zcc
 * --baseline) against this run's. No round of one belongs with a round
 * of the other, so the paired view of lib/base/stats.h (each round's
 * ratio) does not apply; the figure is the ratio of the two medians and
 * its interval comes from every pair of one value of each.
 *
 * The method (Hodges-Lehmann, on logarithms): the shift between the two
 * samples' logarithms is estimated by the n*m differences
 * log a[i] - log b[j]; ordered, the k-th smallest and the k-th largest of
 * them bound a 95% distribution-free interval of the shift, k taken from
 * the Mann-Whitney statistic's distribution when the samples do not
 * differ (exactly from its counts up to 400 values in all, by the normal
 * approximation above), the largest k whose coverage 1 - 2 P(U < k) is
 * 95% or more. Back from logarithms the ends are ratios: the interval of
 * "a is this many times b", assuming only that the two runs' figures
 * differ by a factor and not in shape. With too few values for 95% (4
 * against 4 is the least: 97.1%; 3 against 3 reaches 90%) the least and
 * the most ratio are the interval and the coverage says what they hold.
 */
#ifndef ZC_STATS_UNPAIRED_H
#define ZC_STATS_UNPAIRED_H

#include <stddef.h>

#include "base/stats.h"

/* More pairs than this are not compared (1000 rounds against 1000). */
#define STATS_UNPAIRED_MAX_PAIRS 1000000

/*
 * stats_unpaired - a[0..na) against b[0..nb) (left unchanged) into *r:
 * median the ratio of a's median to b's, lo and hi the interval above,
 * conf its coverage, n the pairs used, above and below how many pairs'
 * ratios lie above and below 1. Values that are not finite and above 0
 * are left out; with none left on a side, or too many pairs, r->n is 0
 * and the figures NAN.
 */
void stats_unpaired(const double *a, size_t na, const double *b, size_t nb,
		    struct stats_ratio *r);

/*
 * stats_mw_coverage - the coverage of the k-th smallest and k-th largest
 * of the n*m pairwise differences as an interval of the shift between
 * samples of n and m values: 1 - 2 P(U < k), U the Mann-Whitney count of
 * pairs in order when the samples do not differ. 0 when k is 0 or more
 * than half the pairs.
 */
double stats_mw_coverage(size_t n, size_t m, size_t k);

#endif
