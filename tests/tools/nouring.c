/*
 * nouring - run a command on a host that refuses io_uring: a seccomp
 * filter makes io_uring_setup fail with EPERM, as kernel.io_uring_disabled
 * does, for the command and everything it starts, without changing the
 * machine's setting under the other work on it.
 *
 *   nouring COMMAND [ARGS...]
 */
#include <errno.h>
#include <error.h>
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef AUDIT_ARCH_CURRENT
#if defined(__x86_64__)
#define AUDIT_ARCH_CURRENT AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define AUDIT_ARCH_CURRENT AUDIT_ARCH_AARCH64
#else
#define AUDIT_ARCH_CURRENT 0	/* not known here: refused at run time */
#endif
#endif

int main(int argc, char **argv)
{
	struct sock_filter code[] = {
		/* Another architecture's system call numbers mean other calls:
		 * let those through untouched. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_CURRENT, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(code) / sizeof(code[0]), .filter = code };

	if (argc < 2)
		error(2, 0, "usage: nouring COMMAND [ARGS...]");
	if (!AUDIT_ARCH_CURRENT)
		error(125, 0, "no seccomp architecture known for this build");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		error(125, errno, "PR_SET_NO_NEW_PRIVS");
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		error(125, errno, "PR_SET_SECCOMP");
	execvp(argv[1], argv + 1);
	error(errno == ENOENT ? 127 : 126, errno, "%s", argv[1]);
	return 127;
}
