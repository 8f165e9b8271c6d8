/*
 * How long zcc itself was suspended (stopped by SIGSTOP or Ctrl-Z, which
 * lib/app/stop_exit.h's stop signals are not): a run's seconds include
 * that time, and its sent: line says so rather than pass it off as the
 * network's.
 *
 * A stopped process runs nothing, so no clock of its own can time the
 * stop, and CLOCK_MONOTONIC and CLOCK_BOOTTIME both run on through it.
 * So a thread ticks every SUSPENDED_TICK_NS: a tick that comes late by more
 * than SUSPENDED_LATE_NS is a pause, and a pause counts as stopped when
 * SIGCONT (which every continue delivers) came with it; a pause without
 * one is the machine starving us, not a stop. The figure is good to
 * about half a tick.
 */
#ifndef ZC_ZCC_SUSPENDED_H
#define ZC_ZCC_SUSPENDED_H

#include <stdint.h>

#define SUSPENDED_TICK_NS 50000000ull	/* 50 ms: 20 wake-ups a second */
#define SUSPENDED_LATE_NS 100000000ull

/* suspended_start - start watching (once; later calls do nothing). A
 * failure to is one line and exit 1. */
void suspended_start(void);

/* suspended_end - end and join the ticker (suspended_start has it run at
 * exit). */
void suspended_end(void);

/* suspended_ns - the nanoseconds this process has been stopped so far. */
uint64_t suspended_ns(void);

#endif
