/*
 * The default method: sendfile() from the file to the socket, no copy in
 * user space. The header words waiting in front of a file's data go by a
 * send() with MSG_MORE that the kernel holds for the file's first page
 * (see sendfile_file for why this way); Nagle's algorithm is off for a
 * file of 64 KiB or more (see NODELAY_MIN).
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <sys/socket.h>

#include "base/clock.h"
#include "base/err.h"
#include "wire/tx_internal.h"

/*
 * A file goes on in pieces, each one sendfile() straight to the socket that
 * returns only when the piece is in the socket. A piece grows while calls
 * return within PIECE_FAST_NS and shrinks when one takes PIECE_SLOW_NS, so
 * on a slow link a call lasts some tens of ms (interval lines and a stall
 * limit see progress) and on a fast one it moves up to TX_PIECE_MAX (a
 * system call per 4 MiB costs nothing measurable).
 */
#define PIECE_MIN (64u << 10)
#define PIECE_FAST_NS 10000000u
#define PIECE_SLOW_NS 40000000u

/*
 * Each sendfile() pushes its last, short segment, or Nagle's algorithm
 * holds it for an ACK. A file of NODELAY_MIN bytes or more fills full
 * segments of its own whatever the MTU (loopback's is 64 KiB), so holding
 * its tail only delays it: those go with TCP_NODELAY. Smaller files keep
 * Nagle, which packs several of them into one segment: below the line,
 * sending each small file at once costs more than the packing saves;
 * above it, waiting for an ACK only stalls the next file (zcc(1), NOTES).
 * A corked connection (-k) is left as it is: TCP_NODELAY would push what
 * the cork holds.
 */
#define NODELAY_MIN (64u << 10)

struct sendfile_state {
	size_t piece;		/* the next call's size */
	int nodelay;		/* TCP_NODELAY is on */
	int corked;		/* TCP_CORK was on when the stream began */
};

static int sendfile_setup(struct tx *t, char *err, size_t errlen)
{
	struct sendfile_state *s = calloc(1, sizeof(*s));
	socklen_t len = sizeof(s->corked);

	if (!s)
		return err_fill(err, errlen, errno, "sendfile: memory");
	s->piece = PIECE_MIN;
	if (getsockopt(t->sock, IPPROTO_TCP, TCP_CORK, &s->corked, &len) < 0)
		s->corked = 0;
	t->priv = s;
	return 0;
}

static void sendfile_cleanup(struct tx *t, struct tx_file *files, uint32_t n)
{
	(void)files;
	(void)n;
	free(t->priv);
	t->priv = NULL;
}

/* The size of the next piece after a call moved n bytes in ns. */
static size_t piece_next(size_t piece, size_t n, uint64_t ns)
{
	if (ns >= PIECE_SLOW_NS && piece > PIECE_MIN)
		return piece / 2;
	if (ns < PIECE_FAST_NS && n == piece && piece < TX_PIECE_MAX)
		return piece * 2;
	return piece;
}

/* TCP_NODELAY on for a file of NODELAY_MIN bytes or more, off for one
 * smaller: a system call only when that changes. */
static int nodelay_for(struct tx *t, struct sendfile_state *s, uint64_t size,
		       char *err, size_t errlen)
{
	int want = !s->corked && size >= NODELAY_MIN;

	if (want == s->nodelay)
		return 0;
	if (setsockopt(t->sock, IPPROTO_TCP, TCP_NODELAY, &want, sizeof(want)) < 0)
		return err_fill(err, errlen, errno, "set TCP_NODELAY to %d", want);
	s->nodelay = want;
	return 0;
}

/*
 * Two system calls a file, the fewest sendfile() allows (it takes no
 * header: Linux's has no hdtr): send() of the words with MSG_MORE, which
 * holds them in the socket for the data, then sendfile() of the file,
 * whose first page joins them in one segment. Routing the words through
 * a pipe (write, sendfile into it, splice out) takes three calls a file,
 * and batching files through one pipe still more than two: more calls,
 * never fewer bytes on the wire.
 */
static int sendfile_file(struct tx *t, const struct tx_file *f, char *err, size_t errlen)
{
	struct sendfile_state *s = t->priv;
	off_t off = 0;
	uint64_t t0;
	ssize_t n;

	if (nodelay_for(t, s, f->size, err, errlen) < 0)
		return -1;
	if (t->hdr_len && tx_put(t, t->hdr, t->hdr_len, MSG_MORE, 0, "send", err, errlen) < 0)
		return -1;
	t->hdr_len = 0;
	while (off < (off_t)f->size) {
		if (*t->stop)
			return tx_stopped(t, err, errlen);
		tx_call_begin(t);
		t0 = now_ns();
		n = sendfile(t->sock, f->fd, &off, tx_min_size(f->size - (size_t)off, s->piece));
		if (n > 0) {
			tx_account(t, (uint64_t)n);
			s->piece = piece_next(s->piece, (size_t)n, now_ns() - t0);
		} else if (n == 0) {
			return tx_shrank(f, (uint64_t)off, err, errlen);
		} else if (errno != EINTR || *t->stop) {
			return tx_fail(t, f, "sendfile", err, errlen);
		}
	}
	return 0;
}

const struct tx_method tx_sendfile = {
	.name = "sendfile",
	.how = "sendfile() from the file (no copy), the words ahead by send(MSG_MORE)",
	.flags = TX_PAGES,
	.setup = sendfile_setup,
	.send_file = sendfile_file,
	.cleanup = sendfile_cleanup,
};
