/*
 * What the methods that send from a mapping of the file share (MSG_ZEROCOPY,
 * lib/wire/tx_zc.c, and io_uring, lib/wire/tx_uring.c): the meaning of a
 * fault in the mapping. Their tables are declared with the others in
 * tx_internal.h.
 */
#ifndef ZC_TX_ZC_H
#define ZC_TX_ZC_H

#include "wire/tx_internal.h"

/* io_uring sends linked in one chain, and uring-zc's notifications let
 * lag behind them: it pins up to the sum of the two in chunks at once. */
#define TX_URING_DEPTH 16
#define TX_URING_NOTIFS_MAX (6 * TX_URING_DEPTH)
#define TX_URING_PINNED (TX_URING_DEPTH + TX_URING_NOTIFS_MAX)

/*
 * tx_uring_cause - send i's result among a chain's res[0..n); for a send
 * cancelled (-ECANCELED) because a later one failed as the chain was
 * submitted, that one's error: the send that failed is the one to name,
 * not the cancelled head.
 */
int tx_uring_cause(const int *res, unsigned i, unsigned n);

/*
 * tx_zc_pinned - the bytes zero-copy method (named) pins at once on t: a
 * chain of chunks and those whose notification lags for uring-zc, the send buffer for zerocopy; 0 for a
 * method that copies.
 */
uint64_t tx_zc_pinned(const struct tx *t, const char *method);

/*
 * tx_map_fault - a send from f's mapping failed with errno e at byte off of
 * the file: EFAULT from a file now shorter than its mapping is tx_shrank;
 * anything else is "METHOD: send to PEER: why", and for ENOBUFS or ENOMEM
 * of a zero-copy method the limit to raise (lib/wire/tx_host.h).
 */
int tx_map_fault(struct tx *t, const struct tx_file *f, const char *method, int e,
		 uint64_t off, char *err, size_t errlen);


#endif
