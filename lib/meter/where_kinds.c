/*
 * Kernel functions by kind of work: one table of name patterns, first match
 * wins. A sample's IP lands in the function doing the work (its own time,
 * not its callers'), so the patterns name the leaves: _copy_to_iter, not
 * tcp_recvmsg, is where a receive's copy shows. Which functions are not
 * work of their own but the points where interrupts come back on is the
 * other table here, where_role_of; lib/meter/where_syms.c walks past them.
 */
#include <string.h>

#include "meter/where.h"
#include "meter/where_internal.h"

const char *const where_kind_name[WHERE_KINDS] = {
	"copy", "checksum", "tcp_ip", "device", "skb", "memory", "page_cache",
	"lock", "scheduler", "syscall", "other", "user",
};

/*
 * The paper's names, beside ours (checksum, page cache, system calls and
 * user are ours: the paper counts checksums in tcp/ip and the rest in etc.).
 */
const char *const where_kind_paper[WHERE_KINDS] = {
	"data copy", "-", "tcp/ip", "netdevice", "skb mgmt", "memory alloc/dealloc",
	"-", "lock/unlock", "scheduling", "-", "etc.", "-",
};

struct pattern {
	const char *pattern;
	int value;
};

/*
 * A pattern is a name in which '*' stands for any run of characters
 * ("tcp*", "*_csum", "*spin_lock*", "do_*_page"). Earlier rows win:
 * checksum-and-copy is checksum, skb copies are copies before skb_* is
 * skb, kfree_skb is skb before kfree* is memory, the timer's interrupt is
 * scheduling before asm_* is a device's.
 */
