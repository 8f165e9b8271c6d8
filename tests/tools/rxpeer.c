/*
 * rxpeer - a hand-written receiver for zcc --receiver-report: accept one
 * connection, read the stream to its end, then answer as told.
 *
 *   rxpeer [-c CONNS] [-d MS] [-l LINE]... [-L N] [-R] [-H]
 *
 * Prints "listening on port N" (kernel-chosen port, loopback), then at
 * the stream's end "received: N bytes", each flushed at once.
 * -c serves CONNS connections, one after another, each alike (default 1).
 * -d waits MS milliseconds after the end before answering: a late report.
 * -l writes LINE and a newline ("{bytes}" in it becomes the count); given
 *    again, another line after it. Without -l nothing is written, as a
 *    2001 zcs does.
 * -L writes N bytes of 'a' and no newline: an oversized report.
 * -R ends with a reset (SO_LINGER 0) instead of a close.
 * -H holds the connection open after answering, until zcc closes it.
 */
#include <errno.h>
#include <error.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "app/opt.h"
#include "base/io.h"
#include "wire/net.h"

#define MAX_LINES 4

/* The options, set by main. */
static const char *lines[MAX_LINES];
static int n_lines, rst, hold;
static long long delay, oversize;

/* LINE with {bytes} made the count, and a newline, into out. */
static size_t expand(const char *line, uint64_t got, char *out, size_t len)
{
	const char *at = strstr(line, "{bytes}");

	if (!at)
		return (size_t)snprintf(out, len, "%s\n", line);
	return (size_t)snprintf(out, len, "%.*s%llu%s\n", (int)(at - line), line,
				(unsigned long long)got, at + 7);
}

/* Serve the connection fd as the options say. */
static void answer(int fd)
{
	static char buf[1 << 16];
	struct linger reset = { .l_onoff = 1, .l_linger = 0 };
	uint64_t got = 0;
	ssize_t n;

	if (fd < 0) {
		error(1, errno, "accept");
		return;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		got += (uint64_t)n;
	if (n < 0)
		error(1, errno, "read");
	printf("received: %llu bytes\n", (unsigned long long)got);
	fflush(stdout);
	if (delay)
		nanosleep(&(struct timespec){ delay / 1000, delay % 1000 * 1000000 }, NULL);
	for (int i = 0; i < n_lines; i++) {
		size_t len = expand(lines[i], got, buf, sizeof(buf));

		if (write_full(fd, buf, len < sizeof(buf) ? len : sizeof(buf) - 1) < 0)
			error(1, errno, "write");
	}
	if (oversize) {
		memset(buf, 'a', (size_t)oversize);
		if (write_full(fd, buf, (size_t)oversize) < 0)
			error(1, errno, "write");
	}
	if (hold)
		while (read(fd, buf, sizeof(buf)) > 0)
			;
	if (rst)
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
	close(fd);
}

int main(int argc, char **argv)
{
	struct net_opts o = { 0 };
	long long conns = 1;
	int opt, lfd;
	unsigned port;
	char err[256];

	while ((opt = getopt(argc, argv, "c:d:l:L:RH")) != -1) {
		switch (opt) {
		case 'c': conns = opt_num(opt, optarg, 1, 100); break;
		case 'd': delay = opt_num(opt, optarg, 0, 60000); break;
		case 'l':
			if (n_lines == MAX_LINES)
				error(2, 0, "-l: at most %d", MAX_LINES);
			lines[n_lines++] = optarg;
			break;
		case 'L': oversize = opt_num(opt, optarg, 1, 1 << 16); break;
		case 'R': rst = 1; break;
		case 'H': hold = 1; break;
		default: return 2;
		}
	}
	lfd = net_listen("127.0.0.1", 0, &o, &port, err, sizeof(err));
	if (lfd < 0)
		error(1, 0, "%s", err);
	printf("listening on port %u\n", port);
	fflush(stdout);
	while (conns-- > 0)
		answer(accept(lfd, NULL, NULL));
	close(lfd);
	return 0;
}
