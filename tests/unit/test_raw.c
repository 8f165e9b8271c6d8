/*
 * lib/wire/raw.c: the neighbour table read for a peer's hardware address;
 * then, as root, a raw IP message and a raw Ethernet frame over loopback,
 * each with its header taken off on the way in, a packet socket's own
 * outgoing frames left out, a payload cut to the buffer said so, and
 * without CAP_NET_RAW one error naming it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit/t.h"
#include "wire/raw.h"

static const char arp[] =
	"IP address       HW type     Flags       HW address            Mask     Device\n"
	"10.0.0.2         0x1         0x0         00:00:00:00:00:00     *        v0\n"
	"10.0.0.3         0x1         0x2         0a:1b:2c:3d:4e:5f     *        v1\n"
	"10.0.0.3         0x1         0x2         02:00:00:00:00:01     *        v0\n";

static void neigh(void)
{
	unsigned char mac[RAW_MAC_LEN], want[RAW_MAC_LEN] = { 2, 0, 0, 0, 0, 1 };
	struct in_addr a;

	inet_pton(AF_INET, "10.0.0.3", &a);
	CHECK(raw_neigh_parse(arp, a, "v0", mac) == 0 && memcmp(mac, want, sizeof(mac)) == 0,
	      "10.0.0.3 on v0: its own entry, not v1's");
	inet_pton(AF_INET, "10.0.0.2", &a);
	CHECK(raw_neigh_parse(arp, a, "v0", mac) == -1, "an incomplete entry is none");
	inet_pton(AF_INET, "10.0.0.9", &a);
	CHECK(raw_neigh_parse(arp, a, "v0", mac) == -1, "an address not there: none");
	CHECK(raw_neigh_parse("", a, "v0", mac) == -1, "an empty table: none");
}

/* The IP protocols the kernel speaks itself are refused by name; zc's own is not. */
static void ip_protos(void)
{
	const char *why = raw_ip_proto_why(6);
	int wrong = -1;

	CHECK(why && strstr(why, "TCP"), "6: TCP's (%s)", why ? why : "none");
	for (int p = 0; p < 256; p++) {
		int kernel = p <= 2 || p == 4 || p == 6 || p == 17 || p == 41 || p == 47 || p == 50 ||
			     p == 51 || p == 58 || p == 103 || p == 108 || p == 112 || p == 115 ||
			     p == 132 || p == 136 || p == 137 || p == 255;

		if ((raw_ip_proto_why(p) != NULL) != kernel && wrong < 0)
			wrong = p;
	}
	CHECK(wrong < 0, "each of 0..255 refused exactly when the kernel speaks it (first "
	      "wrong: %d)", wrong);
	CHECK(raw_ip_proto_why(RAW_IP_PROTO) == NULL, "zc's default is taken");
	CHECK(raw_ip_proto_why(-1) && raw_ip_proto_why(256), "out of range: refused");
}

/* The next payload on r that is not skip (its own request, seen too; cut
 * short: its start): its length. */
static ssize_t next(const struct raw_sock *r, char *buf, size_t len, const char *skip,
		    struct raw_peer *from, int *cut)
{
	char err[256];
	ssize_t n;

	for (int i = 0; i < 100; i++) {
		n = raw_recv(r, buf, len, 0, from, cut, NULL, err, sizeof(err));
		if (n < 0 || (n > 0 && !(skip && (size_t)n <= strlen(skip) && !memcmp(buf, skip, (size_t)n))))
			return n;
	}
	return -1;
}

static void ip(void)
{
	struct sockaddr_in lo = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct raw_sock srv = { .fd = -1 }, cli = { .fd = -1 };
	struct raw_peer from;
	char err[256], buf[64];
	ssize_t n;
	int cut;

	if (!CHECK(raw_ip_open(&srv, RAW_IP_PROTO, NULL, err, sizeof(err)) == 0 &&
		   raw_ip_open(&cli, RAW_IP_PROTO, &lo, err, sizeof(err)) == 0, "raw IP: two sockets (%s)", err))
		return;
	CHECK(cli.mtu >= 1480 && cli.mtu <= 65536 - 20, "the route's MTU less the IP header (%zu)",
	      cli.mtu);
	raw_send(&cli, "request", 7, NULL, err, sizeof(err));
	n = next(&srv, buf, sizeof(buf), NULL, &from, &cut);
	CHECK(n == 7 && !memcmp(buf, "request", 7) && !cut &&
	      from.ip.sin_addr.s_addr == htonl(INADDR_LOOPBACK), "the server: the payload, the IP header off");
	raw_send(&srv, "answer!!", 8, &from, err, sizeof(err));
	n = next(&cli, buf, 4, "request", NULL, &cut);
	CHECK(n == 4 && !memcmp(buf, "answ", 4) && cut, "the client: the answer cut to its buffer, said");
	raw_close(&srv);
	raw_close(&cli);
}

static void packet(void)
{
	struct raw_sock a = { .fd = -1 }, b = { .fd = -1 };
	struct raw_peer to = { .mac = { 0 } }, from;
	char err[256], buf[64];
	ssize_t n;
	int cut;

	if (!CHECK(raw_packet_open(&a, "lo", RAW_ETHERTYPE, err, sizeof(err)) == 0 &&
		   raw_packet_open(&b, "lo", RAW_ETHERTYPE, err, sizeof(err)) == 0, "packet: two sockets on lo (%s)", err))
		return;
	CHECK(a.mtu >= 1500, "lo's MTU (%zu)", a.mtu);
	CHECK(raw_send(&a, "frame", 5, &to, err, sizeof(err)) == 5, "a frame of 5 bytes sent (%s)", err);
	n = next(&b, buf, sizeof(buf), NULL, &from, &cut);
	CHECK(n == 5 && !memcmp(buf, "frame", 5) && !cut, "the other socket: its payload, the header off");
	CHECK(raw_packet_open(&b, "no-such-if0", RAW_ETHERTYPE, err, sizeof(err)) == -1 &&
	      strstr(err, "no-such-if0"), "an interface that is not there: named (%s)", err);
	raw_close(&a);
}

/* As nobody: the raw socket refused, its error on stdout (t_child's pipe). */
static void as_nobody(void *arg)
{
	char err[256] = "";
	struct raw_sock r;

	(void)arg;
	if (setgid(65534) < 0 || setuid(65534) < 0)
		_exit(3);
	if (raw_ip_open(&r, RAW_IP_PROTO, NULL, err, sizeof(err)) == 0)
		_exit(4);
	printf("%s\n", err);
}

/* Without CAP_NET_RAW (as nobody): one error naming it. */
static void unprivileged(void)
{
	char err[256];
	int rc = t_child(as_nobody, NULL, T_STDOUT, err, sizeof(err));

	CHECK(rc == 0 && strstr(err, "CAP_NET_RAW"), "as nobody: refused, naming CAP_NET_RAW (%s)",
	      err);
}

int main(void)
{
	neigh();
	ip_protos();
	if (geteuid() != 0) {
		printf("skip - raw sockets: not root\n");
		return t_exit();
	}
	ip();
	packet();
	unprivileged();
	return t_exit();
}
