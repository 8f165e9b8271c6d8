#include "base/line_limit.h"

/* A line goes now: what was counted goes with it. */
static void said(struct line_limit *l, uint64_t now, unsigned *others, unsigned held)
{
	*others = l->unshown - held;
	l->unshown = 0;
	l->last_ns = now;
}

int line_limit_take(struct line_limit *l, uint64_t now, unsigned *others)
{
	if (l->last_ns && now - l->last_ns < LINE_LIMIT_NS) {
		l->unshown++;
		return 0;
	}
	said(l, now, others, 0);
	return 1;
}

int line_limit_due(struct line_limit *l, uint64_t now, unsigned *others)
{
	uint64_t due = l->last_ns + LINE_LIMIT_NS;

	if (!l->unshown)
		return -1;
	if (now >= due) {
		said(l, now, others, 1);	/* the last is the line's own */
		return 0;
	}
	return (int)((due - now) / 1000000u) + 1;
}
