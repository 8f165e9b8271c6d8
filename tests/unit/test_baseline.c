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

int main(void)
{
	/* The baseline: sender's demand 4, receiver's 2; now: 2 and 4. */
	double own[3] = { 1, 1, 1 }, rate[3] = { 1000, 1000, 1000 };
	double load[3] = { 0.5, 0.5, 0.5 }, rx_load[3] = { 0.25, 0.25, 0.25 };
	double four[3] = { 4, 4, 4 }, two[3] = { 2, 2, 2 }, lack[3] = { 2, NAN, 2 };
	struct baseline_variant bv = { .name = "send", .own = own, .demand = four,
		.rate = rate, .load = load, .rx_own = two, .rx_demand = two,
		.rx_load = rx_load, .n = 3 };
	struct baseline b = { .path = "b.json", .v = &bv, .n = 1 };
	struct variant v = { .method = tx_find("send"), .chunk = 65536, .name = "send" };
	struct baseline_now now = { .v = &v, .own = own, .demand = two, .rate = rate,
		.load = load, .rx_own = four, .rx_demand = four, .rx_load = rx_load, .n = 3 };

	out_init("zcc", 1);
	CHECK(v.method != NULL, "the send method");
	table(&b, &now, COMPARE_SELF);
	CHECK(strstr(got, "\"figure\":\"service_demand_us_per_kb\"") &&
	      strstr(got, "\"ratio_median\":0.500") && strstr(got, "\"rx_own_us_per_kb_median\":2"),
	      "the sender's: 2 over 4, the receiver's medians beside");
	table(&b, &now, COMPARE_RECEIVER);
	CHECK(strstr(got, "\"figure\":\"rx_service_demand_us_per_kb\"") &&
	      strstr(got, "\"ratio_median\":2.000"), "the receiver's: 4 over 2");
	table(&b, &now, COMPARE_PATH);
	CHECK(strstr(got, "\"figure\":\"path_service_demand_us_per_kb\"") &&
	      strstr(got, "\"ratio_median\":1.000"), "the path's: 2 + 4 over 4 + 2");
	CHECK(baseline_decided(&b, &now, 1, COMPARE_PATH) == COMPARE_PATH &&
	      baseline_decided(&b, &now, 1, COMPARE_RECEIVER) == COMPARE_RECEIVER,
	      "both runs have both ends' figures: as asked");

	/* b holds bv: each change below is read through it. */
	// cppcheck-suppress unreadVariable
	bv.rx_demand = lack;	/* one round of the baseline's unmetered */
	CHECK(baseline_decided(&b, &now, 1, COMPARE_PATH) == COMPARE_SELF &&
	      baseline_decided(&b, &now, 1, COMPARE_RECEIVER) == COMPARE_RECEIVER,
	      "the baseline's receiver unmetered once: no path, the receiver's own still");
	table(&b, &now, COMPARE_SELF);
	CHECK(strstr(got, "rx_own_us_per_kb_median") &&
	      !strstr(got, "rx_service_demand_us_per_kb_median"),
	      "its demand column left out, its own us/KB kept");
	bv.rx_own = lack;
	CHECK(baseline_decided(&b, &now, 1, COMPARE_RECEIVER) == COMPARE_SELF,
	      "a baseline round without the report: the sender's figure");
	table(&b, &now, COMPARE_SELF);
	CHECK(!strstr(got, "rx_"), "no receiver's column in either row");
	now.rx_own = NULL;
	// cppcheck-suppress redundantAssignment
	// cppcheck-suppress unreadVariable
	bv.rx_own = two;
	CHECK(baseline_decided(&b, &now, 1, COMPARE_SELF) == COMPARE_SELF,
	      "the sender's asked: the sender's, whatever is missing");
	return t_exit();
}
