/*
 * noring - run a command with io_uring_setup refused, as a hardened host
 * refuses it, without touching the machine's kernel.io_uring_disabled:
 * a seccomp filter (inherited by the command, no privilege needed) makes
 * io_uring_setup fail with EPERM, as Docker's default profile does, or
 * with the errno of -e (ENOSYS: a kernel without io_uring).
 *
 *   noring [-e ENOSYS|EPERM] COMMAND [ARG...]
 */
#include <errno.h>
#include <error.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#define ARCH 0		/* not known here: refused when run */
#endif

int main(int argc, char **argv)
{
	unsigned e = EPERM;
	int first = 1;

	if (argc > 2 && strcmp(argv[1], "-e") == 0) {
		if (strcmp(argv[2], "ENOSYS") == 0)
			e = ENOSYS;
		else if (strcmp(argv[2], "EPERM") != 0)
			error(2, 0, "-e %s: want EPERM or ENOSYS", argv[2]);
		first = 3;
	}
	if (first >= argc)
		error(2, 0, "usage: noring [-e ENOSYS|EPERM] COMMAND [ARG...]");
	if (ARCH == 0)
		error(2, 0, "this architecture's AUDIT_ARCH is not known to noring");

	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (e & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		error(1, errno, "PR_SET_NO_NEW_PRIVS");
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		error(1, errno, "PR_SET_SECCOMP");
	execvp(argv[first], argv + first);
	error(127, errno, "%s", argv[first]);
	return 127;
}
