/*
 * The interface's settings through SIOCETHTOOL and SIOCGIFMTU, its queue
 * masks and the namespace's sysctls from /sys and /proc/sys. The legacy
 * one-feature ethtool commands (ETHTOOL_GTSO and kin) are used for the
 * offloads: every kernel since 2.6 answers them for every device,
 * loopback included, from the device's feature bits.
 */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/err.h"
#include "base/textfile.h"
#include "wire/ifinfo.h"

const char *const ifinfo_offload_names[IF_N_OFFLOADS] = {
	"tso", "gso", "gro", "sg", "tx_csum", "rx_csum",
};

static const unsigned offload_cmd[IF_N_OFFLOADS] = {
	ETHTOOL_GTSO, ETHTOOL_GGSO, ETHTOOL_GGRO, ETHTOOL_GSG,
	ETHTOOL_GTXCSUM, ETHTOOL_GRXCSUM,
};

/* One SIOCETHTOOL request of name on sock; -1/errno. */
static int ethtool(int sock, const char *name, void *cmd)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_data = cmd;
	return ioctl(sock, SIOCETHTOOL, &ifr);
}

/*
 * The link speed in Mbit/s, -1 when the device has none to give (loopback)
 * or does not know it (a link that is down). ETHTOOL_GLINKSETTINGS first
 * asks how many words the link mode masks take, then reads; a kernel
 * before 4.6 has only ETHTOOL_GSET.
 */
static long long link_speed(int sock, const char *name)
{
	/*
	 * The request ends in a flexible array (three masks of up to 127
	 * words each follow it): a union sizes the buffer for them and keeps
	 * the struct last, as C wants of a struct with a flexible array.
	 */
	enum { MASK_WORDS = 3 * 127 };
	union {
		struct ethtool_link_settings req;
		__u32 words[sizeof(struct ethtool_link_settings) / sizeof(__u32) + MASK_WORDS];
	} ls;
	struct ethtool_cmd old = { .cmd = ETHTOOL_GSET };
	__u32 speed;

	memset(&ls, 0, sizeof(ls));
	ls.req.cmd = ETHTOOL_GLINKSETTINGS;
	if (ethtool(sock, name, &ls) == 0 && ls.req.link_mode_masks_nwords < 0) {
		ls.req.link_mode_masks_nwords = (__s8)-ls.req.link_mode_masks_nwords;
		ls.req.cmd = ETHTOOL_GLINKSETTINGS;
		if (ethtool(sock, name, &ls) < 0)
			return -1;
		speed = ls.req.speed;
	} else if (errno == EOPNOTSUPP && ethtool(sock, name, &old) == 0) {
		speed = ethtool_cmd_speed(&old);
	} else {
		return -1;
	}
	return speed == (__u32)SPEED_UNKNOWN || speed == 0 ? -1 : (long long)speed;
}

static void queue_mask(const char *name, const char *file, char *buf, size_t len)
{
	char path[160];

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues/%s", name, file);
	textfile_line(path, buf, len);	/* "" when unreadable: unknown */
}

int ifinfo_read(const char *name, struct if_info *info, char *err, size_t errlen)
{
	struct ethtool_drvinfo drv = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr = { 0 };
	char qerr[256];
	int sock, i;

	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "%s", name);
	info->mtu = -1;
	info->speed_mbps = -1;
	for (i = 0; i < IF_N_OFFLOADS; i++)
		info->offload[i] = -1;
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		sock = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return err_fill(err, errlen, errno, "a socket to ask about %s", name);
	if (ethtool(sock, name, &drv) == 0 && drv.driver[0])
		snprintf(info->driver, sizeof(info->driver), "%.*s",
			 (int)sizeof(drv.driver), drv.driver);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(sock, SIOCGIFMTU, &ifr) == 0)
		info->mtu = ifr.ifr_mtu;
	info->speed_mbps = link_speed(sock, name);
	for (i = 0; i < IF_N_OFFLOADS; i++) {
		struct ethtool_value v = { .cmd = offload_cmd[i] };

		if (ethtool(sock, name, &v) == 0)
			info->offload[i] = v.data != 0;
	}
	close(sock);
	if (ifinfo_qdisc(name, info->qdisc, sizeof(info->qdisc), qerr, sizeof(qerr)) < 0)
		info->qdisc[0] = '\0';
	queue_mask(name, "rx-0/rps_cpus", info->rps_cpus, sizeof(info->rps_cpus));
	queue_mask(name, "tx-0/xps_cpus", info->xps_cpus, sizeof(info->xps_cpus));
	return 0;
}

void net_sysctls_read(struct net_sysctls *s)
{
	/* An unreadable one is left "" by textfile_line: unknown. */
	textfile_line("/proc/sys/net/ipv4/tcp_congestion_control", s->congestion,
		      sizeof(s->congestion));
	textfile_line("/proc/sys/net/ipv4/tcp_rmem", s->tcp_rmem, sizeof(s->tcp_rmem));
	textfile_line("/proc/sys/net/ipv4/tcp_wmem", s->tcp_wmem, sizeof(s->tcp_wmem));
	s->rmem_max = textfile_num("/proc/sys/net/core/rmem_max");
	s->wmem_max = textfile_num("/proc/sys/net/core/wmem_max");
}
