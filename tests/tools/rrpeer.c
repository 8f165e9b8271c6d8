/*
 * rrpeer - a bad request/response server for zcc --rr: it acknowledges
 * the hello (unless noack) and then misbehaves as asked, on its first
 * connection, then exits.
 *
 *   rrpeer MODE      MODE: noack  reads the hello, never writes a byte
 *                          never  acknowledges, reads requests, never answers
 *                          short  answers the first request with half its
 *                                 answer, then closes
 *                          long   answers every request with one byte more
 *                                 (stamped: its length says so too)
 *   rrpeer foreign ERR [SKEW]   answers well, as another machine would: its
 *                          ack names another boot id and a clock error of
 *                          ERR us (unsync: not synchronised); stamped
 *                          answers carry this machine's realtime plus SKEW
 *                          ms (default 0) as the server's receive and send
 *   rrpeer client PORT HOW   a bad RR client of zcs on 127.0.0.1 PORT, messages
 *                        of 100 bytes: HOW foreign (a request of another run),
 *                        short (half a request, then the close), silent (the
 *                        hello, then nothing until zcs closes), greedy (64 KiB
 *                        requests, no answer read), version (a
 *                        hello of version 9); prints "ack: STATUS" and
 *                        "closed" when zcs closes
 *   rrpeer udpfoe PORT   a hostile UDP client of zcs on 127.0.0.1 PORT: 1000
 *                        datagrams of no flow, then a hello asking for answers
 *                        longer than its requests; prints "other replies: N,
 *                        acks of 48 bytes: A, refused: R" of what came back
 *   rrpeer udpbye HOW    a UDP server on 127.0.0.1 (kernel-chosen port) that
 *                        acknowledges a hello, answers each request, and
 *                        to a bye: HOW none (no report; it exits after the
 *                        5th bye), bad (a line that is not a report), count
 *                        (a report of 999999 transactions), dup (none, and
 *                        each answer sent twice but requests 5 and 6's,
 *                        never sent); prints "byes: N" when it exits (2 s
 *                        without a datagram)
 *
 * Prints "listening on port N" (kernel-chosen port) and "hello" once the
 * hello is in, each flushed at once.
 */
#include <errno.h>
#include <error.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wire/net.h"
#include "wire/rr_io.h"
#include "wire/rxreport.h"
#include "tools/listen_once.h"

static int stamp;		/* foreign: answers carry the server's times */
static int64_t skew_ns;		/*   this far off this machine's realtime */

/* Answer the requests of h on fd, each answer extra bytes long (short: half, once). */
static void answer(int fd, const struct rr_hello *h, int extra, int half)
{
	size_t len = h->resp_bytes + (size_t)extra, got;
	unsigned char *req = malloc(h->req_bytes), *resp = calloc(1, len);
	struct rr_expect want = { h->run, h->flow, h->req_bytes, RR_REQUEST };
	struct rr_msg m;

	if (!req || !resp)
		error(1, errno, "memory");
	while (rr_read(fd, req, h->req_bytes, &got, NULL) == 0) {
		if (rr_timed(h->req_bytes, h->resp_bytes) &&
		    rr_msg_decode(req, h->req_bytes, &want, &m) == RR_OK) {
			m.kind = RR_RESPONSE;
			m.length = (uint32_t)len;
			if (stamp)
				m.rx_real = m.back_real = rr_real_ns() + (uint64_t)skew_ns;
			rr_msg_encode(resp, &m);
		}
		if (rr_write(fd, resp, half ? len / 2 : len) < 0 || half)
			break;
	}
	free(req);
	free(resp);
}

