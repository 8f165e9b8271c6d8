/*
 * LD_PRELOAD shim: a kernel without IPv6. socket(AF_INET6, ...) fails with
 * EAFNOSUPPORT, as it does where IPv6 is compiled out or disabled at boot;
 * every other socket is made as usual.
 */
#include <dlfcn.h>
#include <errno.h>
#include <sys/socket.h>

int socket(int domain, int type, int protocol)
{
	static int (*real_socket)(int, int, int);

	if (domain == AF_INET6) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (!real_socket)
		real_socket = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
	if (!real_socket) {
		errno = ENOSYS;
		return -1;
	}
	return real_socket(domain, type, protocol);
}
