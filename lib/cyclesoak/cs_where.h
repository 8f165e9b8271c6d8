/*
 * cyclesoak's -W: where the metered load went over the meter's own
 * periods (or its command's life), a session of lib/app/where_session.h
 * with one span. Every call does nothing on NULL (no -W); a failure is
 * one line and exit 1.
 */
#ifndef ZC_CYCLESOAK_CS_WHERE_H
#define ZC_CYCLESOAK_CS_WHERE_H

#include "meter/meter.h"

struct cs_where;

/* cs_where_open - -W over m (debug, flags: as where_session_open's). */
struct cs_where *cs_where_open(struct meter *m, int debug, unsigned flags);

/* cs_where_start - the span starts now; cs_where_read - it ends, with
 * load the meter's over it (and starts again). */
void cs_where_start(struct cs_where *w);
void cs_where_read(struct cs_where *w, double load);

/* cs_where_line - the last read's report as part of the line being described. */
void cs_where_line(const struct cs_where *w);

/* cs_where_close - the span and the session freed. */
void cs_where_close(struct cs_where *w);

#endif
