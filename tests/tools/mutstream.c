/*
 * mutstream - send a server seeded random zc streams, well formed and
 * mutated, one connection each, and say how many of them a correct server
 * must call whole and how many bad.
 *
 *   mutstream [-a ADDR] [-n STREAMS] [-s SEED] [-v] -p PORT
 *
 * Each stream starts well formed (a few loops of a few files, now and then
 * a file of hundreds of KiB so that a receive method that maps pages has
 * pages to map) and then gets one mutation: none, bits flipped in a header
 * word or anywhere, cut short, bytes appended, a length announced as huge,
 * loops of zero files, 0xffffffff loops announced and a few thousand sent,
 * zero loops, or plain noise. A deliberately simple reader below judges the
 * result: whole (exactly what its headers announce), short (ends early) or
 * excess (more than announced). One stream in three is sent in small
 * pieces, so that header words arrive split. The stream is sent, the sending side shut,
 * and the server given 10 s to close the connection; a server that cuts a
 * bad stream off early (a reset on a send) is within its rights.
 *
 * The last line: "mutstream: N streams (seed S): W whole, B bad; K cut off
 * early, L not closed by the server within 10 s". -v adds a line per stream.
 * Exit 0, or 1 when something failed on our side (cannot connect) or the
 * server left a connection open.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <errno.h>
#include <limits.h>
#include <error.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "app/opt.h"
#include "tools/rng.h"

#define BIG_FILE	(512 * 1024)
#define NOISE_MAX	100000
#define CLOSE_WAIT_MS	10000

static const char *cfg_addr = "127.0.0.1";
static int cfg_port = -1, cfg_verbose;
static long cfg_streams = 100;
static unsigned long long cfg_seed = 1;

/* A growing byte buffer. */
struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *data, size_t len)
{
	if (b->len + len > b->cap) {
		b->cap = (b->len + len) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			error(1, errno, "realloc");
	}
	if (data)
		memcpy(b->p + b->len, data, len);
	else
		for (size_t i = 0; i < len; i++)
			b->p[b->len + i] = (unsigned char)rnd();
	b->len += len;
}

static void put32(struct buf *b, uint32_t v)
{
	uint32_t be = htonl(v);

	put(b, &be, 4);
}

/* Where the header words of a well-formed stream are, for the mutations. */
struct words {
	size_t at[4096];
	int n;
};

static void well_formed(struct buf *b, struct words *w)
{
	uint32_t loops = 1 + below(3);

	w->n = 0;
	w->at[w->n++] = b->len;
	put32(b, loops);
	for (uint32_t l = 0; l < loops; l++) {
		uint32_t files = below(4);

		if (w->n < 4096)
			w->at[w->n++] = b->len;
		put32(b, files);
		for (uint32_t f = 0; f < files; f++) {
			uint32_t len = below(8) ? below(3000) : BIG_FILE / 2 + below(BIG_FILE / 2);

			if (below(4) == 0)
				len &= ~4095u;	/* whole pages now and then */
			if (w->n < 4096)
				w->at[w->n++] = b->len;
			put32(b, len);
			put(b, NULL, len);
		}
	}
}

static void set32(struct buf *b, size_t at, uint32_t v)
{
	uint32_t be = htonl(v);

	memcpy(b->p + at, &be, 4);
}

/* One stream into b; what was done to it. */
static const char *make_stream(struct buf *b)
{
	struct words w;
	uint32_t k;

	b->len = 0;
	switch (below(11)) {
	case 0:
		well_formed(b, &w);
		return "none";
	case 1:
		well_formed(b, &w);
		for (k = 1 + below(3); k; k--) {
			size_t at = w.at[below((uint32_t)w.n)] + below(4);

			b->p[at] ^= (unsigned char)(1u << below(8));
		}
		return "header bits flipped";
	case 2:
		well_formed(b, &w);
		for (k = 1 + below(8); k; k--)
			b->p[below((uint32_t)b->len)] ^= (unsigned char)(1u << below(8));
		return "bits flipped anywhere";
	case 3:
		well_formed(b, &w);
		b->len = 1 + below((uint32_t)b->len - 1);
		return "cut short";
	case 4:
		well_formed(b, &w);
		put(b, NULL, 1 + below(below(2) ? 8 : 70000));
		return "bytes appended";
	case 5:
		well_formed(b, &w);
		set32(b, w.at[1 + below((uint32_t)w.n - 1)], below(2) ? 0xffffffffu : 0x80000000u + below(1u << 30));
		return "a huge length announced";
	case 6:
		k = 1 + below(1000);
		put32(b, k);
		while (k--)
			put32(b, 0);
		return "loops of zero files";
	case 7:
		put32(b, 0xffffffffu);
		for (k = 1 + below(5000); k; k--)
			put32(b, 0);
		return "0xffffffff loops announced";
	case 8:
		put32(b, 0);
		if (below(2))
			put(b, NULL, 1 + below(100));
		return "zero loops";
	case 9:
		put32(b, 0xffffffffu);
		put32(b, 0xffffffffu);
		for (k = below(3000); k; k--)
			put32(b, 0);
		return "0xffffffff loops of 0xffffffff files";
	default:
		put(b, NULL, 1 + below(below(2) ? 16 : NOISE_MAX));
		return "noise";
	}
}

