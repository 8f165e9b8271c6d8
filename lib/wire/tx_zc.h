/*
 * What the methods that send from a mapping of the file share (MSG_ZEROCOPY,
 * lib/wire/tx_zc.c, and io_uring, lib/wire/tx_uring.c): the meaning of a
 * fault in the mapping. Their tables are declared with the others in
 * tx_internal.h.
 */
#ifndef ZC_TX_ZC_H
#define ZC_TX_ZC_H

#include "wire/tx_internal.h"

/*
 * tx_map_fault - a send from f's mapping failed with errno e at byte off of
 * the file: EFAULT from a file now shorter than its mapping is tx_shrank;
 * anything else is "METHOD: send to PEER: why".
 */
int tx_map_fault(struct tx *t, const struct tx_file *f, const char *method, int e,
		 uint64_t off, char *err, size_t errlen);

#endif
