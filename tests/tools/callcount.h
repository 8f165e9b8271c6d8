/*
 * What the call-counting shims share (shim_sockcalls.c, shim_recvcalls.c):
 * define CALLCOUNT_ENV, the variable naming the output file, then include
 * this. count(fd, len) counts a call on a socket and whether it asked for
 * fewer than 16 bytes (three header words or less); at exit one line
 * "calls N small M" is appended to the file. With the variable unset
 * nothing is counted or written.
 */
#ifndef ZC_CALLCOUNT_H
#define ZC_CALLCOUNT_H

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define SMALL 16

static unsigned long calls, small;

static void *real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static void count(int fd, size_t len)
{
	struct stat st;

	if (!getenv(CALLCOUNT_ENV) || fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))
		return;
	__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
	if (len < SMALL)
		__atomic_add_fetch(&small, 1, __ATOMIC_RELAXED);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv(CALLCOUNT_ENV);
	char line[64];
	int fd, len;

	if (!path)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	len = snprintf(line, sizeof(line), "calls %lu small %lu\n", calls, small);
	/* Nothing to do about a failed write at exit: the test, finding no
	 * line to parse, fails. */
	if (len > 0)
		(void)!write(fd, line, (size_t)len);
	close(fd);
}

#endif
