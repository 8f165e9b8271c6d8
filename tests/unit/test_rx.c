/*
 * The receive methods (lib/wire/rx.h) against streams a local sender writes over
 * TCP loopback: each method must take exactly the bytes sent, whole, cut
 * short (inside data, inside a header word) or overlong, and leave the
 * stream checker where the bytes say.
 */
#include <errno.h>
#include <pthread.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "base/io.h"
#include "wire/net.h"
#include "wire/proto.h"
#include "wire/rx.h"
#include "unit/t.h"

struct stream {
	unsigned char *buf;
	size_t len;
};

struct sender {
	unsigned port;
	const struct stream *s;
	int rc;
};

/* Encode loops x files (sizes[]) with patterned data; extra bytes appended. */
static struct stream build(uint32_t loops, const uint32_t *sizes, uint32_t nfiles,
			   size_t extra)
{
	struct stream s;
	uint64_t data = 0;
	size_t at = 0;
	uint32_t l, f, i;

	for (f = 0; f < nfiles; f++)
		data += sizes[f];
	s.len = (size_t)proto_stream_bytes(loops, nfiles, data) + extra;
	s.buf = malloc(s.len);
	if (!s.buf)
		abort();
	proto_put_u32(s.buf, loops);
	at = PROTO_WORD;
	for (l = 0; l < loops; l++) {
		proto_put_u32(s.buf + at, nfiles);
		at += PROTO_WORD;
		for (f = 0; f < nfiles; f++) {
			proto_put_u32(s.buf + at, sizes[f]);
			at += PROTO_WORD;
			for (i = 0; i < sizes[f]; i++)
				s.buf[at++] = (unsigned char)(i * 7 + f);
		}
	}
	memset(s.buf + at, 0xab, extra);
	return s;
}

static void *send_stream(void *arg)
{
	struct sender *snd = arg;
	char err[256];
	int fd;

	fd = net_connect("127.0.0.1", snd->port, NULL, err, sizeof(err));
	if (fd < 0) {
		snd->rc = -1;
		return NULL;
	}
	snd->rc = write_full(fd, snd->s->buf, snd->s->len);
	close(fd);
	return NULL;
}

struct result {
	int rc;			/* 0 at EOF, -1 on an error */
	uint64_t returned;	/* sum of rx_step's returns */
	struct proto_rx p;
	uint64_t zc_mapped, zc_copied;
	char err[256];
};

/* Receive s by method m with bufsize-byte reads; fills res. */
static void receive(const struct rx_method *m, const struct stream *s,
		    size_t bufsize, struct result *res)
{
	struct sender snd = { .s = s };
	struct rx r = { .bufsize = bufsize };
	pthread_t th;
	ssize_t n;
	int lfd;

	memset(res, 0, sizeof(*res));
	res->rc = -1;
	lfd = net_listen("127.0.0.1", 0, NULL, &snd.port, res->err, sizeof(res->err));
	if (lfd < 0)
		return;
	pthread_create(&th, NULL, send_stream, &snd);
	r.fd = accept(lfd, NULL, NULL);
	r.buf = rx_buffer(bufsize);
	proto_rx_init(&res->p);
	if (r.fd >= 0 && r.buf && rx_open(m, &r, res->err, sizeof(res->err)) == 0) {
		do {
			n = rx_step(m, &r, &res->p, res->err, sizeof(res->err));
			if (n > 0)
				res->returned += (uint64_t)n;
		} while (n > 0 || (n < 0 && errno == EINTR));
		res->rc = n < 0 ? -1 : 0;
		rx_close(m, &r);
	}
	pthread_join(th, NULL);
	res->zc_mapped = r.zc_mapped;
	res->zc_copied = r.zc_copied;
	free(r.buf);
	if (r.fd >= 0)
		close(r.fd);
	close(lfd);
}

