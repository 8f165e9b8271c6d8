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

/* serve_total_open - slots for max_conns connections, a period of period_s from
 * now; with_meter: the load over it from lib/zcs/serve_sampler.h. A failure is
 * one line and exit 1. */
void serve_total_open(unsigned max_conns, double period_s, int with_meter);

/* serve_total_take - a free slot for a new connection, its count at 0. */
unsigned serve_total_take(void);

/* serve_total_release - the process of slot is gone: what it moved since the
 * last look counts in this period. serve_total_forget: it never started. */
void serve_total_release(unsigned slot);
void serve_total_forget(unsigned slot);

/* serve_total_child - in a connection's process: count into slot from now on;
 * the parent's tables are freed. */
void serve_total_child(unsigned slot);

/* serve_total_count - child: the bytes received so far; serve_total_ended: the stream
 * has ended. Nothing outside a connection's process. */
void serve_total_count(uint64_t bytes);
void serve_total_ended(void);

/* serve_total_streaming - how many live connections' streams have not ended. */
unsigned serve_total_streaming(void);

/* serve_total_tick - a total line when a period has ended. */
void serve_total_tick(void);

/* serve_total_due_ms - milliseconds until the next period ends (0: now), -1 when
 * no line can be due (no connection served nor ended in this period). */
int serve_total_due_ms(unsigned serving);

/* serve_total_close - free the parent's tables. */
void serve_total_close(void);

#endif
