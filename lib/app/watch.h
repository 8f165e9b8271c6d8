/*
 * The watcher of one flow, zcc's and zcs's alike: when an interval line is
 * due (zcc -I, zcs -t) and whether the flow has stalled (-T). Pure: the
 * caller looks now and then with the time and the bytes moved so far, and
 * prints or closes as told; how it wakes up to look (a thread, a timer) is
 * its own business.
 *
 * The stall rule, one for both ends: a flow stalls when it moved less than
 * WATCH_STALL_BYTES in the last -T seconds. Nothing at all is the idle
 * case; a trickle of a byte at a time is caught too. Time the watching
 * process itself did not run (stopped by SIGSTOP, starved of CPU: a look
 * that comes more than WATCH_PAUSE_NS after it was due) is not the peer's
 * fault, so the window starts again after such a gap.
 */
#ifndef ZC_WATCH_H
#define ZC_WATCH_H

#include <stddef.h>
#include <stdint.h>

#define WATCH_STALL_BYTES 1024
#define WATCH_SLOTS 16
#define WATCH_PAUSE_NS 1000000000ull

struct watch {
	uint64_t line_ns, slot_ns;	/* 0: no lines / no stall check */
	uint64_t next_line, next_slot, due;
	uint64_t line_t, line_bytes;	/* where the current interval began */
	unsigned head, have;		/* the window: snapshots at slot ends */
	uint64_t snap[WATCH_SLOTS + 1];
};

/* What a look found. */
struct watch_news {
	int line;		/* an interval line is due: */
	uint64_t line_bytes;	/*   bytes over */
	uint64_t line_ns;	/*   this long */
	int stalled;		/* -T: the flow moved only */
	uint64_t moved;		/*   this much in the window */
	int paused;		/* a gap in the looks restarted the window */
};

/*
 * watch_init - interval_s (0: no lines) and stall_s (0: never stalls),
 * from now with bytes moved so far.
 */
void watch_init(struct watch *w, double interval_s, double stall_s,
		uint64_t now, uint64_t bytes);

/*
 * watch_look - look at now with bytes moved so far; fills *news. Several
 * interval lines that came due while nobody looked make one line.
 */
void watch_look(struct watch *w, uint64_t now, uint64_t bytes, struct watch_news *news);

/* watch_due - when the next look is wanted (UINT64_MAX: never). */
uint64_t watch_due(const struct watch *w);

/*
 * watch_stall_text - what a stall means, in the words both ends print
 * after "PEER: stalled: ": "no data moved for 2 s (-T)", or "only 8 bytes
 * moved in the last 2 s (under 1 KiB, -T)"; into buf, which it returns.
 */
const char *watch_stall_text(char *buf, size_t len, uint64_t moved, double stall_s);

/* watch_tick_ns - the longest gap between looks that keeps every due time
 * (for a periodic timer), 10 to 250 ms. */
uint64_t watch_tick_ns(const struct watch *w);

/*
 * watch_close_wait - the other half of -T: the peer has not closed the
 * connection stall_s after the last byte went at start (0: never give up).
 * Time the program itself was stopped since then (stopped, ns) does not
 * count. Sets *timeout_ms for the next poll (-1: for ever; never more than
 * a second, so that a stop's count is seen; 0 once the bound has passed)
 * and returns 1 when the bound has passed, else 0. All times in ns.
 */
int watch_close_wait(uint64_t start, double stall_s, uint64_t stopped, uint64_t now,
		     int *timeout_ms);

#endif