static const uint32_t sizes[] = { 100000, 0, 300001, 5, 1 << 20, 4096 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
/*
 * For 3-byte reads: the same shapes (an empty file, odd sizes, a page),
 * small, as every read is a system call (4 MB of them took 2 s a method).
 */
static const uint32_t small_sizes[] = { 1000, 0, 3001, 5, 4096 };
#define NSMALL (sizeof(small_sizes) / sizeof(small_sizes[0]))

static void one_method(const struct rx_method *m)
{
	struct stream whole = build(3, sizes, NSIZES, 0);
	struct stream excess = build(2, sizes, NSIZES, 10);
	struct stream small = build(3, small_sizes, NSMALL, 0);
	struct stream cut = whole;
	struct result res;
	const char *nm = m->name;

	receive(m, &whole, 16384, &res);
	CHECK(res.rc == 0 && proto_rx_complete(&res.p), "%s: a whole stream is complete (%s)",
	      nm, res.err);
	CHECK(res.p.bytes == whole.len && res.returned == whole.len,
	      "%s: every byte counted: %llu and %llu of %zu", nm,
	      (unsigned long long)res.p.bytes, (unsigned long long)res.returned, whole.len);
	if (strcmp(nm, "zerocopy") == 0)
		CHECK(res.zc_mapped + res.zc_copied == whole.len - proto_stream_bytes(3, NSIZES, 0),
		      "%s: %llu mapped + %llu copied: every data byte, no header byte", nm,
		      (unsigned long long)res.zc_mapped, (unsigned long long)res.zc_copied);

	receive(m, &small, 3, &res);
	CHECK(res.rc == 0 && proto_rx_complete(&res.p) && res.p.bytes == small.len,
	      "%s: a whole stream with 3-byte reads (%llu of %zu)", nm,
	      (unsigned long long)res.p.bytes, small.len);

	cut.len = whole.len - 1000;
	receive(m, &cut, 16384, &res);
	CHECK(res.rc == 0 && res.p.state == PROTO_DATA && res.p.bytes == cut.len,
	      "%s: cut inside data: stops in data with %llu of %zu bytes", nm,
	      (unsigned long long)res.p.bytes, cut.len);

	cut.len = whole.len - 4096 - 200000;	/* deep in the 1 MiB file */
	receive(m, &cut, 16384, &res);
	CHECK(res.rc == 0 && res.p.state == PROTO_DATA && res.p.bytes == cut.len,
	      "%s: cut with pages of data still to come: %llu of %zu bytes (%s)", nm,
	      (unsigned long long)res.p.bytes, cut.len, res.err);

	cut.len = PROTO_WORD * 2 + 2;
	receive(m, &cut, 16384, &res);
	CHECK(res.rc == 0 && res.p.state == PROTO_LENGTH && res.p.word_have == 2 &&
	      res.p.bytes == cut.len, "%s: cut inside a length word: 2 of 4 bytes", nm);

	receive(m, &excess, 16384, &res);
	CHECK(res.p.state == PROTO_EXCESS && res.p.excess == 10 && res.p.bytes == excess.len,
	      "%s: 10 bytes too many: excess 10, %llu of %zu bytes counted", nm,
	      (unsigned long long)res.p.bytes, excess.len);
	free(whole.buf);
	free(excess.buf);
	free(small.buf);
}

/* rx_words and rx_feed on a stream fed by hand: 2 loops of files 3 and 0. */
static void words_and_feed(void)
{
	static const uint32_t two[] = { 3, 0 };
	struct stream s = build(2, two, 2, 0);
	struct proto_rx p;

	proto_rx_init(&p);
	CHECK(rx_words(&p) == 12, "at the start: 12 bytes of words certain (%zu)", rx_words(&p));
	CHECK(rx_feed(&p, s.buf, 5) == 0 && rx_words(&p) == 7,
	      "5 bytes in: none data, 7 bytes of words to come");
	CHECK(rx_feed(&p, s.buf + 5, 8) == 1 && p.state == PROTO_DATA && rx_words(&p) == 4,
	      "into the first file: 1 data byte, its next file's length word follows");
	/* the rest of file 1, the empty file's length, then loop 2's words */
	CHECK(rx_feed(&p, s.buf + 13, 10) == 2 && p.state == PROTO_LENGTH && rx_words(&p) == 4,
	      "past an empty file into loop 2: 2 data bytes of 10, a length word next");
	CHECK(rx_feed(&p, s.buf + 23, 5) == 1 && rx_words(&p) == 4,
	      "the last loop's first file: a length word still follows it");
	CHECK(rx_feed(&p, s.buf + 28, s.len - 28) == 2 && proto_rx_complete(&p) &&
	      rx_words(&p) == 0 && p.bytes == s.len, "the end: complete, no words to come");
	free(s.buf);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int lowat_of(int fd)
{
	socklen_t len = sizeof(int);
	int v = -1;

	getsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &v, &len);
	return v;
}

/* Until fd has n bytes queued (loopback delivers at once; 2 s at most). */
static void queued(int fd, int n)
{
	struct timespec ms = { 0, 1000000L };
	int have = 0, i;

	for (i = 0; i < 2000 && (ioctl(fd, FIONREAD, &have) < 0 || have < n); i++)
		nanosleep(&ms, NULL);
}

/* One rx_step of the read method, timed: its return and seconds in *secs. */
static ssize_t timed_step(struct rx *r, struct proto_rx *p, double *secs)
{
	char err[256];
	double t0 = now_s();
	ssize_t n = rx_step(rx_methods[0], r, p, err, sizeof(err));

	*secs = now_s() - t0;
	return n;
}

static void on_tick(int sig)
{
	(void)sig;
}

#define LW 16384
#define LB 65536		/* a buffer of 64 KiB: the mark at two of them */
#define LB2 131072	/* two such buffers */

/* fd polls readable now: what the kernel's wake-up of a reader asks. */
static int readable(int fd)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };

	return poll(&pf, 1, 0) == 1 && (pf.revents & POLLIN);
}

