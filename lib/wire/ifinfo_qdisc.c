/*
 * The root qdisc of an interface, from an rtnetlink dump of every qdisc
 * (RTM_GETQDISC) on a raw NETLINK_ROUTE socket: the one whose interface
 * index is ours and whose parent is the root, its kind (TCA_KIND: "fq",
 * "fq_codel", "mq", "noqueue", ...).
 */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/err.h"
#include "wire/ifinfo.h"

/* The kind in one RTM_NEWQDISC message, when it is ifindex's root. */
static int root_kind(const struct nlmsghdr *h, int ifindex, char *kind, size_t len)
{
	const struct tcmsg *tc = NLMSG_DATA(h);
	const struct rtattr *a;
	int left;

	if (h->nlmsg_type != RTM_NEWQDISC || h->nlmsg_len < NLMSG_LENGTH(sizeof(*tc)) ||
	    tc->tcm_ifindex != ifindex || tc->tcm_parent != TC_H_ROOT)
		return 0;
	left = (int)h->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*tc));
	for (a = (const struct rtattr *)((const char *)tc + NLMSG_ALIGN(sizeof(*tc)));
	     RTA_OK(a, left); a = RTA_NEXT(a, left)) {
		if (a->rta_type == TCA_KIND && RTA_PAYLOAD(a) > 0) {
			snprintf(kind, len, "%.*s", (int)RTA_PAYLOAD(a), (const char *)RTA_DATA(a));
			return 1;
		}
	}
	return 0;
}

int ifinfo_qdisc(const char *name, char *kind, size_t len, char *err, size_t errlen)
{
	struct {
		struct nlmsghdr h;
		struct tcmsg tc;
	} req = {
		.h = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)),
		       .nlmsg_type = RTM_GETQDISC,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP, .nlmsg_seq = 1 },
	};
	static char buf[32768] __attribute__((aligned(4)));
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int ifindex = (int)if_nametoindex(name), sock, found = 0, done = 0;
	ssize_t n;

	kind[0] = '\0';
	if (ifindex == 0)
		return err_fill(err, errlen, errno, "%s", name);
	sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (sock < 0)
		return err_fill(err, errlen, errno, "a netlink socket");
	req.tc.tcm_family = AF_UNSPEC;
	if (sendto(sock, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0) {
		close(sock);
		return err_fill(err, errlen, errno, "RTM_GETQDISC");
	}
	while (!done && (n = recv(sock, buf, sizeof(buf), 0)) > 0) {
		const struct nlmsghdr *h = (const struct nlmsghdr *)buf;
		int left = (int)n;

		for (; NLMSG_OK(h, (unsigned)left); h = NLMSG_NEXT(h, left)) {
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			if (!found)
				found = root_kind(h, ifindex, kind, len);
		}
	}
	close(sock);
	if (!found)
		return err_fill(err, errlen, 0, "%s: no root qdisc in the dump", name);
	return 0;
}
