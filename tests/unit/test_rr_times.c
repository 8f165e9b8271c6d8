/*
 * lib/zcc/rr_times.c and rr_log.c, the pure parts: which one-way times two
 * ends' clocks allow, the step no figure across machines is finer than
 * and the rounding to it, and --log's rows (every column, the one-way
 * ones empty where none was taken, the widest row within RR_LOG_ROW_MAX).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "zcc/rr_internal.h"
#include "unit/t.h"

static void clocks(void)
{
	unsigned char a[RR_BOOT_ID], b[RR_BOOT_ID], zero[RR_BOOT_ID] = { 0 };

	memset(a, 1, sizeof(a));
	memset(b, 2, sizeof(b));
	CHECK(rr_clocks_of(a, a, 1, 0, UINT32_MAX, UINT32_MAX) == RR_CLOCKS_ONE,
	      "one boot id: one clock, whatever the errors say");
	CHECK(rr_clocks_of(a, a, 1, 1, 5, 5) == RR_CLOCKS_ONE,
	      "one boot id with --clocks-synced: still one clock");
	CHECK(rr_clocks_of(a, b, 1, 0, 5, 5) == RR_CLOCKS_APART,
	      "two boot ids, no --clocks-synced: none, however good the clocks");
	CHECK(rr_clocks_of(zero, zero, 1, 0, 5, 5) == RR_CLOCKS_APART,
	      "unknown boot ids (both zero) are not one clock");
	CHECK(rr_clocks_of(a, a, 0, 0, 5, 5) == RR_CLOCKS_BARE, "one clock, bare messages: bare");
	CHECK(rr_clocks_of(a, b, 0, 1, 5, 5) == RR_CLOCKS_BARE, "--clocks-synced, bare: bare");
	CHECK(rr_clocks_of(a, b, 1, 1, 5, 7) == RR_CLOCKS_SYNCED, "--clocks-synced, both synchronised");
	CHECK(rr_clocks_of(a, b, 1, 1, UINT32_MAX, 7) == RR_CLOCKS_UNSYNCED,
	      "--clocks-synced, this end unsynchronised");
	CHECK(rr_clocks_of(a, b, 1, 1, 7, UINT32_MAX) == RR_CLOCKS_UNSYNCED,
	      "--clocks-synced, the server unsynchronised");
}

static void steps(void)
{
	static const struct { uint32_t a, b; double step; } cases[] = {
		{ 0, 0, 0 }, { 1, 0, 1 }, { 0, 2, 2 }, { 3, 1, 5 }, { 5, 5, 5 }, { 6, 1, 10 },
		{ 10, 9, 10 }, { 11, 12, 20 }, { 30, 12, 50 }, { 51, 0, 100 }, { 999, 1, 1000 },
		{ 1001, 1, 2000 }, { 4000000, 0, 5000000 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(rr_clock_step_us(cases[i].a, cases[i].b) == cases[i].step,
		      "errors %u and %u us: step %g us (got %g)", cases[i].a, cases[i].b,
		      cases[i].step, rr_clock_step_us(cases[i].a, cases[i].b));
	CHECK(rr_clock_round(12.34, 0) == 12.34, "no step: the figure as it is");
	CHECK(rr_clock_round(37.4, 50) == 50, "37.4 us to a step of 50: 50");
	CHECK(rr_clock_round(74.9, 50) == 50 && rr_clock_round(75.1, 50) == 100,
	      "to the nearest step");
	CHECK(isnan(rr_clock_round(24.9, 50)), "under half a step: below the clock error (NAN)");
	CHECK(isnan(rr_clock_round(0, 1)), "0 with a step: below the clock error");
}

static void log_rows(void)
{
	struct rr_msg m = { .seq = 7, .due_mono = 100, .tx_mono = 150 };
	struct rr_times t = { .from_due = 400, .from_send = 350 };
	char buf[RR_LOG_ROW_MAX + 1];
	size_t n;

	n = rr_log_format(buf, 3, &m, 500, &t);
	buf[n] = '\0';
	CHECK(!strcmp(buf, "3,7,100,150,500,400,350,,\n"), "a row without one-way times: %s", buf);
	t.one_way = 1;
	t.out = 120;
	t.back = 0;
	n = rr_log_format(buf, 0, &m, 500, &t);
	buf[n] = '\0';
	CHECK(!strcmp(buf, "0,7,100,150,500,400,350,120,0\n"), "a row with them: %s", buf);
	m = (struct rr_msg){ .seq = UINT64_MAX, .due_mono = UINT64_MAX, .tx_mono = UINT64_MAX };
	t = (struct rr_times){ UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, 0, 1 };
	n = rr_log_format(buf, UINT32_MAX, &m, UINT64_MAX, &t);
	CHECK(n <= RR_LOG_ROW_MAX && n == 10 + 8 * 20 + 9, "the widest row, %zu bytes, fits", n);
	CHECK(!strncmp(rr_log_header, "flow,seq,", 9) &&
	      strlen(rr_log_header) && rr_log_header[strlen(rr_log_header) - 1] == '\n',
	      "the header: one line");
}

int main(void)
{
	clocks();
	steps();
	log_rows();
	return t_exit();
}
