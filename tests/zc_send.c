/*
 * zc_send - a raw, scriptable stream sender for the zcs tests: well-formed
 * streams, broken ones and hostile clients, byte for byte as asked.
 *
 *   zc_send [-a ADDR] [-c CONNS] [-S SEED] -p PORT STEP...
 *
 *   -a ADDR   server address (default 127.0.0.1; ::1 works)
 *   -c CONNS  open CONNS connections first, then run the steps on each in
 *             turn (default 1): "-c 300 R" opens 300 and drops them at once
 *   -S SEED   seed for the r step (default 1)
 *
 * Steps:
 *   wN        one header word N (u32, big-endian)
 *   dN        N bytes of file data
 *   rN        N random bytes
 *   xHEX      raw bytes in hex: x0000 is half a header word
 *   fL,F,S    a whole stream: L loops of F files of S bytes each
 *   sMS       sleep MS milliseconds
 *   tN,MS     trickle N data bytes, one every MS milliseconds
 *   W         wait until the server closes; prints "closed by peer after MS ms"
 *   R         reset the connection (SO_LINGER 0, close): the server gets RST
 *
 * At the end each connection is closed normally (unless R) and the line
 * "sent N bytes" gives the total over all connections. Exit 1 on any error.
 */
#include <errno.h>
#include <error.h>
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

static unsigned char data[65536];
static unsigned long long sent;

static void put(int fd, const void *p, size_t len)
{
	if (write_full(fd, p, len) < 0)
		error(1, errno, "write after %llu bytes", sent);
	sent += len;
}

static void put_data(int fd, unsigned long long n)
{
	while (n) {
		size_t k = n < sizeof(data) ? (size_t)n : sizeof(data);

		put(fd, data, k);
		n -= k;
	}
}

static void put_word(int fd, uint32_t v)
{
	unsigned char w[PROTO_WORD];

	proto_put_u32(w, v);
	put(fd, w, sizeof(w));
}

static void sleep_ms(long long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* "A,B,C" into exactly n numbers, or die naming the step. */
static void numbers(const char *step, const char *s, long long *v, int n)
{
	char tmp[64], *tok, *save;
	const char *why;
	int i = 0;

	snprintf(tmp, sizeof(tmp), "%s", s);
	for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (i == n)
			error(2, 0, "step '%s': too many numbers", step);
		if (parse_num(tok, 0, 0xffffffffLL, &v[i++], &why) < 0)
			error(2, 0, "step '%s': %s", step, why);
	}
	if (i < n)
		error(2, 0, "step '%s': wants %d number(s)", step, n);
}

static void step(int fd, const char *s)
{
	long long v[3] = { 0, 0, 0 };
	unsigned char b;
	char hex[3] = "";
	uint64_t t0;
	int i, j, k;

	switch (s[0]) {
	case 'w':
		numbers(s, s + 1, v, 1);
		put_word(fd, (uint32_t)v[0]);
		break;
	case 'd':
		numbers(s, s + 1, v, 1);
		put_data(fd, (unsigned long long)v[0]);
		break;
	case 'r':
		numbers(s, s + 1, v, 1);
		while (v[0] > 0) {
			unsigned char rnd[4096];

			k = v[0] < (long long)sizeof(rnd) ? (int)v[0] : (int)sizeof(rnd);
			for (i = 0; i < k; i++)
				rnd[i] = (unsigned char)rand();
			put(fd, rnd, (size_t)k);
			v[0] -= k;
		}
		break;
	case 'x':
		for (i = 1; s[i] && s[i + 1]; i += 2) {
			hex[0] = s[i];
			hex[1] = s[i + 1];
			b = (unsigned char)strtoul(hex, NULL, 16);
			put(fd, &b, 1);
		}
		break;
	case 'f':
		numbers(s, s + 1, v, 3);
		put_word(fd, (uint32_t)v[0]);
		for (i = 0; i < v[0]; i++) {
			put_word(fd, (uint32_t)v[1]);
			for (j = 0; j < v[1]; j++) {
				put_word(fd, (uint32_t)v[2]);
				put_data(fd, (unsigned long long)v[2]);
			}
		}
		break;
	case 's':
		numbers(s, s + 1, v, 1);
		sleep_ms(v[0]);
		break;
	case 't':
		numbers(s, s + 1, v, 2);
		for (k = 0; k < v[0]; k++) {
			put_data(fd, 1);
			sleep_ms(v[1]);
		}
		break;
	case 'W':
		t0 = now_ns();
		while (read(fd, &b, 1) > 0)
			;
		printf("closed by peer after %llu ms\n",
		       (unsigned long long)((now_ns() - t0) / 1000000));
		break;
	case 'R': {
		struct linger lin = { .l_onoff = 1, .l_linger = 0 };

		setsockopt(fd, SOL_SOCKET, SO_LINGER, &lin, sizeof(lin));
		break;
	}
	default:
		error(2, 0, "unknown step '%s'", s);
	}
}

int main(int argc, char **argv)
{
	const char *addr = "127.0.0.1";
	unsigned port = 0;
	long long conns = 1, seed = 1;
	char err[256];
	int c, i, a, *fds;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt(argc, argv, "+a:c:p:S:")) != -1) {
		switch (c) {
		case 'a':
			addr = optarg;
			break;
		case 'c':
			conns = opt_num(c, optarg, 1, 10000);
			break;
		case 'p':
			port = (unsigned)opt_num(c, optarg, 1, 65535);
			break;
		case 'S':
			seed = opt_num(c, optarg, 0, 0xffffffffLL);
			break;
		default:
			return 2;
		}
	}
	if (!port)
		error(2, 0, "-p PORT is required");
	srand((unsigned)seed);
	memset(data, 'z', sizeof(data));
	fds = calloc((size_t)conns, sizeof(*fds));
	if (!fds)
		error(1, errno, "calloc");
	for (i = 0; i < conns; i++) {
		fds[i] = net_connect(addr, port, NULL, err, sizeof(err));
		if (fds[i] < 0)
			error(1, 0, "%s", err);
	}
	for (i = 0; i < conns; i++) {
		for (a = optind; a < argc; a++)
			step(fds[i], argv[a]);
	}
	for (i = 0; i < conns; i++)
		close(fds[i]);
	free(fds);
	printf("sent %llu bytes\n", sent);
	return 0;
}
