/*
 * zcs's datagram ends (lib/zcs/serve_dgram.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "wire/net.h"
#include "wire/rr_proto.h"
#include "zcs/serve_dgram.h"

int serve_dg_udp(struct serve_dg *d, int listen_fd, char *err, size_t errlen)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t len = sizeof(ss), olen;
	int v6only = 0;

	*d = (struct serve_dg){ .proto = RR_UDP, .fd = -1, .max = RR_UDP_MAX };
	if (getsockname(listen_fd, (struct sockaddr *)&ss, &len) < 0)
		return err_fill(err, errlen, errno, "UDP: the listener's address");
	d->fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (d->fd < 0)
		return err_fill(err, errlen, errno, "UDP socket");
	olen = sizeof(v6only);
	if (ss.ss_family == AF_INET6 &&
	    getsockopt(listen_fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &olen) == 0)
		setsockopt(d->fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
	if (bind(d->fd, (struct sockaddr *)&ss, len) < 0) {
		err_fill(err, errlen, errno, "UDP: bind to the listener's port");
		serve_dg_close(d);
		return -1;
	}
	return d->fd;
}

int serve_dg_raw(struct serve_dg *d, const struct serve_raw_cfg *rc, char *err,
		 size_t errlen)
{
	int rv;

	*d = (struct serve_dg){ .proto = rc->proto, .fd = -1 };
	rv = rc->proto == RR_IP ?
	     raw_ip_open(&d->raw, rc->ip_proto ? rc->ip_proto : RAW_IP_PROTO, NULL, err, errlen) :
	     raw_packet_open(&d->raw, rc->ifname, RAW_ETHERTYPE, err, errlen);
	if (rv < 0)
		return -1;
	d->fd = d->raw.fd;
	d->max = d->raw.mtu;
	if (fcntl(d->fd, F_SETFL, O_NONBLOCK) < 0) {
		err_fill(err, errlen, errno, "--proto: a non-blocking socket");
		serve_dg_close(d);
		return -1;
	}
	return d->fd;
}

ssize_t serve_dg_recv(struct serve_dg *d, void *buf, size_t len,
		      struct sockaddr_storage *from, socklen_t *fromlen)
{
	struct raw_peer p;
	char err[8];
	int cut;
	ssize_t n;

	if (d->proto == RR_UDP) {
		*fromlen = sizeof(*from);
		n = recvfrom(d->fd, buf, len, MSG_DONTWAIT | MSG_TRUNC, (struct sockaddr *)from,
			     fromlen);
		return n;
	}
	n = raw_recv(&d->raw, buf, len, MSG_DONTWAIT, &p, &cut, NULL, err, sizeof(err));
	if (n <= 0)
		return n;
	memset(from, 0, sizeof(*from));
	if (d->proto == RR_IP) {
		memcpy(from, &p.ip, sizeof(p.ip));
		((struct sockaddr_in *)from)->sin_port = 0;
		*fromlen = sizeof(p.ip);
	} else {
		struct sockaddr_ll *ll = (struct sockaddr_ll *)from;

		ll->sll_family = AF_PACKET;
		ll->sll_halen = RAW_MAC_LEN;
		memcpy(ll->sll_addr, p.mac, RAW_MAC_LEN);
		*fromlen = sizeof(*ll);
	}
	return cut ? n + 1 : n;
}

int serve_dg_send(const struct serve_dg *d, const void *buf, size_t len,
		  const struct sockaddr_storage *to, socklen_t tolen)
{
	struct raw_peer p = { 0 };
	char err[8];

	if (d->proto == RR_UDP)
		return sendto(d->fd, buf, len, MSG_DONTWAIT, (const struct sockaddr *)to,
			      tolen) < 0 ? -1 : 0;
	if (d->proto == RR_IP)
		memcpy(&p.ip, to, sizeof(p.ip));
	else
		memcpy(p.mac, ((const struct sockaddr_ll *)to)->sll_addr, RAW_MAC_LEN);
	return raw_send(&d->raw, buf, len, &p, err, sizeof(err)) < 0 ? -1 : 0;
}

void serve_dg_name(const struct sockaddr_storage *from, socklen_t fromlen, char *buf,
		   size_t len)
{
	const unsigned char *m = ((const struct sockaddr_ll *)from)->sll_addr;

	if (from->ss_family != AF_PACKET) {
		net_addr_name((const struct sockaddr *)from, fromlen, buf, len);
		return;
	}
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

void serve_dg_close(struct serve_dg *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = d->raw.fd = -1;
}
