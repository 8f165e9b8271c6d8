/*
 * lib/zcc/baseline_show.c: --baseline's verdict on the figure --decide
 * names (the sender's, the receiver's, the path's: both ends added), the
 * receiver's columns only where both runs have them, and the fall back
 * to the sender's figure when the baseline lacks the receiver's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "t.h"
#include "app/out.h"
#include "zcc/baseline.h"
#include "zcc/compare.h"

static char got[8192];

/* The baseline's table of now on decide, as -J prints it, into got. */
static void table(const struct baseline *b, const struct baseline_now *now,
		  enum compare_decide decide)
{
	FILE *tmp = tmpfile();
	int saved = dup(1);
	size_t n;

	if (!tmp || saved < 0)
		return;
	fflush(stdout);
	dup2(fileno(tmp), 1);
	baseline_print_variant(b, now, decide);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	n = fread(got, 1, sizeof(got) - 1, tmp);
	got[n] = '\0';
	fclose(tmp);
}

/* Runs r[0..n): the sender's demand d, the receiver's own and demand. */
static void runs(struct fig_run *r, size_t n, double d, double rx_own, double rx_demand)
{
	for (size_t k = 0; k < n; k++) {
		r[k] = fig_run_none();
		r[k].v[FIG_RATE] = 1000;
		r[k].v[FIG_OWN] = 1;
		r[k].v[FIG_LOAD] = 0.5;
		r[k].v[FIG_DEMAND] = d;
		r[k].v[FIG_RX_OWN] = rx_own;
		r[k].v[FIG_RX_LOAD] = 0.25;
		r[k].v[FIG_RX_DEMAND] = rx_demand;
	}
}

int main(void)
{
	/* The baseline: sender's demand 4, receiver's 2; now: 2 and 4. */
	struct fig_run then[3], nows[3];
	struct baseline_variant bv = { .name = "send", .rounds = { .r = then, .n = 3 } };
	struct baseline b = { .path = "b.json", .v = &bv, .n = 1 };
	struct variant v = { .method = tx_find("send"), .chunk = 65536, .name = "send" };
	struct baseline_now now = { .v = &v, .r = nows, .n = 3 };

	runs(then, 3, 4, 2, 2);
	runs(nows, 3, 2, 4, 4);
	out_init("zcc", 1);
	CHECK(v.method != NULL, "the send method");
	table(&b, &now, COMPARE_SELF);
	CHECK(strstr(got, "\"figure\":\"service_demand_us_per_kb\"") &&
	      strstr(got, "\"ratio_median\":0.500") && strstr(got, "\"rx_own_us_per_kb_median\":2"),
	      "the sender's: 2 over 4, the receiver's medians beside");
	CHECK(strstr(got, "\"verdict\":\"cheaper\"") && !strstr(got, "verdict_why"),
	      "3 rounds against 3 cover 90%%: a verdict word");
	table(&b, &now, COMPARE_RECEIVER);
	CHECK(strstr(got, "\"figure\":\"rx_service_demand_us_per_kb\"") &&
	      strstr(got, "\"ratio_median\":2.000"), "the receiver's: 4 over 2");
	table(&b, &now, COMPARE_PATH);
	CHECK(strstr(got, "\"figure\":\"path_service_demand_us_per_kb\"") &&
	      strstr(got, "\"ratio_median\":1.000"), "the path's: 2 + 4 over 4 + 2");
	CHECK(baseline_decided(&b, &now, 1, COMPARE_PATH) == COMPARE_PATH &&
	      baseline_decided(&b, &now, 1, COMPARE_RECEIVER) == COMPARE_RECEIVER,
	      "both runs have both ends' figures: as asked");
	now.n = 2;
	table(&b, &now, COMPARE_SELF);
	CHECK(strstr(got, "\"verdict\":\"~\"") &&
	      strstr(got, "\"verdict_why\":\"2 rounds against 3: 3 needed\""),
	      "2 rounds against 3 cover 80%%: ~ and why (%s)", got);
	now.n = 3;

	then[1].v[FIG_RX_DEMAND] = NAN;	/* one round of the baseline's unmetered */
	CHECK(baseline_decided(&b, &now, 1, COMPARE_PATH) == COMPARE_SELF &&
	      baseline_decided(&b, &now, 1, COMPARE_RECEIVER) == COMPARE_RECEIVER,
	      "the baseline's receiver unmetered once: no path, the receiver's own still");
	table(&b, &now, COMPARE_SELF);
	CHECK(strstr(got, "rx_own_us_per_kb_median") &&
	      !strstr(got, "rx_service_demand_us_per_kb_median"),
	      "its demand column left out, its own us/KB kept");
	then[1].v[FIG_RX_OWN] = NAN;
	CHECK(baseline_decided(&b, &now, 1, COMPARE_RECEIVER) == COMPARE_SELF,
	      "a baseline round without the report: the sender's figure");
	table(&b, &now, COMPARE_SELF);
	CHECK(!strstr(got, "rx_"), "no receiver's column in either row");
	runs(nows, 3, 2, NAN, NAN);
	then[1].v[FIG_RX_OWN] = 2;	// cppcheck-suppress unreadVariable ; read through b, bv.rounds.r
	CHECK(baseline_decided(&b, &now, 1, COMPARE_SELF) == COMPARE_SELF,
	      "the sender's asked: the sender's, whatever is missing");
	return t_exit();
}
