/*
 * The receive side's lookup, a connection's set-up and clean-up, its one
 * step, and the helpers the methods share to keep the stream checker's
 * count exact.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/err.h"
#include "wire/rx.h"

const struct rx_method *rx_find(const char *name)
{
	int i;

	for (i = 0; rx_methods[i]; i++)
		if (strcmp(rx_methods[i]->name, name) == 0)
			return rx_methods[i];
	return NULL;
}

void rx_advise(const struct rx_method *m, size_t bufsize, char *note, size_t len)
{
	note[0] = '\0';
	if (m->advise)
		m->advise(bufsize, note, len);
}

int rx_probe(const struct rx_method *m, char *err, size_t errlen)
{
	return m->probe ? m->probe(err, errlen) : 0;
}

int rx_open(const struct rx_method *m, struct rx *r, char *err, size_t errlen)
{
	r->zc_mapped = r->zc_copied = 0;
	r->lowat = 1;
	r->full = 0;
	r->last = 0;
	r->priv = NULL;
	return m->setup ? m->setup(r, err, errlen) : 0;
}

/*
 * Aligned to a page (64 bytes at least), with RX_PLACE_MAX bytes spare
 * behind it: the kernel's copy to user memory runs fastest when source
 * and destination share their offset within a cache line, and a read
 * placed at an offset of up to RX_PLACE_MAX - 1 (rx_place) can keep them
 * so.
 */
unsigned char *rx_buffer(size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;
	int rc;

	rc = posix_memalign(&p, page >= 64 ? (size_t)page : 64, size + RX_PLACE_MAX);
	if (rc) {
		errno = rc;
		return NULL;
	}
	return p;
}

void rx_close(const struct rx_method *m, struct rx *r)
{
	if (m->cleanup)
		m->cleanup(r);
}

size_t rx_words(const struct proto_rx *p)
{
	switch (p->state) {
	case PROTO_N_LOOPS:
		return (size_t)3 * PROTO_WORD - p->word_have;
	case PROTO_N_FILES:
		return (size_t)2 * PROTO_WORD - p->word_have;
	case PROTO_LENGTH:
		return PROTO_WORD - p->word_have;
	case PROTO_DATA:
		if (p->file + 1 < p->n_files)
			return PROTO_WORD;
		if (p->loop + 1 < p->n_loops)
			return (size_t)2 * PROTO_WORD;
		return 0;
	default:
		return 0;
	}
}

size_t rx_feed(struct proto_rx *p, const unsigned char *b, size_t n)
{
	size_t data = 0, k;

	/* In pieces that each stay in one state, so that the data among
	 * them is counted; the checker itself walks them in bulk. */
	while (n) {
		if (p->state == PROTO_DATA) {
			k = n < p->data_left ? n : p->data_left;
			data += k;
		} else if (p->state >= PROTO_END) {
			k = n;
		} else {
			k = PROTO_WORD - p->word_have;
			if (k > n)
				k = n;
		}
		proto_rx_feed(p, b, k);
		b += k;
		n -= k;
	}
	return data;
}

ssize_t rx_read_feed(struct rx *r, struct proto_rx *p, size_t want, char *err,
		     size_t errlen)
{
	ssize_t n;

	if (!want || want > r->bufsize)
		want = r->bufsize;
	n = read(r->fd, r->buf, want);
	if (n < 0)
		return err_fill(err, errlen, errno, "read");
	if (n > 0)
		proto_rx_feed(p, r->buf, (size_t)n);
	return n;
}

/*
 * Wake for whole buffers (two of 64 KiB or more, one smaller), not for
 * every segment, while the stream comes faster than it is read (rx.h:
 * rx_mark). By default a blocked read() wakes as soon as any byte is
 * queued: against a fast sender, each wake-up finds one or two segments,
 * so the reader sleeps and wakes many times a buffer and the sender pays
 * for every wake-up it causes. A read that filled the buffer says the data
 * is waiting for us: SO_RCVLOWAT then asks the kernel to wake the reader
 * only once that much is queued, and the reads after the wake-up take it
 * without waiting (read_step). A read that came back short says it is not
 * (the stream slowed, a tick's signal, the end): back to the kernel's 1
 * byte, so a slow stream is counted as it comes. Nothing waits longer than
 * it would have for those buffers: the kernel still wakes the reader at
 * the end of the stream, when its receive window is nearly shut, and for
 * a signal (zcs's ticks), with what has come. The kernel may grant less
 * than asked (half the receive buffer at most): what it granted is what a
 * full read is judged by. Should it refuse the option, reads wake on
 * every byte, the kernel's default.
 *
 * Why two buffers for a buffer of RX_MARK_TWO_MIN or more, and not more:
 * each wake-up the mark saves is a wake-up the sender no longer pays for,
 * but while the receiver sleeps longer its CPU goes deeper idle, and on a
 * path with one receive queue the sender then pays more to wake it than
 * the receiver saved. Below a loopback segment (64 KiB) a read already
 * takes a segment or less per wake-up, and a second buffer saves nothing.
 */
