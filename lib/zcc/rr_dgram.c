/*
 * The datagram a request/response connection speaks (lib/zcc/rr_internal.h),
 * chosen once when it connects: a connected UDP socket, a raw IP socket
 * connected to the server, or a packet socket on the interface that
 * routes to it (lib/wire/raw.h). The hello, the requests, the answers
 * and the bye go through rr_dgram_send and rr_dgram_recv alone, so the
 * rest of lib/zcc/conn_rr_udp.c and rr_far.c never names a protocol.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/err.h"
#include "wire/addr.h"
#include "wire/rr_io.h"
#include "zcc/rr_internal.h"

#define NEIGH_WAIT_MS 1000	/* the server's MAC: the neighbour table asked this long */

/* The server's IPv4 address: 0, or -1 with err (a raw protocol here is IPv4's). */
static int server_v4(const struct send_cfg *cfg, struct sockaddr_in *to, char *err,
		     size_t errlen)
{
	struct addrinfo *res, *ai;
	char bare[NI_MAXHOST];
	const char *name = addr_unbracket(cfg->host, bare, sizeof(bare), err, errlen);
	int rc;

	if (!name)
		return -1;
	rc = addr_resolve(name, NULL, &res);
	if (rc)
		return addr_resolve_failed(cfg->host, rc, err, errlen);
	for (ai = res; ai && ai->ai_family != AF_INET; ai = ai->ai_next)
		;
	if (ai)
		memcpy(to, ai->ai_addr, sizeof(*to));
	freeaddrinfo(res);
	if (!ai)
		return err_fill(err, errlen, EAFNOSUPPORT, "%s: raw IP and raw Ethernet speak "
				"IPv4: no IPv4 address", cfg->host);
	return 0;
}

/* The interface whose address routes to to, into ifname: 0, or -1 with err. */
static int route_ifname(const struct sockaddr_in *to, char ifname[IF_NAMESIZE], char *err,
			size_t errlen)
{
	struct sockaddr_in here = { 0 }, dst = *to;
	socklen_t len = sizeof(here);
	struct ifaddrs *all, *i;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc = -1;

	dst.sin_port = htons(9);
	if (fd < 0 || connect(fd, (struct sockaddr *)&dst, sizeof(dst)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&here, &len) < 0 || getifaddrs(&all) < 0) {
		err_fill(err, errlen, errno, "--proto packet: the route to the server");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	for (i = all; i && rc < 0; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
		    ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr == here.sin_addr.s_addr)
			rc = snprintf(ifname, IF_NAMESIZE, "%s", i->ifa_name) > 0 ? 0 : -1;
	freeifaddrs(all);
	if (rc < 0)
		return err_fill(err, errlen, ENODEV, "--proto packet: no interface holds the "
				"address that routes to the server: give --ifname");
	return 0;
}

/* A packet socket on the route's interface (or --ifname), the server's MAC: its fd. */
static int packet_connect(struct conn *c, struct rr_dgram *d, const struct sockaddr_in *to,
			  char *err, size_t errlen)
{
	const char *ifname = rr_settings_of()->ifname;
	char routed[IF_NAMESIZE];

	if (!ifname && route_ifname(to, routed, err, errlen) < 0)
		return -1;
	ifname = ifname ? ifname : routed;
	if (raw_packet_open(&d->raw, ifname, RAW_ETHERTYPE, err, errlen) < 0)
		return -1;
	if (raw_neigh(to->sin_addr, ifname, d->to.mac, NEIGH_WAIT_MS, err, errlen) < 0) {
		raw_close(&d->raw);
		return -1;
	}
	snprintf(c->peer, sizeof(c->peer), "%s on %s", c->sd->cfg->host, ifname);
	return d->raw.fd;
}

int rr_dgram_connect(struct conn *c, char *err, size_t errlen)
{
	const struct rr_cfg *rc = rr_settings_of();
	struct rr_dgram *d = &rr_work_of(c)->dg;
	struct sockaddr_in to = { 0 };
	int fd;

	d->proto = rc->proto;
	d->raw.fd = -1;
	if (d->proto == RR_UDP)
		return rr_udp_connect(c, err, errlen);
	if (server_v4(c->sd->cfg, &to, err, errlen) < 0)
		return -1;
	if (d->proto == RR_PACKET) {
		fd = packet_connect(c, d, &to, err, errlen);
	} else {
		fd = raw_ip_open(&d->raw, rc->ip_proto ? rc->ip_proto : RAW_IP_PROTO, &to, err,
				 errlen) < 0 ? -1 : d->raw.fd;
		snprintf(c->peer, sizeof(c->peer), "%s protocol %d", c->sd->cfg->host,
			 rc->ip_proto ? rc->ip_proto : RAW_IP_PROTO);
	}
	if (fd >= 0 && rc->req_bytes > d->raw.mtu) {
		err_fill(err, errlen, EMSGSIZE, "%s: -b %" PRIu32 " is above the %zu bytes a "
			 "packet holds on the path (its MTU's payload)", c->peer, rc->req_bytes,
			 d->raw.mtu);
		raw_close(&d->raw);
		return -1;
	}
	return fd;
}

int rr_dgram_send(const struct conn *c, const void *buf, size_t len)
{
	struct rr_dgram *d = &rr_work_of(c)->dg;
	char err[8];

	if (d->proto == RR_UDP)
		return send(c->t.sock, buf, len, 0) < 0 ? -1 : 0;
	if (__atomic_load_n(c->cancel, __ATOMIC_RELAXED)) {
		errno = ESHUTDOWN;	/* a packet socket cannot be shut: as if it were */
		return -1;
	}
	return raw_send(&d->raw, buf, len, d->proto == RR_PACKET ? &d->to : NULL, err,
			sizeof(err)) < 0 ? -1 : 0;
}

ssize_t rr_dgram_recv(const struct conn *c, void *buf, size_t len, struct rr_io_ctl *ctl)
{
	struct rr_work *w = rr_work_of(c);
	struct rr_dgram *d = &w->dg;
	char err[8];
	int cut;
	ssize_t n;

	if (d->proto == RR_UDP)
		return rr_recv_one(c->t.sock, buf, len, MSG_TRUNC, ctl);
	n = raw_recv(&d->raw, buf, len, MSG_DONTWAIT, NULL, &cut, ctl, err, sizeof(err));
	/* Stopped: as a shut socket, what is there first, then the end. */
	if (n < 0 && errno == EAGAIN)
		return __atomic_load_n(c->cancel, __ATOMIC_RELAXED) ? 0 : RR_DG_NONE;
	if (n < 0 || n > 0)
		return n;
	return RR_DG_NONE;	/* a packet socket's own frame, or a header cut short */
}
