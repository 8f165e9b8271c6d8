/*
 * Where the CPU went: the meter says how much load there was; this
 * says what kind of work it was, on which CPU, with what network traffic,
 * and in which kernel functions.
 *
 * A snapshot (where_take) holds counters as they stand: /proc/stat per CPU,
 * the soakers' own user time, /proc/softirqs' NET_RX and NET_TX per CPU,
 * the interrupt total, packets per interface (/proc/net/dev) and the kernel
 * samples taken so far by kind. Two snapshots and the meter's load for the
 * same period make a report (where_compute): every figure a delta.
 *
 * The soakers run at nice 19, so /proc/stat puts their time in the "nice"
 * column; other work at a positive nice is there too and is real load, so
 * the soakers' own user time (/proc/PID/stat) is taken out of that column
 * rather than the whole column dropped. Their system time stays in: a
 * soaker never enters the kernel on its own, so what /proc/stat charges to
 * them as system, irq or softirq is interrupt work that ran on their time,
 * and the meter counts it as load too. Likewise their samples are dropped
 * only in user mode.
 *
 * Like every function below lib/app these return -1 with a "what: why"
 * text in err and never exit; the report's lines are lib/app/where_out.h's.
 */
#ifndef ZC_WHERE_H
#define ZC_WHERE_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#define WHERE_MAX_CPUS 256
#define WHERE_MAX_IFS 64
#define WHERE_IF_NAME 48	/* "NAMESPACE/ifname" for another namespace's */

/* The load's classes, as /proc/stat splits CPU time. */
enum where_class {
	WHERE_USER,		/* user and nice, less the soakers' own */
	WHERE_SYSTEM,
	WHERE_IRQ,
	WHERE_SOFTIRQ,
	WHERE_STEAL,		/* taken by the hypervisor */
	WHERE_CLASSES
};

/*
 * Kernel work by kind: the eight of "Understanding Host Network Stack
 * Overheads" (Cai et al., SIGCOMM 2021), named beside each, and four more.
 * WHERE_KUSER is user mode, for the sum to be 100.
 */
enum where_kind {
	WHERE_KCOPY,		/* data copy: to and from user space, memcpy */
	WHERE_KCSUM,		/* checksums (the paper counts them in tcp/ip) */
	WHERE_KTCPIP,		/* tcp/ip: TCP, UDP, IP, sockets, netfilter */
	WHERE_KDEVICE,		/* netdevice: devices, qdiscs, NAPI, drivers */
	WHERE_KSKB,		/* skb management: build, clone, free skbs */
	WHERE_KMEM,		/* memory alloc/dealloc: pages, slab, faults */
	WHERE_KPAGECACHE,	/* the page cache, files' read path, splice */
	WHERE_KLOCK,		/* lock/unlock: spin locks, mutexes, socket lock */
	WHERE_KSCHED,		/* scheduling: switches, wakeups, timers, IPIs */
	WHERE_KSYSCALL,		/* system-call entry and exit, fd and path lookup */
	WHERE_KOTHER,		/* etc.: none of the above */
	WHERE_KUSER,		/* user mode (not a kernel kind) */
	WHERE_KINDS,
	WHERE_KIDLE = WHERE_KINDS	/* the idle loop: no load, not shown */
};

/* The symbols that fell into other, by samples: the top few are named. */
#define WHERE_OTHER_SLOTS 509	/* a prime: an open-addressed table */
#define WHERE_OTHER_TOP 5

extern const char *const where_class_name[WHERE_CLASSES];	/* "user"... */
extern const char *const where_kind_name[WHERE_KINDS];		/* "copy"... */

/* What a snapshot holds: counters as they stood at ns. */
struct where_snap {
	uint64_t ns;				/* CLOCK_MONOTONIC */
	int ncpus;				/* highest cpuN of /proc/stat + 1 */
	/* user nice system idle iowait irq softirq steal, USER_HZ ticks */
	uint64_t tick[WHERE_MAX_CPUS][8];
	int nsoak;
	uint64_t soak_user[WHERE_MAX_CPUS];	/* each soaker's user ticks */
	int soak_cpu[WHERE_MAX_CPUS];		/* and the CPU it runs on */
	uint64_t intr;				/* device interrupts so far */
	uint64_t net_rx[WHERE_MAX_CPUS], net_tx[WHERE_MAX_CPUS];
	int nifs;
	struct {
		char name[WHERE_IF_NAME];
		uint64_t rx, tx;
		uint64_t rx_drop, tx_drop, errs;	/* dropped each way; errors both */
		int super;		/* TSO, GSO or GRO on: super-packets */
	} ifs[WHERE_MAX_IFS];
	char unseen[256];	/* namespaces whose counters could not be read */
	int unseen_more;	/* and how many more than the line holds */
	uint64_t kind[WHERE_KINDS + 1];		/* samples by kind, idle last */
	uint64_t kind_cpu[WHERE_MAX_CPUS][WHERE_KINDS + 1];	/* the same by CPU */
	uint64_t lost;				/* samples the ring dropped */
	/* Cumulative samples of each symbol charged to other; a slot keeps
	 * its symbol for the sampler's life, so two snapshots subtract. */
	struct { const char *name; uint64_t n; } other[WHERE_OTHER_SLOTS];
};