/* The next n bytes of stream s down snd, and until they are queued at fd. */
static void put(int snd, int fd, const struct stream *s, size_t *at, size_t n)
{
	int have = 0;

	ioctl(fd, FIONREAD, &have);
	write_full(snd, s->buf + *at, n);
	*at += n;
	queued(fd, have + (int)n);
}

/*
 * A loopback connection for method m's wake-up mark: r (a buffer of size
 * bytes) opened on its accepted end with a 1 s receive timeout, the guard
 * against a hang; *lfd the listener, *snd the sender. -1, said as not ok,
 * when any of it failed (the descriptors go with the test's exit).
 */
static int mark_conn(const struct rx_method *m, struct rx *r, int *lfd, int *snd, size_t size)
{
	struct timeval guard = { 1, 0 };
	char err[256] = "";
	unsigned port;

	*lfd = net_listen("127.0.0.1", 0, NULL, &port, err, sizeof(err));
	*snd = net_connect("127.0.0.1", port, NULL, err, sizeof(err));
	r->fd = accept(*lfd, NULL, NULL);
	r->buf = rx_buffer(size);
	if (!m || *lfd < 0 || *snd < 0 || r->fd < 0 || !r->buf || rx_open(m, r, err, sizeof(err))) {
		CHECK(0, "a loopback connection for %s's wake-up mark: %s", m ? m->name : "?", err);
		free(r->buf);
		return -1;
	}
	setsockopt(r->fd, SOL_SOCKET, SO_RCVTIMEO, &guard, sizeof(guard));
	return 0;
}

/* Close what mark_conn opened (r's buffer stays). */
static void mark_close(const struct rx_method *m, struct rx *r, int lfd, int snd)
{
	rx_close(m, r);
	close(r->fd);
	close(snd);
	close(lfd);
}

/*
 * The read method's wake-up mark (rx_mark, read_step): raised to the
 * buffer (of 16 KiB) after a full read; what is queued taken at once, mark
 * or not; in force for a read that must wait (a short tail waits), back
 * to 1 byte after; never holding back a stream's end or a tick's signal. Waits are
 * judged against a 1 s receive timeout, the guard against a hang:
 * "waited" is 0.5 s or more, "at once" under 0.5 s.
 */
