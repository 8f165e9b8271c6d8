/*
 * An LD_PRELOAD shim that counts the calls that take bytes from a socket
 * (read, recv, recvfrom, recvmsg, splice from it, TCP_ZEROCOPY_RECEIVE, and
 * recvfrom through syscall()), so that a test can see whether a receive
 * method reads the protocol's header words in a call of their own. At exit
 * it appends one line to the file named by ZC_SHIM_RECVCALLS:
 *
 *   calls N small M ... misaligned A
 *
 * N: calls on a socket; M: of them, those asked for fewer than 16 bytes
 * (three header words or less: no file data could come with them). For
 * TCP_ZEROCOPY_RECEIVE the ask is the bytes to map plus the copy buffer.
 * A: of the calls on a stream socket that copy to a buffer (read, recv,
 * recvfrom, recvmsg's first part), those whose buffer is off a 64-byte
 * line.
 * Unset, the shim counts nothing and writes nothing.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define CALLCOUNT_ENV "ZC_SHIM_RECVCALLS"
#include "callcount.h"

ssize_t read(int fd, void *buf, size_t len)
{
	ssize_t (*f)(int, void *, size_t);

	*(void **)&f = real("read");
	count_to(fd, buf, len);
	return f(fd, buf, len);
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	ssize_t (*f)(int, void *, size_t, int);

	*(void **)&f = real("recv");
	count_to(fd, buf, len);
	return f(fd, buf, len, flags);
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from,
		 socklen_t *fromlen)
{
	ssize_t (*f)(int, void *, size_t, int, struct sockaddr *, socklen_t *);

	*(void **)&f = real("recvfrom");
	count_to(fd, buf, len);
	return f(fd, buf, len, flags, from, fromlen);
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t (*f)(int, struct msghdr *, int);
	size_t sum = 0, i;

	*(void **)&f = real("recvmsg");
	for (i = 0; i < msg->msg_iovlen; i++)
		sum += msg->msg_iov[i].iov_len;
	count_to(fd, msg->msg_iovlen ? msg->msg_iov[0].iov_base : NULL, sum);
	return f(fd, msg, flags);
}

ssize_t splice(int in, loff_t *in_off, int out, loff_t *out_off, size_t len,
	       unsigned flags)
{
	ssize_t (*f)(int, loff_t *, int, loff_t *, size_t, unsigned);

	*(void **)&f = real("splice");
	count(in, len);
	return f(in, in_off, out, out_off, len, flags);
}

int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	int (*f)(int, int, int, void *, socklen_t *);
	const struct tcp_zerocopy_receive *zc = val;

	*(void **)&f = real("getsockopt");
	if (level == IPPROTO_TCP && name == TCP_ZEROCOPY_RECEIVE && val && len &&
	    *len >= sizeof(*zc))
		count(fd, (size_t)zc->length + (size_t)(zc->copybuf_len > 0 ? zc->copybuf_len : 0));
	return f(fd, level, name, val, len);
}

/* zcs's discard method calls recvfrom straight through syscall(). */
long syscall(long number, ...)
{
	long (*f)(long, ...);
	long a[6];
	va_list ap;
	int i;

	va_start(ap, number);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	*(void **)&f = real("syscall");
	/* syscall()'s arguments come as longs: the buffer is one of them. */
	if (number == SYS_recvfrom)
		count_to((int)a[0], (const void *)a[1], (size_t)a[2]); // NOLINT(performance-no-int-to-ptr)
	return f(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