/* One CPU's figures over a period. */
struct where_cpu {
	int online;			/* it ticked in the period */
	double load_pct;		/* of this CPU, soakers left out */
	double softirq_pct;		/* of this CPU */
	double class_pct[WHERE_CLASSES];	/* of this CPU, soakers left out */
	double net_rx_per_sec, net_tx_per_sec;	/* softirqs */
	uint64_t samples;		/* this CPU's non-idle, non-soaker */
	double kind_pct[WHERE_KINDS];	/* of those: which kernel work ran here */
};

/* Packets on one interface over a period. */
struct where_if {
	char name[WHERE_IF_NAME];
	double rx_per_sec, tx_per_sec;
	uint64_t rx_dropped, tx_dropped, errors;	/* over the period */
	int super;			/* counts super-packets (TSO, GSO, GRO) */
};

struct where_report {
	double secs;
	int ncpus;			/* CPUs in /proc/stat */
	double load_pct;		/* the meter's, NAN: not given */
	double class_pct[WHERE_CLASSES];	/* of the machine */
	double unattributed_pct;	/* load less the classes; NAN: no load */
	double class_us_per_kb[WHERE_CLASSES];	/* NAN: no bytes given */
	double unattributed_us_per_kb;
	struct where_cpu cpu[WHERE_MAX_CPUS];
	double intr_per_sec;		/* device interrupts */
	int nifs;
	struct where_if ifs[WHERE_MAX_IFS];
	double us_per_packet;		/* busy CPU time per packet; NAN: none */
	double intr_per_packet;		/* device interrupts per packet (coalescence); NAN: none */
	double bytes_per_call;		/* where_calls; NAN: not given */
	int rx_unseen;			/* NET_RX ran, yet no packets seen */
	char unseen[256];		/* namespaces not read, and why; "" */
	int sampled;			/* kernel figures below are set */
	uint64_t samples;		/* non-idle, non-soaker samples */
	double kind_pct[WHERE_KINDS];	/* of samples */
	double kind_us_per_kb[WHERE_KINDS];	/* NAN: no bytes given */
	int nother;			/* symbols in other_top */
	struct {
		char name[64];
		double pct;		/* of samples */
	} other_top[WHERE_OTHER_TOP];	/* other's biggest, biggest first */
};

struct where_cfg {
	const int *soakers;	/* PIDs whose user time is left out */
	int nsoakers;
	const char *ifname;	/* the one interface to show; NULL: every one
				   that moved packets */
	int sample;		/* sample kernel work (perf_event_open) */
	int every_netns;	/* also the interfaces of the other network
				   namespaces (ifname NULL) */
};

struct where;			/* opaque */

/*
 * where_open - remember cfg (the soaker PIDs and ifname are copied) and,
 * with cfg->sample, load /proc/kallsyms and start sampling on every CPU.
 * Sampling the kernel refuses (no permission, perf_event_paranoid, hidden
 * kallsyms) is no error: where_sampling_why says why, the rest works. NULL
 * with err filled only when memory or /proc fails.
 */
struct where *where_open(const struct where_cfg *cfg, char *err, size_t errlen);

/*
 * where_open_meter - where_open for what meter m measures: its soakers left
 * out, every interface, kernel work sampled.
 */
struct meter;
struct where *where_open_meter(const struct meter *m, char *err, size_t errlen);

/*
 * where_every_netns - from now on snapshots also count the interfaces of
 * every other network namespace this process can see (cyclesoak).
 */
void where_every_netns(struct where *w);

/* NULL when kernel work is sampled, else why not (one line, no newline). */
const char *where_sampling_why(const struct where *w);

/*
 * where_pause - stop sampling, keep the symbol table: a parent that only
 * forks the processes that measure. where_resume - sample in this process:
 * after where_pause, or in a child forked after where_open, whose copy of
 * the parent's sampling (its rings are shared) it drops first. Nothing when
 * sampling was refused.
 */
void where_pause(struct where *w);
void where_resume(struct where *w);

/*
 * where_take - the counters now into s; -1 with err when /proc fails. Two
 * threads may take snapshots at once (zcc's interval lines and its run's).
 */
int where_take(struct where *w, struct where_snap *s, char *err, size_t errlen);

/*
 * where_compute - the report for the period from a to b: load is the
 * meter's load over it (a fraction; NAN when there is none), bytes what
 * moved (0: no us/KB). ifname as in where_cfg. A pure function.
 */
void where_compute(const struct where_snap *a, const struct where_snap *b,
		   double load, uint64_t bytes, const char *ifname,
		   struct where_report *r);

/*
 * where_calls - the period's data moved in calls system calls (an io_uring
 * submission is one): bytes_per_call, after where_compute.
 */
void where_calls(struct where_report *r, uint64_t bytes, uint64_t calls);

/*
 * where_ifname - the interface that carries a connected socket's traffic,
 * from its local address (loopback addresses: the loopback interface), into
 * name; -1 with err when none is found.
 */
int where_ifname(int sock, char *name, size_t len, char *err, size_t errlen);

/* where_close - stop sampling, free w. Safe on NULL. */
void where_close(struct where *w);

#endif
