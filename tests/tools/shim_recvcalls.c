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
 * A call with MSG_PEEK takes no bytes (zcs peeks at a connection's first
 * bytes to tell a request/response client from a stream): not counted.
 * Unset, the shim counts nothing and writes nothing.
 *
 * With ZC_SHIM_POLLS=P it also counts the poll() and ppoll() calls that
 * wait on a socket, and appends "polls N" to the file P at exit: whether
 * a receiver waits in poll() before each receive (a system call more per
 * message) or in the receive itself.
 *
 * With ZC_SHIM_RECV_FILE=F too, the stream is taken to be the 2001
 * protocol's loops of one file of F bytes (a loop count, then for each
 * loop a file count, a length and F bytes, words of 4 bytes), and the
 * calls that copy from it (read, recv, recvfrom) are followed through it:
 * a second line "data D lined L" gives the file bytes they copied, and of
 * those the ones that landed at their own file offset within a 64-byte
 * line (file byte X at an address of X mod 64), as a file sent from the
 * page cache comes.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/tcp.h>
#include <poll.h>
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

#define WORD 4u
static int follow_fd = -1;		/* the stream socket followed */
static uint64_t follow_at;		/* its bytes taken so far */
static unsigned long data_bytes, lined_bytes;

/* fd is a stream socket and ZC_SHIM_RECV_FILE names the file's size. */
static uint64_t file_size(int fd)
{
	const char *v = getenv("ZC_SHIM_RECV_FILE");
	int type = 0;
	socklen_t len = sizeof(type);

	if (!v || !getenv(CALLCOUNT_ENV) ||
	    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0 || type != SOCK_STREAM)
		return 0;
	return strtoull(v, NULL, 10);
}

/*
 * n bytes of fd's stream taken, copied to buf (NULL: not copied): where
 * each of its file bytes landed. The stream's first word is its loop
 * count; each loop is a file count, a length and the file's bytes.
 */
static void follow(int fd, const unsigned char *buf, ssize_t n)
{
	uint64_t f = file_size(fd), rec, at, end, q, x, run;

	if (!f || n <= 0)
		return;
	if (fd != follow_fd) {
		follow_fd = fd;
		follow_at = 0;
	}
	rec = (uint64_t)2 * WORD + f;
	at = follow_at;
	end = at + (uint64_t)n;
	while (at < end) {
		if (at < WORD) {
			at = WORD < end ? WORD : end;
			continue;
		}
		q = (at - WORD) % rec;
		if (q < (uint64_t)2 * WORD) {	/* the words before a file */
			run = (uint64_t)2 * WORD - q;
			at += run < end - at ? run : end - at;
			continue;
		}
		x = q - (uint64_t)2 * WORD;
		run = f - x < end - at ? f - x : end - at;
		if (buf) {
			data_bytes += run;
			if ((((uintptr_t)(buf + (at - follow_at))) & 63) == (x & 63))
				lined_bytes += run;
		}
		at += run;
	}
	follow_at = end;
}

__attribute__((destructor)) static void report_lined(void)
{
	char line[96];

	if (getenv("ZC_SHIM_RECV_FILE"))
		append_line(getenv(CALLCOUNT_ENV), line, snprintf(line, sizeof(line),
			    "data %lu lined %lu\n", data_bytes, lined_bytes));
}

ssize_t read(int fd, void *buf, size_t len)
{
	ssize_t (*f)(int, void *, size_t);
	ssize_t n;

	*(void **)&f = real("read");
	count_to(fd, buf, len);
	n = f(fd, buf, len);
	follow(fd, buf, n);
	return n;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	ssize_t (*f)(int, void *, size_t, int);
	ssize_t n;

	*(void **)&f = real("recv");
	if (flags & MSG_PEEK)
		return f(fd, buf, len, flags);
	count_to(fd, buf, len);
	n = f(fd, buf, len, flags);
	follow(fd, (flags & MSG_TRUNC) ? NULL : buf, n);
	return n;
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from,
		 socklen_t *fromlen)
{
	ssize_t (*f)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
	ssize_t n;

	*(void **)&f = real("recvfrom");
	if (flags & MSG_PEEK)
		return f(fd, buf, len, flags, from, fromlen);
	count_to(fd, buf, len);
	n = f(fd, buf, len, flags, from, fromlen);
	follow(fd, (flags & MSG_TRUNC) ? NULL : buf, n);
	return n;
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
	long a[6], r;
	va_list ap;
	int i;

	va_start(ap, number);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	*(void **)&f = real("syscall");
	/* syscall()'s arguments come as longs: the buffer is one of them. */
	if (number != SYS_recvfrom || (a[3] & MSG_PEEK))
		return f(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	count_to((int)a[0], (const void *)a[1], (size_t)a[2]); // NOLINT(performance-no-int-to-ptr)
	r = f(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	follow((int)a[0], (a[3] & MSG_TRUNC) ? NULL : (const unsigned char *)a[1], r); // NOLINT(performance-no-int-to-ptr)
	return r;
}

static unsigned long polls;

/* One of fds is a socket, and ZC_SHIM_POLLS asks for the count. */
static void count_poll(const struct pollfd *fds, nfds_t n)
{
	struct stat st;

	if (!getenv("ZC_SHIM_POLLS"))
		return;
	for (nfds_t i = 0; i < n; i++)
		if (fds[i].fd >= 0 && fstat(fds[i].fd, &st) == 0 && S_ISSOCK(st.st_mode)) {
			__atomic_add_fetch(&polls, 1, __ATOMIC_RELAXED);
			return;
		}
}

int poll(struct pollfd *fds, nfds_t n, int ms)
{
	int (*f)(struct pollfd *, nfds_t, int) = real("poll");

	count_poll(fds, n);
	return f(fds, n, ms);
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *t, const sigset_t *mask)
{
	int (*f)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *) =
		real("ppoll");

	count_poll(fds, n);
	return f(fds, n, t, mask);
}

__attribute__((destructor)) static void report_polls(void)
{
	char line[48];

	append_line(getenv("ZC_SHIM_POLLS"), line, snprintf(line, sizeof(line), "polls %lu\n",
							      polls));
}