enum verdict { WHOLE, SHORT, EXCESS };

/* The simple reader: walk the words the headers announce. */
static enum verdict judge(const struct buf *b)
{
	size_t at = 0;
	uint32_t loops, files, len;

#define WORD(v) do { \
		if (b->len - at < 4) \
			return SHORT; \
		memcpy(&(v), b->p + at, 4); \
		(v) = ntohl(v); \
		at += 4; \
	} while (0)

	WORD(loops);
	for (uint32_t l = 0; l < loops; l++) {
		WORD(files);
		for (uint32_t f = 0; f < files; f++) {
			WORD(len);
			if (b->len - at < len)
				return SHORT;
			at += len;
		}
	}
#undef WORD
	return at == b->len ? WHOLE : EXCESS;
}

/* Send b on a new connection; 1 cut off early, 2 not closed, -1 error. */
static int send_stream(const struct buf *b, int chop)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	struct pollfd pfd;
	char sink[4096];
	size_t at = 0;
	int fd, cut = 0;

	if (inet_pton(AF_INET, cfg_addr, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)cfg_port);
	} else if (inet_pton(AF_INET6, cfg_addr, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)cfg_port);
	} else {
		error(2, 0, "-a %s: not an address", cfg_addr);
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&ss, sizeof(ss)) < 0) {
		error(0, errno, "connect %s port %d", cfg_addr, cfg_port);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/*
	 * One stream in three goes out in small pieces (TCP_NODELAY, a pause
	 * now and then), so header words arrive split across the server's
	 * reads; the rest in one go. Only the first 64 KiB are chopped.
	 */
	if (chop)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &(int){ 1 }, sizeof(int));
	while (at < b->len) {
		size_t want = b->len - at;
		ssize_t n;

		if (chop && at < 65536) {
			static const size_t piece[] = { 1, 2, 3, 5, 7, 13, 4095, 4097 };

			want = piece[below(sizeof(piece) / sizeof(piece[0]))];
			if (want > b->len - at)
				want = b->len - at;
			if (below(8) == 0) {
				struct timespec ms = { 0, 1000000 };

				nanosleep(&ms, NULL);	/* 1 ms: a pause between pieces */
			}
		}
		n = send(fd, b->p + at, want, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cut = 1;	/* EPIPE, ECONNRESET: the server ended it */
			break;
		}
		at += (size_t)n;
	}
	shutdown(fd, SHUT_WR);
	pfd.fd = fd;
	pfd.events = POLLIN;
	for (;;) {
		int r = poll(&pfd, 1, CLOSE_WAIT_MS);
		ssize_t n;

		if (r == 0) {
			close(fd);
			return 2;
		}
		if (r < 0 && errno == EINTR)
			continue;
		n = read(fd, sink, sizeof(sink));
		if (n <= 0)
			break;
	}
	close(fd);
	return cut;
}

int main(int argc, char **argv)
{
	static const char *const vname[] = { "whole", "short", "excess" };
	long whole = 0, bad = 0, cut = 0, open_left = 0;
	struct buf b = { 0 };
	int c;

	while ((c = getopt(argc, argv, "a:hn:p:s:v")) != -1) {
		switch (c) {
		case 'a': cfg_addr = optarg; break;
		case 'n': cfg_streams = (long)opt_num(c, optarg, 0, LONG_MAX); break;
		case 'p': cfg_port = (int)opt_num(c, optarg, 1, 65535); break;
		case 's': cfg_seed = strtoull(optarg, NULL, 0); break;
		case 'v': cfg_verbose = 1; break;
		case 'h':
			puts("usage: mutstream [-a ADDR] [-n STREAMS] [-s SEED] [-v] -p PORT");
			return 0;
		default:
			return 2;
		}
	}
	if (cfg_port <= 0 || cfg_port > 65535 || optind != argc)
		error(2, 0, "usage: mutstream [-a ADDR] [-n STREAMS] [-s SEED] [-v] -p PORT");
	setvbuf(stdout, NULL, _IOLBF, 0);
	rng_seed(cfg_seed, 0);
	for (long i = 0; i < cfg_streams; i++) {
		const char *what = make_stream(&b);
		enum verdict v = judge(&b);
		int chop = below(3) == 0;
		int r = send_stream(&b, chop);

		if (r < 0)
			return 1;
		if (v == WHOLE)
			whole++;
		else
			bad++;
		cut += r == 1;
		open_left += r == 2;
		if (cfg_verbose || r == 2)
			printf("stream %ld: %zu bytes%s, %s: %s%s\n", i, b.len, chop ? " in pieces" : "",
			       what, vname[v],
			       r == 1 ? ", cut off early" : r == 2 ? ", NOT CLOSED by the server" : "");
	}
	free(b.p);
	printf("mutstream: %ld streams (seed %llu): %ld whole, %ld bad; %ld cut off early, "
	       "%ld not closed by the server within %d s\n", cfg_streams, cfg_seed, whole, bad,
	       cut, open_left, CLOSE_WAIT_MS / 1000);
	return open_left ? 1 : 0;
}
