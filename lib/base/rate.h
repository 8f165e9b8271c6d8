/* Transfer rates: bytes over time. */
#ifndef ZC_RATE_H
#define ZC_RATE_H

#include <stdint.h>

/* kbytes (1024 bytes) per second; 0 when no time has passed. */
double kbytes_per_sec(uint64_t bytes, uint64_t ns);

#endif
