/*
 * Request/response's messages by io_uring (rr_uring.h).
 */
#include <errno.h>
#include <stdint.h>
#include <sys/socket.h>

#include "base/err.h"
#include "base/stop.h"
#include "wire/rr_uring.h"

int rr_uring_open(struct rr_uring *u, int fd, char *err, size_t errlen)
{
	u->fd = fd;
	if (uring_init(&u->ring, 2, 4) < 0)
		return err_fill(err, errlen, errno, "-M uring: io_uring_setup");
	if (uring_probe(&u->ring, IORING_OP_SEND) != 1 || uring_probe(&u->ring, IORING_OP_RECV) != 1) {
		uring_exit(&u->ring);
		return err_fill(err, errlen, EOPNOTSUPP, "-M uring: the kernel's io_uring has no "
				"IORING_OP_SEND or IORING_OP_RECV");
	}
	return 0;
}

/* One send or receive of len bytes at address buf: its result (bytes, or -errno). */
static int one(struct rr_uring *u, unsigned op, uint64_t buf, size_t len)
{
	struct io_uring_sqe *sqe = uring_get_sqe(&u->ring);
	struct io_uring_cqe *cqe;
	int res, submitted = 0;

	if (!sqe)
		return -EBUSY;
	sqe->opcode = (uint8_t)op;
	sqe->fd = u->fd;
	sqe->addr = buf;
	sqe->len = (uint32_t)len;
	sqe->msg_flags = op == IORING_OP_SEND ? MSG_NOSIGNAL : 0;
	while (!(cqe = uring_peek(&u->ring))) {
		if (uring_enter(&u->ring, 1, 1000) >= 0) {
			submitted = 1;
			continue;
		}
		if (errno == EINTR && stop_signal)
			return -EINTR;	/* the kernel cancels it with the ring */
		if (errno != EINTR && errno != ETIME && !submitted)
			return -errno;
	}
	res = cqe->res;
	uring_seen(&u->ring);
	return res;
}

int rr_uring_write(struct rr_uring *u, const unsigned char *buf, size_t len)
{
	int n;

	while (len > 0) {
		n = one(u, IORING_OP_SEND, (uint64_t)(uintptr_t)buf, len);
		if (n == -EINTR && !stop_signal)
			continue;
		if (n < 0) {
			errno = -n;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int rr_uring_read(struct rr_uring *u, unsigned char *buf, size_t len, size_t *got)
{
	int n;

	*got = 0;
	while (*got < len) {
		n = one(u, IORING_OP_RECV, (uint64_t)(uintptr_t)(buf + *got), len - *got);
		if (n == 0)
			return 1;
		if (n == -EINTR && !stop_signal)
			continue;
		if (n < 0) {
			errno = -n;
			return -1;
		}
		*got += (size_t)n;
	}
	return 0;
}

void rr_uring_close(struct rr_uring *u)
{
	uring_exit(&u->ring);
}
