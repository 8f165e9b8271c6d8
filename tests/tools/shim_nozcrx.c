/*
 * LD_PRELOAD shim: a kernel without zero-copy receive.
 * getsockopt(TCP_ZEROCOPY_RECEIVE) fails with ENOPROTOOPT, as on kernels
 * before 4.18; every other getsockopt is passed through.
 */
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <sys/socket.h>

int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	static int (*real)(int, int, int, void *, socklen_t *);

	if (level == IPPROTO_TCP && name == TCP_ZEROCOPY_RECEIVE) {
		errno = ENOPROTOOPT;
		return -1;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "getsockopt");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(fd, level, name, val, len);
}
