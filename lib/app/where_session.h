/*
 * -W as every program runs it, from one place: where a metered load went
 * (lib/meter/where.h), over stretches of time the program chooses:
 * cyclesoak's periods or its command's life, a zcc run and its -I
 * intervals, a zcs connection and its rate lines.
 *
 * A session is opened once a process, over the meter; a zcs connection's
 * process uses the one it inherits. A span is one stretch: where its
 * counters stood when it started, and the report over it once read. Its
 * snapshots live on the heap (tens of KiB each), one span per thread that
 * reads (zcc's -I lines are read by the watcher thread, the run's by the
 * main one).
 */
#ifndef ZC_APP_WHERE_SESSION_H
#define ZC_APP_WHERE_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "meter/meter.h"
#include "meter/where.h"

struct where_session;
struct where_span;

/* where_session_open's flags. */
#define WHERE_SESSION_EVERY_NETNS 1	/* also other namespaces' interfaces (cyclesoak) */
#define WHERE_SESSION_PAUSED 2	/* sample nothing here: a parent that only forks */

/*
 * where_session_open - -W over what m measures: its soakers left out, every
 * interface counted until where_session_socket names one, the kernel's work
 * sampled where the kernel allows it; where it does not, one line
 * "PROG: -W: kernel work not sampled: WHY" on stderr, once. debug (-d):
 * the kernel lines name what fell into other. A failure is one line and
 * exit 1.
 */
struct where_session *where_session_open(struct meter *m, int debug, unsigned flags);

/* where_session_resume - sample in this process: a child forked after a
 * WHERE_SESSION_PAUSED open. */
void where_session_resume(struct where_session *ws);

/*
 * where_session_socket - the interface that carries connected socket sock is
 * the one later reports show; sock -1, or no interface found: every
 * interface that moved packets.
 */
void where_session_socket(struct where_session *ws, int sock);

/* where_session_close - stop sampling, free ws. Safe on NULL. */
void where_session_close(struct where_session *ws);

/* where_span_new - a stretch of ws's, not started. No memory: a line, exit 1. */
struct where_span *where_span_new(struct where_session *ws);
void where_span_free(struct where_span *s);

/* where_span_start - s starts now. -1 with err (may be NULL) when /proc fails. */
int where_span_start(struct where_span *s, char *err, size_t errlen);

/* where_span_start_as - to starts where from did. */
void where_span_start_as(struct where_span *to, const struct where_span *from);

/*
 * where_span_read - the report over s, from its start to now, then s starts
 * again now: load is the meter's over it (a fraction; NAN: none), bytes
 * what moved in it (0: no us/KB), calls the system calls that moved them
 * (0: no bytes per call). The report, or NULL with err (may be NULL) when
 * /proc fails (the span is left as it was).
 */
const struct where_report *where_span_read(struct where_span *s, double load,
					   uint64_t bytes, uint64_t calls, char *err,
					   size_t errlen);

/* where_span_report - the report of s's last read (all zero before one). */
const struct where_report *where_span_report(const struct where_span *s);

#endif