static const struct pattern kinds[] = {
	/* the idle loop (the idle task's samples are idle anyway) */
	{ "default_idle*", WHERE_KIDLE }, { "*safe_halt*", WHERE_KIDLE },
	{ "cpu_idle_poll*", WHERE_KIDLE }, { "do_idle", WHERE_KIDLE },
	{ "arch_cpu_idle*", WHERE_KIDLE }, { "acpi_idle*", WHERE_KIDLE },
	{ "intel_idle*", WHERE_KIDLE }, { "mwait_idle*", WHERE_KIDLE },
	{ "cpuidle_*", WHERE_KIDLE }, { "poll_idle", WHERE_KIDLE },
	{ "cpu_startup_entry", WHERE_KIDLE }, { "*_halt", WHERE_KIDLE },

	{ "csum*", WHERE_KCSUM }, { "__csum*", WHERE_KCSUM },
	{ "ip_fast_csum", WHERE_KCSUM }, { "ip_compute_csum", WHERE_KCSUM },
	{ "do_csum", WHERE_KCSUM }, { "*skb_checksum*", WHERE_KCSUM },
	{ "*_csum", WHERE_KCSUM }, { "ip_send_check", WHERE_KCSUM },

	{ "rep_movs_alternative", WHERE_KCOPY }, { "copy_user_*", WHERE_KCOPY },
	{ "_copy_to_iter", WHERE_KCOPY }, { "_copy_from_iter*", WHERE_KCOPY },
	{ "_copy_to_user", WHERE_KCOPY }, { "_copy_from_user", WHERE_KCOPY },
	{ "copy_page", WHERE_KCOPY }, { "copy_page_to_iter*", WHERE_KCOPY },
	{ "copy_page_from_iter*", WHERE_KCOPY }, { "copy_folio_*", WHERE_KCOPY },
	{ "*memcpy*", WHERE_KCOPY }, { "*memmove*", WHERE_KCOPY },
	{ "copy_mc_*", WHERE_KCOPY }, { "_copy_mc_*", WHERE_KCOPY },
	{ "simple_copy_to_iter", WHERE_KCOPY }, { "skb_copy_bits", WHERE_KCOPY },
	{ "skb_copy_datagram_*", WHERE_KCOPY }, { "__skb_datagram_iter", WHERE_KCOPY },
	{ "copyin", WHERE_KCOPY }, { "copyout", WHERE_KCOPY },
	{ "__put_user_*", WHERE_KCOPY }, { "__get_user_*", WHERE_KCOPY },
	{ "iov_iter_*", WHERE_KCOPY },
	/* hardened usercopy's checks run on every copy to or from user space */
	{ "__check_object_size", WHERE_KCOPY }, { "check_heap_object", WHERE_KCOPY },
	{ "check_stack_object", WHERE_KCOPY }, { "__virt_addr_valid", WHERE_KCOPY },
	{ "is_vmalloc_addr", WHERE_KCOPY },

	/* skb management: building, cloning, freeing the buffers (their pages'
	 * fragments are memory) */
	{ "*page_frag*", WHERE_KMEM },
	{ "*alloc_skb*", WHERE_KSKB }, { "*build_skb*", WHERE_KSKB },
	{ "*kfree_skb*", WHERE_KSKB }, { "*consume_skb*", WHERE_KSKB },
	{ "skb_*", WHERE_KSKB }, { "__skb_*", WHERE_KSKB }, { "pskb_*", WHERE_KSKB },
	{ "__pskb_*", WHERE_KSKB }, { "__copy_skb_header", WHERE_KSKB },
	{ "napi_skb_*", WHERE_KSKB }, { "get_netmem", WHERE_KSKB },
	{ "put_netmem", WHERE_KSKB },

	/* the socket lock and the kernel's locks */
	{ "lock_sock*", WHERE_KLOCK }, { "__lock_sock*", WHERE_KLOCK },
	{ "release_sock", WHERE_KLOCK }, { "__release_sock", WHERE_KLOCK },
	{ "*spin_lock*", WHERE_KLOCK }, { "*spin_unlock*", WHERE_KLOCK },
	{ "*spin_trylock*", WHERE_KLOCK }, { "_raw_read_*", WHERE_KLOCK },
	{ "_raw_write_*", WHERE_KLOCK }, { "queued_read_*", WHERE_KLOCK },
	{ "queued_write_*", WHERE_KLOCK }, { "mutex_*", WHERE_KLOCK },
	{ "__mutex_*", WHERE_KLOCK }, { "down_read*", WHERE_KLOCK },
	{ "down_write*", WHERE_KLOCK }, { "up_read", WHERE_KLOCK },
	{ "up_write", WHERE_KLOCK }, { "rwsem_*", WHERE_KLOCK },
	{ "pv_wait", WHERE_KLOCK }, { "pv_kick", WHERE_KLOCK },
	{ "*_qlock_*", WHERE_KLOCK }, { "kvm_wait", WHERE_KLOCK },
	{ "kvm_kick_cpu", WHERE_KLOCK },

	{ "entry_SYSCALL*", WHERE_KSYSCALL }, { "entry_SYSRETQ*", WHERE_KSYSCALL },
	{ "do_syscall_*", WHERE_KSYSCALL }, { "syscall_*", WHERE_KSYSCALL },
	{ "exit_to_user_mode*", WHERE_KSYSCALL }, { "x64_sys_call", WHERE_KSYSCALL },
	{ "__x64_sys_*", WHERE_KSYSCALL }, { "__ia32_sys_*", WHERE_KSYSCALL },
	{ "__do_sys_*", WHERE_KSYSCALL }, { "__se_sys_*", WHERE_KSYSCALL },
	{ "ksys_*", WHERE_KSYSCALL }, { "int80_*", WHERE_KSYSCALL },
	{ "fdget*", WHERE_KSYSCALL }, { "__fdget*", WHERE_KSYSCALL },
	{ "fput*", WHERE_KSYSCALL }, { "__fget*", WHERE_KSYSCALL },
	{ "security_*", WHERE_KSYSCALL }, { "bpf_lsm_*", WHERE_KSYSCALL },
	{ "apparmor_*", WHERE_KSYSCALL }, { "selinux_*", WHERE_KSYSCALL },
	{ "rw_verify_area", WHERE_KSYSCALL }, { "*fsnotify*", WHERE_KSYSCALL },
	{ "__x86_indirect_*", WHERE_KSYSCALL }, { "__x86_return_thunk", WHERE_KSYSCALL },
	{ "*_fpregs_*", WHERE_KSYSCALL }, { "switch_fpu_*", WHERE_KSYSCALL },
	{ "strncpy_from_user", WHERE_KSYSCALL }, { "strnlen_user", WHERE_KSYSCALL },
	{ "*_permission", WHERE_KSYSCALL },
	/* finding what a call names: a path through the dentry cache */
	{ "*d_lookup*", WHERE_KSYSCALL }, { "lookup_*", WHERE_KSYSCALL },
	{ "link_path_walk*", WHERE_KSYSCALL }, { "path_*", WHERE_KSYSCALL },
	{ "walk_component", WHERE_KSYSCALL }, { "step_into", WHERE_KSYSCALL },
	{ "getname*", WHERE_KSYSCALL }, { "putname", WHERE_KSYSCALL },
	{ "dput", WHERE_KSYSCALL }, { "do_filp_open", WHERE_KSYSCALL },

	/* scheduling, and the clocks, timers and interrupts between CPUs it uses */
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
	{ "finish_wait", WHERE_KSCHED }, { "wait_woken", WHERE_KSCHED },
	{ "woken_wake_function", WHERE_KSCHED }, { "*sched_clock*", WHERE_KSCHED },
	{ "*clock_read*", WHERE_KSCHED }, { "*clock_get_cycles", WHERE_KSCHED },
	{ "ktime_get*", WHERE_KSCHED }, { "read_tsc", WHERE_KSCHED },
	{ "hrtimer_*", WHERE_KSCHED }, { "__hrtimer_*", WHERE_KSCHED },
	{ "tick_*", WHERE_KSCHED }, { "update_process_times", WHERE_KSCHED },
	{ "*timer_interrupt*", WHERE_KSCHED }, { "__mod_timer", WHERE_KSCHED },
	{ "mod_timer", WHERE_KSCHED }, { "lock_timer_base", WHERE_KSCHED },
	{ "run_timer_*", WHERE_KSCHED }, { "__run_timers", WHERE_KSCHED },
	{ "call_timer_fn", WHERE_KSCHED }, { "*call_function*", WHERE_KSCHED },
	{ "*reschedule*", WHERE_KSCHED }, { "*send_IPI*", WHERE_KSCHED },
	{ "*_ipi*", WHERE_KSCHED }, { "flush_smp_call_function*", WHERE_KSCHED },
	{ "preempt_schedule*", WHERE_KSCHED }, { "__cond_resched", WHERE_KSCHED },
	{ "*nohz*", WHERE_KSCHED }, { "*clocksource*", WHERE_KSCHED },
	/* RCU: its callbacks mostly free memory; its grace periods are
	 * tracked at context switches and ticks */
	{ "rcu_core", WHERE_KMEM }, { "rcu_do_batch", WHERE_KMEM },
	{ "rcu_*", WHERE_KSCHED }, { "task_sched_runtime", WHERE_KSCHED },
	{ "pid_task", WHERE_KSCHED },

	/* netdevice: the device layer, queueing disciplines, NAPI, drivers */
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
	/* the queueing disciplines tc attaches, a device's transmit queue */
	{ "sch_*", WHERE_KDEVICE }, { "tbf_*", WHERE_KDEVICE },
	{ "fq_*", WHERE_KDEVICE }, { "codel_*", WHERE_KDEVICE },
	{ "htb_*", WHERE_KDEVICE }, { "netem_*", WHERE_KDEVICE },
	{ "cake_*", WHERE_KDEVICE },
	{ "gro_*", WHERE_KDEVICE }, { "*_gro_*", WHERE_KDEVICE },
	{ "rps_*", WHERE_KDEVICE }, { "e1000*", WHERE_KDEVICE },
	{ "handle_edge_irq", WHERE_KDEVICE }, { "*handle_irq_event*", WHERE_KDEVICE },
	{ "skb_gso_*", WHERE_KDEVICE }, { "*_gso_segment", WHERE_KDEVICE },
	/* the softirqs' own thread, when they overflow to it: the network's */
	{ "run_ksoftirqd", WHERE_KDEVICE },

	{ "tcp*", WHERE_KTCPIP }, { "__tcp*", WHERE_KTCPIP },
	{ "ip_*", WHERE_KTCPIP }, { "__ip_*", WHERE_KTCPIP },
	{ "ipv4_*", WHERE_KTCPIP }, { "ipv6_*", WHERE_KTCPIP },
	{ "ip6_*", WHERE_KTCPIP }, { "__ip6_*", WHERE_KTCPIP },
	{ "inet*", WHERE_KTCPIP }, { "__inet*", WHERE_KTCPIP },
	{ "udp*", WHERE_KTCPIP }, { "__udp*", WHERE_KTCPIP },
	{ "sk_*", WHERE_KTCPIP }, { "__sk_*", WHERE_KTCPIP },
	{ "sock_*", WHERE_KTCPIP }, { "__sock_*", WHERE_KTCPIP },
	{ "__sys_send*", WHERE_KTCPIP }, { "__sys_recv*", WHERE_KTCPIP },
	{ "____sys_*msg", WHERE_KTCPIP }, { "nf_*", WHERE_KTCPIP },
	{ "fib*", WHERE_KTCPIP }, { "dst_*", WHERE_KTCPIP },
	{ "neigh_*", WHERE_KTCPIP }, { "__neigh_*", WHERE_KTCPIP },
	{ "icmp*", WHERE_KTCPIP }, { "raw_v4_*", WHERE_KTCPIP },
	{ "raw_local_deliver", WHERE_KTCPIP }, { "secure_tcp*", WHERE_KTCPIP },
	{ "bbr_*", WHERE_KTCPIP }, { "bictcp_*", WHERE_KTCPIP },
	{ "cubictcp_*", WHERE_KTCPIP }, { "minmax_*", WHERE_KTCPIP },
	{ "rt_*", WHERE_KTCPIP }, { "rt6_*", WHERE_KTCPIP },

	/* the page cache and a file's way to the socket: read, splice, pipes */
	{ "filemap_*", WHERE_KPAGECACHE }, { "__filemap_*", WHERE_KPAGECACHE },
	{ "pagecache_*", WHERE_KPAGECACHE }, { "page_cache_*", WHERE_KPAGECACHE },
	{ "generic_file_*", WHERE_KPAGECACHE }, { "*_file_read_iter", WHERE_KPAGECACHE },
	{ "*_file_splice_read", WHERE_KPAGECACHE }, { "*splice*", WHERE_KPAGECACHE },
	{ "pipe_*", WHERE_KPAGECACHE }, { "anon_pipe_*", WHERE_KPAGECACHE },
	{ "vfs_read", WHERE_KPAGECACHE }, { "vfs_write", WHERE_KPAGECACHE },
	{ "do_sendfile", WHERE_KPAGECACHE }, { "touch_atime", WHERE_KPAGECACHE },
	{ "atime_needs_update", WHERE_KPAGECACHE }, { "folio_mark_accessed", WHERE_KPAGECACHE },
	{ "xas_*", WHERE_KPAGECACHE }, { "__xas_*", WHERE_KPAGECACHE },
	{ "next_uptodate_folio", WHERE_KPAGECACHE }, { "find_get_*", WHERE_KPAGECACHE },

	/* memory: pages, slab, memory cgroups, faults and page tables */
	{ "page_*", WHERE_KMEM }, { "__page_*", WHERE_KMEM },
	{ "folio*", WHERE_KMEM }, { "__folio_*", WHERE_KMEM },
	{ "*alloc_pages*", WHERE_KMEM }, { "*alloc_frozen_pages*", WHERE_KMEM },
	{ "get_page_from_freelist", WHERE_KMEM }, { "*free_pages*", WHERE_KMEM },
	{ "*free_frozen_page*", WHERE_KMEM }, { "free_unref*", WHERE_KMEM },
	{ "rmqueue*", WHERE_KMEM }, { "__rmqueue*", WHERE_KMEM },
	{ "kmem_cache_*", WHERE_KMEM }, { "__kmem_cache_*", WHERE_KMEM },
	{ "*kmalloc*", WHERE_KMEM }, { "kfree*", WHERE_KMEM }, { "kvfree*", WHERE_KMEM },
	{ "*slab*", WHERE_KMEM }, { "*memcg*", WHERE_KMEM },
	{ "*mem_cgroup*", WHERE_KMEM }, { "*obj_stock*", WHERE_KMEM },
	{ "*lruvec*", WHERE_KMEM }, { "lru_*", WHERE_KMEM }, { "__lru_*", WHERE_KMEM },
	{ "page_counter_*", WHERE_KMEM }, { "put_page", WHERE_KMEM },
	{ "release_pages", WHERE_KMEM }, { "clear_page*", WHERE_KMEM },
	{ "*handle_mm_fault", WHERE_KMEM }, { "do_*_page", WHERE_KMEM },
	{ "*page_fault*", WHERE_KMEM }, { "wp_page_*", WHERE_KMEM },
	{ "*flush_tlb*", WHERE_KMEM }, { "tlb_*", WHERE_KMEM },
	{ "*_set_pte*", WHERE_KMEM }, { "*_set_pmd*", WHERE_KMEM },
	{ "*_set_pud*", WHERE_KMEM }, { "*_set_p4d*", WHERE_KMEM },
	{ "*_pgtbl", WHERE_KMEM }, { "ptep_*", WHERE_KMEM },
	{ "unmap_*", WHERE_KMEM }, { "zap_*", WHERE_KMEM },
	{ "free_pgtables", WHERE_KMEM }, { "free_pgd_range", WHERE_KMEM },
	{ "copy_page_range", WHERE_KMEM },
	{ "percpu_counter_*", WHERE_KMEM }, { "kvfree_call_rcu", WHERE_KMEM },
	{ "vma_*", WHERE_KMEM }, { "__vma_*", WHERE_KMEM }, { "mas_*", WHERE_KMEM },
	{ "lock_vma*", WHERE_KMEM }, { "anon_vma_*", WHERE_KMEM },
	/* a program's start: mostly building its address space */
	{ "elf_load", WHERE_KMEM }, { "load_elf_*", WHERE_KMEM },
	{ "begin_new_exec", WHERE_KMEM }, { "setup_arg_pages", WHERE_KMEM },
	{ "memset*", WHERE_KMEM }, { "__memset*", WHERE_KMEM },
	/* the kernel's own watch on memory access (DAMON) */
	{ "damon_*", WHERE_KMEM }, { "kdamond*", WHERE_KMEM },

	/* an interrupt's entry, reached from where interrupts came back on:
	 * the timer's and the CPUs' own are scheduling (above), the rest a
	 * device's (a VM's event channel included) */
	{ "asm_*", WHERE_KDEVICE }, { "sysvec_*", WHERE_KDEVICE },
	{ "__sysvec_*", WHERE_KDEVICE }, { "*common_interrupt", WHERE_KDEVICE },
	{ "*evtchn*", WHERE_KDEVICE },
};

