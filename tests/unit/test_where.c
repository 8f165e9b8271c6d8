/*
 * lib/meter/where*.c: the /proc parsers and the period's arithmetic on canned
 * text, the kinds table on real symbol names of Linux 6.18, the kallsyms
 * table's lookups, the text lines with a prefix.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/out.h"
#include "app/where_out.h"
#include "meter/meter.h"
#include "meter/where.h"
#include "meter/where_internal.h"
#include "t.h"
#include "tools/chainfile.h"

/* The kind of the symbol holding ip (other: none). */
static enum where_kind where_syms_kind(struct where_syms *t, uint64_t ip)
{
	size_t i = where_syms_find(t, ip);

	return i < t->n ? (enum where_kind)where_sym_at(t, i)->kind : WHERE_KOTHER;
}

static struct where_snap a, b;
static struct where_report r;

static int near(double x, double want)
{
	return fabs(x - want) < 0.001;
}

/* Two periods' /proc text: 1 s, 100 ticks per CPU, the soakers on both. */
static void canned_snaps(void)
{
	static const char stat_a[] =
		"cpu  100 1090 55 0 0 2 13 0 0 0\n"
		"cpu0 100 1000 50 0 0 0 10 0 0 0\n"
		"cpu1 0 90 5 0 0 2 3 0 0 0\n"
		"intr 123456 1 2 3\n";
	static const char stat_b[] =
		"cpu  120 1240 70 0 0 4 24 2 0 0\n"
		"cpu0 120 1060 60 0 0 2 18 0 0 0\n"
		"cpu1 0 180 10 0 0 2 6 2 0 0\n"
		"intr 999999 1 2 3\n";
	static const char irq_a[] =
		"           CPU0       CPU1       \n"
		"  0:         50          0   IO-APIC   2-edge      timer\n"
		" 24:          1          0   IO-APIC   5-edge      ACPI:Ged\n"
		"NMI:          0          0   Non-maskable interrupts\n"
		"LOC:       1000       2000   Local timer interrupts\n";
	static const char irq_b[] =
		"           CPU0       CPU1       \n"
		"  0:         60          5   IO-APIC   2-edge      timer\n"
		" 24:          1        100   IO-APIC   5-edge      ACPI:Ged\n"
		"NMI:          0          0   Non-maskable interrupts\n"
		"LOC:       9000       9000   Local timer interrupts\n";
	static const char soft_a[] =
		"                    CPU0       CPU1       \n"
		"          HI:          0          0\n"
		"      NET_TX:          3          0\n"
		"      NET_RX:      21308      32343\n";
	static const char soft_b[] =
		"                    CPU0       CPU1       \n"
		"          HI:          0          0\n"
		"      NET_TX:         13          0\n"
		"      NET_RX:      21308      42343\n";
	static const char dev_a[] =
		"Inter-|   Receive                |  Transmit\n"
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes packets\n"
		"    lo: 1000 10 0 0 0 0 0 0 1000 10 0 0 0 0 0 0\n"
		"  eth0: 5000 50 0 0 0 0 0 0 6000 60 0 0 0 0 0 0\n";
	static const char dev_b[] =
		"Inter-|   Receive                |  Transmit\n"
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes packets\n"
		"    lo: 9000 510 3 7 0 0 0 0 9000 510 1 2 0 0 0 0\n"
		"  eth0: 5000 50 0 0 0 0 0 0 6000 60 0 0 0 0 0 0\n";

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	CHECK(where_parse_stat(stat_a, &a) == 0 && where_parse_stat(stat_b, &b) == 0,
	      "/proc/stat parsed");
	CHECK(a.ncpus == 2 && a.tick[0][1] == 1000 && b.tick[1][7] == 2,
	      "cpuN columns in place, the machine's line skipped");
	CHECK(where_parse_interrupts(irq_a, &a) == 0 && where_parse_interrupts(irq_b, &b) == 0,
	      "/proc/interrupts parsed");
	CHECK(a.intr == 51 && b.intr == 166, "device interrupts only, every CPU (%llu, %llu)",
	      (unsigned long long)a.intr, (unsigned long long)b.intr);
	CHECK(where_parse_softirqs(soft_a, &a) == 0 && where_parse_softirqs(soft_b, &b) == 0,
	      "/proc/softirqs parsed");
	CHECK(a.net_rx[1] == 32343 && a.net_tx[0] == 3, "NET_RX and NET_TX by CPU");
	CHECK(where_parse_netdev(dev_a, &a) == 0 && where_parse_netdev(dev_b, &b) == 0,
	      "/proc/net/dev parsed");
	CHECK(a.nifs == 2 && strcmp(a.ifs[1].name, "eth0") == 0 && a.ifs[1].rx == 50 &&
	      a.ifs[1].tx == 60, "interfaces and their packets");
	a.nsoak = b.nsoak = 2;
	a.soak_user[0] = 500, b.soak_user[0] = 555, a.soak_cpu[0] = b.soak_cpu[0] = 0;
	a.soak_user[1] = 700, b.soak_user[1] = 790, a.soak_cpu[1] = b.soak_cpu[1] = 1;
	a.ns = 1000000000, b.ns = 2000000000;
}

