#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "app/watch.h"

void watch_init(struct watch *w, double interval_s, double stall_s,
		uint64_t now, uint64_t bytes)
{
	memset(w, 0, sizeof(*w));
	w->line_ns = interval_s > 0 ? (uint64_t)(interval_s * 1e9) : 0;
	/* The window is kept as WATCH_SLOTS snapshots, so "moved in the last
	 * -T" is one subtraction however long -T is, to a slot's precision. */
	w->slot_ns = stall_s > 0 ? (uint64_t)(stall_s * 1e9) / WATCH_SLOTS : 0;
	if (stall_s > 0 && w->slot_ns == 0)
		w->slot_ns = 1;
	w->line_t = now;
	w->line_bytes = bytes;
	w->next_line = w->line_ns ? now + w->line_ns : UINT64_MAX;
	w->next_slot = w->slot_ns ? now + w->slot_ns : UINT64_MAX;
	w->snap[0] = bytes;
	w->have = 1;
	w->due = watch_due(w);
}

uint64_t watch_due(const struct watch *w)
{
	return w->next_line < w->next_slot ? w->next_line : w->next_slot;
}

uint64_t watch_tick_ns(const struct watch *w)
{
	uint64_t t = 250000000u;

	if (w->line_ns && w->line_ns < t)
		t = w->line_ns;
	if (w->slot_ns && w->slot_ns < t)
		t = w->slot_ns;
	return t < 10000000u ? 10000000u : t;
}

/* The window starts again at now: the peer gets a whole -T from here. */
static void restart_window(struct watch *w, uint64_t now, uint64_t bytes)
{
	w->head = 0;
	w->have = 1;
	w->snap[0] = bytes;
	w->next_slot = now + w->slot_ns;
}

void watch_look(struct watch *w, uint64_t now, uint64_t bytes, struct watch_news *news)
{
	const unsigned size = WATCH_SLOTS + 1;

	memset(news, 0, sizeof(*news));
	if (w->slot_ns && w->due != UINT64_MAX && now > w->due + WATCH_PAUSE_NS) {
		restart_window(w, now, bytes);
		news->paused = 1;
	}
	if (now >= w->next_line) {
		news->line = 1;
		news->line_bytes = bytes - w->line_bytes;
		news->line_ns = now - w->line_t;
		w->line_t = now;
		w->line_bytes = bytes;
		while (w->next_line <= now)
			w->next_line += w->line_ns;
	}
	if (now >= w->next_slot) {
		w->head = (w->head + 1) % size;
		w->snap[w->head] = bytes;
		if (w->have < size)
			w->have++;
		while (w->next_slot <= now)
			w->next_slot += w->slot_ns;
		if (w->have == size) {
			news->moved = bytes - w->snap[(w->head + 1) % size];
			news->stalled = news->moved < WATCH_STALL_BYTES;
		}
	}
	w->due = watch_due(w);
}

const char *watch_stall_text(char *buf, size_t len, uint64_t moved, double stall_s)
{
	if (moved == 0)
		snprintf(buf, len, "no data moved for %g s (-T)", stall_s);
	else
		snprintf(buf, len, "only %" PRIu64 " bytes moved in the last %g s "
			 "(under %d KiB, -T)", moved, stall_s, WATCH_STALL_BYTES / 1024);
	return buf;
}

int watch_close_wait(uint64_t start, double stall_s, uint64_t stopped, uint64_t now,
		     int *timeout_ms)
{
	int64_t left;

	if (stall_s <= 0) {
		*timeout_ms = -1;
		return 0;
	}
	left = ((int64_t)(start + (uint64_t)(stall_s * 1e9) + stopped) - (int64_t)now) / 1000000;
	/* A poll that ends a little early would look once more for nothing. */
	*timeout_ms = left <= 0 ? 0 : (int)(left < 1000 ? left + 1 : 1000);
	return left <= 0;
}
