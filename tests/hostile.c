/*
 * hostile - a misbehaving zc client, for tests/test_hostile.sh.
 *
 *   hostile -p PORT [-h HOST] [-s SEED] MODE [ARGS]
 *
 *   good LOOPS FILES LENGTH   a well-formed stream (the control client)
 *   random N                  N random bytes (seeded by -s), then close
 *   cut-header                stop in the middle of a file's length word
 *   cut-data                  stop in the middle of a file
 *   huge                      announce 2^32-1 loops, files and bytes, then close
 *   excess                    a whole one-file stream, then 1000 bytes more
 *   trickle SECS              one header byte a second for SECS seconds
 *   stall SECS                send 2 bytes, then wait up to SECS seconds for
 *                             the server to close (exit 0 if it did, 1 if not)
 *   flood N MSECS [reset]     open N connections at once, hold them MSECS ms,
 *                             count those the server closed, then drop them
 *                             all (with "reset": SO_LINGER 0, so an RST)
 *
 * It only ever talks to HOST (default 127.0.0.1), which must be a loopback
 * address; it is bounded in bytes, connections and time, and never waits
 * on a send for more than 10 s.
 * Modes that abuse the server accept being cut off by it: that is the
 * server defending itself, not a failure.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "net.h"
#include "opt.h"
#include "proto.h"

#define MAX_RANDOM	(64ll << 20)
#define MAX_SECS	600
#define MAX_FLOOD	1000
#define SEND_TIMEOUT	10

static const char *cfg_host = "127.0.0.1";
static unsigned cfg_port;
static uint64_t cfg_seed = 1;

static void usage(int status)
{
	fputs("usage: hostile -p PORT [-h HOST] [-s SEED] MODE [ARGS]\n"
	      "modes: good LOOPS FILES LENGTH | random N | cut-header | cut-data |\n"
	      "       huge | excess | trickle SECS | stall SECS |\n"
	      "       flood N MSECS [reset]\n", status ? stderr : stdout);
	exit(status);
}

/* A test tool that floods and resets: it must never aim at another host. */
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
			usage_error("-h %s: not a loopback address", host);
	}
	freeaddrinfo(res);
}

static int do_connect(void)
{
	struct timeval tv = { .tv_sec = SEND_TIMEOUT };
	char err[256];
	int fd;

	fd = net_connect(cfg_host, cfg_port, NULL, err, sizeof(err));
	if (fd < 0)
		error(1, 0, "%s", err);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	return fd;
}

/* The server may hang up on abuse: say so, and count it as the end. */
static int send_or_cut(int fd, const void *buf, size_t len)
{
	if (write_full(fd, buf, len) == 0)
		return 0;
	if (errno == EPIPE || errno == ECONNRESET) {
		printf("server closed the connection early\n");
		return -1;
	}
	error(1, errno, "send");
	return -1;
}

static int send_word(int fd, uint32_t v)
{
	unsigned char w[PROTO_WORD];

	proto_put_u32(w, v);
	return send_or_cut(fd, w, sizeof(w));
}

/* Deterministic bytes, so a failing seed can be replayed (xorshift64*). */
static uint64_t next_random(void)
{
	cfg_seed ^= cfg_seed >> 12;
	cfg_seed ^= cfg_seed << 25;
	cfg_seed ^= cfg_seed >> 27;
	return cfg_seed * 0x2545F4914F6CDD1Dull;
}

/* The control client: nothing may go wrong here, so any failure is fatal. */
static void send_all(int fd, const void *buf, size_t len)
{
	if (write_full(fd, buf, len) < 0)
		error(1, errno, "send");
}

static void send_all_word(int fd, uint32_t v)
{
	unsigned char w[PROTO_WORD];

	proto_put_u32(w, v);
	send_all(fd, w, sizeof(w));
}

static void do_good(uint32_t loops, uint32_t files, uint32_t length)
{
	static unsigned char chunk[65536];
	uint64_t t0 = now_ns();
	char line[128];
	int fd = do_connect();

	send_all_word(fd, loops);
	for (uint32_t l = 0; l < loops; l++) {
		send_all_word(fd, files);
		for (uint32_t f = 0; f < files; f++) {
			uint32_t left = length;

			send_all_word(fd, length);
			while (left) {
				size_t n = left < sizeof(chunk) ? left : sizeof(chunk);

				send_all(fd, chunk, n);
				left -= (uint32_t)n;
			}
		}
	}
	if (close(fd) < 0)
		error(1, errno, "close");
	format_rate_line(line, sizeof(line), "sent",
			 proto_stream_bytes(loops, files, (uint64_t)files * length),
			 now_ns() - t0);
	printf("%s\n", line);
}

static void do_random(long long n)
{
	unsigned char buf[4096];
	int fd = do_connect();
	long long sent = 0;

	while (sent < n) {
		size_t len = n - sent < (long long)sizeof(buf) ? (size_t)(n - sent) : sizeof(buf);

		for (size_t i = 0; i < len; i++)
			buf[i] = (unsigned char)(next_random() >> 56);
		if (send_or_cut(fd, buf, len) < 0)
			break;
		sent += (long long)len;
	}
	close(fd);
	printf("random: %lld bytes\n", sent);
}

