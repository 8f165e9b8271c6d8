/*
 * How long zcc itself was stopped (SIGSTOP, Ctrl-Z): a run's seconds
 * include that time, and its sent: line says so rather than pass it off
 * as the network's.
 *
 * A stopped process runs nothing, so no clock of its own can time the
 * stop, and CLOCK_MONOTONIC and CLOCK_BOOTTIME both run on through it.
 * So a thread ticks every STOPPED_TICK_NS: a tick that comes late by more
 * than STOPPED_LATE_NS is a pause, and a pause counts as stopped when
 * SIGCONT (which every continue delivers) came with it; a pause without
 * one is the machine starving us, not a stop. The figure is good to
 * about half a tick.
 */
#ifndef ZC_ZCC_STOPPED_H
#define ZC_ZCC_STOPPED_H

#include <stdint.h>

#define STOPPED_TICK_NS 50000000ull	/* 50 ms: 20 wake-ups a second */
#define STOPPED_LATE_NS 100000000ull

/* stopped_start - start watching (once; later calls do nothing). A
 * failure to is one line and exit 1. */
void stopped_start(void);

/* stopped_end - end and join the ticker (stopped_start has it run at
 * exit). */
void stopped_end(void);

/* stopped_ns - the nanoseconds this process has been stopped so far. */
uint64_t stopped_ns(void);

#endif
