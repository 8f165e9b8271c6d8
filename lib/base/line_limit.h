/*
 * At most one line a second for an event that may come in a flood (zcs's
 * refused connections): the first is said at once, those within a second
 * of a line are counted, and the count is said with the next line, or on
 * its own once the second is over. Pure: the caller gives the clock.
 */
#ifndef ZC_LINE_LIMIT_H
#define ZC_LINE_LIMIT_H

#include <stdint.h>

#define LINE_LIMIT_NS 1000000000ull

struct line_limit {
	uint64_t last_ns;	/* when the last line went; 0: none yet */
	unsigned unshown;	/* events since, not said */
};

/*
 * line_limit_take - an event at now. 1: say it now, *others being the
 * events not said since the line before (the count starts again); 0: it
 * is only counted.
 */
int line_limit_take(struct line_limit *l, uint64_t now, unsigned *others);

/*
 * line_limit_due - the counted events' own line, once the second is over:
 * -1 when none waits; 0 when due now (say the last of them, *others the
 * rest; the count starts again); else the milliseconds until it is due.
 */
int line_limit_due(struct line_limit *l, uint64_t now, unsigned *others);

#endif