static void lowat(void)
{
	static const uint32_t big[] = { 1 << 20 };
	struct stream s = build(1, big, 1, 0);
	struct itimerval tick = { .it_value = { 0, 200000 } };
	struct sigaction sa = { .sa_handler = on_tick };	/* no SA_RESTART */
	struct rx r = { .bufsize = LW };
	struct proto_rx p;
	char err[256];
	int lfd, snd, pfd[2], was;
	size_t at = 0;
	double secs;
	ssize_t n;

	if (mark_conn(rx_methods[0], &r, &lfd, &snd, LW) < 0) {
		free(s.buf);
		return;
	}
	proto_rx_init(&p);
	CHECK(lowat_of(r.fd) == 1 && r.lowat == 1, "a new connection wakes for 1 byte");

	put(snd, r.fd, &s, &at, 3 * LW + 100);
	n = timed_step(&r, &p, &secs);
	CHECK(n == LW && lowat_of(r.fd) == LW && r.lowat == LW,
	      "a full read raises the mark to the buffer (%zd bytes, mark %d)", n, lowat_of(r.fd));
	n = timed_step(&r, &p, &secs);
	n += timed_step(&r, &p, &secs);
	CHECK(n == (ssize_t)2 * LW && lowat_of(r.fd) == LW, "full reads keep it there");
	n = timed_step(&r, &p, &secs);
	CHECK(n == 100 && secs < 0.5 && lowat_of(r.fd) == LW,
	      "a reader behind its sender takes what is queued at once (%zd after %.2f s)", n, secs);

	put(snd, r.fd, &s, &at, 100);
	n = timed_step(&r, &p, &secs);
	CHECK(n == 100 && secs >= 0.5,
	      "in force: a read that must wait waits for a buffer (%zd bytes after %.2f s)", n, secs);
	CHECK(lowat_of(r.fd) == 1 && r.lowat == 1, "a short wait puts the mark back to 1 byte");
	put(snd, r.fd, &s, &at, 100);
	n = timed_step(&r, &p, &secs);
	CHECK(n == 100 && secs < 0.5, "then 100 bytes come at once (%zd after %.2f s)", n, secs);

	/* zcs's ticks: a signal ends the wait with what has come. */
	put(snd, r.fd, &s, &at, LW + 100);
	timed_step(&r, &p, &secs);
	timed_step(&r, &p, &secs);
	put(snd, r.fd, &s, &at, 100);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &tick, NULL);
	n = timed_step(&r, &p, &secs);
	signal(SIGALRM, SIG_IGN);
	CHECK(n == 100 && secs >= 0.1 && secs < 0.5 && lowat_of(r.fd) == 1,
	      "raised, a tick's signal returns the 100 bytes queued (%zd after %.2f s)", n, secs);

	/* The end of the stream is never held back. */
	put(snd, r.fd, &s, &at, LW + 100);
	timed_step(&r, &p, &secs);
	timed_step(&r, &p, &secs);
	put(snd, r.fd, &s, &at, 100);
	shutdown(snd, SHUT_WR);
	was = lowat_of(r.fd);
	n = timed_step(&r, &p, &secs);
	CHECK(n == 100 && secs < 0.5 && was == LW, "raised (%d), the last 100 bytes and the "
	      "end come at once (%zd after %.2f s)", was, n, secs);
	n = timed_step(&r, &p, &secs);
	CHECK(n == 0 && secs < 0.5 && p.bytes == at, "then the end: 0, every byte counted "
	      "(%llu of %zu)", (unsigned long long)p.bytes, at);
	mark_close(rx_methods[0], &r, lfd, snd);

	/* Not a socket: the option is refused, and reads go on without it. */
	if (pipe(pfd) == 0) {
		r.fd = pfd[0];
		rx_open(rx_methods[0], &r, err, sizeof(err));
		proto_rx_init(&p);
		write_full(pfd[1], s.buf, LW + 100);
		n = timed_step(&r, &p, &secs);
		CHECK(n == LW && r.lowat == 0, "refused (a pipe): the mark is given up (%d)", r.lowat);
		n = timed_step(&r, &p, &secs);
		CHECK(n == 100 && p.bytes == LW + 100, "and the reads go on (%zd)", n);
		close(pfd[0]);
		close(pfd[1]);
	}
	free(r.buf);
	free(s.buf);
}

/*
 * A buffer of 64 KiB or more: a full read raises the mark to two buffers.
 * The kernel wakes a sleeping reader, and poll() says readable, only once
 * that much is queued; a read that finds a buffer queued takes it at once.
 */
