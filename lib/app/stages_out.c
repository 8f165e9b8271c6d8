/*
 * The stages: line of a run's stamps (lib/app/stages_out.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "app/out.h"
#include "app/stages_out.h"

/* One stage's pieces: its percentiles, or that it got no stamp. */
static void stage_pieces(const struct tstamp_track *t, enum tstamp_stage s, int first)
{
	const struct hist *h = &t->stage[s];
	const char *key = tstamp_stage_key(s);
	char k[64];

	line_text("%s%s", first ? "" : "; ", tstamp_stage_name(s));
	snprintf(k, sizeof(k), "%s_count", key);
	line_u64(k, hist_count(h), NULL);
	snprintf(k, sizeof(k), "%s_p50_us", key);
	line_num(k, hist_count(h) ? (double)hist_at(h, 50) / 1e3 : NAN, 3,
		 hist_count(h) ? " p50 %.1f us" : ": not stamped here");
	snprintf(k, sizeof(k), "%s_p99_us", key);
	line_num(k, hist_count(h) ? (double)hist_at(h, 99) / 1e3 : NAN, 3,
		 hist_count(h) ? ", p99 %.1f us" : NULL);
	snprintf(k, sizeof(k), "%s_max_us", key);
	line_num(k, hist_count(h) ? (double)hist_max(h) / 1e3 : NAN, 3,
		 hist_count(h) ? ", max %.1f us" : NULL);
}

void stages_line(const struct stages_of *of)
{
	const struct tstamp_track *t = of->t;
	double sum = 0;

	line_begin("stages");
	line_text("stages");
	if (of->every) {
		line_u64("every", of->every, " (1 send in %" PRIu64);
		line_u64("stamped_sends", t->sent, ", %" PRIu64 " stamped)");
	}
	line_text(": ");
	for (int s = 0; s < TS_STAGES; s++) {
		stage_pieces(t, (enum tstamp_stage)s, s == 0);
		if (hist_count(&t->stage[s]))
			sum += (double)hist_at(&t->stage[s], 50) / 1e3;
	}
	line_num("sum_p50_us", sum, 3, "; medians add to %.1f us");
	if (of->rtt)
		line_num("rtt_p50_us", hist_count(of->rtt) ? (double)hist_at(of->rtt, 50) / 1e3 :
			 NAN, 3, " of a round trip's p50 %.1f us");
	line_u64("stamps_missing", tstamp_track_missing(t), "; stamps missing %" PRIu64);
	line_u64("stamps_late", t->late, ", late %" PRIu64);
	line_u64("stamps_again", t->again, ", again %" PRIu64);
	line_u64("stamps_stepped", t->stepped, ", stepped %" PRIu64);
	if (of->arrivals)
		line_u64("arrivals_unstamped", of->unstamped, ", arrivals unstamped %" PRIu64);
	line_u64("errqueue_errors", of->errors, of->errors ? ", error queue failed %" PRIu64
		 " times" : NULL);
	line_end();
}