/*
 * Where interrupts or bottom halves come back on. A timer-sampled virtual
 * machine cannot take the sampling interrupt while interrupts are off, so
 * it lands here, at the end of time that was the caller's: the walk goes
 * on to the caller. Named by what they do, not by one hypervisor's
 * vocabulary: "irq_enable" and "restore" of the flags in any paravirt
 * layer's name (pvm_, xen_, pv_native_, hv_, kvm_...), the callee-save
 * thunks paravirt operations are called through, unlocks that restore
 * interrupts, the end of a bottom-half section and the softirq run at it,
 * the return from an interrupt.
 */
static const struct pattern roles[] = {
	{ "__raw_callee_save_*", WHERE_RIRQON }, { "*irq_enable*", WHERE_RIRQON },
	{ "*irqrestore*", WHERE_RIRQON }, { "*irq_restore*", WHERE_RIRQON },
	{ "*restore_fl*", WHERE_RIRQON }, { "*unlock_irq", WHERE_RIRQON },
	{ "*hardirqs_on*", WHERE_RIRQON },

	{ "*bh_enable*", WHERE_RPASS }, { "*unlock_bh", WHERE_RPASS },
	{ "handle_softirqs", WHERE_RPASS }, { "*do_softirq*", WHERE_RPASS },
	{ "*irq_exit*", WHERE_RPASS }, { "irqentry_exit*", WHERE_RPASS },
	{ "__rcu_read_*", WHERE_RPASS },
	/* and library helpers of no kind of their own: lists (with their
	 * checks), trees, bit searches; their time is their caller's work */
	{ "__list_*", WHERE_RPASS }, { "list_*", WHERE_RPASS },
	{ "rb_*", WHERE_RPASS }, { "__rb_*", WHERE_RPASS },
	{ "_find_*", WHERE_RPASS }, { "find_*_bit*", WHERE_RPASS },
	{ "__bitmap_*", WHERE_RPASS }, { "bitmap_*", WHERE_RPASS },
	/* a model-specific register read or written through any paravirt
	 * layer (a timer's next deadline, mostly): the caller's work */
	{ "*write_msr*", WHERE_RPASS }, { "*read_msr*", WHERE_RPASS },
	{ "*wrmsr*", WHERE_RPASS }, { "*rdmsr*", WHERE_RPASS },
};

