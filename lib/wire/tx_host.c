/*
 * The host's facts and the refusals' reasons (tx_host.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/err.h"
#include "base/textfile.h"
#include "wire/tx_host.h"

#define RING_BYTES (64u << 10)	/* what to allow a ring beside the pages */

/* CAP_IPC_LOCK among the effective capabilities (capget). */
static int has_ipc_lock(void)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { { 0 } };

	if (syscall(SYS_capget, &head, data) < 0)
		return 0;
	return (int)((data[CAP_IPC_LOCK / 32].effective >> (CAP_IPC_LOCK % 32)) & 1u);
}

void tx_host_read(struct tx_host *h)
{
	struct rlimit rl;

	h->uring_disabled = (long)textfile_num("/proc/sys/kernel/io_uring_disabled");
	h->optmem_max = (long)textfile_num("/proc/sys/net/core/optmem_max");
	h->ipc_lock = has_ipc_lock();
	h->memlock = getrlimit(RLIMIT_MEMLOCK, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ?
		     -1 : (long long)rl.rlim_cur;
}

/* The memlock limit binds: no CAP_IPC_LOCK and a limit set. */
static int memlock_binds(const struct tx_host *h)
{
	return !h->ipc_lock && h->memlock >= 0;
}

/* "RLIMIT_MEMLOCK (ulimit -l is N): try ulimit -l M", M a power of two KiB. */
static const char *memlock_text(const struct tx_host *h, uint64_t need, char *buf,
				size_t len)
{
	uint64_t kib = 64;

	while (kib * 1024 < need + RING_BYTES)
		kib *= 2;
	snprintf(buf, len, "RLIMIT_MEMLOCK (ulimit -l is %lld): try ulimit -l %llu",
		 h->memlock / 1024, (unsigned long long)kib);
	return buf;
}

int tx_uring_refused(const char *name, int e, const struct tx_host *h, char *err,
		     size_t errlen)
{
	char limit[128];

	if (e == EPERM && h->uring_disabled > 0)
		return err_fill(err, errlen, 0, "%s: the kernel refuses io_uring "
				"(sysctl kernel.io_uring_disabled is %ld%s)", name,
				h->uring_disabled, h->uring_disabled == 1 ?
				": only for root and kernel.io_uring_group" : "");
	if (e == EPERM)
		return err_fill(err, errlen, 0, "%s: io_uring_setup is refused (EPERM) "
				"with kernel.io_uring_disabled %s: a seccomp filter or a "
				"security module forbids it, as Docker's default profile "
				"does", name, h->uring_disabled == 0 ? "at 0" : "unreadable");
	if (e == ENOSYS)
		return err_fill(err, errlen, 0, "%s: the kernel has no io_uring (ENOSYS: "
				"not built in, or a seccomp filter hides it)", name);
	if (e == ENOMEM && memlock_binds(h))
		return err_fill(err, errlen, 0, "%s: io_uring_setup: the rings are over %s",
				name, memlock_text(h, 0, limit, sizeof(limit)));
	return err_fill(err, errlen, e, "%s: io_uring_setup", name);
}

int tx_memlock_short(const char *name, const struct tx_host *h, uint64_t need,
		     char *err, size_t errlen)
{
	char limit[128];

	if (!memlock_binds(h) || (uint64_t)h->memlock >= need)
		return 0;
	err_fill(err, errlen, 0, "%s: the %llu KiB it may pin at once are over %s", name,
		 (unsigned long long)(need + 1023) / 1024, memlock_text(h, need, limit,
									sizeof(limit)));
	return 1;
}

const char *tx_pinned_hint(int e, const struct tx_host *h, uint64_t need, int optmem,
			   char *buf, size_t len)
{
	char limit[128];

	buf[0] = '\0';
	if (e != ENOBUFS && e != ENOMEM)
		return buf;
	if (memlock_binds(h))
		snprintf(buf, len, " (the pinned pages: %s%s)",
			 memlock_text(h, need, limit, sizeof(limit)),
			 optmem ? "; or net.core.optmem_max" : "");
	else if (optmem && h->optmem_max >= 0)
		snprintf(buf, len, " (the notifications: net.core.optmem_max is %ld: "
			 "raise it)", h->optmem_max);
	return buf;
}