/* client: a TCP client of zcs on port that misbehaves as how says. */
static int bad_client(unsigned port, const char *how)
{
	struct net_opts o = { 0 };
	struct rr_hello h = { .run = 5, .req_bytes = 100, .resp_bytes = 100, .proto = RR_TCP,
			      .mode = RR_MODE_RR };
	int greedy = !strcmp(how, "greedy");
	static unsigned char big[1 << 16];
	unsigned char buf[128] = { 0 };
	struct rr_ack a = { 0 };
	char err[256];
	size_t got;
	int fd;

	fd = net_connect("127.0.0.1", port, &o, err, sizeof(err));
	if (fd < 0) {
		error(0, 0, "%s", err);
		return 1;
	}
	if (greedy)
		h.req_bytes = h.resp_bytes = sizeof(big);
	rr_hello_encode(buf, &h);
	if (!strcmp(how, "version"))
		buf[9] = 9;	/* the version's low byte */
	rr_write(fd, buf, RR_HELLO_LEN);
	if (rr_read(fd, buf, RR_ACK_LEN, &got, NULL) == 0)
		rr_ack_decode(buf, RR_ACK_LEN, h.run, h.flow, &a);
	printf("ack: %u\n", a.status);
	fflush(stdout);
	memset(buf, 0, sizeof(buf));
	if (!strcmp(how, "foreign")) {
		rr_msg_encode(buf, &(struct rr_msg){ .kind = RR_REQUEST, .run = 6, .length = 100 });
		rr_write(fd, buf, 100);
	} else if (greedy) {	/* requests; no answer read until zcs gives up */
		rr_msg_encode(big, &(struct rr_msg){ .kind = RR_REQUEST, .run = 5,
						     .length = sizeof(big) });
		for (int i = 0; i < 1 << 14 && rr_write(fd, big, sizeof(big)) == 0; i++)
			;
	} else if (!strcmp(how, "short")) {
		rr_msg_encode(buf, &(struct rr_msg){ .kind = RR_REQUEST, .run = 5, .length = 100 });
		rr_write(fd, buf, 50);
		shutdown(fd, SHUT_WR);
	}
	while (recv(fd, buf, sizeof(buf), 0) > 0)
		;
	printf("closed\n");
	close(fd);
	return 0;
}

/*
 * udpfoe: what zcs sends back to foreign datagrams and to an amplifying
 * hello (sent again every 0.2 s, 3 s at most, until something comes: a
 * slow zcs may drop it behind the flood), then 0.5 s more.
 */
static int udpfoe(unsigned port)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct rr_hello h = { .run = 9, .req_bytes = 64, .resp_bytes = 1000, .proto = RR_UDP,
			      .mode = RR_MODE_RR };
	struct pollfd p = { .events = POLLIN };
	unsigned char buf[2048], hello[RR_HELLO_LEN];
	unsigned other = 0, acks = 0, refused = 0, tries = 0;
	struct rr_ack a;
	ssize_t n;

	p.fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (p.fd < 0 || connect(p.fd, (struct sockaddr *)&to, sizeof(to)) < 0) {
		error(0, errno, "UDP socket");
		return 1;
	}
	for (int i = 0; i < 1000; i++) {
		memset(buf, i, 64);
		send(p.fd, buf, 64 + (size_t)i % 100, 0);
	}
	rr_hello_encode(hello, &h);
	do
		send(p.fd, hello, RR_HELLO_LEN, 0);
	while (poll(&p, 1, 200) == 0 && ++tries < 15);
	while (poll(&p, 1, 500) == 1 && (n = recv(p.fd, buf, sizeof(buf), 0)) > 0) {
		if (n != RR_ACK_LEN || rr_ack_decode(buf, (size_t)n, h.run, h.flow, &a) != RR_OK)
			other++;
		else if (acks++, a.status != RR_OK)
			refused++;
	}
	printf("other replies: %u, acks of %d bytes: %u, refused: %u\n", other, RR_ACK_LEN,
	       acks, refused);
	return 0;
}

/* udpbye: the bye's answer as how says, to the address of from. */
static void bye_answer(int fd, const char *how, const struct sockaddr_in *from)
{
	struct rxreport x = { .method = "rr", .rr = 1, .transactions = 999999,
			      .bytes = 999999ull * 100, .read_bytes = 100, .seconds = 1, .boot_id = "-" };
	char line[RXREPORT_MAX];
	int n = 0;

	if (!strcmp(how, "bad"))
		n = snprintf(line, sizeof(line), "zc-report 2 what\n");
	else if (!strcmp(how, "count"))
		n = rxreport_format(line, sizeof(line), &x);
	if (n > 0)
		sendto(fd, line, (size_t)n, 0, (const struct sockaddr *)from, sizeof(*from));
}

