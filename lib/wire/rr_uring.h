/*
 * Request/response's messages by io_uring (zcc --rr -M uring): each write
 * of a request and each read of an answer one IORING_OP_SEND or
 * IORING_OP_RECV through a small ring of the connection's own (lib/wire/
 * uring.h), submitted and waited for in one io_uring_enter: the same
 * semantics as rr_io.h's rr_write and rr_read, the system call and the
 * kernel's path being what differs. One ring serves one thread: an open
 * loop's reader has a ring of its own.
 */
#ifndef ZC_WIRE_RR_URING_H
#define ZC_WIRE_RR_URING_H

#include <stddef.h>

#include "wire/uring.h"

struct rr_uring {
	struct uring ring;
	int fd;
};

/*
 * rr_uring_open - a ring for socket fd: 0, or -1 with err (io_uring
 * switched off or filtered, a kernel without IORING_OP_SEND and _RECV).
 */
int rr_uring_open(struct rr_uring *u, int fd, char *err, size_t errlen);

/* rr_uring_write - all len bytes of buf: 0, or -1 with errno (EINTR: stop_signal). */
int rr_uring_write(struct rr_uring *u, const unsigned char *buf, size_t len);

/*
 * rr_uring_read - exactly len bytes into buf, as rr_read: 0, 1 when the
 * peer closed first (*got bytes came), -1 with errno (EINTR: stop_signal).
 */
int rr_uring_read(struct rr_uring *u, unsigned char *buf, size_t len, size_t *got);

/* rr_uring_close - the ring gone (not the socket). */
void rr_uring_close(struct rr_uring *u);

#endif
