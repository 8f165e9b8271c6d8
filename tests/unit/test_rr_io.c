/*
 * lib/wire/rr_io.c over a socketpair: rr_sniff_fd tells a stream from an
 * RR hello by the first bytes without taking them, however they arrive,
 * and gives up at its bound; rr_read reads whole, says a short end, and
 * gives up on EINTR only when the stop is set.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "wire/proto.h"
#include "wire/rr_io.h"
#include "unit/t.h"

static int pair[2];

static void fresh(void)
{
	if (pair[0] > 0) {
		close(pair[0]);
		close(pair[1]);
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) < 0)
		CHECK(0, "socketpair: %s", strerror(errno));
}

static void put(const void *b, size_t n)
{
	CHECK(write(pair[1], b, n) == (ssize_t)n, "write %zu bytes", n);
}

static void sniffing(void)
{
	unsigned char hello[RR_HELLO_LEN], stream[8], back[8];
	struct rr_hello h = { .run = 7, .req_bytes = 1, .resp_bytes = 1, .proto = RR_TCP,
			      .mode = RR_MODE_RR };
	uint64_t t0;

	rr_hello_encode(hello, &h);
	proto_put_u32(stream, 3);
	proto_put_u32(stream + 4, 2);

	fresh();
	put(stream, 4);
	CHECK(rr_sniff_fd(pair[0], 1000, NULL) == RR_SNIFF_STREAM, "a stream by its first word");
	CHECK(read(pair[0], back, 4) == 4 && !memcmp(back, stream, 4), "its bytes left in place");

	fresh();
	put(hello, 4);		/* the first word alone does not decide */
	t0 = now_ns();
	CHECK(rr_sniff_fd(pair[0], 50, NULL) == RR_SNIFF_MORE, "half a hello: undecided at the bound");
	CHECK(now_ns() - t0 >= 50000000u && now_ns() - t0 < 2000000000u, "the bound kept");
	put(hello + 4, RR_HELLO_LEN - 4);
	CHECK(rr_sniff_fd(pair[0], 1000, NULL) == RR_SNIFF_RR, "the rest: a hello");
	CHECK(read(pair[0], hello, RR_HELLO_LEN) == RR_HELLO_LEN, "the hello left whole");

	fresh();
	proto_put_u32(stream, RR_HELLO_W0);	/* a stream of exactly that many loops */
	put(stream, 8);
	CHECK(rr_sniff_fd(pair[0], 1000, NULL) == RR_SNIFF_STREAM, "n_loops W0 with 2 files: a stream");

	fresh();
	put(stream, 2);
	close(pair[1]);
	pair[1] = dup(pair[0]);	/* keep the pair closable */
	shutdown(pair[0], SHUT_WR);
	t0 = now_ns();
	CHECK(rr_sniff_fd(pair[0], 5000, NULL) == RR_SNIFF_STREAM, "two bytes, then the end: a stream");
	CHECK(now_ns() - t0 < 2000000000u, "said at the end, not at the bound");

	fresh();
	CHECK(rr_sniff_fd(pair[0], 30, NULL) == RR_SNIFF_MORE, "silence: undecided at the bound");
}

static void reading(void)
{
	unsigned char b[16];
	size_t got;

	fresh();
	put("abcdef", 6);
	CHECK(rr_read(pair[0], b, 6, &got, NULL) == 0 && got == 6, "whole");
	put("ab", 2);
	close(pair[1]);
	pair[1] = dup(pair[0]);
	shutdown(pair[0], SHUT_WR);
	CHECK(rr_read(pair[0], b, 6, &got, NULL) == 1 && got == 2, "a short end: 1, with what came");
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	sniffing();
	reading();
	return t_exit();
}