/* pattern against name[0..end): '*' matches any run of characters. */
static int matches(const char *pattern, const char *name, const char *end)
{
	for (; *pattern; pattern++, name++) {
		if (*pattern == '*') {
			while (pattern[1] == '*')
				pattern++;
			if (!pattern[1])
				return 1;
			for (; name < end; name++)
				if (matches(pattern + 1, name, end))
					return 1;
			return 0;
		}
		if (name == end || *name != *pattern)
			return 0;
	}
	return name == end;
}

static int lookup(const struct pattern *table, size_t n, const char *name, int none)
{
	/* The compiler's clones (".cold", ".isra.0", ".constprop.0") are their function. */
	size_t len = strcspn(name, "."), i;

	for (i = 0; i < n; i++)
		if (matches(table[i].pattern, name, name + len))
			return table[i].value;
	return none;
}

enum where_kind where_kind_of(const char *name, const char *module)
{
	enum where_kind k = lookup(kinds, sizeof(kinds) / sizeof(kinds[0]), name,
				   WHERE_KOTHER);

	/* A module's function no pattern names: a driver's, most likely. */
	return k == WHERE_KOTHER && module && *module ? WHERE_KDEVICE : k;
}

enum where_role where_role_of(const char *name)
{
	return lookup(roles, sizeof(roles) / sizeof(roles[0]), name, WHERE_RWORK);
}
