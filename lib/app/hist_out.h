/*
 * A distribution of times (lib/base/hist.h) as one line of the programs'
 * output (lib/app/out.h): zcc's latency lines under --rr and the time
 * across each system call (--call-times) of zcc and zcs print it alike.
 */
#ifndef ZC_APP_HIST_OUT_H
#define ZC_APP_HIST_OUT_H

#include <stdint.h>

#include "base/hist.h"

/*
 * hist_pieces - inside a line being built: h's percentiles p50, p90,
 * p99, p99.9 and p99.99, its max, mean and standard deviation, in us
 * (text "p50 X us, p90 ..., sd Z us"; JSON p50_us ... sd_us and count),
 * then with budget_ns (UINT64_MAX: none) how many were over it, of how
 * many, and their share (", over B us: K of N, P%"; JSON budget_us,
 * over, over_pct).
 */
void hist_pieces(const struct hist *h, uint64_t budget_ns);

/*
 * hist_calls_pieces - --call-times, inside a line being built: "call-times:
 * N METHOD calls, " and hist_pieces (JSON calls, method and hist_pieces'
 * keys), or " (none moved data)" when h is empty.
 */
void hist_calls_pieces(const char *method, const struct hist *h, uint64_t budget_ns);

#endif
