/*
 * A distribution of times as a line's pieces (hist_out.h).
 */
#include <inttypes.h>

#include "app/hist_out.h"
#include "app/out.h"

/* The percentiles of the line: where, JSON key, text. */
static const struct { double q; const char *key, *text; } pcts[] = {
	{ 50, "p50_us", "p50 %.1f us" }, { 90, "p90_us", ", p90 %.1f us" },
	{ 99, "p99_us", ", p99 %.1f us" }, { 99.9, "p99_9_us", ", p99.9 %.1f us" },
	{ 99.99, "p99_99_us", ", p99.99 %.1f us" },
};

void hist_calls_pieces(const char *method, const struct hist *h, uint64_t budget_ns)
{
	line_u64("calls", hist_count(h), "call-times: %" PRIu64);
	line_str("method", method, " %s calls");
	line_text(hist_count(h) ? ", " : " (none moved data)");
	if (hist_count(h))
		hist_pieces(h, budget_ns);
}

void hist_pieces(const struct hist *h, uint64_t budget_ns)
{
	uint64_t n = hist_count(h);

	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		line_num(pcts[i].key, (double)hist_at(h, pcts[i].q) / 1e3, 3, pcts[i].text);
	line_num("max_us", (double)hist_max(h) / 1e3, 3, ", max %.1f us");
	line_num("mean_us", hist_mean(h) / 1e3, 3, ", mean %.1f us");
	line_num("sd_us", hist_sd(h) / 1e3, 3, ", sd %.1f us");
	line_u64("count", n, NULL);
	if (budget_ns == UINT64_MAX)
		return;
	line_num("budget_us", (double)budget_ns / 1e3, 3, ", over %g us");
	line_u64("over", hist_over_budget(h), ": %" PRIu64);
	line_text(" of %" PRIu64, n);
	line_num("over_pct", n ? 100.0 * (double)hist_over_budget(h) / (double)n : 0, 2,
		 ", %.2f%%");
}
