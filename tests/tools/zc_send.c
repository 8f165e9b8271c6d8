/*
 * zc_send - a raw, scriptable stream sender for the zcs tests: well-formed
 * streams, broken ones and hostile clients, byte for byte as asked.
 *
 *   zc_send [-a ADDR] [-c CONNS] [-H MS] [-S SEED] -p PORT STEP...
 *   zc_send -h
 *
 *   -a ADDR   server address, loopback only (default 127.0.0.1; ::1 works):
 *             any other address is refused before a packet is sent
 *   -c CONNS  open CONNS connections first (1 to 1000, default 1), then run
 *             the steps on each in turn: "-c 300 R" opens 300 and resets them
 *   -H MS     hold: once all are open wait MS ms, then print "N connected,
 *             K closed by server" (zcs refusing some, say) before the steps
 *   -S SEED   seed for the r step (default 1)
 *
 * Steps:
 *   wN        one header word N (u32, big-endian)
 *   dN        N bytes of file data
 *   rN        N random bytes
 *   xHEX      raw bytes in hex: x0000 is half a header word
 *   fL,F,S    a whole stream: L loops of F files of S bytes each
 *   sMS       sleep MS milliseconds
 *   pMS       pace the steps after it: one byte at a time, MS ms apart (p0:
 *             full speed again); "p1000 x000000" trickles three header bytes,
 *             "p50 d30" thirty data bytes
 *   W[MS]     wait up to MS ms (default 60000) for the server to close, then
 *             print "closed by peer after MS ms"; still open: exit 1
 *   R         reset the connection (SO_LINGER 0, close): the server gets RST
 *
 * What test_hostile.sh sends with them: "-S 7 r100000" (garbage),
 * "w4294967295 w4294967295 w4294967295 d4096" (an absurd announcement, then
 * close), "f1,1,1000 d1000" (excess), "x0000 W10000" (a stall against -T),
 * "-c 200 -H 2000 R" (a flood that ends in resets).
 *
 * The server cutting a connection short (EPIPE or ECONNRESET on a send) is
 * not a failure: that is zcs defending itself. The line "connection I: cut
 * off by the server in step STEP" says so and the rest of that connection's
 * steps are skipped. At the end each connection is closed normally (unless
 * R) and the line "sent: N bytes in S s, K kbytes/sec" gives the total over
 * all connections. Exit 1 on any other error, 2 on a usage error (checked,
 * steps included, before the first connection).
 *
 * Bounds, so that a wrong script cannot hurt the machine: loopback only, at
 * most 1000 connections and 1 GiB in all, 600 s for the whole run, and no
 * send waits more than 10 s for the server to read.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "app/opt.h"
#include "base/clock.h"
#include "base/io.h"
#include "base/rate.h"
#include "wire/net.h"
#include "wire/proto.h"

#define MAX_CONNS	1000
#define MAX_BYTES	(1LL << 30)	/* over all connections */
#define MAX_SECS	600		/* the whole run */
#define SEND_TIMEOUT	10		/* seconds one send may block */
#define WAIT_MS		60000		/* W without a limit */

struct step {
	const char *text;	/* as given, for messages */
	long long v[3];
};

static const char *cfg_addr = "127.0.0.1";
static unsigned cfg_port;
static long long cfg_conns = 1, cfg_hold_ms = -1;

static unsigned char data[65536];
static unsigned long long sent;
static long long pace_ms;
static uint64_t deadline;

static void __attribute__((noreturn)) usage(void)
{
	fputs("usage: zc_send [-a ADDR] [-c CONNS] [-H MS] [-S SEED] -p PORT STEP...\n"
	      "steps: wN dN rN xHEX fL,F,S sMS pMS W[MS] R"
	      " (see the top of tests/tools/zc_send.c)\n", stdout);
	exit(0);
}

/* A tool that floods and resets must never aim at another host. */
static void require_loopback(const char *host)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	int rc = getaddrinfo(host, NULL, &hints, &res);

	if (rc)
		error(1, 0, "resolve %s: %s", host, gai_strerror(rc));
	for (ai = res; ai; ai = ai->ai_next) {
		const struct sockaddr_in6 *in6 = (const void *)ai->ai_addr;
		const struct sockaddr_in *in = (const void *)ai->ai_addr;
		int loopback = ai->ai_family == AF_INET
			? (ntohl(in->sin_addr.s_addr) >> 24) == 127
			: ai->ai_family == AF_INET6 && IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);

		if (!loopback)
			usage_error("-a %s: not a loopback address", host);
	}
	freeaddrinfo(res);
}

