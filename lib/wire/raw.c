/*
 * Raw IP and raw Ethernet sockets for messages (raw.h).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <netinet/ip.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/err.h"
#include "wire/raw.h"
#include "wire/rr_io.h"
#include "wire/tstamp.h"	/* TSTAMP_CMSG_SPACE */

#define IP_HDR_MAX 60		/* an IPv4 header with every option */
#define FRAME_MAX 65536

/* A raw socket refused: CAP_NET_RAW named, as the user can act on it. */
static int open_failed(const char *what, char *err, size_t errlen)
{
	if (errno == EPERM || errno == EACCES)
		return err_fill(err, errlen, errno, "%s: a raw socket needs CAP_NET_RAW (root)",
				what);
	return err_fill(err, errlen, errno, "%s: socket", what);
}

int raw_ip_open(struct raw_sock *r, int proto, const struct sockaddr_in *peer,
		char *err, size_t errlen)
{
	int pmtu = IP_PMTUDISC_DO, mtu = 0;
	socklen_t len = sizeof(mtu);

	memset(r, 0, sizeof(*r));
	r->kind = RAW_IP;
	r->fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, proto);
	if (r->fd < 0)
		return open_failed("--proto ip", err, errlen);
	if (setsockopt(r->fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu)) < 0)
		goto fail;
	if (peer && connect(r->fd, (const struct sockaddr *)peer, sizeof(*peer)) < 0)
		goto fail;
	/* The route's MTU, known once connected; a server answers anyone: the usual 1500. */
	if (!peer || getsockopt(r->fd, IPPROTO_IP, IP_MTU, &mtu, &len) < 0)
		mtu = 1500;
	r->mtu = (size_t)mtu - sizeof(struct iphdr);
	return 0;
fail:
	err_fill(err, errlen, errno, "--proto ip: %s", peer ? "connect" : "set-up");
	raw_close(r);
	return -1;
}

/* ifname's index, hardware address and MTU into r; -1 with err. */
static int interface_of(struct raw_sock *r, const char *ifname, char *err, size_t errlen)
{
	struct ifreq ifr;

	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return err_fill(err, errlen, ENAMETOOLONG, "--ifname %s", ifname);
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname));
	if (ioctl(r->fd, SIOCGIFINDEX, &ifr) < 0)
		return err_fill(err, errlen, errno, "interface %s", ifname);
	r->ifindex = ifr.ifr_ifindex;
	if (ioctl(r->fd, SIOCGIFHWADDR, &ifr) < 0)
		return err_fill(err, errlen, errno, "interface %s: its hardware address", ifname);
	memcpy(r->own_mac, ifr.ifr_hwaddr.sa_data, RAW_MAC_LEN);
	if (ioctl(r->fd, SIOCGIFMTU, &ifr) < 0)
		return err_fill(err, errlen, errno, "interface %s: its MTU", ifname);
	r->mtu = (size_t)ifr.ifr_mtu;
	return 0;
}

int raw_packet_open(struct raw_sock *r, const char *ifname, uint16_t ethertype,
		    char *err, size_t errlen)
{
	struct sockaddr_ll ll = { .sll_family = AF_PACKET, .sll_protocol = htons(ethertype) };

	memset(r, 0, sizeof(*r));
	r->kind = RAW_PACKET;
	r->ethertype = ethertype;
	r->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ethertype));
	if (r->fd < 0)
		return open_failed("--proto packet", err, errlen);
	if (interface_of(r, ifname, err, errlen) < 0) {
		raw_close(r);
		return -1;
	}
	ll.sll_ifindex = r->ifindex;
	if (bind(r->fd, (struct sockaddr *)&ll, sizeof(ll)) < 0) {
		err_fill(err, errlen, errno, "--proto packet: bind to %s", ifname);
		raw_close(r);
		return -1;
	}
	return 0;
}

