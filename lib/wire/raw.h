/*
 * The raw protocols of the timing talk, for request/response and one-way
 * messages beside TCP and UDP: raw IP (PF_INET, SOCK_RAW, a protocol
 * number of zc's own) and raw Ethernet (PF_PACKET, SOCK_RAW frames of an
 * EtherType of zc's own on one interface). The payload is the same as a
 * UDP datagram's (lib/wire/rr_proto.h's hello, ack and messages), so the
 * rest of request/response does not know which carried it.
 *
 * A raw socket sees every packet of its protocol or EtherType on the
 * machine (or the interface), from anyone, its own outgoing frames among
 * them on a packet socket: raw_recv drops what a packet socket sent
 * itself, and the caller tells its own run's messages from the rest
 * (magic, run id, kind) and counts the rest as foreign. Both need
 * CAP_NET_RAW: without it, raw_*_open fails with EPERM and says so.
 *
 * Like the socket helpers, each returns failure with errno set and a
 * "what: why" text in err, and prints nothing.
 */
#ifndef ZC_WIRE_RAW_H
#define ZC_WIRE_RAW_H

#include <netinet/in.h>
#include <net/if.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct rr_io_ctl;

#define RAW_IP_PROTO 253	/* RFC 3692: for experimentation and testing */
#define RAW_ETHERTYPE 0x88b5	/* IEEE 802: local experimental EtherType 1 */
#define RAW_ETH_HLEN 14		/* destination, source, EtherType */
#define RAW_MAC_LEN 6

enum raw_kind { RAW_IP, RAW_PACKET };

/* Where a message goes or came from. */
struct raw_peer {
	struct sockaddr_in ip;			/* RAW_IP */
	unsigned char mac[RAW_MAC_LEN];		/* RAW_PACKET */
};

struct raw_sock {
	enum raw_kind kind;
	int fd;
	int ifindex;				/* RAW_PACKET: the interface */
	uint16_t ethertype;			/* RAW_PACKET */
	unsigned char own_mac[RAW_MAC_LEN];	/* RAW_PACKET: the interface's */
	size_t mtu;				/* the largest payload a message may have */
};

/*
 * raw_ip_open - a raw IP socket for protocol proto (1..254 but the ones
 * the kernel itself speaks: refused by the caller), connected to peer
 * when given (then it takes only what peer sends), else bound to any
 * address (a server). r->mtu: the payload a packet holds on the route's
 * interface, without fragments (IP_PMTUDISC_DO), the IP header taken off.
 */
int raw_ip_open(struct raw_sock *r, int proto, const struct sockaddr_in *peer,
		char *err, size_t errlen);

/*
 * raw_packet_open - a packet socket on interface ifname for frames of
 * ethertype; r->own_mac and r->mtu (the interface's MTU: a frame's
 * payload) filled in.
 */
int raw_packet_open(struct raw_sock *r, const char *ifname, uint16_t ethertype,
		    char *err, size_t errlen);

/* raw_send - one message of len bytes to (for a connected raw IP socket: NULL). */
ssize_t raw_send(const struct raw_sock *r, const void *buf, size_t len,
		 const struct raw_peer *to, char *err, size_t errlen);

/*
 * raw_recv - the next message's payload (its IP or Ethernet header taken
 * off) into buf: its length (a payload longer than len: the first len
 * bytes, *cut set), from's address; 0 for a packet that is none of ours
 * to read (a packet socket's own outgoing frame, a header cut short);
 * -1 with err (EAGAIN with MSG_DONTWAIT in flags: nothing there). Under
 * ctl (lib/wire/rr_io.h; NULL: none) the call is timed and the arrival
 * stamp taken, as rr_recv_one's, when it returns a payload.
 */
ssize_t raw_recv(const struct raw_sock *r, void *buf, size_t len, int flags,
		 struct raw_peer *from, int *cut, struct rr_io_ctl *ctl, char *err,
		 size_t errlen);

/*
 * raw_neigh_parse - in text (the kernel's /proc/net/arp), the hardware
 * address of ip on interface ifname: 0, or -1 when no complete entry
 * holds it.
 */
int raw_neigh_parse(const char *text, struct in_addr ip, const char *ifname,
		    unsigned char mac[RAW_MAC_LEN]);

/*
 * raw_neigh - the hardware address of ip on ifname, from the neighbour
 * table; none yet: one UDP datagram to ip (a port nobody listens on: it
 * asks the kernel to resolve the address) and the table read again, for
 * up to wait_ms. -1 with err naming the address and the interface.
 */
int raw_neigh(struct in_addr ip, const char *ifname, unsigned char mac[RAW_MAC_LEN],
	      int wait_ms, char *err, size_t errlen);

/*
 * raw_ip_proto_why - why IP protocol p is not zc's to use (one the
 * kernel speaks itself, or out of 1..254: "ICMP's", "TCP's"), or NULL.
 */
const char *raw_ip_proto_why(int p);

/* raw_close - the socket closed. */
void raw_close(struct raw_sock *r);

#endif