static void mark_two(void)
{
	static const uint32_t big[] = { 1 << 20 };
	struct stream s = build(1, big, 1, 0);
	struct rx r = { .bufsize = LB };
	struct proto_rx p;
	int lfd, snd;
	size_t at = 0;
	double secs;
	ssize_t n;

	if (mark_conn(rx_methods[0], &r, &lfd, &snd, LB) < 0) {
		free(s.buf);
		return;
	}
	proto_rx_init(&p);
	put(snd, r.fd, &s, &at, LB + LB / 2);
	n = timed_step(&r, &p, &secs);
	CHECK(n == LB && lowat_of(r.fd) == LB2 && r.lowat == LB2,
	      "a full read of 64 KiB raises the mark to two buffers (%zd bytes, mark %d)",
	      n, lowat_of(r.fd));
	n = timed_step(&r, &p, &secs);
	CHECK(n == LB / 2 && secs < 0.5, "what is queued is taken at once (%zd)", n);
	put(snd, r.fd, &s, &at, LB + 100);
	CHECK(!readable(r.fd), "a buffer and 100 bytes queued: not yet readable");
	put(snd, r.fd, &s, &at, LB - 100);
	CHECK(readable(r.fd), "two buffers queued: readable");
	n = timed_step(&r, &p, &secs);
	n += timed_step(&r, &p, &secs);
	CHECK(n == LB2 && secs < 0.5 && lowat_of(r.fd) == LB2,
	      "both taken at once, the mark kept (%zd bytes)", n);
	mark_close(rx_methods[0], &r, lfd, snd);
	free(r.buf);
	free(s.buf);
}

/*
 * discard's wake-up mark: as read's, a call that dropped all it asked for
 * or a buffer's worth raises it; one that must wait waits,
 * then puts it back to 1 byte. The same 1 s guard as above.
 */
static void discard_mark(void)
{
	static const uint32_t big[] = { 1 << 20 };
	struct stream s = build(1, big, 1, 0);
	struct rx r = { .bufsize = LW };
	const struct rx_method *m = rx_find("discard");
	struct proto_rx p;
	char err[256];
	int lfd, snd;
	size_t at = 0;
	double t0;
	ssize_t n;

	if (mark_conn(m, &r, &lfd, &snd, LW) < 0) {
		free(s.buf);
		return;
	}
	proto_rx_init(&p);
	put(snd, r.fd, &s, &at, 3 * LW + 100);
	n = rx_step(m, &r, &p, err, sizeof(err));	/* the header words */
	n += rx_step(m, &r, &p, err, sizeof(err));
	CHECK(n == 3 * LW + 100 && lowat_of(r.fd) == LW,
	      "discard drops what is queued, more than a buffer: the mark raised "
	      "(%zd bytes, mark %d)", n, lowat_of(r.fd));
	put(snd, r.fd, &s, &at, 100);
	t0 = now_s();
	n = rx_step(m, &r, &p, err, sizeof(err));
	CHECK(n == 100 && now_s() - t0 >= 0.5 && lowat_of(r.fd) == 1,
	      "in force: a drop that must wait waits for a buffer, then the mark is "
	      "1 byte again (%zd bytes after %.2f s)", n, now_s() - t0);
	mark_close(m, &r, lfd, snd);
	free(r.buf);
	free(s.buf);
}

/*
 * rx_place on a stream fed by hand, one loop of two 128 KiB files, reads
 * of 128 KiB expected (and one of 16 KiB): before the words, the first file's byte 0 goes on a line;
 * inside a file with half a buffer or more of it left, its byte X at X
 * mod 64; with less left, the next file's byte 0 on a line; at the end, 0.
 */