ssize_t raw_send(const struct raw_sock *r, const void *buf, size_t len,
		 const struct raw_peer *to, char *err, size_t errlen)
{
	unsigned char frame[FRAME_MAX];
	struct sockaddr_ll ll = { .sll_family = AF_PACKET, .sll_halen = RAW_MAC_LEN };
	uint16_t type = htons(r->ethertype);
	ssize_t n;

	if (r->kind == RAW_IP) {
		n = to ? sendto(r->fd, buf, len, 0, (const struct sockaddr *)&to->ip, sizeof(to->ip)) :
			 send(r->fd, buf, len, 0);
		return n < 0 ? err_fill(err, errlen, errno, "--proto ip: send") : n;
	}
	if (len > sizeof(frame) - RAW_ETH_HLEN)
		return err_fill(err, errlen, EMSGSIZE, "--proto packet: a frame of %zu bytes", len);
	memcpy(frame, to->mac, RAW_MAC_LEN);
	memcpy(frame + RAW_MAC_LEN, r->own_mac, RAW_MAC_LEN);
	memcpy(frame + (size_t)2 * RAW_MAC_LEN, &type, sizeof(type));
	memcpy(frame + RAW_ETH_HLEN, buf, len);
	ll.sll_ifindex = r->ifindex;
	ll.sll_protocol = type;
	memcpy(ll.sll_addr, to->mac, RAW_MAC_LEN);
	n = sendto(r->fd, frame, len + RAW_ETH_HLEN, 0, (struct sockaddr *)&ll, sizeof(ll));
	if (n < 0)
		return err_fill(err, errlen, errno, "--proto packet: send");
	return n - RAW_ETH_HLEN;
}

/* A raw IP packet's payload: its header (ihl words) taken off; 0 when cut short. */
static ssize_t ip_payload(unsigned char *pkt, size_t n, void *buf, size_t len, int *cut)
{
	size_t hl = n ? (size_t)(pkt[0] & 0x0f) * 4 : 0;

	if (n < sizeof(struct iphdr) || hl < sizeof(struct iphdr) || hl > n)
		return 0;
	*cut = n - hl > len;
	memcpy(buf, pkt + hl, *cut ? len : n - hl);
	return *cut ? (ssize_t)len : (ssize_t)(n - hl);
}

/* The payload of the n bytes of pkt that recvmsg took into buf, as raw_recv says. */
static ssize_t payload(const struct raw_sock *r, unsigned char *pkt, size_t n,
		       const struct sockaddr_ll *ll, void *buf, size_t len, int *cut)
{
	if (r->kind == RAW_IP)
		return ip_payload(pkt, n, buf, len, cut);
	if (ll->sll_pkttype == PACKET_OUTGOING || n < RAW_ETH_HLEN)
		return 0;
	n -= RAW_ETH_HLEN;
	*cut = n > len;
	memcpy(buf, pkt + RAW_ETH_HLEN, *cut ? len : n);
	return *cut ? (ssize_t)len : (ssize_t)n;
}

ssize_t raw_recv(const struct raw_sock *r, void *buf, size_t len, int flags,
		 struct raw_peer *from, int *cut, struct rr_io_ctl *ctl, char *err,
		 size_t errlen)
{
	unsigned char pkt[FRAME_MAX];
	char control[TSTAMP_CMSG_SPACE];
	struct sockaddr_ll ll = { 0 };
	struct sockaddr_in in = { 0 };
	struct iovec iov = { .iov_base = pkt, .iov_len = sizeof(pkt) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_name = r->kind == RAW_IP ? (void *)&in : (void *)&ll,
			      .msg_namelen = r->kind == RAW_IP ? sizeof(in) : sizeof(ll) };
	uint64_t t0 = ctl && ctl->calls ? now_ns() : 0;
	ssize_t n;

	if (ctl && ctl->stamps) {
		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
	}
	n = recvmsg(r->fd, &msg, flags);
	*cut = 0;
	if (n < 0)
		return err_fill(err, errlen, errno, "--proto %s: receive",
				r->kind == RAW_IP ? "ip" : "packet");
	if (from && r->kind == RAW_IP)
		from->ip = in;
	else if (from && (size_t)n >= RAW_ETH_HLEN)
		memcpy(from->mac, pkt + RAW_MAC_LEN, RAW_MAC_LEN);
	n = payload(r, pkt, (size_t)n, &ll, buf, len, cut);
	if (n > 0)
		rr_io_took(ctl, &msg, t0);
	return n;
}

