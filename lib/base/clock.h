/* The monotonic clock: reading it, sleeping or waiting to a deadline; the
 * process's own CPU time. */
#ifndef ZC_CLOCK_H
#define ZC_CLOCK_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

/* Monotonic time in nanoseconds (vDSO: no system call). */
uint64_t now_ns(void);

/*
 * sleep_until - sleep to a now_ns() deadline (absolute, so a loop of them
 * never drifts); -1 with errno EINTR when a signal came first.
 */
int sleep_until(uint64_t deadline_ns);

/* ns_timespec - a now_ns() time as the timespec of a timed wait. */
struct timespec ns_timespec(uint64_t ns);

/*
 * clock_cond_init - a condition variable whose timed waits count on the
 * monotonic clock (deadlines from now_ns(), by ns_timespec).
 */
void clock_cond_init(pthread_cond_t *c);

/* cpu_self_secs - this process's CPU time so far (user and system), seconds. */
double cpu_self_secs(void);

#endif