/* "A,B,C" into exactly n numbers, or a usage error naming the step. */
static void numbers(const char *step, const char *s, long long *v, int n)
{
	char tmp[64], *tok, *save;
	const char *why;
	int i = 0;

	snprintf(tmp, sizeof(tmp), "%s", s);
	for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (i == n)
			usage_error("step '%s': too many numbers", step);
		if (parse_num(tok, 0, 0xffffffffLL, &v[i++], &why) < 0)
			usage_error("step '%s': %s", step, why);
	}
	if (i < n)
		usage_error("step '%s': wants %d number(s)", step, n);
}

/* Check one step and return how many bytes it sends. */
static double parse_step(const char *s, struct step *st)
{
	size_t hex = strlen(s + 1);

	st->text = s;
	switch (s[0]) {
	case 'w':
		numbers(s, s + 1, st->v, 1);
		return PROTO_WORD;
	case 'd':
	case 'r':
		numbers(s, s + 1, st->v, 1);
		return (double)st->v[0];
	case 'x':
		if (hex % 2 || strspn(s + 1, "0123456789abcdefABCDEF") != hex)
			usage_error("step '%s': wants pairs of hex digits", s);
		return (double)hex / 2;	/* hex is even here */
	case 'f':
		numbers(s, s + 1, st->v, 3);
		return PROTO_WORD + (double)st->v[0] *
			(PROTO_WORD * (1.0 + (double)st->v[1]) + (double)st->v[1] * (double)st->v[2]);
	case 's':
	case 'p':
		numbers(s, s + 1, st->v, 1);
		return 0;
	case 'W':
		st->v[0] = WAIT_MS;
		if (s[1])
			numbers(s, s + 1, st->v, 1);
		return 0;
	case 'R':
		if (!s[1])
			return 0;
	}
	usage_error("unknown step '%s'", s);
}

static void sleep_ms(long long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	if (now_ns() + (uint64_t)ms * 1000000 > deadline)
		error(1, 0, "a %lld ms sleep would pass the run's limit of %d s", ms, MAX_SECS);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Send len bytes, paced if asked. -1 when the server has cut us off. */
static int put(int fd, const unsigned char *p, size_t len)
{
	size_t chunk = pace_ms ? 1 : len;

	for (size_t i = 0; i < len; i += chunk) {
		if (now_ns() > deadline)
			error(1, 0, "still sending after the run's limit of %d s", MAX_SECS);
		if (write_full(fd, p + i, chunk) < 0) {
			if (errno == EPIPE || errno == ECONNRESET)
				return -1;
			if (errno == EAGAIN)
				error(1, 0, "send blocked for %d s after %llu bytes",
				      SEND_TIMEOUT, sent);
			error(1, errno, "send after %llu bytes", sent);
		}
		sent += chunk;
		if (pace_ms)
			sleep_ms(pace_ms);
	}
	return 0;
}

static int put_data(int fd, unsigned long long n)
{
	while (n) {
		size_t k = n < sizeof(data) ? (size_t)n : sizeof(data);

		if (put(fd, data, k) < 0)
			return -1;
		n -= k;
	}
	return 0;
}

static int put_word(int fd, uint32_t v)
{
	unsigned char w[PROTO_WORD];

	proto_put_u32(w, v);
	return put(fd, w, sizeof(w));
}

static int put_random(int fd, long long n)
{
	unsigned char rnd[4096];

	while (n > 0) {
		size_t k = n < (long long)sizeof(rnd) ? (size_t)n : sizeof(rnd);

		for (size_t i = 0; i < k; i++)
			rnd[i] = (unsigned char)rand();
		if (put(fd, rnd, k) < 0)
			return -1;
		n -= (long long)k;
	}
	return 0;
}

static int put_hex(int fd, const char *hex)
{
	char pair[3] = "";
	unsigned char b;

	for (; hex[0]; hex += 2) {
		memcpy(pair, hex, 2);
		b = (unsigned char)strtoul(pair, NULL, 16);
		if (put(fd, &b, 1) < 0)
			return -1;
	}
	return 0;
}

static int put_stream(int fd, const long long *v)
{
	if (put_word(fd, (uint32_t)v[0]) < 0)
		return -1;
	for (long long l = 0; l < v[0]; l++) {
		if (put_word(fd, (uint32_t)v[1]) < 0)
			return -1;
		for (long long f = 0; f < v[1]; f++)
			if (put_word(fd, (uint32_t)v[2]) < 0 ||
			    put_data(fd, (unsigned long long)v[2]) < 0)
				return -1;
	}
	return 0;
}

/* Has the server closed fd within ms? It never sends: readable means closed. */
static int closed_within(int fd, long long ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP };
	char c;

	if (poll(&p, 1, (int)ms) <= 0)
		return 0;
	return recv(fd, &c, 1, MSG_DONTWAIT | MSG_PEEK) <= 0;
}

