/* Clocks and rate reports. */
#ifndef ZC_CLOCK_H
#define ZC_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* Monotonic time in nanoseconds (vDSO: no system call). */
uint64_t now_ns(void);

/*
 * sleep_until - sleep to a now_ns() deadline (absolute, so a loop of them
 * never drifts); -1 with errno EINTR when a signal came first.
 */
int sleep_until(uint64_t deadline_ns);

/* kbytes (1024 bytes) per second; 0 when no time has passed. */
double kbytes_per_sec(uint64_t bytes, uint64_t ns);

/*
 * format_rate_line - "LABEL: BYTES bytes in SECONDS s, RATE kbytes/sec",
 * the summary line of zcc ("sent") and zcs ("done"). Returns snprintf's value.
 */
int format_rate_line(char *buf, size_t len, const char *label,
		     uint64_t bytes, uint64_t ns);

#endif
