/* Transfer rates: bytes over time, and the summary line that reports one. */
#ifndef ZC_RATE_H
#define ZC_RATE_H

#include <stddef.h>
#include <stdint.h>

/* kbytes (1024 bytes) per second; 0 when no time has passed. */
double kbytes_per_sec(uint64_t bytes, uint64_t ns);

/*
 * format_rate_line - "LABEL: BYTES bytes in SECONDS s, RATE kbytes/sec",
 * the summary line of zcc ("sent") and zcs ("done"). Returns snprintf's value.
 */
int format_rate_line(char *buf, size_t len, const char *label,
		     uint64_t bytes, uint64_t ns);

#endif