static void test_compute(void)
{
	canned_snaps();
	where_compute(&a, &b, 0.28, (uint64_t)1000 * 1024, NULL, &r);
	/* cpu0: user 20 + nice 60 - soaker 55, system 10, irq 2, softirq 8. */
	CHECK(near(r.class_pct[WHERE_USER], 12.5), "user: user + nice - soakers (%.2f)",
	      r.class_pct[WHERE_USER]);
	CHECK(near(r.class_pct[WHERE_SYSTEM], 7.5) && near(r.class_pct[WHERE_IRQ], 1) &&
	      near(r.class_pct[WHERE_SOFTIRQ], 5.5) && near(r.class_pct[WHERE_STEAL], 1),
	      "system, irq, softirq, steal as %% of the machine");
	CHECK(near(r.unattributed_pct, 0.5), "unattributed: the load less the classes (%.2f)",
	      r.unattributed_pct);
	CHECK(near(r.cpu[0].load_pct, 45) && near(r.cpu[1].load_pct, 10),
	      "each CPU's load (%.1f, %.1f)", r.cpu[0].load_pct, r.cpu[1].load_pct);
	CHECK(near(r.cpu[0].softirq_pct, 8) && near(r.cpu[1].softirq_pct, 3),
	      "each CPU's softirq share");
	/* cpu0: user 20 + 60 - 55 = 25, system 10, irq 2, softirq 8 of 100 ticks. */
	CHECK(near(r.cpu[0].class_pct[WHERE_USER], 25) && near(r.cpu[0].class_pct[WHERE_SYSTEM], 10) &&
	      near(r.cpu[0].class_pct[WHERE_IRQ], 2) && near(r.cpu[0].class_pct[WHERE_SOFTIRQ], 8) &&
	      near(r.cpu[1].class_pct[WHERE_STEAL], 2) && near(r.cpu[1].class_pct[WHERE_USER], 0),
	      "each CPU's classes (cpu0 user %.1f, cpu1 steal %.1f)",
	      r.cpu[0].class_pct[WHERE_USER], r.cpu[1].class_pct[WHERE_STEAL]);
	CHECK(near(r.cpu[1].net_rx_per_sec, 10000) && near(r.cpu[0].net_tx_per_sec, 10) &&
	      near(r.cpu[0].net_rx_per_sec, 0), "NET_RX, NET_TX per second per CPU");
	CHECK(near(r.intr_per_sec, 115), "device interrupts per second (%.0f)", r.intr_per_sec);
	CHECK(r.nifs == 1 && strcmp(r.ifs[0].name, "lo") == 0 &&
	      near(r.ifs[0].rx_per_sec, 500) && near(r.ifs[0].tx_per_sec, 500),
	      "only the interfaces that moved packets");
	CHECK(r.ifs[0].rx_dropped == 7 && r.ifs[0].tx_dropped == 2 && r.ifs[0].errors == 4,
	      "drops each way and errors over the period (%llu %llu %llu)",
	      (unsigned long long)r.ifs[0].rx_dropped, (unsigned long long)r.ifs[0].tx_dropped,
	      (unsigned long long)r.ifs[0].errors);
	CHECK(near(r.intr_per_packet, 0.115), "interrupts per packet: 115 over 1000 (%.3f)",
	      r.intr_per_packet);
	/* 12.5% of 2 CPUs for 1 s is 250 ms over 1000 KB. */
	CHECK(near(r.class_us_per_kb[WHERE_USER], 250), "user us/KB (%.3f)",
	      r.class_us_per_kb[WHERE_USER]);
	CHECK(near(r.unattributed_us_per_kb, 10), "unattributed us/KB (%.3f)",
	      r.unattributed_us_per_kb);

	where_compute(&a, &b, NAN, 0, "eth0", &r);
	CHECK(isnan(r.unattributed_pct) && isnan(r.class_us_per_kb[0]),
	      "no load, no bytes: no unattributed share, no us/KB");
	CHECK(r.nifs == 1 && strcmp(r.ifs[0].name, "eth0") == 0 && r.ifs[0].rx_per_sec == 0,
	      "a named interface is shown even when idle");

	/*
	 * Kernel kinds by CPU: cpu0 copies (the sender), cpu1 runs TCP/IP;
	 * idle samples counted on neither; the machine's the sum of both.
	 */
	a.lost = b.lost = 0;
	a.kind_cpu[0][WHERE_KCOPY] = 10, b.kind_cpu[0][WHERE_KCOPY] = 40;
	a.kind_cpu[0][WHERE_KUSER] = 5, b.kind_cpu[0][WHERE_KUSER] = 15;
	b.kind_cpu[0][WHERE_KIDLE] = 500;
	b.kind_cpu[1][WHERE_KTCPIP] = 20;
	b.kind_cpu[1][WHERE_KCOPY] = 5;
	a.kind[WHERE_KCOPY] = 10, b.kind[WHERE_KCOPY] = 45;
	a.kind[WHERE_KUSER] = 5, b.kind[WHERE_KUSER] = 15;
	b.kind[WHERE_KTCPIP] = 20, b.kind[WHERE_KIDLE] = 500;
	where_compute(&a, &b, 0.28, 0, NULL, &r);
	CHECK(r.sampled && r.samples == 65 && near(r.kind_pct[WHERE_KCOPY], 100.0 * 35 / 65),
	      "the machine's kinds (%llu samples)", (unsigned long long)r.samples);
	CHECK(r.cpu[0].samples == 40 && near(r.cpu[0].kind_pct[WHERE_KCOPY], 75) &&
	      near(r.cpu[0].kind_pct[WHERE_KUSER], 25) && near(r.cpu[0].kind_pct[WHERE_KTCPIP], 0),
	      "cpu0's kinds: its own samples, idle left out (%llu, copy %.1f%%)",
	      (unsigned long long)r.cpu[0].samples, r.cpu[0].kind_pct[WHERE_KCOPY]);
	CHECK(r.cpu[1].samples == 25 && near(r.cpu[1].kind_pct[WHERE_KTCPIP], 80) &&
	      near(r.cpu[1].kind_pct[WHERE_KCOPY], 20), "cpu1's kinds, apart from cpu0's");
	/* Kinds per KB share the busy time: 28% of 2 CPUs for 1 s, over 1000 KB. */
	a.other[3].name = b.other[3].name = "foo", a.other[3].n = 2, b.other[3].n = 7;
	b.other[10].name = "bar", b.other[10].n = 9;
	where_compute(&a, &b, 0.28, (uint64_t)1000 * 1024, NULL, &r);
	CHECK(near(r.kind_us_per_kb[WHERE_KCOPY], 560.0 * 35 / 65) &&
	      near(r.kind_us_per_kb[WHERE_KUSER], 560.0 * 10 / 65),
	      "each kind in us/KB, its share of the load's (copy %.3f)",
	      r.kind_us_per_kb[WHERE_KCOPY]);
	CHECK(r.nother == 2 && strcmp(r.other_top[0].name, "bar") == 0 &&
	      near(r.other_top[0].pct, 100.0 * 9 / 65) && strcmp(r.other_top[1].name, "foo") == 0 &&
	      near(r.other_top[1].pct, 100.0 * 5 / 65),
	      "other's symbols over the period, biggest first (%d)", r.nother);
	/* lo moved 500 packets each way; 560 ms of CPU. */
	CHECK(near(r.us_per_packet, 560), "us/packet: the busy time over both ways' packets (%.2f)",
	      r.us_per_packet);
	CHECK(isnan(r.bytes_per_call), "no calls given: no bytes per call");
	where_calls(&r, (uint64_t)1000 * 1024, 100);
	CHECK(near(r.bytes_per_call, 10240), "bytes per call");
	where_calls(&r, 5, 0);
	CHECK(isnan(r.bytes_per_call), "no calls: no figure");
	CHECK(!r.rx_unseen, "packets seen: no word of unseen traffic");
	memset(a.other, 0, sizeof(a.other)), memset(b.other, 0, sizeof(b.other));
	memset(a.kind, 0, sizeof(a.kind)), memset(b.kind, 0, sizeof(b.kind));
	memset(a.kind_cpu, 0, sizeof(a.kind_cpu)), memset(b.kind_cpu, 0, sizeof(b.kind_cpu));

	/* NET_RX ran 10000 times a second, yet no interface moved a packet. */
	memcpy(b.ifs, a.ifs, sizeof(a.ifs));
	where_compute(&a, &b, 0.28, 0, NULL, &r);
	CHECK(r.rx_unseen && r.nifs == 0 && isnan(r.us_per_packet),
	      "NET_RX without packets: traffic it cannot see is likely");
	canned_snaps();

	/* Soakers whose user time outran the nice column: no negative user. */
	b.soak_user[1] = 900;
	where_compute(&a, &b, 0.28, 0, NULL, &r);
	CHECK(near(r.class_pct[WHERE_USER], 12.5) && near(r.cpu[1].load_pct, 10),
	      "nice less the soakers stops at 0");
}

