/*
 * Other processes' share of the machine (lib/meter/others.h) over a
 * metered period, as the programs say it: a span begun where the meter
 * marks and taken where it samples, so both cover the same period, and
 * the line after the figure it affects.
 */
#ifndef ZC_APP_OTHERS_OUT_H
#define ZC_APP_OTHERS_OUT_H

#include "meter/meter.h"
#include "meter/others.h"

struct others_span;

/*
 * others_span_new - a span for the program holding m: its own PID, its
 * soakers and the machine's network interfaces are left out. Memory
 * failing is one line and exit 1.
 */
struct others_span *others_span_new(const struct meter *m);
void others_span_free(struct others_span *s);

/* others_span_start - the period starts now. Safe on NULL. */
void others_span_start(struct others_span *s);

/*
 * others_span_read - the period ends now, over cpus x secs (the meter's
 * reading of it); the end is the next period's start. The report (not
 * valid when /proc could not be read, or s is NULL) lives until the next
 * take.
 */
const struct others_report *others_span_read(struct others_span *s, double cpus,
					     double secs);

/*
 * others_line - in the line being described (lib/app/out.h): others_pct
 * and others (an array of {name, pct}, largest first) in JSON when r is
 * valid; in text, when over OTHERS_MARK, a line of its own after it:
 * "others: 31.2% of the machine during the run (dpkg 18.4%, ...); FIGURE
 * includes it". Nothing when r is NULL.
 */
void others_line(const struct others_report *r, const char *figure);

/* others_json - arg's (a struct others_report) others array, in the JSON
 * object being built. */
void others_json(const void *arg);

#endif