static int udpbye(const char *how)
{
	struct sockaddr_in me = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) },
			   from;
	socklen_t len = sizeof(me);
	struct pollfd p = { .events = POLLIN };
	static unsigned char buf[RR_UDP_MAX];
	struct rr_hello h = { 0 };
	struct rr_ack a = { .max_bytes = RR_UDP_MAX };
	struct rr_expect want;
	struct rr_msg m;
	unsigned byes = 0;
	ssize_t n;

	p.fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (p.fd < 0 || bind(p.fd, (struct sockaddr *)&me, sizeof(me)) < 0 ||
	    getsockname(p.fd, (struct sockaddr *)&me, &len) < 0)
		error(1, errno, "UDP socket");
	printf("listening on port %u\n", ntohs(me.sin_port));
	fflush(stdout);
	while (byes < 5 && poll(&p, 1, 2000) == 1) {
		len = sizeof(from);
		n = recvfrom(p.fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &len);
		if (n == RR_HELLO_LEN && rr_hello_decode(buf, (size_t)n, &h) == RR_OK) {
			a.run = h.run;
			a.flow = h.flow;
			rr_ack_encode(buf, &a);
			sendto(p.fd, buf, RR_ACK_LEN, 0, (struct sockaddr *)&from, len);
			continue;
		}
		want = (struct rr_expect){ h.run, h.flow, h.req_bytes, RR_REQUEST };
		if (n > 0 && rr_msg_decode(buf, (size_t)n, &want, &m) == RR_OK) {
			int copies = strcmp(how, "dup") ? 1 : m.seq == 5 || m.seq == 6 ? 0 : 2;

			m.kind = RR_RESPONSE;
			rr_msg_encode(buf, &m);
			while (copies-- > 0)
				sendto(p.fd, buf, h.resp_bytes, 0, (struct sockaddr *)&from, len);
		} else if (n == RR_BYE_LEN) {
			byes++;
			bye_answer(p.fd, how, &from);
		}
	}
	printf("byes: %u\n", byes);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char buf[RR_HELLO_LEN];
	struct net_opts o = { 0 };
	struct rr_hello h;
	struct rr_ack a = { .max_bytes = RR_MSG_MAX };
	const char *mode = argc > 1 ? argv[1] : "";
	size_t got;
	int fd;

	if (!strcmp(mode, "client") && argc > 3)
		return bad_client((unsigned)strtoul(argv[2], NULL, 10), argv[3]);
	if (!strcmp(mode, "udpfoe") && argc > 2)
		return udpfoe((unsigned)strtoul(argv[2], NULL, 10));
	if (!strcmp(mode, "udpbye") && argc > 2)
		return udpbye(argv[2]);
	fd = listen_once("127.0.0.1", &o);
	if (rr_read(fd, buf, sizeof(buf), &got, NULL) != 0 ||
	    rr_hello_decode(buf, sizeof(buf), &h) != RR_OK)
		error(1, 0, "no hello");
	printf("hello\n");
	fflush(stdout);
	if (!strcmp(mode, "noack")) {
		while (recv(fd, buf, sizeof(buf), 0) > 0)
			;
		return 0;
	}
	a.run = h.run;
	a.flow = h.flow;
	if (!strcmp(mode, "foreign") && argc > 2) {
		memset(a.boot_id, 0x5a, RR_BOOT_ID);
		a.clock_err_us = !strcmp(argv[2], "unsync") ? UINT32_MAX :
				 (uint32_t)strtoul(argv[2], NULL, 10);
		skew_ns = argc > 3 ? strtoll(argv[3], NULL, 10) * 1000000 : 0;
		stamp = 1;
	}
	rr_ack_encode(buf, &a);
	if (rr_write(fd, buf, RR_ACK_LEN) < 0)
		error(1, errno, "ack");
	if (!strcmp(mode, "never"))
		while (recv(fd, buf, sizeof(buf), 0) > 0)
			;
	else
		answer(fd, &h, !strcmp(mode, "long"), !strcmp(mode, "short"));
	close(fd);
	return 0;
}
