/*
 * An LD_PRELOAD shim that counts the calls that put bytes into a socket
 * (send, sendto, sendmsg, write, writev, sendfile, splice), so that a test
 * can see how many system calls a transmit method makes per file, whether
 * any carried header words alone, and whether the socket was corked or
 * had Nagle's algorithm off. At exit it appends one line to the file
 * named by ZC_SHIM_SOCKCALLS:
 *
 *   calls N small M stream S corked K nodelay D
 *
 * N: calls on a socket; M: of them, those asked to move fewer than 16
 * bytes (three header words or less: no file data rode with them), but
 * for a send with MSG_MORE, which the kernel holds for the data that
 * follows (no segment of its own); S: of them, those on a stream (TCP)
 * socket; K and D: those made while TCP_CORK, TCP_NODELAY was on.
 * Unset, the shim counts nothing and writes nothing. With
 * ZC_SHIM_FAIL_CORK or ZC_SHIM_FAIL_NODELAY set it also refuses every
 * setsockopt() of TCP_CORK or TCP_NODELAY (ENOPROTOOPT), as a kernel
 * without it would, for the tests of that error.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define CALLCOUNT_ENV "ZC_SHIM_SOCKCALLS"
#include "callcount.h"

/* What a send with MSG_MORE counts as: never small. */
#define HELD 16

static size_t iov_bytes(const struct iovec *iov, size_t n)
{
	size_t sum = 0;

	while (n--)
		sum += iov[n].iov_len;
	return sum;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	int (*f)(int, int, int, const void *, socklen_t);

	*(void **)&f = real("setsockopt");
	if (level == IPPROTO_TCP && ((name == TCP_CORK && getenv("ZC_SHIM_FAIL_CORK")) ||
				     (name == TCP_NODELAY && getenv("ZC_SHIM_FAIL_NODELAY")))) {
		errno = ENOPROTOOPT;
		return -1;
	}
	return f(fd, level, name, val, len);
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	ssize_t (*f)(int, const void *, size_t, int);

	*(void **)&f = real("send");
	count(fd, (flags & MSG_MORE) ? HELD : len);
	return f(fd, buf, len, flags);
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags,
	       const struct sockaddr *to, socklen_t tolen)
{
	ssize_t (*f)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);

	*(void **)&f = real("sendto");
	count(fd, (flags & MSG_MORE) ? HELD : len);
	return f(fd, buf, len, flags, to, tolen);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	ssize_t (*f)(int, const struct msghdr *, int);

	*(void **)&f = real("sendmsg");
	count(fd, iov_bytes(msg->msg_iov, msg->msg_iovlen));
	return f(fd, msg, flags);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	ssize_t (*f)(int, const void *, size_t);

	*(void **)&f = real("write");
	count(fd, len);
	return f(fd, buf, len);
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
	ssize_t (*f)(int, const struct iovec *, int);

	*(void **)&f = real("writev");
	count(fd, n > 0 ? iov_bytes(iov, (size_t)n) : 0);
	return f(fd, iov, n);
}

ssize_t sendfile(int out, int in, off_t *off, size_t len)
{
	ssize_t (*f)(int, int, off_t *, size_t);

	*(void **)&f = real("sendfile");
	count(out, len);
	return f(out, in, off, len);
}

ssize_t sendfile64(int out, int in, off_t *off, size_t len)
{
	ssize_t (*f)(int, int, off_t *, size_t);

	*(void **)&f = real("sendfile64");
	count(out, len);
	return f(out, in, off, len);
}

ssize_t splice(int in, loff_t *in_off, int out, loff_t *out_off, size_t len,
	       unsigned flags)
{
	ssize_t (*f)(int, loff_t *, int, loff_t *, size_t, unsigned);

	*(void **)&f = real("splice");
	count(out, len);
	return f(in, in_off, out, out_off, len, flags);
}
