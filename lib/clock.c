#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "clock.h"

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double kbytes_per_sec(uint64_t bytes, uint64_t ns)
{
	if (ns == 0)
		return 0;
	return (double)bytes / 1024.0 / ((double)ns / 1e9);
}

int format_rate_line(char *buf, size_t len, const char *label,
		     uint64_t bytes, uint64_t ns)
{
	return snprintf(buf, len, "%s: %" PRIu64 " bytes in %.3f s, %.0f kbytes/sec",
			label, bytes, (double)ns / 1e9, kbytes_per_sec(bytes, ns));
}

int sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000u),
		.tv_nsec = (long)(deadline_ns % 1000000000u),
	};
	int rc;

	rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	if (rc) {
		errno = rc;
		return -1;
	}
	return 0;
}