/* zcs -d's -W lines after a line of its own: each starts with the peer. */
/* A rate line carrying r's -W part (prefix p), in text or JSON, into got. */
static int print_line(int json, const char *p, char *got, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(1);
	size_t n;

	if (!CHECK(tmp && saved >= 0, "a temporary file for stdout")) {
		if (tmp)
			fclose(tmp);
		if (saved >= 0)
			close(saved);
		return -1;
	}
	out_init("test", json);
	fflush(stdout);
	dup2(fileno(tmp), 1);
	line_begin("rate");
	line_text("%s1 kbytes/sec", p);
	where_line_prefixed(&r, p);
	line_end();
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	n = fread(got, 1, len - 1, tmp);
	got[n] = '\0';
	fclose(tmp);
	return 0;
}

static void test_prefix(void)
{
	int lines = 0, prefixed = 0;
	char got[4096], *line, *rest;

	canned_snaps();
	where_compute(&a, &b, 0.28, (uint64_t)1000 * 1024, "lo", &r);
	if (print_line(0, "p: ", got, sizeof(got)) < 0)
		return;
	CHECK(strstr(got, "\np: where: user ") && strstr(got, "\np: cpus: cpu0 ") &&
	      strstr(got, "\np: net: "), "where:, cpus:, net: after the line, prefixed");
	for (line = strtok_r(got, "\n", &rest); line;
	     line = strtok_r(NULL, "\n", &rest), lines++)
		prefixed += strncmp(line, "p: ", 3) == 0;
	CHECK(lines >= 4 && prefixed == lines, "every line prefixed (%d of %d)", prefixed,
	      lines);
}

