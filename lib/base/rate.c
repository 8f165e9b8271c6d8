#include "base/rate.h"

double kbytes_per_sec(uint64_t bytes, uint64_t ns)
{
	if (ns == 0)
		return 0;
	return (double)bytes / 1024.0 / ((double)ns / 1e9);
}
