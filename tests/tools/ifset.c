/*
 * ifset - turn an interface's offload on or off through SIOCETHTOOL, as
 * ethtool -K does, for the tests of the environment record on machines
 * without ethtool.
 *
 *   ifset IFNAME tso|gso|gro|sg|tx_csum|rx_csum on|off
 *
 * Exit 0 when the kernel took it, 1 when it refused (the reason on one
 * line), 2 on a usage error.
 */
#include <errno.h>
#include <error.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static const struct {
	const char *name;
	unsigned set;
} offloads[] = {
	{ "tso", ETHTOOL_STSO }, { "gso", ETHTOOL_SGSO }, { "gro", ETHTOOL_SGRO },
	{ "sg", ETHTOOL_SSG }, { "tx_csum", ETHTOOL_STXCSUM }, { "rx_csum", ETHTOOL_SRXCSUM },
};

int main(int argc, char **argv)
{
	struct ethtool_value v = { 0 };
	struct ifreq ifr = { 0 };
	unsigned i, cmd = 0;
	int sock;

	if (argc != 4 || (strcmp(argv[3], "on") != 0 && strcmp(argv[3], "off") != 0))
		error(2, 0, "usage: ifset IFNAME tso|gso|gro|sg|tx_csum|rx_csum on|off");
	for (i = 0; i < sizeof(offloads) / sizeof(offloads[0]); i++)
		if (strcmp(offloads[i].name, argv[2]) == 0)
			cmd = offloads[i].set;
	if (!cmd)
		error(2, 0, "%s: not an offload of this tool", argv[2]);
	v.cmd = cmd;
	v.data = strcmp(argv[3], "on") == 0;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", argv[1]);
	ifr.ifr_data = (void *)&v;
	sock = socket(AF_INET, SOCK_DGRAM, 0);
	if (sock < 0)
		error(1, errno, "socket");
	if (ioctl(sock, SIOCETHTOOL, &ifr) < 0)
		error(1, errno, "%s: %s %s", argv[1], argv[2], argv[3]);
	close(sock);
	return 0;
}
