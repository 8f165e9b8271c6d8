/*
 * lib/zcc/deadline.c: how many files a loop of a -t stream sends, and the
 * time it has for them, on a clock the test gives.
 */
#include "zcc/deadline.h"
#include "t.h"

/* Four files of 996 bytes: with its length word, 1000 bytes each. */
static struct tx_file four[4] = {
	{ .size = 996 }, { .size = 996 }, { .size = 996 }, { .size = 996 },
};
static const struct file_set set = { .f = four, .n = 4, .bytes = 3984 };

int main(void)
{
	const double spb = 1e-6;	/* a file: 1 ms */

	CHECK(deadline_plan(&set, 0, 1.0, 0, 100) == 1, "no rate known yet: one file");
	CHECK(deadline_plan(&set, 0, 0, spb, 100) == 0 && deadline_plan(&set, 0, -1, spb, 1) == 0,
	      "the deadline has come: a loop of 0 files");
	CHECK(deadline_plan(&set, 0, 0.0101, spb, 1) == 10,
	      "the last loop: the files that fit in 10.1 ms, round the set (10)");
	CHECK(deadline_plan(&set, 2, 0.0106, spb, 1) == 11,
	      "a file half of which fits goes in (11 in 10.6 ms)");
	CHECK(deadline_plan(&set, 0, 0.0004, spb, 1) == 0,
	      "not half a file left: none");
	CHECK(deadline_plan(&set, 0, 0.0006, spb, 1) == 1,
	      "over half a file left: one");
	CHECK(deadline_plan(&set, 0, 1.0, spb, 100) == 20,
	      "100 loops for 1 s: this one twice its even share (20 ms, 20 files)");
	CHECK(deadline_plan(&set, 0, 0.004, spb, 1000) == 1,
	      "a share smaller than a file: still the one file that fits");
	CHECK(deadline_ceiling(5) == 5 * DEADLINE_LOOPS_PER_SEC &&
	      deadline_ceiling(0.01) == DEADLINE_LOOPS_MIN && deadline_ceiling(1e9) == UINT32_MAX,
	      "the ceiling: %d loops a second, at least %d, at most 2^32 - 1",
	      DEADLINE_LOOPS_PER_SEC, DEADLINE_LOOPS_MIN);

	/* The time a loop has: to the deadline, less what the socket holds
	 * at the rate so far. The stream began at 1 s and ends at 4 s. */
	struct deadline d = { .end = 4000000000ull, .t0 = 1000000000ull, .set = &set };
	double left, rate;

	left = deadline_left(&d, 1000000000ull, 0, 0, &rate);
	CHECK(left == 3.0 && rate == 0, "at the start: 3 s left, no rate yet (%g, %g)", left, rate);
	left = deadline_left(&d, 2000000000ull, 2000000, 1000000, &rate);
	CHECK(rate > 0.999e-6 && rate < 1.001e-6 && left > 0.999 && left < 1.001,
	      "at 2 s, 1 MB delivered and 1 MB queued: 1 us a byte, 2 s less 1 s to drain (%g, %g)",
	      left, rate);
	left = deadline_left(&d, 2000000000ull, 1000, 5000, &rate);
	CHECK(rate == 0 && left == 2.0, "nothing delivered yet (all queued): no rate, the 2 s to the deadline");
	left = deadline_left(&d, 3500000000ull, 6000000, 2500000, &rate);
	CHECK(left < 0 && deadline_plan(&set, 0, left, rate, 10) == 0,
	      "the socket holds more than the 0.5 s left: a loop of 0 files (%g s)", left);
	left = deadline_left(&d, 4000000000ull, 6000000, 0, &rate);
	CHECK(left == 0 && rate == 0, "at the deadline: nothing left");
	return t_exit();
}
