/*
 * zcs's total: line, over every connection that moved data in a period.
 *
 * Each connection's process counts its bytes into a slot of one shared
 * map; the parent reads them every period and, when more than one
 * connection moved data in it, prints "total: RATE kbytes/sec over N
 * connections" (with -c the whole machine's load and us/KB over it). A
 * slot is active from the accept until its stream has ended (before the
 * close that lets a client connect again), so connections one after
 * another (zcc's -R runs) are never taken for several at
 * once. The parent alone calls what is not marked "child".
 */
#ifndef ZC_ZCS_SERVE_TOTAL_H
#define ZC_ZCS_SERVE_TOTAL_H

#include <stdint.h>

/* total_open - slots for max_conns connections, a period of period_s from
 * now; with_meter: the load over it from lib/zcs/serve_sampler.h. A failure is
 * one line and exit 1. */
void total_open(unsigned max_conns, double period_s, int with_meter);

/* total_take - a free slot for a new connection, its count at 0. */
unsigned total_take(void);

/* total_release - the process of slot is gone: what it moved since the
 * last look counts in this period. total_forget: it never started. */
void total_release(unsigned slot);
void total_forget(unsigned slot);

/* total_child - in a connection's process: count into slot from now on;
 * the parent's tables are freed. */
void total_child(unsigned slot);

/* total_count - child: the bytes received so far; total_ended: the stream
 * has ended. Nothing outside a connection's process. */
void total_count(uint64_t bytes);
void total_ended(void);

/* total_streaming - how many live connections' streams have not ended. */
unsigned total_streaming(void);

/* total_tick - a total line when a period has ended. */
void total_tick(void);

/* total_due_ms - milliseconds until the next period ends (0: now), -1 when
 * no line can be due (no connection served nor ended in this period). */
int total_due_ms(unsigned serving);

/* total_close - free the parent's tables. */
void total_close(void);

#endif
