/*
 * Kernel functions by kind of work: one table of name patterns, first match
 * wins. A sample's IP lands in the function doing the work (its own time,
 * not its callers'), so the patterns name the leaves: _copy_to_iter, not
 * tcp_recvmsg, is where a receive's copy shows. A few helpers are not a
 * kind of their own and are charged to their caller (lib/meter/where_kernel.c
 * walks the call chain): locks, and the points where interrupts come back
 * on (_raw_spin_unlock_irqrestore, handle_softirqs), which in a virtual
 * machine take the samples of all the time they were off, as the sampling
 * timer cannot interrupt that code.
 */
#include <string.h>

#include "meter/where.h"
#include "meter/where_internal.h"

const char *const where_kind_name[WHERE_KINDS] = {
	"copy", "checksum", "tcp_ip", "device", "syscall", "scheduler",
	"memory", "other", "user",
};

/*
 * "name" matches exactly, "name*" as a prefix, "*name" as a suffix.
 * Earlier rows win: checksum-and-copy is checksum, skb copies are copies
 * before skb_* is TCP/IP, kfree_skb is TCP/IP before kfree* is memory.
 */
static const struct {
	const char *pattern;
	enum where_kind kind;
} kinds[] = {
	/* the idle loop: no load */
	{ "default_idle*", WHERE_KIDLE }, { "pv_native_safe_halt", WHERE_KIDLE },
	{ "native_safe_halt", WHERE_KIDLE }, { "cpu_idle_poll*", WHERE_KIDLE },
	{ "do_idle", WHERE_KIDLE }, { "arch_cpu_idle*", WHERE_KIDLE },
	{ "acpi_idle*", WHERE_KIDLE }, { "intel_idle*", WHERE_KIDLE },
	{ "mwait_idle*", WHERE_KIDLE }, { "cpuidle_*", WHERE_KIDLE },
	{ "poll_idle", WHERE_KIDLE }, { "cpu_startup_entry", WHERE_KIDLE },

	{ "csum*", WHERE_KCSUM }, { "__csum*", WHERE_KCSUM },
	{ "ip_fast_csum", WHERE_KCSUM }, { "ip_compute_csum", WHERE_KCSUM },
	{ "do_csum", WHERE_KCSUM }, { "skb_checksum*", WHERE_KCSUM },
	{ "__skb_checksum*", WHERE_KCSUM }, { "*_csum", WHERE_KCSUM },
	{ "ip_send_check", WHERE_KCSUM },

	{ "rep_movs_alternative", WHERE_KCOPY }, { "copy_user_*", WHERE_KCOPY },
	{ "_copy_to_iter", WHERE_KCOPY }, { "_copy_from_iter*", WHERE_KCOPY },
	{ "_copy_to_user", WHERE_KCOPY }, { "_copy_from_user", WHERE_KCOPY },
	{ "copy_page", WHERE_KCOPY }, { "copy_page_to_iter*", WHERE_KCOPY },
	{ "copy_page_from_iter*", WHERE_KCOPY }, { "copy_folio_from_iter*", WHERE_KCOPY },
	{ "memcpy*", WHERE_KCOPY }, { "__memcpy*", WHERE_KCOPY },
	{ "memmove", WHERE_KCOPY }, { "__memmove", WHERE_KCOPY },
	{ "copy_mc_*", WHERE_KCOPY }, { "_copy_mc_*", WHERE_KCOPY },
	{ "simple_copy_to_iter", WHERE_KCOPY }, { "skb_copy_bits", WHERE_KCOPY },
	{ "skb_copy_datagram_*", WHERE_KCOPY }, { "__skb_datagram_iter", WHERE_KCOPY },
	{ "copyin", WHERE_KCOPY }, { "copyout", WHERE_KCOPY },
	/* hardened usercopy's checks run on every copy to or from user space */
	{ "__check_object_size", WHERE_KCOPY }, { "check_heap_object", WHERE_KCOPY },

	{ "entry_SYSCALL*", WHERE_KSYSCALL }, { "entry_SYSRETQ*", WHERE_KSYSCALL },
	{ "do_syscall_*", WHERE_KSYSCALL }, { "syscall_*", WHERE_KSYSCALL },
	{ "exit_to_user_mode*", WHERE_KSYSCALL }, { "x64_sys_call", WHERE_KSYSCALL },
	{ "__x64_sys_*", WHERE_KSYSCALL }, { "__ia32_sys_*", WHERE_KSYSCALL },
	{ "int80_*", WHERE_KSYSCALL }, { "fdget*", WHERE_KSYSCALL },
	{ "fput", WHERE_KSYSCALL }, { "__fget*", WHERE_KSYSCALL },

	{ "schedule*", WHERE_KSCHED }, { "__schedule", WHERE_KSCHED },
	{ "pick_next*", WHERE_KSCHED }, { "*_fair", WHERE_KSCHED },
	{ "finish_task_switch*", WHERE_KSCHED }, { "__switch_to*", WHERE_KSCHED },
	{ "context_switch", WHERE_KSCHED }, { "try_to_wake_up", WHERE_KSCHED },
	{ "ttwu_*", WHERE_KSCHED }, { "enqueue_task*", WHERE_KSCHED },
	{ "dequeue_task*", WHERE_KSCHED }, { "update_curr*", WHERE_KSCHED },
	{ "update_load_avg", WHERE_KSCHED }, { "psi_*", WHERE_KSCHED },
	{ "sched_*", WHERE_KSCHED }, { "set_next_entity", WHERE_KSCHED },
	{ "put_prev_*", WHERE_KSCHED }, { "select_task_rq*", WHERE_KSCHED },
	{ "resched_*", WHERE_KSCHED }, { "wakeup_preempt*", WHERE_KSCHED },
	{ "__wake_up*", WHERE_KSCHED }, { "wake_up_*", WHERE_KSCHED },
	{ "autoremove_wake_function", WHERE_KSCHED }, { "prepare_to_wait*", WHERE_KSCHED },
	{ "finish_wait", WHERE_KSCHED }, { "native_sched_clock", WHERE_KSCHED },

	{ "dev_*", WHERE_KDEVICE }, { "__dev_*", WHERE_KDEVICE },
	{ "netdev_*", WHERE_KDEVICE }, { "netif_*", WHERE_KDEVICE },
	{ "__netif_*", WHERE_KDEVICE }, { "net_rx_action", WHERE_KDEVICE },
	{ "net_tx_action", WHERE_KDEVICE }, { "napi_*", WHERE_KDEVICE },
	{ "__napi_*", WHERE_KDEVICE }, { "loopback_*", WHERE_KDEVICE },
	{ "veth_*", WHERE_KDEVICE }, { "virtnet_*", WHERE_KDEVICE },
	{ "virtqueue_*", WHERE_KDEVICE }, { "vring_*", WHERE_KDEVICE },
	{ "vp_*", WHERE_KDEVICE }, { "start_xmit", WHERE_KDEVICE },
	{ "process_backlog", WHERE_KDEVICE }, { "enqueue_to_backlog", WHERE_KDEVICE },
	{ "validate_xmit_*", WHERE_KDEVICE }, { "sch_direct_xmit", WHERE_KDEVICE },
	{ "qdisc_*", WHERE_KDEVICE }, { "__qdisc_*", WHERE_KDEVICE },
	{ "pfifo_*", WHERE_KDEVICE }, { "eth_*", WHERE_KDEVICE },
	{ "gro_*", WHERE_KDEVICE }, { "rps_*", WHERE_KDEVICE },
	{ "e1000*", WHERE_KDEVICE }, { "handle_edge_irq", WHERE_KDEVICE },
	{ "handle_irq_event*", WHERE_KDEVICE }, { "__handle_irq_event*", WHERE_KDEVICE },

	{ "tcp*", WHERE_KTCPIP }, { "__tcp_*", WHERE_KTCPIP },
	{ "ip_*", WHERE_KTCPIP }, { "__ip_*", WHERE_KTCPIP },
	{ "ipv4_*", WHERE_KTCPIP }, { "ipv6_*", WHERE_KTCPIP },
	{ "ip6_*", WHERE_KTCPIP }, { "__ip6_*", WHERE_KTCPIP },
	{ "inet*", WHERE_KTCPIP }, { "__inet*", WHERE_KTCPIP },
	{ "udp*", WHERE_KTCPIP }, { "__udp*", WHERE_KTCPIP },
	{ "sk_*", WHERE_KTCPIP }, { "__sk_*", WHERE_KTCPIP },
	{ "sock_*", WHERE_KTCPIP }, { "__sock_*", WHERE_KTCPIP },
	{ "skb_*", WHERE_KTCPIP }, { "__skb_*", WHERE_KTCPIP },
	{ "kfree_skb*", WHERE_KTCPIP }, { "__kfree_skb*", WHERE_KTCPIP },
	{ "consume_skb", WHERE_KTCPIP }, { "__alloc_skb", WHERE_KTCPIP },
	{ "alloc_skb*", WHERE_KTCPIP },
	{ "lock_sock*", WHERE_KTCPIP }, { "release_sock", WHERE_KTCPIP },
	{ "__release_sock", WHERE_KTCPIP }, { "__sys_send*", WHERE_KTCPIP },
	{ "__sys_recv*", WHERE_KTCPIP }, { "____sys_*msg", WHERE_KTCPIP },
	{ "nf_*", WHERE_KTCPIP }, { "fib_*", WHERE_KTCPIP },
	{ "dst_*", WHERE_KTCPIP }, { "neigh_*", WHERE_KTCPIP },
	{ "__neigh_*", WHERE_KTCPIP }, { "icmp*", WHERE_KTCPIP },
	{ "raw_v4_*", WHERE_KTCPIP }, { "secure_tcp*", WHERE_KTCPIP },

	{ "filemap_*", WHERE_KMEM }, { "__filemap_*", WHERE_KMEM },
	{ "page_*", WHERE_KMEM }, { "__page_*", WHERE_KMEM },
	{ "pagecache_*", WHERE_KMEM }, { "folio_*", WHERE_KMEM },
	{ "__folio_*", WHERE_KMEM }, { "__alloc_pages*", WHERE_KMEM },
	{ "alloc_pages*", WHERE_KMEM }, { "get_page_from_freelist", WHERE_KMEM },
	{ "__free_pages*", WHERE_KMEM }, { "free_unref*", WHERE_KMEM },
	{ "free_pages*", WHERE_KMEM }, { "rmqueue*", WHERE_KMEM },
	{ "kmem_cache_*", WHERE_KMEM }, { "__kmem_cache_*", WHERE_KMEM },
	{ "kmalloc*", WHERE_KMEM }, { "__kmalloc*", WHERE_KMEM },
	{ "kfree*", WHERE_KMEM }, { "kvfree*", WHERE_KMEM },
	{ "kvmalloc*", WHERE_KMEM }, { "slab_*", WHERE_KMEM },
	{ "__slab_*", WHERE_KMEM }, { "___slab_*", WHERE_KMEM },
	{ "mem_cgroup_*", WHERE_KMEM }, { "__mem_cgroup_*", WHERE_KMEM },
	{ "memcg_*", WHERE_KMEM }, { "mod_memcg_*", WHERE_KMEM },
	{ "__mod_memcg_*", WHERE_KMEM }, { "mod_lruvec_*", WHERE_KMEM },
	{ "__mod_lruvec_*", WHERE_KMEM }, { "lru_*", WHERE_KMEM },
	{ "__lru_*", WHERE_KMEM }, { "page_counter_*", WHERE_KMEM },
	{ "put_page", WHERE_KMEM }, { "release_pages", WHERE_KMEM },
	{ "clear_page*", WHERE_KMEM }, { "handle_mm_fault", WHERE_KMEM },
	{ "__handle_mm_fault", WHERE_KMEM }, { "do_anonymous_page", WHERE_KMEM },
	{ "exc_page_fault", WHERE_KMEM }, { "asm_exc_page_fault", WHERE_KMEM },
	{ "generic_perform_write", WHERE_KMEM }, { "shmem_*", WHERE_KMEM },

	/* last, so that the rows above win: helpers charged to their caller */
	{ "_raw_spin_*", WHERE_KCALLER }, { "_raw_read_*", WHERE_KCALLER },
	{ "_raw_write_*", WHERE_KCALLER }, { "queued_spin_*", WHERE_KCALLER },
	{ "__pv_queued_spin_*", WHERE_KCALLER }, { "native_queued_spin_*", WHERE_KCALLER },
	{ "__rcu_read_*", WHERE_KCALLER }, { "handle_softirqs", WHERE_KCALLER },
	{ "__local_bh_enable_ip", WHERE_KCALLER }, { "irqentry_exit*", WHERE_KCALLER },
	{ "do_softirq*", WHERE_KCALLER }, { "__do_softirq", WHERE_KCALLER },
	/* and an interrupt's entry, where a walk up the callers stops */
	{ "asm_*", WHERE_KENTRY }, { "sysvec_*", WHERE_KENTRY },
	{ "__sysvec_*", WHERE_KENTRY }, { "irq_exit*", WHERE_KENTRY },
	{ "__irq_exit*", WHERE_KENTRY }, { "common_interrupt", WHERE_KENTRY },
	{ "__common_interrupt", WHERE_KENTRY },
};

static int matches(const char *pattern, const char *name, size_t len)
{
	size_t plen = strlen(pattern);

	if (pattern[plen - 1] == '*')
		return len >= plen - 1 && strncmp(name, pattern, plen - 1) == 0;
	if (pattern[0] == '*')
		return len >= plen - 1 &&
		       strncmp(name + len - (plen - 1), pattern + 1, plen - 1) == 0;
	return len == plen && strncmp(name, pattern, len) == 0;
}

enum where_kind where_kind_of(const char *name, const char *module)
{
	/* The compiler's clones (".cold", ".isra.0", ".constprop.0") are their function. */
	size_t len = strcspn(name, "."), i;

	if (module && *module)
		return WHERE_KDEVICE;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (matches(kinds[i].pattern, name, len))
			return kinds[i].kind;
	return WHERE_KOTHER;
}
