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
#ifndef ZC_APP_WSESSION_H
#define ZC_APP_WSESSION_H

#include <stddef.h>
#include <stdint.h>

#include "meter/meter.h"
#include "meter/where.h"

struct wsession;
struct wspan;

/* wsession_open's flags. */
#define WSESSION_EVERY_NETNS 1	/* also other namespaces' interfaces (cyclesoak) */
#define WSESSION_PAUSED 2	/* sample nothing here: a parent that only forks */

/*
 * wsession_open - -W over what m measures: its soakers left out, every
 * interface counted until wsession_socket names one, the kernel's work
 * sampled where the kernel allows it; where it does not, one line
 * "PROG: -W: kernel work not sampled: WHY" on stderr, once. debug (-d):
 * the kernel lines name what fell into other. A failure is one line and
 * exit 1.
 */
struct wsession *wsession_open(struct meter *m, int debug, unsigned flags);

/* wsession_resume - sample in this process: a child forked after a
 * WSESSION_PAUSED open. */
void wsession_resume(struct wsession *ws);

/*
 * wsession_socket - the interface that carries connected socket sock is
 * the one later reports show; sock -1, or no interface found: every
 * interface that moved packets.
 */
void wsession_socket(struct wsession *ws, int sock);

/* wsession_close - stop sampling, free ws. Safe on NULL. */
void wsession_close(struct wsession *ws);

/* wspan_new - a stretch of ws's, not started. No memory: a line, exit 1. */
struct wspan *wspan_new(struct wsession *ws);
void wspan_free(struct wspan *s);

/* wspan_start - s starts now. -1 with err (may be NULL) when /proc fails. */
int wspan_start(struct wspan *s, char *err, size_t errlen);

/* wspan_start_as - to starts where from did. */
void wspan_start_as(struct wspan *to, const struct wspan *from);

/*
 * wspan_read - the report over s, from its start to now, then s starts
 * again now: load is the meter's over it (a fraction; NAN: none), bytes
 * what moved in it (0: no us/KB), calls the system calls that moved them
 * (0: no bytes per call). The report, or NULL with err (may be NULL) when
 * /proc fails (the span is left as it was).
 */
const struct where_report *wspan_read(struct wspan *s, double load, uint64_t bytes,
				      uint64_t calls, char *err, size_t errlen);

/* wspan_report - the report of s's last read (all zero before one). */
const struct where_report *wspan_report(const struct wspan *s);

#endif
