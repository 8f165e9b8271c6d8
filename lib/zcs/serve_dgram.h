/*
 * zcs's datagram ends for request/response (lib/zcs/serve_udp.h answers
 * on them): the UDP socket beside the TCP listener, always, and with
 * --proto ip a raw IP socket of --ip-proto's protocol on every address,
 * or with --proto packet a packet socket of zc's EtherType on --ifname
 * (lib/wire/raw.h). A message's source is its reply address: a UDP
 * socket's, a raw IP packet's, or a frame's source MAC (kept as a
 * sockaddr_ll holding that MAC alone).
 */
#ifndef ZC_ZCS_SERVE_DGRAM_H
#define ZC_ZCS_SERVE_DGRAM_H

#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "wire/raw.h"

struct serve_dg {
	int proto;		/* RR_UDP, RR_IP or RR_PACKET (lib/wire/rr_proto.h) */
	int fd;			/* -1: none */
	struct raw_sock raw;	/* RR_IP, RR_PACKET */
	size_t max;		/* the largest message it carries */
	uint64_t foreign;	/* packets not of a flow served, or cut short */
};

/* What zcs's command line says of its raw end (zcs.c's settings). */
struct serve_raw_cfg {
	int proto;		/* --proto: RR_IP or RR_PACKET; 0: none */
	int ip_proto;		/* --ip-proto; 0: RAW_IP_PROTO */
	const char *ifname;	/* --ifname */
};

/* serve_dg_udp - d: the UDP socket on listen_fd's address and port; -1 with err. */
int serve_dg_udp(struct serve_dg *d, int listen_fd, char *err, size_t errlen);

/* serve_dg_raw - d: the raw end rc asks for, non-blocking; -1 with err. */
int serve_dg_raw(struct serve_dg *d, const struct serve_raw_cfg *rc, char *err,
		 size_t errlen);

/*
 * serve_dg_recv - the next message waiting on d into buf (a longer one:
 * more than len) and its source; 0: a packet that is none of ours to read
 * (a packet socket's own frame); -1 with errno (EAGAIN: none waiting).
 */
ssize_t serve_dg_recv(struct serve_dg *d, void *buf, size_t len,
		      struct sockaddr_storage *from, socklen_t *fromlen);

/* serve_dg_send - buf to a source serve_dg_recv gave, not waiting: 0, or -1. */
int serve_dg_send(const struct serve_dg *d, const void *buf, size_t len,
		  const struct sockaddr_storage *to, socklen_t tolen);

/* serve_dg_name - a source as a line names it: "10.0.0.1", "02:00:..:01". */
void serve_dg_name(const struct sockaddr_storage *from, socklen_t fromlen, char *buf,
		   size_t len);

/* serve_dg_close - d's socket closed. */
void serve_dg_close(struct serve_dg *d);

#endif
