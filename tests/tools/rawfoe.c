/*
 * rawfoe - a foreign sender on zc's raw protocols, for zcs --proto ip and
 * --proto packet: COUNT packets, one a millisecond, each of them not a
 * run zcs serves. In turn: a request of another run id (stamped, 200
 * bytes), a hello's worth of zeros, and a packet cut short (10 bytes).
 *
 *   rawfoe ip ADDR COUNT [PROTO]   raw IP to ADDR, protocol PROTO (253)
 *   rawfoe packet IFNAME COUNT     raw Ethernet frames of zc's EtherType
 *                                  to the broadcast address on IFNAME
 *
 * Prints "sending" before the first and "sent N" after the last, each
 * flushed at once.
 */
#include <arpa/inet.h>
#include <error.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wire/raw.h"
#include "wire/rr_proto.h"

/* The i-th foreign packet into buf: its length. */
static size_t foreign(unsigned char *buf, unsigned long i)
{
	memset(buf, 0, 200);
	switch (i % 3) {
	case 0:
		rr_msg_encode(buf, &(struct rr_msg){ .kind = RR_REQUEST, .run = 0xf0e1d2c3,
						     .flow = 0, .length = 200, .seq = i });
		return 200;
	case 1:
		return RR_HELLO_LEN;
	default:
		return 10;
	}
}

int main(int argc, char **argv)
{
	struct timespec ms = { 0, 1000000 };
	struct raw_sock r;
	struct raw_peer to = { .ip = { .sin_family = AF_INET } };
	unsigned char buf[200];
	char err[256];
	unsigned long n, i;
	int rc;

	if (argc < 4 || (strcmp(argv[1], "ip") != 0 && strcmp(argv[1], "packet") != 0))
		error(2, 0, "usage: rawfoe ip ADDR COUNT [PROTO] | rawfoe packet IFNAME COUNT");
	n = strtoul(argv[3], NULL, 10);
	if (argv[1][0] == 'i') {
		if (inet_pton(AF_INET, argv[2], &to.ip.sin_addr) != 1)
			error(2, 0, "%s: not an IPv4 address", argv[2]);
		rc = raw_ip_open(&r, argc > 4 ? (int)strtol(argv[4], NULL, 10) : RAW_IP_PROTO, NULL, err,
				 sizeof(err));
	} else {
		memset(to.mac, 0xff, sizeof(to.mac));
		rc = raw_packet_open(&r, argv[2], RAW_ETHERTYPE, err, sizeof(err));
	}
	if (rc < 0)
		error(1, 0, "%s", err);
	printf("sending\n");
	fflush(stdout);
	for (i = 0; i < n; i++) {
		if (raw_send(&r, buf, foreign(buf, i), &to, err, sizeof(err)) < 0)
			error(1, 0, "%s", err);
		nanosleep(&ms, NULL);
	}
	printf("sent %lu\n", n);
	raw_close(&r);
	return 0;
}