/* No figure without bytes behind it; no -0.0; the same keys on every line. */
static void test_no_figure(void)
{
	char got[8192];

	canned_snaps();
	where_compute(&a, &b, 0.28, 13, "lo", &r);
	CHECK(isnan(r.class_us_per_kb[0]) && isnan(r.unattributed_us_per_kb) &&
	      isnan(r.kind_us_per_kb[0]), "13 bytes: no us/KB (under %d)", DEMAND_MIN_BYTES);
	r.unattributed_pct = -0.04;
	if (print_line(1, "", got, sizeof(got)) < 0)
		return;
	CHECK(strstr(got, "\"class_us_per_kb\":null") && strstr(got, "\"kernel_us_per_kb\":null")
	      && strstr(got, "\"unseen\":null"), "JSON: the keys, null where no figure");
	CHECK(strstr(got, "\"unattributed\":0.0}") && !strstr(got, "-0.0"),
	      "JSON: unattributed -0.04 is 0.0");
	where_compute(&a, &b, 0.28, (uint64_t)1000 * 1024, "lo", &r);
	r.unattributed_pct = -0.04;
	r.unattributed_us_per_kb = -0.0004;
	if (print_line(0, "", got, sizeof(got)) < 0)
		return;
	CHECK(strstr(got, ", unattributed 0.0% of the machine") &&
	      strstr(got, ", unattributed 0.000\n") && !strstr(got, "-0.0"),
	      "text: unattributed rounding to zero is 0.0%% and 0.000");
}

/* Namespaces not read: named whole while they fit, then counted. */
static void test_unseen(void)
{
	static struct where_snap s;
	char name[32];
	int named = 0;

	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "netns-%02d", i);
		where_net_unseen(&s, name, EPERM);
	}
	where_net_unseen_end(&s);
	for (const char *p = s.unseen; (p = strstr(p, "netns-")); p++)
		named++;
	CHECK(named > 0 && named < 40 && s.unseen_more == 40 - named,
	      "40 namespaces: %d named, %d counted", named, s.unseen_more);
	CHECK(strlen(s.unseen) < sizeof(s.unseen) - 1, "the line fits: %s", s.unseen);
	snprintf(name, sizeof(name), ", and %d more", 40 - named);
	CHECK(strstr(s.unseen, name) && !strcmp(strstr(s.unseen, name), name),
	      "it ends '%s': %s", name, s.unseen);
	CHECK(strstr(s.unseen, "(Operation not permitted), and"), "no name cut in two");
}

static void test_bad_text(void)
{
	struct where_snap s;

	CHECK(where_parse_stat("cpu  1 2 3\n", &s) < 0, "/proc/stat without cpuN: refused");
	CHECK(where_parse_stat("cpu0 1 2 3\n", &s) < 0, "/proc/stat short line: refused");
	CHECK(where_parse_softirqs("NET_RX: 1 2\n", &s) < 0, "/proc/softirqs without a header");
	CHECK(where_parse_netdev("h\nh\n  lo: 1 2\n", &s) < 0, "/proc/net/dev short line");
}

static void test_task(void)
{
	char line[1024];
	uint64_t utime = 0;
	int cpu = -1, n, f;

	/* A name with ") (" and spaces in it; field 14 utime, 39 processor. */
	n = snprintf(line, sizeof(line), "4321 (a) (b c) R");
	for (f = 4; f <= 52; f++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %d",
			      f == 14 ? 777 : f == 39 ? 5 : f);
	snprintf(line + n, sizeof(line) - (size_t)n, "\n");
	CHECK(where_parse_task(line, &utime, &cpu) == 0 && utime == 777 && cpu == 5,
	      "/proc/PID/stat: user time and CPU, whatever the name holds");
	CHECK(where_parse_task("4321 (x) R 1 2\n", &utime, &cpu) < 0, "a short stat line");
}