#define RX_MARK_BUFS 2
#define RX_MARK_TWO_MIN (64u << 10)

void rx_mark(struct rx *r, size_t got, size_t asked)
{
	size_t full = asked < r->bufsize ? asked : r->bufsize;
	socklen_t len = sizeof(int);
	size_t bufs;
	int want;

	if (!r->lowat)
		return;
	if (r->lowat == 1 && got < full)
		return;
	if (r->lowat > 1 && (got >= (size_t)r->lowat || got >= full))
		return;
	bufs = r->bufsize >= RX_MARK_TWO_MIN ? RX_MARK_BUFS : 1;
	want = r->lowat > 1 ? 1 : r->bufsize < INT_MAX / 2 / bufs ?
	       (int)(r->bufsize * bufs) : INT_MAX / 2;
	if (setsockopt(r->fd, SOL_SOCKET, SO_RCVLOWAT, &want, sizeof(want)) < 0 ||
	    getsockopt(r->fd, SOL_SOCKET, SO_RCVLOWAT, &r->lowat, &len) < 0 ||
	    r->lowat < 1 || (want > 1 && r->lowat == 1))
		r->lowat = 0;
}

/*
 * The kernel copies a segment's data to user memory piece by piece from
 * the pages it came in, and the copy runs slower when the piece and its
 * destination sit at different offsets within a 64-byte line (see
 * rx_buffer). A file sent from the page cache (sendfile, splice) comes in
 * its own pages, so its byte at offset X sits at X mod 64 of a line; the
 * 2001 protocol's words between files shift the stream, so a buffer at
 * page + 0 meets most files' data off its line. The read goes to where
 * the file it mostly holds lines up: the current file's, or when less than
 * half of what the read is expected to take is left of it, the next one's
 * (expected: as much as the last read took, a whole buffer at first; a
 * reader that keeps up takes less than a buffer each time). How much it
 * saves depends on the machine and its state; it never costs a call.
 */
size_t rx_place(const struct proto_rx *p, size_t expect)
{
	size_t m = RX_PLACE_MAX - 1;

	if (p->state == PROTO_DATA && p->data_left >= expect / 2)
		return (p->length - p->data_left) & m;	/* X at X mod 64 */
	if (p->state == PROTO_DATA)	/* the next file's byte 0 at 0 mod 64 */
		return (RX_PLACE_MAX - ((p->data_left + rx_words(p)) & m)) & m;
	return (RX_PLACE_MAX - (rx_words(p) & m)) & m;
}

/* A read of the read method took n bytes (or failed) into b. */
static void took(struct rx *r, struct proto_rx *p, const unsigned char *b, ssize_t n)
{
	r->full = n == (ssize_t)r->bufsize;
	if (n > 0) {
		r->last = (size_t)n;
		proto_rx_feed(p, b, (size_t)n);
	}
}

/*
 * The read method's step. With the wake-up mark raised, a read that must
 * sleep sleeps until the mark's worth has come (rx_mark), but one that
 * need not should not wait for the mark: after a read that filled the
 * buffer (more is likely queued) a non-blocking recv() takes what is
 * there, and only after a short one, or with nothing queued, does read()
 * wait. A receiver that keeps up with its sender then sleeps once a mark,
 * and one that lags behind it does not sleep at all: zcs(1)'s NOTES have
 * the figures.
 */
static ssize_t read_step(struct rx *r, struct proto_rx *p, char *err, size_t errlen)
{
	unsigned char *b = r->buf + rx_place(p, r->last ? r->last : r->bufsize);
	ssize_t n;

	if (r->lowat > 1 && r->full) {
		n = recv(r->fd, b, r->bufsize, MSG_DONTWAIT);
		took(r, p, b, n);
		if (n >= 0)
			return n;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return err_fill(err, errlen, errno, "read");
	}
	n = read(r->fd, b, r->bufsize);
	took(r, p, b, n);
	if (n < 0)
		return err_fill(err, errlen, errno, "read");
	if (n > 0)
		rx_mark(r, (size_t)n, r->bufsize);
	return n;
}

ssize_t rx_step(const struct rx_method *m, struct rx *r, struct proto_rx *p,
		char *err, size_t errlen)
{
	uint64_t t0 = r->call_hist ? now_ns() : 0;
	ssize_t n;

	if (m->take)
		n = m->take(r, p, err, errlen);
	else	/* the read method reads whole buffers, headers and data alike */
		n = read_step(r, p, err, errlen);
	if (n > 0)
		__atomic_store_n(&r->calls, r->calls + 1, __ATOMIC_RELAXED);
	if (n > 0 && r->call_hist)
		hist_record(r->call_hist, now_ns() - t0);
	return n;
}
