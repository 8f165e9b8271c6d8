/*
 * What the call-counting shims share (shim_sockcalls.c, shim_recvcalls.c):
 * define CALLCOUNT_ENV, the variable naming the output file, then include
 * this. count(fd, len) counts a call on a socket, whether it asked for
 * fewer than 16 bytes (three header words or less), whether the socket is
 * a stream one (TCP, not the netlink a program asks about its interface),
 * and whether TCP_CORK and TCP_NODELAY were on as it was made (asked of
 * the socket, getsockopt(), at the call); count_to(fd, buf, len) counts
 * it too, and on a stream socket whether buf, where a receive copies to,
 * is off a 64-byte line. At exit one line "calls N small M stream S corked K nodelay D
 * misaligned A" is appended to the file.
 * With the variable unset nothing is counted or written. The includer
 * brings TCP_CORK and TCP_NODELAY (<netinet/tcp.h> or <linux/tcp.h>, which
 * do not mix).
 */
#ifndef ZC_CALLCOUNT_H
#define ZC_CALLCOUNT_H

#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define SMALL 16

static unsigned long calls, small, stream, corked, nodelay, misaligned;

static void *real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/* The TCP option name on fd: 1 on, 0 off or not a TCP socket. */
static int tcp_opt(int fd, int name)
{
	int on = 0;
	socklen_t len = sizeof(on);

	return getsockopt(fd, IPPROTO_TCP, name, &on, &len) == 0 && on;
}

static void count(int fd, size_t len)
{
	struct stat st;
	int type = 0;
	socklen_t tlen = sizeof(type);

	if (!getenv(CALLCOUNT_ENV) || fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tlen) == 0 && type == SOCK_STREAM)
		__atomic_add_fetch(&stream, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
	if (len < SMALL)
		__atomic_add_fetch(&small, 1, __ATOMIC_RELAXED);
	if (tcp_opt(fd, TCP_CORK))
		__atomic_add_fetch(&corked, 1, __ATOMIC_RELAXED);
	if (tcp_opt(fd, TCP_NODELAY))
		__atomic_add_fetch(&nodelay, 1, __ATOMIC_RELAXED);
}

/* A call that copies to buf: counted, and on a stream socket (not the
 * netlink one a program asks about its interface, into a buffer on its
 * stack) whether buf is off a 64-byte line. */
static __attribute__((unused)) void count_to(int fd, const void *buf, size_t len)
{
	unsigned long before = __atomic_load_n(&stream, __ATOMIC_RELAXED);

	count(fd, len);
	if (__atomic_load_n(&stream, __ATOMIC_RELAXED) != before && ((uintptr_t)buf & 63))
		__atomic_add_fetch(&misaligned, 1, __ATOMIC_RELAXED);
}

/* line, len bytes (snprintf's return), appended to the file at path (NULL: none). */
static __attribute__((unused)) void append_line(const char *path, const char *line, int len)
{
	int fd;

	if (!path || len <= 0)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	/* Nothing to do about a failed write at exit: the test, finding no
	 * line to parse, fails. */
	(void)!write(fd, line, (size_t)len);
	close(fd);
}

__attribute__((destructor)) static void report(void)
{
	char line[128];

	append_line(getenv(CALLCOUNT_ENV), line,
		    snprintf(line, sizeof(line), "calls %lu small %lu stream %lu corked %lu "
			     "nodelay %lu misaligned %lu\n", calls, small, stream, corked,
			     nodelay, misaligned));
}

#endif
