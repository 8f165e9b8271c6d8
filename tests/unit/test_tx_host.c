/* lib/wire/tx_host.c: the reason a hardened host refuses a method, from
 * facts handed in (the sysctl, the errno, RLIMIT_MEMLOCK, CAP_IPC_LOCK,
 * optmem_max): no sysctl of this machine is read or changed. */
#include <errno.h>
#include <string.h>

#include "t.h"
#include "wire/tx_host.h"
#include "wire/tx_zc.h"

static char err[512];

/* io_uring_setup's errno e on host h: the text has want, and not unwanted. */
static void uring(int e, struct tx_host h, const char *want, const char *unwanted)
{
	int rc = tx_uring_refused("uring", e, &h, err, sizeof(err));

	CHECK(rc == -1 && strstr(err, want) && (!unwanted || !strstr(err, unwanted)),
	      "errno %d, io_uring_disabled %ld: '%s' has '%s'%s%s", e, h.uring_disabled,
	      err, want, unwanted ? ", not " : "", unwanted ? unwanted : "");
}

int main(void)
{
	const struct tx_host root = { .uring_disabled = 0, .memlock = 8 << 20, .ipc_lock = 1,
				      .optmem_max = 20480 };
	struct tx_host h = root;
	char hint[256];

	h.uring_disabled = 2;
	uring(EPERM, h, "the kernel refuses io_uring (sysctl kernel.io_uring_disabled is 2)",
	      "seccomp");
	h.uring_disabled = 1;
	uring(EPERM, h, "kernel.io_uring_disabled is 1: only for root and "
	      "kernel.io_uring_group", NULL);
	h.uring_disabled = 0;
	uring(EPERM, h, "refused (EPERM) with kernel.io_uring_disabled at 0: a seccomp "
	      "filter or a security module", "disabled is");
	h.uring_disabled = -1;
	uring(EPERM, h, "with kernel.io_uring_disabled unreadable: a seccomp", NULL);
	uring(ENOSYS, root, "the kernel has no io_uring", NULL);
	h = root;
	h.ipc_lock = 0, h.memlock = 0;
	uring(ENOMEM, h, "uring: io_uring_setup: the rings are over RLIMIT_MEMLOCK "
	      "(ulimit -l is 0): try ulimit -l 64", NULL);
	uring(ENOMEM, root, "io_uring_setup: Cannot allocate memory", "RLIMIT_MEMLOCK");
	h.memlock = -1;
	uring(ENOMEM, h, "Cannot allocate memory", "RLIMIT_MEMLOCK");

	/* The pages pinned at once against the limit. */
	h = root;
	h.ipc_lock = 0, h.memlock = 64 << 10;
	CHECK(tx_memlock_short("uring-zc", &h, 1u << 20, err, sizeof(err)) == 1 &&
	      strcmp(err, "uring-zc: the 1024 KiB it may pin at once are over RLIMIT_MEMLOCK "
		     "(ulimit -l is 64): try ulimit -l 2048") == 0,
	      "1 MiB pinned over 64 KiB: %s", err);
	CHECK(tx_memlock_short("uring-zc", &h, 64 << 10, err, sizeof(err)) == 0,
	      "pinning as much as the limit fits");
	CHECK(tx_memlock_short("uring-zc", &root, 1u << 30, err, sizeof(err)) == 0,
	      "CAP_IPC_LOCK: no limit applies");
	h.memlock = -1;
	CHECK(tx_memlock_short("uring-zc", &h, 1u << 30, err, sizeof(err)) == 0,
	      "RLIMIT_MEMLOCK unlimited: fits");

	/* A zero-copy send's ENOBUFS: the limit to raise. */
	h.memlock = 64 << 10;
	tx_pinned_hint(ENOBUFS, &h, 4u << 20, 1, hint, sizeof(hint));
	CHECK(strcmp(hint, " (the pinned pages: RLIMIT_MEMLOCK (ulimit -l is 64): try ulimit "
		     "-l 8192; or net.core.optmem_max)") == 0, "memlock binds: %s", hint);
	tx_pinned_hint(ENOBUFS, &root, 4u << 20, 1, hint, sizeof(hint));
	CHECK(strcmp(hint, " (the notifications: net.core.optmem_max is 20480: raise it)")
	      == 0, "CAP_IPC_LOCK: optmem_max named: %s", hint);
	tx_pinned_hint(ENOMEM, &root, 1u << 20, 0, hint, sizeof(hint));
	CHECK(hint[0] == '\0', "io_uring with CAP_IPC_LOCK: nothing to name ('%s')", hint);
	tx_pinned_hint(EPIPE, &h, 1u << 20, 1, hint, sizeof(hint));
	CHECK(hint[0] == '\0', "another errno: no hint ('%s')", hint);

	/* uring-zc's chain: the send that failed, not the cancelled head. */
	{
		const int head[] = { -ECANCELED, -ECANCELED, -ENOMEM, -ECANCELED };
		const int whole[] = { 8, 65536, 65536 }, short_one[] = { 4096, -ECANCELED };
		const int all[] = { -ECANCELED, -ECANCELED };

		CHECK(tx_uring_cause(head, 0, 4) == -ENOMEM,
		      "a cancelled head: the later send's ENOMEM is the cause");
		CHECK(tx_uring_cause(whole, 1, 3) == 65536, "a send done: its own result");
		CHECK(tx_uring_cause(short_one, 0, 2) == 4096, "a short send: its own count");
		CHECK(tx_uring_cause(all, 0, 2) == -ECANCELED,
		      "every send cancelled, no other error: ECANCELED");
	}
	return t_exit();
}
