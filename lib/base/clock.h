/* The monotonic clock: reading it and sleeping to a deadline. */
#ifndef ZC_CLOCK_H
#define ZC_CLOCK_H

#include <stdint.h>

/* Monotonic time in nanoseconds (vDSO: no system call). */
uint64_t now_ns(void);

/*
 * sleep_until - sleep to a now_ns() deadline (absolute, so a loop of them
 * never drifts); -1 with errno EINTR when a signal came first.
 */
int sleep_until(uint64_t deadline_ns);

#endif
