/*
 * What a host allows the transmit methods, and why it refuses one: the
 * facts are read from the kernel once (tx_host_read), and the reasons
 * are made from them by pure functions, so that the tests can hand in a
 * hardened host's facts (io_uring disabled, a seccomp filter, a small
 * RLIMIT_MEMLOCK) without changing this one's.
 *
 * io_uring_setup's EPERM is kernel.io_uring_disabled only when that
 * sysctl reads above 0; at 0 it is a seccomp filter or a security module
 * (Docker's default profile returns EPERM). Pages a zero-copy send pins
 * are charged to RLIMIT_MEMLOCK (ENOBUFS from MSG_ZEROCOPY and
 * IORING_OP_SEND_ZC, ENOMEM from io_uring_setup for its rings) unless the
 * process has CAP_IPC_LOCK; MSG_ZEROCOPY's notifications are held in the
 * socket's option memory, net.core.optmem_max (ENOBUFS too).
 */
#ifndef ZC_TX_HOST_H
#define ZC_TX_HOST_H

#include <stddef.h>
#include <stdint.h>

struct tx_host {
	long uring_disabled;	/* kernel.io_uring_disabled; -1: unreadable */
	long long memlock;	/* RLIMIT_MEMLOCK's soft limit, bytes; -1: none */
	int ipc_lock;		/* CAP_IPC_LOCK: no memlock limit applies */
	long optmem_max;	/* net.core.optmem_max, bytes; -1: unreadable */
};


/* tx_host_read - this host's facts, now. */
void tx_host_read(struct tx_host *h);

/*
 * tx_uring_refused - err "NAME: why" for io_uring_setup's errno e on host
 * h: the sysctl when it reads above 0, else a seccomp filter or security
 * module for EPERM; RLIMIT_MEMLOCK with the ulimit -l to try for ENOMEM
 * where it applies. Returns -1.
 */
int tx_uring_refused(const char *name, int e, const struct tx_host *h, char *err,
		     size_t errlen);

/*
 * tx_memlock_short - pinning need bytes at once is over h's RLIMIT_MEMLOCK
 * (no CAP_IPC_LOCK, a limit below need): 1, with err "NAME: ..." naming
 * the limit and the ulimit -l to try; 0 when it fits.
 */
int tx_memlock_short(const char *name, const struct tx_host *h, uint64_t need,
		     char *err, size_t errlen);

/*
 * tx_pinned_hint - for a zero-copy send's ENOBUFS or ENOMEM e, the limit
 * to raise into buf (" (RLIMIT_MEMLOCK: ...)", with optmem true also
 * net.core.optmem_max), need the bytes the method pins at once; "" for
 * another e. Returns buf.
 */
const char *tx_pinned_hint(int e, const struct tx_host *h, uint64_t need, int optmem,
			   char *buf, size_t len);

#endif
