/*
 * LD_PRELOAD shim: the kernel's timestamps (SO_TIMESTAMPING) refused or
 * lost. ZC_SHIM_TSTAMP=refuse: setting SO_TIMESTAMPING fails with
 * ENOPROTOOPT, as on a kernel without it. ZC_SHIM_TSTAMP=drop: after the
 * first ZC_SHIM_TSTAMP_KEEP (default 30) messages read from the error
 * queues, each one is taken and thrown away (the read says EAGAIN), as
 * stamps lost to a full queue or never made would be. Anything else: no change.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static int mode(const char *want)
{
	const char *m = getenv("ZC_SHIM_TSTAMP");

	return m && strcmp(m, want) == 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	static int (*real)(int, int, int, const void *, socklen_t);

	if (level == SOL_SOCKET && name == SO_TIMESTAMPING && mode("refuse")) {
		errno = ENOPROTOOPT;
		return -1;
	}
	if (!real)
		real = (int (*)(int, int, int, const void *, socklen_t))dlsym(RTLD_NEXT,
									 "setsockopt");
	return real(fd, level, name, val, len);
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	static ssize_t (*real)(int, struct msghdr *, int);
	static unsigned n;
	const char *keep = getenv("ZC_SHIM_TSTAMP_KEEP");
	size_t clen = msg->msg_controllen;	/* the kernel writes over it */
	ssize_t r;

	if (!real)
		real = (ssize_t (*)(int, struct msghdr *, int))dlsym(RTLD_NEXT, "recvmsg");
	r = real(fd, msg, flags);
	if (!(flags & MSG_ERRQUEUE) || !mode("drop"))
		return r;
	while (r >= 0 && __atomic_fetch_add(&n, 1, __ATOMIC_RELAXED) >=
			 (keep ? strtoul(keep, NULL, 10) : 30)) {
		msg->msg_controllen = clen;
		r = real(fd, msg, flags | MSG_DONTWAIT);
	}
	return r;
}
