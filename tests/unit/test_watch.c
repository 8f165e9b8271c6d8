/*
 * lib/app/watch.c: interval lines, the one stall rule and its words, a
 * pause of our own, and -T's wait for the peer's close.
 */
#include <string.h>

#include "t.h"
#include "app/watch.h"

#define MS 1000000ull

/* Look every step_ms from from_ms to to_ms with bytes fixed; the first
 * look that said stalled (ms), or 0. */
static uint64_t first_stall(struct watch *w, uint64_t from_ms, uint64_t to_ms,
			    uint64_t step_ms, uint64_t bytes, uint64_t bytes_per_s)
{
	struct watch_news n;

	for (uint64_t t = from_ms; t <= to_ms; t += step_ms) {
		watch_look(w, t * MS, bytes + bytes_per_s * t / 1000, &n);
		if (n.stalled)
			return t;
	}
	return 0;
}

/* -T's wait for the close after the last byte, at 10 s (start), clock
 * and stopped time injected. */
static void test_close_wait(void)
{
	const uint64_t t0 = 10000 * MS;
	int to, over;

	over = watch_close_wait(t0, 0, 0, t0 + 3600000 * MS, &to);
	CHECK(!over && to == -1,
	      "-T 0: never over, poll for ever (%d)", to);
	over = watch_close_wait(t0, 2, 0, t0, &to);
	CHECK(!over && to == 1000,
	      "-T 2, at once: a second's poll at most (%d)", to);
	over = watch_close_wait(t0, 2, 0, t0 + 1500 * MS, &to);
	CHECK(!over && to == 501,
	      "-T 2, 1.5 s on: poll 0.5 s and a ms (%d)", to);
	over = watch_close_wait(t0, 2, 0, t0 + 1998 * MS, &to);
	CHECK(!over && to == 3,
	      "-T 2, 2 ms before: not over (%d)", to);
	over = watch_close_wait(t0, 2, 0, t0 + 2000 * MS, &to);
	CHECK(over && to == 0,
	      "-T 2, at 2 s: over, no more waiting (%d)", to);
	over = watch_close_wait(t0, 2, 0, t0 + 2000 * MS + 999999, &to);
	CHECK(over,
	      "-T 2, under a ms before the end: over");
	over = watch_close_wait(t0, 2, 5000 * MS, t0 + 6000 * MS, &to);
	CHECK(!over && to == 1000,
	      "-T 2, 6 s on of which 5 s stopped: 1 s counted, not over (%d)", to);
	over = watch_close_wait(t0, 2, 5000 * MS, t0 + 7000 * MS, &to);
	CHECK(over,
	      "-T 2, 7 s on of which 5 s stopped: over");
	over = watch_close_wait(t0, 0.25, 0, t0 + 100 * MS, &to);
	CHECK(!over && to == 151,
	      "-T 0.25, 0.1 s on: a fraction of a second (%d)", to);
}