/* Real names of Linux 6.18's kernel functions, by the kind they must get. */
static const struct {
	const char *name;
	enum where_kind kind;
} real[] = {
	{ "rep_movs_alternative", WHERE_KCOPY }, { "_copy_to_iter", WHERE_KCOPY },
	{ "_copy_from_iter", WHERE_KCOPY }, { "__memcpy", WHERE_KCOPY },
	{ "memcpy_orig", WHERE_KCOPY }, { "copy_page", WHERE_KCOPY },
	{ "simple_copy_to_iter", WHERE_KCOPY }, { "skb_copy_bits", WHERE_KCOPY },
	{ "__skb_datagram_iter", WHERE_KCOPY }, { "memmove", WHERE_KCOPY },
	{ "skb_copy_datagram_iter", WHERE_KCOPY }, { "__check_object_size", WHERE_KCOPY },
	{ "copy_folio_from_iter_atomic", WHERE_KCOPY }, { "__virt_addr_valid", WHERE_KCOPY },
	{ "ip_send_check", WHERE_KCSUM },
	{ "csum_partial", WHERE_KCSUM }, { "csum_partial_copy_generic", WHERE_KCSUM },
	{ "ip_fast_csum", WHERE_KCSUM },
	{ "tcp_sendmsg_locked", WHERE_KTCPIP }, { "tcp_v4_rcv", WHERE_KTCPIP },
	{ "tcp_ack", WHERE_KTCPIP }, { "ip_finish_output2", WHERE_KTCPIP },
	{ "__ip_queue_xmit", WHERE_KTCPIP }, { "ip_rcv", WHERE_KTCPIP },
	{ "inet_recvmsg", WHERE_KTCPIP }, { "sock_def_readable", WHERE_KTCPIP },
	{ "__tcp_transmit_skb", WHERE_KTCPIP }, { "tcp_write_xmit", WHERE_KTCPIP },
	{ "__sk_mem_raise_allocated", WHERE_KTCPIP }, { "bbr_main", WHERE_KTCPIP },
	{ "__sys_recvfrom", WHERE_KTCPIP }, { "tcp_recvmsg_locked", WHERE_KTCPIP },
	{ "__inet_lookup_established", WHERE_KTCPIP },
	{ "skb_release_data", WHERE_KSKB }, { "__alloc_skb", WHERE_KSKB },
	{ "skb_clone", WHERE_KSKB }, { "kfree_skbmem", WHERE_KSKB },
	{ "napi_consume_skb", WHERE_KSKB }, { "skb_attempt_defer_free", WHERE_KSKB },
	{ "tcp_stream_alloc_skb", WHERE_KSKB }, { "skb_append_pagefrags", WHERE_KSKB },
	{ "lock_sock_nested", WHERE_KLOCK }, { "release_sock", WHERE_KLOCK },
	{ "_raw_spin_lock", WHERE_KLOCK }, { "_raw_spin_lock_bh", WHERE_KLOCK },
	{ "native_queued_spin_lock_slowpath", WHERE_KLOCK },
	{ "__pv_queued_spin_lock_slowpath", WHERE_KLOCK }, { "_raw_spin_trylock", WHERE_KLOCK },
	{ "mutex_lock", WHERE_KLOCK }, { "down_write", WHERE_KLOCK },
	{ "net_rx_action", WHERE_KDEVICE }, { "process_backlog", WHERE_KDEVICE },
	{ "__dev_queue_xmit", WHERE_KDEVICE }, { "dev_hard_start_xmit", WHERE_KDEVICE },
	{ "netif_rx", WHERE_KDEVICE }, { "__napi_poll", WHERE_KDEVICE },
	{ "loopback_xmit", WHERE_KDEVICE }, { "virtnet_poll", WHERE_KDEVICE },
	{ "start_xmit", WHERE_KDEVICE }, { "__dev_queue_xmit.cold", WHERE_KDEVICE },
	{ "__netif_receive_skb_core.constprop.0", WHERE_KDEVICE },
	{ "asm_common_interrupt", WHERE_KDEVICE },
	{ "entry_SYSCALL_64_after_hwframe", WHERE_KSYSCALL }, { "do_syscall_64", WHERE_KSYSCALL },
	{ "syscall_return_via_sysret", WHERE_KSYSCALL }, { "__x64_sys_write", WHERE_KSYSCALL },
	{ "__x64_sys_sendfile64", WHERE_KSYSCALL }, { "fdget_pos", WHERE_KSYSCALL },
	{ "exit_to_user_mode_loop", WHERE_KSYSCALL }, { "security_socket_recvmsg", WHERE_KSYSCALL },
	{ "__schedule", WHERE_KSCHED }, { "schedule", WHERE_KSCHED },
	{ "finish_task_switch.isra.0", WHERE_KSCHED }, { "pick_next_task_fair", WHERE_KSCHED },
	{ "psi_group_change", WHERE_KSCHED }, { "__switch_to_asm", WHERE_KSCHED },
	{ "try_to_wake_up", WHERE_KSCHED }, { "enqueue_task_fair", WHERE_KSCHED },
	{ "update_curr", WHERE_KSCHED }, { "native_sched_clock", WHERE_KSCHED },
	{ "ktime_get", WHERE_KSCHED }, { "read_tsc", WHERE_KSCHED },
	{ "pvclock_clocksource_read_nowd", WHERE_KSCHED }, { "kvm_clock_get_cycles", WHERE_KSCHED },
	{ "sysvec_apic_timer_interrupt", WHERE_KSCHED },
	{ "asm_sysvec_call_function_single", WHERE_KSCHED },
	{ "filemap_read", WHERE_KPAGECACHE }, { "filemap_splice_read", WHERE_KPAGECACHE },
	{ "folio_mark_accessed", WHERE_KPAGECACHE }, { "splice_to_socket", WHERE_KPAGECACHE },
	{ "page_cache_pipe_buf_release", WHERE_KPAGECACHE }, { "vfs_read", WHERE_KPAGECACHE },
	{ "ext4_file_read_iter", WHERE_KPAGECACHE },
	{ "__alloc_pages_noprof", WHERE_KMEM }, { "clear_page_erms", WHERE_KMEM },
	{ "get_page_from_freelist", WHERE_KMEM }, { "kmem_cache_alloc_node_noprof", WHERE_KMEM },
	{ "__kmalloc_node_track_caller_noprof", WHERE_KMEM }, { "sk_page_frag_refill", WHERE_KMEM },
	{ "page_counter_try_charge", WHERE_KMEM }, { "mod_memcg_state", WHERE_KMEM },
	{ "kfree", WHERE_KMEM }, { "__slab_free", WHERE_KMEM }, { "put_page", WHERE_KMEM },
	{ "__folio_put", WHERE_KMEM }, { "asm_exc_page_fault", WHERE_KMEM },
	{ "do_wp_page", WHERE_KMEM }, { "copy_page_range", WHERE_KMEM },
	{ "flush_tlb_mm_range", WHERE_KMEM }, { "native_set_pmd", WHERE_KMEM },
	{ "default_idle", WHERE_KIDLE }, { "pv_native_safe_halt", WHERE_KIDLE },
	{ "default_idle_call", WHERE_KIDLE }, { "do_idle", WHERE_KIDLE },
	{ "acpi_idle_enter", WHERE_KIDLE }, { "pvm_safe_halt_hc", WHERE_KIDLE },
	{ "write_null", WHERE_KOTHER }, { "copy_creds", WHERE_KOTHER },
	{ "elf_load", WHERE_KMEM }, { "__d_lookup_rcu", WHERE_KSYSCALL },
};

