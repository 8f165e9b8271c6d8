/*
 * sink - a test receiver for zcc: accept one connection and swallow it.
 *
 *   sink [-a ADDR] [-r RCVBUF] [-g GOFILE] [-x BYTES] [-o OUTFILE] [-H]
 *
 * Prints "listening on port N" (kernel-chosen port), "accepted" once the
 * connection is in, and "received: N bytes" at EOF, each flushed at once.
 * -o writes the stream to OUTFILE, to pin the bytes on the wire.
 * -g waits for GOFILE to exist before reading anything, so that a test can
 *    hold the sender blocked on full buffers while it changes something.
 * -x vanishes after BYTES bytes: a close with SO_LINGER 0, i.e. a reset,
 *    as a server dying mid-stream looks to the sender.
 * -H holds the connection open after EOF (until killed): a server that
 *    read everything but never closes.
 */
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "app/opt.h"
#include "base/io.h"
#include "wire/net.h"
#include "tools/listen_once.h"

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	struct net_opts o = { 0 };
	struct linger reset = { .l_onoff = 1, .l_linger = 0 };
	const struct timespec poll_go = { 0, 10000000 };
	const char *addr = NULL, *go = NULL, *out_path = NULL;
	long long vanish = -1;
	uint64_t got = 0;
	int opt, fd, out = -1, hold = 0;
	ssize_t n;
	size_t want;

	while ((opt = getopt(argc, argv, "a:r:g:x:o:H")) != -1) {
		switch (opt) {
		case 'a': addr = optarg; break;
		case 'r': o.rcvbuf = (int)opt_num(opt, optarg, 1, 1 << 30); break;
		case 'g': go = optarg; break;
		case 'x': vanish = opt_num(opt, optarg, 0, INT64_MAX); break;
		case 'o': out_path = optarg; break;
		case 'H': hold = 1; break;
		default: return 2;
		}
	}
	if (out_path) {
		out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out < 0)
			error(1, errno, "%s", out_path);
	}
	fd = listen_once(addr, &o);
	printf("accepted\n");
	fflush(stdout);
	while (go && access(go, F_OK) < 0)
		nanosleep(&poll_go, NULL);
	for (;;) {
		want = sizeof(buf);
		if (vanish >= 0 && (uint64_t)vanish - got < want)
			want = (size_t)((uint64_t)vanish - got);
		if (want == 0) {
			setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
			close(fd);
			printf("vanished after %llu bytes\n", (unsigned long long)got);
			return 0;
		}
		n = read(fd, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			error(1, errno, "read");
		if (n == 0)
			break;
		got += (uint64_t)n;
		if (out >= 0 && write_full(out, buf, (size_t)n) < 0)
			error(1, errno, "%s", out_path);
	}
	printf("received: %llu bytes\n", (unsigned long long)got);
	fflush(stdout);
	if (hold)
		for (;;)
			pause();	/* until a signal ends us */
	return 0;
}