int main(void)
{
	struct watch w;
	struct watch_news n;
	char buf[128];
	uint64_t t;

	/* Lines: one a second; late looks make one line over the whole gap. */
	watch_init(&w, 1, 0, 0, 0);
	watch_look(&w, 500 * MS, 100, &n);
	CHECK(!n.line && !n.stalled, "-I 1: no line at 0.5 s");
	watch_look(&w, 1000 * MS, 1000, &n);
	CHECK(n.line && n.line_bytes == 1000 && n.line_ns == 1000 * MS,
	      "-I 1: a line at 1 s over 1000 bytes, 1 s (%llu, %llu)",
	      (unsigned long long)n.line_bytes, (unsigned long long)n.line_ns);
	watch_look(&w, 3500 * MS, 6000, &n);
	CHECK(n.line && n.line_bytes == 5000 && n.line_ns == 2500 * MS,
	      "-I 1: a look at 3.5 s: one line over 2.5 s");
	CHECK(watch_due(&w) == 4000 * MS, "-I 1: the next line is due at 4 s (%llu ms)",
	      (unsigned long long)(watch_due(&w) / MS));
	watch_look(&w, 3900 * MS, 6000, &n);
	CHECK(!n.line, "-I 1: nothing before 4 s");

	/* Stall: -T 2 with nothing moving: stalled after 2 s, not before. */
	watch_init(&w, 0, 2, 0, 0);
	t = first_stall(&w, 100, 5000, 100, 0, 0);
	CHECK(t >= 2000 && t <= 2200, "-T 2, idle: stalled at %llu ms (2000..2200)", (unsigned long long)t);

	/* A trickle under 1 KiB per window is a stall; 1 KiB a second is not. */
	watch_init(&w, 0, 2, 0, 0);
	t = first_stall(&w, 100, 5000, 100, 0, 100);
	CHECK(t >= 2000 && t <= 2200, "-T 2, 100 bytes/s: stalled at %llu ms", (unsigned long long)t);
	watch_init(&w, 0, 2, 0, 0);
	t = first_stall(&w, 100, 10000, 100, 0, 1024);
	CHECK(t == 0, "-T 2, 1 KiB/s: never stalled in 10 s");

	/* Looks spaced up to the tick still judge the whole window. */
	watch_init(&w, 5, 60, 0, 0);
	CHECK(watch_tick_ns(&w) == 250 * MS, "-t 5 -T 60: a tick of 250 ms (%llu)",
	      (unsigned long long)(watch_tick_ns(&w) / MS));
	t = first_stall(&w, 250, 70000, 250, 0, 0);
	CHECK(t >= 60000 && t <= 64000, "-T 60 with 250 ms looks: stalled at %llu ms", (unsigned long long)t);
	watch_init(&w, 0.05, 0, 0, 0);
	CHECK(watch_tick_ns(&w) == 50 * MS, "-t 0.05: a tick of 50 ms");
	watch_init(&w, 0, 0.01, 0, 0);
	CHECK(watch_tick_ns(&w) == 10 * MS, "-T 0.01: the tick is 10 ms at least");

	/* We were stopped for 4 s (no look), then looked again: no stall from
	 * our own pause; the peer gets a whole -T from then on. */
	watch_init(&w, 0, 2, 0, 0);
	t = first_stall(&w, 100, 1000, 100, 0, 0);
	watch_look(&w, 5000 * MS, 0, &n);
	CHECK(t == 0 && !n.stalled && n.paused, "-T 2, stopped 1..5 s: no stall at 5 s, the window restarts");
	t = first_stall(&w, 5100, 10000, 100, 0, 0);
	CHECK(t >= 7000 && t <= 7200, "-T 2 after the pause: stalled at %llu ms (7000..7200)", (unsigned long long)t);

	/* Bursts: 2000 bytes every 0.6 s keep -T 1 content (1 KiB in every
	 * second); after the last one, the stall comes -T later, to a slot. */
	watch_init(&w, 0, 1, 0, 0);
	t = 0;
	for (uint64_t ms = 100; ms <= 10000 && !t; ms += 100) {
		watch_look(&w, ms * MS, 2000 * (ms / 600 + 1), &n);
		t = n.stalled ? ms : 0;
	}
	CHECK(t == 0, "-T 1, 2000 bytes every 0.6 s: never stalled in 10 s");
	t = first_stall(&w, 10100, 15000, 100, 2000ull * (10000 / 600 + 1), 0);
	CHECK(t >= 10200 && t <= 11200, "-T 1, silent after the burst at 9.6 s: stalled at %llu ms",
	      (unsigned long long)t);

	/* -I 0.25: four lines a second, at the tick the watcher asks for. */
	watch_init(&w, 0.25, 0, 0, 0);
	t = 0;
	for (uint64_t now = watch_tick_ns(&w); now <= 1200 * MS; now += watch_tick_ns(&w)) {
		watch_look(&w, now, now / MS, &n);
		t += n.line;
	}
	CHECK(t == 4, "-I 0.25: 4 lines in 1.2 s (%llu)", (unsigned long long)t);

	/* -I and -T both: the look is wanted at the earlier of the two. */
	watch_init(&w, 1, 2, 0, 0);
	CHECK(watch_due(&w) == 125 * MS, "-I 1 -T 2: due first at a slot's end, 125 ms (%llu)",
	      (unsigned long long)(watch_due(&w) / MS));

	/* Our own pause: a look up to WATCH_PAUSE_NS after it was due judges
	 * the window; one later restarts it. */
	watch_init(&w, 0, 2, 0, 0);
	first_stall(&w, 100, 1000, 100, 0, 0);
	watch_look(&w, watch_due(&w) + WATCH_PAUSE_NS, 0, &n);
	CHECK(!n.paused, "-T 2: a look 1 s after it was due is no pause");
	watch_look(&w, watch_due(&w) + WATCH_PAUSE_NS + 1, 0, &n);
	CHECK(n.paused && !n.stalled, "-T 2: one a nanosecond later is: the window restarts");

	/* No -T, no -I: nothing is ever due. */
	watch_init(&w, 0, 0, 0, 0);
	CHECK(watch_due(&w) == UINT64_MAX, "no -I, no -T: never due");
	watch_look(&w, 1000000 * MS, 0, &n);
	CHECK(!n.line && !n.stalled, "no -I, no -T: nothing after 1000 s");
	/* The stall in the words both ends print. */
	watch_stall_text(buf, sizeof(buf), 0, 2);
	CHECK(strcmp(buf, "no data moved for 2 s (-T)") == 0, "stall text, nothing: '%s'", buf);
	watch_stall_text(buf, sizeof(buf), 8, 1.5);
	CHECK(strcmp(buf, "only 8 bytes moved in the last 1.5 s (under 1 KiB, -T)") == 0,
	      "stall text, a trickle: '%s'", buf);
	test_close_wait();
	return t_exit();
}
