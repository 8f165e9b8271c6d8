#include <inttypes.h>
#include <stdio.h>

#include "base/rate.h"

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
