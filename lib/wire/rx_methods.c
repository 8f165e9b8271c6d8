/*
 * The receive methods that need no mapping: read (2001's), discard and
 * splice.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/err.h"
#include "wire/rx_methods.h"

/* read: no hook of its own, rx_step read()s everything into the buffer. */
const struct rx_method rx_read = {
	.name = "read",
	.how = "read() into a buffer, as in 2001 (one copy to user space)",
};

/* The most one discard or splice asks for: a bound, not a buffer. */
#define TAKE_MAX (1u << 30)

static ssize_t discard_take(struct rx *r, struct proto_rx *p, char *err, size_t errlen)
{
	size_t max = p->data_left;
	ssize_t n;

	/*
	 * The header words cost a read() here, one for all the words between
	 * two files, not one a word. No fewer: MSG_TRUNC drops every byte it
	 * covers and one recv cannot drop some bytes and copy others, so the
	 * words cannot ride in the call that discards the data. Reading them with the start of the data
	 * after them saves nothing (the rest of the data still needs its
	 * MSG_TRUNC call) and copies that start.
	 */
	if (p->state != PROTO_DATA)
		return rx_read_feed(r, p, rx_words(p), err, errlen);
	if (max > TAKE_MAX)
		max = TAKE_MAX;
	/*
	 * On TCP, MSG_TRUNC drops the bytes in the kernel: nothing is copied,
	 * so max may exceed the buffer. Straight to the system call: a
	 * sanitizer's recv() would take the return for bytes written.
	 */
	n = syscall(SYS_recvfrom, r->fd, r->buf, max, MSG_TRUNC, NULL, NULL);
	if (n < 0)
		return err_fill(err, errlen, errno, "recv(MSG_TRUNC)");
	proto_rx_skip(p, (uint32_t)n);
	if (n > 0)	/* wake for whole buffers, as read does */
		rx_mark(r, (size_t)n, max);
	return n;
}

const struct rx_method rx_discard = {
	.name = "discard",
	.how = "recv(MSG_TRUNC): the kernel drops the payload, no copy",
	.take = discard_take,
};

struct splice_state {
	int pipe_rd, pipe_wr;
	int null_fd;
	size_t pipe_size;
};

static void splice_cleanup(struct rx *r)
{
	struct splice_state *s = r->priv;

	if (!s)
		return;
	close(s->pipe_rd);
	close(s->pipe_wr);
	if (s->null_fd >= 0)
		close(s->null_fd);
	free(s);
	r->priv = NULL;
}

static int splice_setup(struct rx *r, char *err, size_t errlen)
{
	struct splice_state *s;
	int fds[2], size;

	s = calloc(1, sizeof(*s));
	if (!s)
		return err_fill(err, errlen, errno, "splice: allocate");
	if (pipe2(fds, O_CLOEXEC) < 0) {
		free(s);
		return err_fill(err, errlen, errno, "splice: pipe");
	}
	s->null_fd = -1;
	s->pipe_rd = fds[0];
	s->pipe_wr = fds[1];
	r->priv = s;
	s->null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (s->null_fd < 0) {
		err_fill(err, errlen, errno, "splice: open /dev/null");
		goto fail;
	}
	/* A pipe as big as the reads asked for, when the kernel allows it. */
	if (r->bufsize > 65536 && r->bufsize <= INT_MAX)
		fcntl(s->pipe_wr, F_SETPIPE_SZ, (int)r->bufsize);
	size = fcntl(s->pipe_wr, F_GETPIPE_SZ);
	if (size <= 0) {
		err_fill(err, errlen, errno, "splice: pipe size");
		goto fail;
	}
	s->pipe_size = (size_t)size;
	return 0;
fail:
	splice_cleanup(r);
	return -1;
}

/* Empty n bytes of the pipe into /dev/null. */
static int splice_drain(struct splice_state *s, size_t n, char *err, size_t errlen)
{
	ssize_t done;

	while (n) {
		done = splice(s->pipe_rd, NULL, s->null_fd, NULL, n, SPLICE_F_MOVE);
		if (done < 0 && errno == EINTR)
			continue;
		if (done <= 0)
			return err_fill(err, errlen, done < 0 ? errno : EIO,
					"splice: pipe to /dev/null");
		n -= (size_t)done;
	}
	return 0;
}

/*
 * The pipe holds the stream's next n bytes: file data goes on to
 * /dev/null, header words are read() from the pipe into the buffer and fed.
 */
static int splice_empty(struct rx *r, struct splice_state *s, struct proto_rx *p,
			size_t n, char *err, size_t errlen)
{
	ssize_t got;
	size_t k;

	while (n) {
		if (p->state == PROTO_DATA) {
			k = n < p->data_left ? n : p->data_left;
			if (splice_drain(s, k, err, errlen) < 0)
				return -1;
			proto_rx_skip(p, (uint32_t)k);
		} else {
			k = rx_words(p);	/* 0 after the end: all of it */
			if (!k || k > n)
				k = n;
			if (k > r->bufsize)
				k = r->bufsize;
			got = read(s->pipe_rd, r->buf, k);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				return err_fill(err, errlen, got < 0 ? errno : EIO,
						"splice: read the pipe");
			k = (size_t)got;
			proto_rx_feed(p, r->buf, k);
		}
		n -= k;
	}
	return 0;
}

/*
 * One splice from the socket carries the header words with the data: inside
 * a file, its rest and the words that follow it; between files, the words
 * and as much data after them as the pipe holds. The words are then read()
 * from the pipe, between the splices that empty the data out of it: they
 * cost no call on the socket, but a pipe is first in, first out, so
 * reaching them costs that read: one of the pipe a file, where reading
 * them from the socket took two.
 */
static ssize_t splice_take(struct rx *r, struct proto_rx *p, char *err, size_t errlen)
{
	struct splice_state *s = r->priv;
	size_t max = s->pipe_size;
	ssize_t n;

	if (p->state == PROTO_DATA && p->data_left + rx_words(p) < max)
		max = p->data_left + rx_words(p);
	n = splice(r->fd, NULL, s->pipe_wr, NULL, max, SPLICE_F_MOVE);
	if (n < 0)
		return err_fill(err, errlen, errno, "splice: socket to pipe");
	if (n > 0 && splice_empty(r, s, p, (size_t)n, err, errlen) < 0)
		return -1;
	return n;
}

/* The pipe a connection will get for reads of bufsize, asked of a pipe now. */
static void splice_advise(size_t bufsize, char *note, size_t len)
{
	int fds[2], size;

	if (bufsize <= 65536 || bufsize > INT_MAX || pipe2(fds, O_CLOEXEC) < 0)
		return;
	fcntl(fds[1], F_SETPIPE_SZ, (int)bufsize);
	size = fcntl(fds[1], F_GETPIPE_SZ);
	close(fds[0]);
	close(fds[1]);
	if (size > 0 && (size_t)size < bufsize)
		snprintf(note, len, "splice: a pipe holds at most %d bytes here, not the "
			 "%zu of a read (raise fs.pipe-max-size, or run with "
			 "CAP_SYS_RESOURCE): each splice moves at most that", size, bufsize);
}

const struct rx_method rx_splice = {
	.name = "splice",
	.how = "splice() from the socket to a pipe, then to /dev/null",
	.setup = splice_setup,
	.take = splice_take,
	.cleanup = splice_cleanup,
	.advise = splice_advise,
};