static void do_cut_header(void)
{
	unsigned char half[2] = { 0, 0 };
	int fd = do_connect();

	if (send_word(fd, 1) == 0 && send_word(fd, 1) == 0)
		send_or_cut(fd, half, sizeof(half));
	close(fd);
}

/*
 * Streams that are wrong in one way: the first loop's header words (loops,
 * files, first length), then some bytes of data, then close.
 */
static const struct shape {
	const char *mode;
	uint32_t loops, files, length;
	size_t data;
} shapes[] = {
	{ "cut-data", 1, 1, 4096, 1000 },		/* stops inside the file */
	{ "huge", UINT32_MAX, UINT32_MAX, UINT32_MAX, 4096 },
	{ "excess", 1, 1, 1000, 2000 },			/* 1000 bytes too many */
};

static void do_shape(const struct shape *sh)
{
	static unsigned char data[4096];
	int fd = do_connect();

	if (send_word(fd, sh->loops) == 0 && send_word(fd, sh->files) == 0 &&
	    send_word(fd, sh->length) == 0)
		send_or_cut(fd, data, sh->data);
	close(fd);
}

static void do_trickle(long long secs)
{
	unsigned char stream[3 * PROTO_WORD];
	int fd = do_connect();
	long long i;

	/* One loop of one 1 MiB file: the bytes never add up to a whole stream. */
	proto_put_u32(stream, 1);
	proto_put_u32(stream + 4, 1);
	proto_put_u32(stream + 8, 1 << 20);
	for (i = 0; i < secs; i++) {
		if (send_or_cut(fd, &stream[i % sizeof(stream)], 1) < 0)
			break;
		sleep(1);
	}
	close(fd);
	printf("trickle: %lld bytes\n", i);
}

/* Has the server closed fd? It never sends, so readable means closed. */
static int closed_by_peer(int fd, int msecs)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP };
	char c;

	if (poll(&p, 1, msecs) <= 0)
		return 0;
	return recv(fd, &c, 1, MSG_DONTWAIT | MSG_PEEK) <= 0;
}

static int do_stall(long long secs)
{
	unsigned char half[2] = { 0, 0 };
	uint64_t t0 = now_ns();
	int fd = do_connect();
	int closed;

	send_or_cut(fd, half, sizeof(half));
	closed = closed_by_peer(fd, (int)secs * 1000);
	close(fd);
	if (!closed) {
		printf("stall: still open after %lld s\n", secs);
		return 1;
	}
	printf("stall: closed by server after %.1f s\n", (double)(now_ns() - t0) / 1e9);
	return 0;
}

static void do_flood(long long n, long long msecs, int reset)
{
	static int fds[MAX_FLOOD];
	struct linger lin = { .l_onoff = 1, .l_linger = 0 };
	struct timespec hold = { msecs / 1000, msecs % 1000 * 1000000 };
	long long i, closed = 0;

	for (i = 0; i < n; i++)
		fds[i] = do_connect();
	nanosleep(&hold, NULL);
	for (i = 0; i < n; i++)
		closed += closed_by_peer(fds[i], 0);
	for (i = 0; i < n; i++) {
		if (reset)
			setsockopt(fds[i], SOL_SOCKET, SO_LINGER, &lin, sizeof(lin));
		close(fds[i]);
	}
	printf("flood: %lld connected, %lld closed by server\n", n, closed);
}

int main(int argc, char **argv)
{
	const char *mode;
	int c;

	while ((c = getopt(argc, argv, "+h:p:s:")) != -1) {
		switch (c) {
		case 'h':
			cfg_host = optarg;
			break;
		case 'p':
			cfg_port = (unsigned)opt_num(c, optarg, 1, 65535);
			break;
		case 's':
			cfg_seed = (uint64_t)opt_num(c, optarg, 1, INT64_MAX);
			break;
		default:
			usage(2);
		}
	}
	if (!cfg_port || optind >= argc)
		usage(2);
	require_loopback(cfg_host);
	mode = argv[optind++];
	argc -= optind;
	argv += optind;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);

	if (!strcmp(mode, "good") && argc == 3)
		do_good((uint32_t)opt_num('l', argv[0], 0, UINT32_MAX),
			(uint32_t)opt_num('f', argv[1], 0, UINT32_MAX),
			(uint32_t)opt_num('L', argv[2], 0, UINT32_MAX));
	else if (!strcmp(mode, "random") && argc == 1)
		do_random(opt_num('n', argv[0], 0, MAX_RANDOM));
	else if (!strcmp(mode, "cut-header") && argc == 0)
		do_cut_header();
	else if (!strcmp(mode, "trickle") && argc == 1)
		do_trickle(opt_num('S', argv[0], 0, MAX_SECS));
	else if (!strcmp(mode, "stall") && argc == 1)
		return do_stall(opt_num('S', argv[0], 1, MAX_SECS));
	else if (!strcmp(mode, "flood") && (argc == 2 || argc == 3))
		do_flood(opt_num('N', argv[0], 1, MAX_FLOOD),
			 opt_num('t', argv[1], 0, 60000),
			 argc == 3 && !strcmp(argv[2], "reset"));
	else {
		size_t i;

		for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
			if (!strcmp(mode, shapes[i].mode) && argc == 0)
				break;
		if (i == sizeof(shapes) / sizeof(shapes[0]))
			usage(2);
		do_shape(&shapes[i]);
	}
	return 0;
}