/* "00:11:22:aa:bb:cc" into mac: 0, or -1. */
static int mac_parse(const char *s, unsigned char mac[RAW_MAC_LEN])
{
	char *end;
	unsigned long v;

	for (int i = 0; i < RAW_MAC_LEN; i++) {
		if (!isxdigit((unsigned char)*s))
			return -1;
		v = strtoul(s, &end, 16);
		if (v > 0xff || end == s || *end != (i == RAW_MAC_LEN - 1 ? '\0' : ':'))
			return -1;
		mac[i] = (unsigned char)v;
		s = end + 1;
	}
	return 0;
}

int raw_neigh_parse(const char *text, struct in_addr ip, const char *ifname,
		    unsigned char mac[RAW_MAC_LEN])
{
	char addr[64], hw[64], dev[IF_NAMESIZE + 1], line[256];
	char type[16], flags[16];
	struct in_addr a;
	const char *p = text + strcspn(text, "\n");	/* the first line heads the columns */
	size_t n;

	while (*p && *++p) {
		n = strcspn(p, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), p);
		p += n;
		/* address, HW type, flags (0x2: ATF_COM, complete), HW address, mask, device */
		if (sscanf(line, "%63s %15s %15s %63s %*s %16s", addr, type, flags, hw, dev) == 5 &&
		    inet_pton(AF_INET, addr, &a) == 1 && a.s_addr == ip.s_addr &&
		    strcmp(dev, ifname) == 0 && (strtoul(flags, NULL, 16) & 0x2) &&
		    mac_parse(hw, mac) == 0)
			return 0;
	}
	return -1;
}

/* The neighbour table read once (its first 64 KiB: a few hundred entries): 0 with mac, or -1. */
static int neigh_now(struct in_addr ip, const char *ifname, unsigned char mac[RAW_MAC_LEN])
{
	static char text[65536];
	FILE *f = fopen("/proc/net/arp", "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return raw_neigh_parse(text, ip, ifname, mac);
}

int raw_neigh(struct in_addr ip, const char *ifname, unsigned char mac[RAW_MAC_LEN],
	      int wait_ms, char *err, size_t errlen)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9), .sin_addr = ip };
	struct timespec ms = { 0, 1000000 };
	char shown[INET_ADDRSTRLEN];
	int fd;

	if (neigh_now(ip, ifname, mac) == 0)
		return 0;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {	/* the discard port: the kernel resolves the address to send it */
		sendto(fd, "", 0, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof(to));
		close(fd);
	}
	for (int i = 0; i < wait_ms; i++) {
		if (neigh_now(ip, ifname, mac) == 0)
			return 0;
		nanosleep(&ms, NULL);
	}
	inet_ntop(AF_INET, &ip, shown, sizeof(shown));
	return err_fill(err, errlen, EHOSTUNREACH, "--proto packet: no hardware address for %s "
			"on %s in the neighbour table", shown, ifname);
}

const char *raw_ip_proto_why(int p)
{
	static const struct { int p; const char *name; } taken[] = {
		{ 0, "IPv6 hop-by-hop options'" }, { 1, "ICMP's" }, { 2, "IGMP's" },
		{ 4, "IP in IP's" }, { 6, "TCP's" }, { 17, "UDP's" }, { 41, "IPv6 in IPv4's" },
		{ 47, "GRE's" }, { 50, "IPsec ESP's" }, { 51, "IPsec AH's" },
		{ 58, "ICMPv6's" }, { 103, "PIM's" }, { 108, "IP compression's" },
		{ 112, "VRRP's" }, { 115, "L2TP's" }, { 132, "SCTP's" }, { 136, "UDP-Lite's" },
		{ 137, "MPLS in IP's" }, { 255, "reserved" },
	};

	if (p < 0 || p > 255)
		return "out of 0..255";
	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		if (taken[i].p == p)
			return taken[i].name;
	return NULL;
}

void raw_close(struct raw_sock *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}
