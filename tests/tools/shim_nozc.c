/*
 * An LD_PRELOAD shim that plays a kernel refusing the zero-copy and
 * io_uring methods, so that zcc's refusal path runs on every machine.
 * ZC_SHIM_NOZC selects what fails:
 *
 *   enosys   io_uring_setup fails with ENOSYS (a kernel without io_uring)
 *   eperm    io_uring_setup fails with EPERM (kernel.io_uring_disabled)
 *   nosendzc the io_uring probe says IORING_OP_SEND_ZC is unknown
 *
 * and, whatever its value, setsockopt(SO_ZEROCOPY) fails with EOPNOTSUPP.
 * Unset, the shim changes nothing.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/io_uring.h>

static const char *mode(void)
{
	return getenv("ZC_SHIM_NOZC");
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	static int (*real)(int, int, int, const void *, socklen_t);

	if (mode() && level == SOL_SOCKET && name == SO_ZEROCOPY) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "setsockopt");
	return real(fd, level, name, val, len);
}

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	const char *m = mode();
	long a[6], rc;
	va_list ap;
	int i;

	/* Six arguments whatever the call: those it lacks are read from
	 * registers it leaves unused, as glibc's own syscall() does. */
	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (m && nr == __NR_io_uring_setup &&
	    (strcmp(m, "enosys") == 0 || strcmp(m, "eperm") == 0)) {
		errno = m[1] == 'n' ? ENOSYS : EPERM;
		return -1;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "syscall");
	rc = real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (m && strcmp(m, "nosendzc") == 0 && rc >= 0 && nr == __NR_io_uring_register &&
	    a[1] == IORING_REGISTER_PROBE) {
		/* The system call's arguments come as longs. */
		struct io_uring_probe *p = (struct io_uring_probe *)a[2]; // NOLINT(performance-no-int-to-ptr)

		if (IORING_OP_SEND_ZC < a[3])
			p->ops[IORING_OP_SEND_ZC].flags &= (__u16)~IO_URING_OP_SUPPORTED;
	}
	return rc;
}