/* Names by their role in a sample's walk, from several paravirt layers. */
static const struct {
	const char *name;
	enum where_role role;
} roles[] = {
	{ "pvm_irq_enable", WHERE_RIRQON }, { "__raw_callee_save_pvm_irq_enable", WHERE_RIRQON },
	{ "xen_irq_enable", WHERE_RIRQON }, { "xen_irq_enable_direct", WHERE_RIRQON },
	{ "xen_restore_fl_direct", WHERE_RIRQON }, { "pv_native_irq_enable", WHERE_RIRQON },
	{ "__raw_callee_save___pv_queued_spin_unlock", WHERE_RIRQON },
	{ "_raw_spin_unlock_irqrestore", WHERE_RIRQON }, { "_raw_spin_unlock_irq", WHERE_RIRQON },
	{ "_raw_write_unlock_irqrestore", WHERE_RIRQON }, { "trace_hardirqs_on", WHERE_RIRQON },
	{ "__local_bh_enable_ip", WHERE_RPASS }, { "local_bh_enable", WHERE_RPASS },
	{ "_raw_spin_unlock_bh", WHERE_RPASS }, { "handle_softirqs", WHERE_RPASS },
	{ "do_softirq.part.0", WHERE_RPASS }, { "__irq_exit_rcu", WHERE_RPASS },
	{ "irqentry_exit", WHERE_RPASS }, { "__rcu_read_unlock", WHERE_RPASS },
	{ "__list_del_entry_valid_or_report", WHERE_RPASS }, { "rb_next", WHERE_RPASS },
	{ "tcp_write_xmit", WHERE_RWORK }, { "_raw_spin_lock_irqsave", WHERE_RWORK },
	{ "_raw_spin_lock_bh", WHERE_RWORK }, { "sysvec_apic_timer_interrupt", WHERE_RWORK },
	{ "enable_irq", WHERE_RWORK },
};

/* How many of the names above this kernel's /proc/kallsyms has. */
static int names_here(void)
{
	char line[512], *name;
	size_t i, n = sizeof(real) / sizeof(real[0]);
	int *seen = calloc(n, sizeof(*seen)), found = -1;
	FILE *f = fopen("/proc/kallsyms", "re");

	if (f && seen) {
		while (fgets(line, sizeof(line), f)) {
			name = strrchr(line, ' ');
			if (!name)
				continue;
			name[strcspn(name, "\t\n")] = 0;
			for (i = 0; i < n; i++)
				seen[i] |= strcmp(name + 1, real[i].name) == 0;
		}
		for (i = 0, found = 0; i < n; i++)
			found += seen[i];
	}
	if (f)
		fclose(f);
	free(seen);
	return found;
}

static const char *kind_name(enum where_kind k)
{
	return k == WHERE_KIDLE ? "idle" : k < WHERE_KINDS ? where_kind_name[k] : "?";
}

static void test_kinds(void)
{
	size_t i, n = sizeof(real) / sizeof(real[0]);
	int found;

	for (i = 0; i < n; i++)
		CHECK(where_kind_of(real[i].name, NULL) == real[i].kind, "%s is %s",
		      real[i].name, kind_name(real[i].kind));
	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		CHECK(where_role_of(roles[i].name) == roles[i].role, "%s %s", roles[i].name,
		      roles[i].role == WHERE_RIRQON ? "turns interrupts back on" :
		      roles[i].role == WHERE_RPASS ? "is its caller's" : "is work of its own");
	CHECK(where_kind_of("tbf_dequeue", "sch_tbf") == WHERE_KDEVICE &&
	      where_kind_of("fq_codel_enqueue", "sch_fq_codel") == WHERE_KDEVICE &&
	      where_kind_of("damon_pa_batch_lock", NULL) == WHERE_KMEM,
	      "a qdisc's functions are the device's, DAMON's memory's");
	CHECK(where_role_of("pvm_write_msr") == WHERE_RPASS &&
	      where_role_of("xen_write_msr_safe") == WHERE_RPASS &&
	      where_role_of("native_write_msr") == WHERE_RPASS &&
	      where_role_of("pv_native_read_msr") == WHERE_RPASS,
	      "a paravirt layer's MSR access is its caller's work");
	CHECK(where_kind_of("bbr_main", "tcp_bbr") == WHERE_KTCPIP &&
	      where_kind_of("mlx5e_napi_poll", "mlx5_core") == WHERE_KDEVICE,
	      "a module's function: its name's kind, or a driver's");
	for (i = 0; i < WHERE_KINDS; i++)
		CHECK(where_kind_paper[i] && *where_kind_paper[i], "%s has the paper's name or -",
		      where_kind_name[i]);
	found = names_here();
	if (found >= 0)
		printf("# %d of the %zu names are in this kernel's /proc/kallsyms\n", found, n);
}

/* The kind a chain file's line gets ("COUNT PID LEAF CALLER..."). */
static enum where_kind kind_of_line(const char *text, const char **charged)
{
	struct chainfile f;
	char line[512];
	size_t sym;
	enum where_kind k = WHERE_KINDS + 7;

