/*
 * What the interface carrying a connection is set to, and the network
 * sysctls every TCP connection of this network namespace obeys: the part
 * of the environment record (lib/app/env_out.h) a figure of zcc or zcs
 * depends on besides the machine. Read through SIOCETHTOOL, SIOCGIFMTU,
 * an rtnetlink dump of the qdiscs and /sys, /proc/sys: no library.
 *
 * Nothing here is guessed: what the kernel does not say (loopback has no
 * driver or link speed; a single-queue device no XPS mask) stays unknown,
 * "" for a text and -1 for a number or a flag.
 */
#ifndef ZC_IFINFO_H
#define ZC_IFINFO_H

#include <net/if.h>

/* The offloads named in the record, in this order (ifinfo_offload_names). */
enum if_offload {
	IF_TSO, IF_GSO, IF_GRO, IF_SG, IF_TX_CSUM, IF_RX_CSUM,
	IF_N_OFFLOADS
};

struct if_info {
	char name[IF_NAMESIZE];
	char driver[36];		/* ETHTOOL_GDRVINFO */
	int mtu;			/* SIOCGIFMTU */
	long long speed_mbps;		/* ETHTOOL_GLINKSETTINGS */
	int offload[IF_N_OFFLOADS];	/* 1 on, 0 off */
	char qdisc[32];			/* the root qdisc's kind (TCA_KIND) */
	char rps_cpus[80];		/* queues/rx-0/rps_cpus, a hex mask */
	char xps_cpus[80];		/* queues/tx-0/xps_cpus */
};

/* The sysctls of the namespace: net.ipv4.tcp_* and net.core.*mem_max. */
struct net_sysctls {
	char congestion[32];		/* tcp_congestion_control */
	char tcp_rmem[64], tcp_wmem[64];	/* "min default max", one space each */
	long long rmem_max, wmem_max;
};

/* ifinfo_offload_names - "tso", "gso", "gro", "sg", "tx_csum", "rx_csum". */
extern const char *const ifinfo_offload_names[IF_N_OFFLOADS];

/*
 * ifinfo_read - what can be read of interface name into *info (name set,
 * every other field known or left unknown). -1 with err only when no
 * socket can be had to ask with.
 */
int ifinfo_read(const char *name, struct if_info *info, char *err, size_t errlen);

/* ifinfo_qdisc - the kind of name's root qdisc (an rtnetlink dump) into
 * kind; -1 with err when it cannot be read. */
int ifinfo_qdisc(const char *name, char *kind, size_t len, char *err, size_t errlen);

/* net_sysctls_read - every sysctl of *s that can be read; the rest unknown. */
void net_sysctls_read(struct net_sysctls *s);

#endif
