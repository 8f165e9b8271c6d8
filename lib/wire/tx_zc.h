/*
 * The transmit methods that send from a mapping of the file and may keep it
 * busy after the call returns: MSG_ZEROCOPY (lib/wire/tx_zc.c) and io_uring
 * (lib/wire/tx_uring.c). Declared here for tx_list.c and the tests.
 */
#ifndef ZC_TX_ZC_H
#define ZC_TX_ZC_H

#include "wire/tx_internal.h"

extern const struct tx_method tx_zerocopy, tx_uring, tx_uring_zc;

/*
 * tx_map_fault - a send from f's mapping failed with errno e at byte off of
 * the file: EFAULT from a file now shorter than its mapping is tx_shrank;
 * anything else is "METHOD: send to PEER: why".
 */
int tx_map_fault(struct tx *t, const struct tx_file *f, const char *method, int e,
		 uint64_t off, char *err, size_t errlen);

#endif