static void placing(void)
{
	static const uint32_t two[] = { 131072, 131072 };
	struct stream s = build(1, two, 2, 0);
	struct proto_rx p;
	size_t at, b = 131072, pl;

	proto_rx_init(&p);
	pl = rx_place(&p, b);
	CHECK(pl < RX_PLACE_MAX && (pl + 12) % 64 == 0,
	      "the start: 12 bytes of words, placed at %zu, the data's byte 0 on a line", pl);
	at = 12 + 1000;
	rx_feed(&p, s.buf, at);
	pl = rx_place(&p, b);
	CHECK(pl == 1000 % 64, "1000 bytes into a file: placed at its byte's own offset (%zu)", pl);
	rx_feed(&p, s.buf + at, 99000);
	at += 99000;
	pl = rx_place(&p, b);
	CHECK(pl < RX_PLACE_MAX && (pl + (131072 - 100000) + 4) % 64 == 0,
	      "31072 bytes left of a file: the next file's byte 0 on a line (%zu)", pl);
	pl = rx_place(&p, 16384);
	CHECK(pl == 100000 % 64,
	      "the same, a read of 16 KiB expected: this file's byte at its own offset (%zu)", pl);
	rx_feed(&p, s.buf + at, s.len - at);
	CHECK(proto_rx_complete(&p) && rx_place(&p, b) == 0, "the end: placed at 0");
	free(s.buf);
}

/*
 * Where the read method's reads land (read_step): found by their bytes in a
 * buffer filled with a mark beforehand, not by asking rx_place. Files of
 * 5000 and 3000 bytes down a socket pair, 4096-byte reads: the first
 * file's byte 0 and then the second's lie on a 64-byte line.
 */
static ssize_t landed(struct rx *r, struct proto_rx *p, const unsigned char *want,
		      size_t *where)
{
	char err[256];
	ssize_t n;

	memset(r->buf, 0xee, r->bufsize + RX_PLACE_MAX);
	n = rx_step(rx_methods[0], r, p, err, sizeof(err));
	*where = RX_PLACE_MAX;
	for (size_t o = 0; n > 0 && o < RX_PLACE_MAX; o++)
		if (memcmp(r->buf + o, want, (size_t)n) == 0) {
			*where = o;
			break;
		}
	return n;
}

static void read_placing(void)
{
	static const uint32_t two[] = { 5000, 3000 };
	struct stream s = build(1, two, 2, 0);
	struct rx r = { .bufsize = 4096 };
	struct proto_rx p;
	int sv[2] = { -1, -1 };
	char err[256];
	size_t o = RX_PLACE_MAX;
	ssize_t n = -1, n2;

	proto_rx_init(&p);
	r.buf = rx_buffer(r.bufsize);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 && r.buf &&
	    write_full(sv[1], s.buf, s.len) == 0) {
		r.fd = sv[0];
		if (rx_open(rx_methods[0], &r, err, sizeof(err)) == 0)
			n = landed(&r, &p, s.buf, &o);
	}
	CHECK(n == 4096 && o < RX_PLACE_MAX && (uintptr_t)(r.buf + o + 12) % 64 == 0,
	      "the first read (%zd bytes) put the first file's byte 0 on a line (at %zu)", n, o);
	if (n == 4096) {
		/* 916 bytes of the first file left, then a length word */
		n2 = landed(&r, &p, s.buf + 4096, &o);
		CHECK(n2 > 920 && o < RX_PLACE_MAX && (uintptr_t)(r.buf + o + 920) % 64 == 0,
		      "the next read (%zd bytes) put the second file's byte 0 on a line (at %zu)", n2, o);
	}
	close(sv[0]);
	close(sv[1]);
	free(r.buf);
	free(s.buf);
}

/* rx_buffer: each size's buffer starts a page, and holds its bytes. */
static void buffers(void)
{
	static const size_t want[] = { 0, 1, 16384, 65536, 131072, 358400 };
	unsigned char *b;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		b = rx_buffer(want[i]);
		CHECK(b && ((uintptr_t)b & 4095) == 0, "rx_buffer(%zu) starts a page (%p)",
		      want[i], (void *)b);
		if (b)	/* and the placing's bytes after them */
			memset(b, 'x', want[i] + RX_PLACE_MAX);
		free(b);
	}
}

int main(void)
{
	int i;

	words_and_feed();
	placing();
	read_placing();
	lowat();
	mark_two();
	discard_mark();
	buffers();

	CHECK(rx_methods[0] && strcmp(rx_methods[0]->name, "read") == 0,
	      "the default method is read");
	CHECK(rx_find("discard") == rx_methods[1] && rx_find("nonesuch") == NULL,
	      "rx_find finds by name, NULL for an unknown one");
	for (i = 0; rx_methods[i]; i++)
		one_method(rx_methods[i]);
	return t_exit();
}