static void wait_closed(int fd, long long ms)
{
	uint64_t t0 = now_ns();
	long long left_ms = t0 < deadline ? (long long)((deadline - t0) / 1000000) : 0;

	if (ms > left_ms)
		ms = left_ms;
	if (!closed_within(fd, ms))
		error(1, 0, "the server kept the connection open for %lld ms", ms);
	printf("closed by peer after %llu ms\n",
	       (unsigned long long)((now_ns() - t0) / 1000000));
}

/* Run one step on fd: 0, or -1 when the server cut the connection. */
static int run_step(int fd, const struct step *st)
{
	struct linger lin = { .l_onoff = 1, .l_linger = 0 };

	switch (st->text[0]) {
	case 'w':
		return put_word(fd, (uint32_t)st->v[0]);
	case 'd':
		return put_data(fd, (unsigned long long)st->v[0]);
	case 'r':
		return put_random(fd, st->v[0]);
	case 'x':
		return put_hex(fd, st->text + 1);
	case 'f':
		return put_stream(fd, st->v);
	case 's':
		sleep_ms(st->v[0]);
		break;
	case 'p':
		pace_ms = st->v[0];
		break;
	case 'W':
		wait_closed(fd, st->v[0]);
		break;
	case 'R':
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &lin, sizeof(lin));
		break;
	}
	return 0;
}

static int do_connect(void)
{
	struct timeval tv = { .tv_sec = SEND_TIMEOUT };
	char err[256];
	int fd = net_connect(cfg_addr, cfg_port, NULL, err, sizeof(err));

	if (fd < 0)
		error(1, 0, "%s", err);
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		error(1, errno, "SO_SNDTIMEO");
	return fd;
}

int main(int argc, char **argv)
{
	struct step *steps;
	double bytes = 0;
	long long seed = 1, closed = 0;
	uint64_t t0, ns;
	int c, i, s, n_steps, *fds;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt(argc, argv, "+:a:c:hH:p:S:")) != -1) {
		switch (c) {
		case 'a':
			cfg_addr = optarg;
			break;
		case 'c':
			cfg_conns = opt_num(c, optarg, 1, MAX_CONNS);
			break;
		case 'h':
			usage();
		case 'H':
			cfg_hold_ms = opt_num(c, optarg, 0, MAX_SECS * 1000LL);
			break;
		case 'p':
			cfg_port = (unsigned)opt_num(c, optarg, 1, 65535);
			break;
		case 'S':
			seed = opt_num(c, optarg, 0, 0xffffffffLL);
			break;
		default:
			opt_refused(c);
		}
	}
	if (!cfg_port)
		usage_error("-p PORT is required");
	n_steps = argc - optind;
	steps = calloc((size_t)n_steps + 1, sizeof(*steps));
	if (!steps)
		error(1, errno, "calloc");
	for (s = 0; s < n_steps; s++)
		bytes += parse_step(argv[optind + s], &steps[s]);
	if (bytes * (double)cfg_conns > (double)MAX_BYTES)
		usage_error("%.0f bytes over %lld connection(s): more than the cap of %lld",
			    bytes * (double)cfg_conns, cfg_conns, MAX_BYTES);
	require_loopback(cfg_addr);

	signal(SIGPIPE, SIG_IGN);
	srand((unsigned)seed);
	memset(data, 'z', sizeof(data));
	deadline = now_ns() + MAX_SECS * 1000000000ULL;
	fds = calloc((size_t)cfg_conns, sizeof(*fds));
	if (!fds)
		error(1, errno, "calloc");
	for (i = 0; i < cfg_conns; i++)
		fds[i] = do_connect();
	if (cfg_hold_ms >= 0) {
		sleep_ms(cfg_hold_ms);
		for (i = 0; i < cfg_conns; i++)
			closed += closed_within(fds[i], 0);
		printf("%lld connected, %lld closed by server\n", cfg_conns, closed);
	}
	t0 = now_ns();
	for (i = 0; i < cfg_conns; i++) {
		pace_ms = 0;
		for (s = 0; s < n_steps; s++) {
			if (run_step(fds[i], &steps[s]) < 0) {
				printf("connection %d: cut off by the server in step '%s'\n",
				       i + 1, steps[s].text);
				break;
			}
		}
	}
	for (i = 0; i < cfg_conns; i++)
		close(fds[i]);
	ns = now_ns() - t0;	/* zcc's sent: line, in text */
	printf("sent: %llu bytes in %.3f s, %.0f kbytes/sec\n", sent,
	       (double)ns / 1e9, kbytes_per_sec(sent, ns));
	free(fds);
	free(steps);
	return 0;
}