	memset(&f, 0, sizeof(f));
	memset(f.bucket, -1, sizeof(f.bucket));
	snprintf(line, sizeof(line), "%s", text);
	if (chain_line(&f, line) == 0 && f.n == 1) {
		k = where_sample_kind(&f.syms, (uint32_t)f.c[0].pid, f.c[0].ip, f.c[0].n, &sym); // NOLINT(clang-analyzer-unix.Malloc): chain_free below frees f.c
		if (charged)
			*charged = sym == WHERE_SYM_CUT ? "cut" : "";
	}
	chain_free(&f);
	return k;
}

/*
 * Chains made up in the vocabulary of paravirt layers other than this
 * VM's: where interrupts come back on is found by what a name says, and
 * the sample goes to the first caller that is work.
 */
static const struct {
	const char *chain;
	enum where_kind kind;
} made_up[] = {
	{ "1 9 xen_irq_enable_direct _raw_spin_unlock_irqrestore tcp_write_xmit tcp_sendmsg_locked",
	  WHERE_KTCPIP },
	{ "1 9 check_events xen_irq_enable_direct _raw_spin_unlock_irqrestore sock_def_readable",
	  WHERE_KTCPIP },
	{ "1 9 xen_restore_fl_direct _raw_spin_unlock_irqrestore try_to_wake_up __wake_up_common",
	  WHERE_KSCHED },
	{ "1 9 pv_native_irq_enable __raw_callee_save_pv_native_irq_enable "
	  "_raw_spin_unlock_irqrestore enqueue_to_backlog netif_rx_internal", WHERE_KDEVICE },
	{ "1 9 hv_irq_restore _raw_spin_unlock_irqrestore __mod_timer sk_reset_timer", WHERE_KSCHED },
	{ "1 9 kvm_irq_enable __raw_callee_save_kvm_irq_enable do_syscall_64 "
	  "entry_SYSCALL_64_after_hwframe", WHERE_KSYSCALL },
	{ "1 9 xen_irq_enable handle_softirqs __irq_exit_rcu sysvec_apic_timer_interrupt "
	  "asm_sysvec_apic_timer_interrupt", WHERE_KSCHED },
	{ "1 9 xen_restore_fl handle_softirqs __irq_exit_rcu xen_evtchn_do_upcall "
	  "asm_sysvec_xen_hvm_callback", WHERE_KDEVICE },
	{ "1 9 pv_native_irq_enable __raw_callee_save_pv_native_irq_enable handle_softirqs "
	  "do_softirq.part.0 __local_bh_enable_ip __dev_queue_xmit ip_finish_output2",
	  WHERE_KDEVICE },
	{ "1 9 __pv_queued_spin_lock_slowpath _raw_spin_lock tcp_v4_rcv", WHERE_KLOCK },
	{ "1 9 kvm_wait __pv_queued_spin_lock_slowpath _raw_spin_lock_bh lock_sock_nested",
	  WHERE_KLOCK },
	{ "1 9 xen_hypercall_xen_version xen_force_evtchn_callback xen_irq_enable "
	  "_raw_spin_unlock_irqrestore tcp_recvmsg", WHERE_KTCPIP },
	{ "1 9 _copy_to_iter __raw_callee_save_xen_irq_enable tcp_recvmsg", WHERE_KCOPY },
	{ "1 9 __list_del_entry_valid_or_report pvm_irq_enable tcp_ack", WHERE_KTCPIP },
	{ "1 0 pv_native_safe_halt default_idle default_idle_call do_idle", WHERE_KIDLE },
	{ "1 0 xen_irq_enable __raw_callee_save_xen_irq_enable do_idle", WHERE_KIDLE },
	{ "1 0 tcp_v4_rcv ip_local_deliver asm_common_interrupt", WHERE_KIDLE },
	{ "1 9 xen_safe_halt default_idle", WHERE_KIDLE },
};

static void test_made_up_chains(void)
{
	const char *charged = NULL;
	size_t i;

	for (i = 0; i < sizeof(made_up) / sizeof(made_up[0]); i++) {
		enum where_kind k = kind_of_line(made_up[i].chain, NULL);

		CHECK(k == made_up[i].kind, "%s: %s (got %s)", made_up[i].chain + 4,
		      kind_name(made_up[i].kind), kind_name(k));
	}
	CHECK(kind_of_line("1 9 xen_irq_enable __raw_callee_save_xen_irq_enable "
			   "_raw_spin_unlock_irqrestore", &charged) == WHERE_KOTHER &&
	      charged && strcmp(charged, "cut") == 0,
	      "a walk that runs out of frames: other, named as a chain cut short");
}

/*
 * Real chains recorded on a paravirtual guest (where_chains_pvm.txt): the
 * kernel samples' other at most 10%, the walk within the frames kept.
 */
static void test_real_chains(void)
{
	const char *top = getenv("ZC_TOP");
	char path[4096];
	struct chainfile f;
	unsigned long kernel = 0, other = 0, irqon = 0, irqon_other = 0;
	size_t i, j, sym, deepest = 0;
	FILE *in;

	snprintf(path, sizeof(path), "%s/tests/unit/where_chains_pvm.txt", top ? top : ".");
	in = fopen(path, "r");
	CHECK(in != NULL, "the chain file %s", path);
	if (!in)
		return;
	i = (size_t)chain_load(&f, in, path);
	fclose(in);
	if (!CHECK(i == 0 && f.n > 100, "%zu real chains", f.n))
		return;
	for (i = 0; i < f.n; i++) {
		const struct chain *c = &f.c[i];
		enum where_kind k;

		if (!c->n)
			continue;	/* user mode */
		k = where_sample_kind(&f.syms, (uint32_t)c->pid, c->ip, c->n, &sym);
		if (k == WHERE_KIDLE)
			continue;
		kernel += c->count;
		other += k == WHERE_KOTHER ? c->count : 0;
		if (where_sym_at(&f.syms, where_syms_find(&f.syms, c->ip[0]))->role == WHERE_RIRQON) {
			irqon += c->count;
			irqon_other += k == WHERE_KOTHER ? c->count : 0;
		}
		for (j = 0; j < c->n && where_syms_find(&f.syms, c->ip[j]) != sym; j++)
			;
		if (j < c->n && j + 1 > deepest)
			deepest = j + 1;
	}
	CHECK(kernel > 1000 && 100.0 * (double)other / (double)kernel <= 10,
	      "real chains: other %.1f%% of %lu kernel samples", 100.0 * (double)other /
	      (double)kernel, kernel);
	CHECK(irqon > kernel / 10 && 100.0 * (double)irqon_other / (double)irqon <= 2,
	      "%lu samples where interrupts came back on: %.1f%% left in other", irqon,
	      100.0 * (double)irqon_other / (double)irqon);
	CHECK(deepest >= 3 && deepest <= WHERE_CHAIN_MAX,
	      "the deepest charged frame (%zu) is within the %d kept", deepest, WHERE_CHAIN_MAX);
	CHECK(kind_of_line("1 9 pvm_irq_enable __raw_callee_save_pvm_irq_enable "
			   "_raw_spin_unlock_irqrestore tcp_write_xmit __tcp_push_pending_frames",
			   NULL) == WHERE_KTCPIP &&
	      kind_of_line("1 9 pvm_irq_enable __raw_callee_save_pvm_irq_enable do_syscall_64 "
			   "entry_SYSCALL_64_after_hwframe", NULL) == WHERE_KSYSCALL &&
	      kind_of_line("1 0 pvm_safe_halt_hc default_idle default_idle_call do_idle", NULL) ==
	      WHERE_KIDLE, "this VM's own: pvm_irq_enable is its caller's, its halt idle");
	chain_free(&f);
}

static void test_syms(void)
{
	static const char text[] =
		"0000000000000000 A fixed_percpu_data\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81001000 t rep_movs_alternative\n"
		"ffffffff81002000 T tcp_v4_rcv\n"
		"ffffffff81003000 D some_data\n"
		"ffffffff81004000 T default_idle\n"
		"ffffffffc0001000 t veth_xmit\t[veth]\n"
		"ffffffff81000800 T csum_partial\n"
		"ffffffff81005000 T _raw_spin_unlock_irqrestore\n"
		"ffffffff81006000 T try_to_wake_up\n"
		"ffffffff81007000 T asm_sysvec_apic_timer_interrupt\n"
		"ffffffff81008000 t handle_softirqs\n";
	static const char hidden[] =
		"0000000000000000 T _stext\n"
		"0000000000000000 t tcp_v4_rcv\n";
	char path[] = "/tmp/zc-where-XXXXXX", err[256];
	struct where_syms t;
	FILE *f;
	int fd = mkstemp(path);

	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!CHECK(f != NULL, "a temporary kallsyms"))
		return;
	fputs(text, f);
	fclose(f);
	CHECK(where_syms_load(path, &t, err, sizeof(err)) == 0 && t.n == 10 &&
	      strcmp(where_sym_name(&t, where_syms_find(&t, 0xffffffff81006010ull)),
		     "try_to_wake_up") == 0,
	      "kallsyms: the text symbols, data left out (%zu)", t.n);
	CHECK(where_syms_kind(&t, 0xffffffff81001010ull) == WHERE_KCOPY &&
	      where_syms_kind(&t, 0xffffffff81000900ull) == WHERE_KCSUM &&
	      where_syms_kind(&t, 0xffffffff81002fffull) == WHERE_KTCPIP &&
	      where_syms_kind(&t, 0xffffffff81004010ull) == WHERE_KIDLE &&
	      where_syms_kind(&t, 0xffffffffc0001100ull) == WHERE_KDEVICE,
	      "an IP has the kind of the last symbol at or below it, unsorted input");
	CHECK(where_syms_kind(&t, 0x1000) == WHERE_KOTHER, "an IP below every symbol: other");
	where_syms_free(&t);
	f = fopen(path, "w");
	if (f) {
		fputs(hidden, f);
		fclose(f);
	}
	CHECK(where_syms_load(path, &t, err, sizeof(err)) < 0 && strstr(err, "hidden"),
	      "addresses all 0: refused, saying why (%s)", err);
	unlink(path);
	CHECK(where_syms_load("/nonexistent/kallsyms", &t, err, sizeof(err)) < 0,
	      "no kallsyms: refused");
}

int main(void)
{
	test_compute();
	test_prefix();
	test_no_figure();
	test_unseen();
	test_bad_text();
	test_task();
	test_kinds();
	test_syms();
	test_made_up_chains();
	test_real_chains();
	return t_exit();
}
