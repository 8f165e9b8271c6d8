/*
 * zerocopy: send(MSG_ZEROCOPY) from a mapping of the file. The kernel pins
 * the mapped pages instead of copying them and, once it is done with them,
 * queues a notification on the socket's error queue: a range of send
 * numbers, and whether it had to copy after all (loopback and another
 * namespace of the same machine always do). The mapping must outlive its
 * sends, so finish() waits for every notification and only cleanup unmaps.
 */
#include "wire/tx_zc.h"

#include <errno.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/err.h"
#include "wire/tx_host.h"

#ifndef SO_EE_ORIGIN_ZEROCOPY	/* uapi headers older than Linux 4.14 */
#define SO_EE_ORIGIN_ZEROCOPY 5
#define SO_EE_CODE_ZEROCOPY_COPIED 1
#endif

/* Reap the error queue without waiting after this many sends, so that the
 * notifications (charged to the socket's optmem) cannot pile up. */
#define ZC_REAP_EVERY 16

/* Room for the header words of about 5000 files (see zc_send_file). */
#define ZC_WORDS_ARENA 65536

struct zc {
	uint32_t issued;	/* MSG_ZEROCOPY sends that took data */
	uint32_t done;		/* of them, notified as complete */
	unsigned char *words;	/* ZC_WORDS_ARENA bytes, lent to the kernel */
	size_t words_used;
};

int tx_map_fault(struct tx *t, const struct tx_file *f, const char *method, int e,
		 uint64_t off, char *err, size_t errlen)
{
	struct tx_host host;
	struct stat st;
	char hint[256];

	tx_host_read(&host);
	/* The offset the send reached, as the copy methods say it (the file's
	 * new size is no count of what went). */
	if (e == EFAULT && fstat(f->fd, &st) == 0 && (uint64_t)st.st_size < f->size)
		return tx_shrank(f, off, err, errlen);
	err_fill(err, errlen, 0, "%s: send to %s: %s%s", method, t->peer, strerror(e),
		 tx_pinned_hint(e, &host, tx_zc_pinned(t, method),
				strcmp(method, "zerocopy") == 0, hint, sizeof(hint)));
	errno = e;
	return -1;
}

uint64_t tx_zc_pinned(const struct tx *t, const char *method)
{
	int sndbuf = 0;
	socklen_t len = sizeof(sndbuf);

	if (strcmp(method, "uring-zc") == 0)
		return TX_URING_PINNED * (uint64_t)t->chunk;
	if (strcmp(method, "zerocopy") != 0)
		return 0;
	if (getsockopt(t->sock, SOL_SOCKET, SO_SNDBUF, &sndbuf, &len) < 0 || sndbuf <= 0)
		sndbuf = 0;
	return (uint64_t)sndbuf + t->chunk;
}

/* Before connecting: SO_ZEROCOPY on a socket of our own, the pages in the limit. */
static int zc_usable(size_t chunk, char *err, size_t errlen)
{
	struct tx_host host;
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), rc;

	if (fd < 0)
		fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return err_fill(err, errlen, errno, "zerocopy: a socket to ask the kernel");
	rc = setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one));
	close(fd);
	if (rc < 0)
		return err_fill(err, errlen, errno,
				"zerocopy: the kernel refuses MSG_ZEROCOPY (SO_ZEROCOPY)");
	tx_host_read(&host);
	/* A chunk's pages at least, pinned until the peer acknowledges them. */
	return tx_memlock_short("zerocopy", &host, chunk + 4096, err, errlen) ? -1 : 0;
}

static int zc_setup(struct tx *t, char *err, size_t errlen)
{
	int one = 1;

	if (setsockopt(t->sock, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) < 0)
		return err_fill(err, errlen, errno,
				"zerocopy: the kernel refuses MSG_ZEROCOPY (SO_ZEROCOPY)");
	struct zc *z = calloc(1, sizeof(*z));

	if (z)
		z->words = malloc(ZC_WORDS_ARENA);
	if (!z || !z->words) {
		free(z);
		return err_fill(err, errlen, errno, "zerocopy");
	}
	t->priv = z;
	return 0;
}

/* Count one notification: send numbers ee_info..ee_data, wrapping. */
static int zc_count(struct tx *t, const struct sock_extended_err *ee,
		    char *err, size_t errlen)
{
	struct zc *z = t->priv;
	uint32_t n = ee->ee_data - ee->ee_info + 1;

	if (ee->ee_origin != SO_EE_ORIGIN_ZEROCOPY || ee->ee_errno) {
		errno = ee->ee_errno ? (int)ee->ee_errno : EPROTO;
		return err_fill(err, errlen, errno, "zerocopy: error queue of %s", t->peer);
	}
	z->done += n;
	t->zc_sends += n;
	if (ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
		t->zc_copied += n;
	return 0;
}

/* Take every notification now on the error queue; never waits. Returns
 * how many sends they completed, or -1. */
static int64_t zc_reap(struct tx *t, char *err, size_t errlen)
{
	uint64_t before = t->zc_sends;
	char control[CMSG_SPACE(sizeof(struct sock_extended_err) + sizeof(struct sockaddr_in6))];
	struct msghdr msg;
	struct cmsghdr *cm;

	for (;;) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		if (recvmsg(t->sock, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return (int64_t)(t->zc_sends - before);
			if (errno == EINTR)
				continue;
			return err_fill(err, errlen, errno, "zerocopy: error queue of %s", t->peer);
		}
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			if (!(cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_RECVERR) &&
			    !(cm->cmsg_level == SOL_IPV6 && cm->cmsg_type == IPV6_RECVERR))
				continue;
			if (zc_count(t, (const void *)CMSG_DATA(cm), err, errlen) < 0)
				return -1;
		}
	}
}

/* Wait until a notification (or a socket error) is there, then reap. */
static int zc_wait(struct tx *t, char *err, size_t errlen)
{
	struct pollfd pfd = { .fd = t->sock, .events = 0 };
	const struct zc *z = t->priv;
	int64_t reaped;
	int soerr = 0;
	socklen_t len = sizeof(soerr);

	if (poll(&pfd, 1, -1) < 0) {
		if (errno != EINTR)
			return err_fill(err, errlen, errno, "zerocopy: poll");
		if (*t->stop)
			return tx_stopped(t, err, errlen);
		return 0;
	}
	reaped = zc_reap(t, err, errlen);
	if (reaped < 0)
		return -1;
	if (reaped > 0)
		return 0;
	/* Woken with no notification: the connection failed (POLLERR), or
	 * was shut down (POLLHUP: a stall limit) with sends that cannot
	 * complete. */
	if (getsockopt(t->sock, SOL_SOCKET, SO_ERROR, &soerr, &len) == 0 && soerr) {
		errno = soerr;
		return err_fill(err, errlen, soerr, "zerocopy: send to %s", t->peer);
	}
	errno = EPIPE;
	if (pfd.revents & (POLLHUP | POLLNVAL))
		return err_fill(err, errlen, EPIPE, "zerocopy: send to %s (%u sends not"
				" completed)", t->peer, (unsigned)(z->issued - z->done));
	return 0;
}

/*
 * Send the words w (wlen bytes) and then len bytes of buf with flags, all of
 * them, in as few sendmsg() calls as the kernel allows: partial sends are
 * resumed, a full optmem (ENOBUFS, too many notifications held) is reaped
 * and retried. off is buf's offset in f (NULL: buf is no file's).
 */
static int zc_send_all(struct tx *t, const struct tx_file *f, uint64_t off,
		       const unsigned char *w, size_t wlen,
		       const char *buf, size_t len, int flags, char *err, size_t errlen)
{
	struct zc *z = t->priv;
	struct iovec iov[2];
	struct msghdr msg = { .msg_iov = iov };
	size_t words;
	ssize_t n;

	while (wlen + len > 0) {
		if (*t->stop)
			return tx_stopped(t, err, errlen);
		iov[0] = (struct iovec){ (void *)w, wlen };
		iov[1] = (struct iovec){ (void *)buf, len };
		msg.msg_iov = wlen ? iov : iov + 1;
		msg.msg_iovlen = wlen ? 2 : 1;
		tx_call_begin(t);
		n = sendmsg(t->sock, &msg, flags | MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;	/* *t->stop is looked at above */
			if (errno == ENOBUFS && z->done != z->issued) {
				if (zc_wait(t, err, errlen) < 0)
					return -1;
				continue;
			}
			if (f)
				return tx_map_fault(t, f, "zerocopy", errno, off, err, errlen);
			return err_fill(err, errlen, errno, "zerocopy: send to %s", t->peer);
		}
		tx_account(t, (uint64_t)n);
		words = (size_t)n < wlen ? (size_t)n : wlen;
		w += words;
		wlen -= words;
		n -= (ssize_t)words;
		off += (uint64_t)n;
		buf += n;
		len -= (size_t)n;
		if (!(flags & MSG_ZEROCOPY))
			continue;
		if (++z->issued % ZC_REAP_EVERY == 0 && zc_reap(t, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* Wait until the kernel holds no page of ours: every send notified. */
static int zc_settle(struct tx *t, char *err, size_t errlen)
{
	struct zc *z = t->priv;

	if (zc_reap(t, err, errlen) < 0)
		return -1;
	while (z->done != z->issued)
		if (zc_wait(t, err, errlen) < 0)
			return -1;
	return 0;
}

/*
 * The pending header words ride in the first sendmsg() of the file's data,
 * an iovec of their own in front of the first chunk (no system call and no
 * segment of their own: a send(MSG_MORE) of them first cost one call a
 * file). With MSG_ZEROCOPY the kernel pins the words' page as it pins the
 * file's, so they must not change until their send is notified: each
 * file's words get a fresh place in an arena, and a full arena is reused
 * only once every send has been notified (one wait per some 5000 files).
 */
static int zc_send_file(struct tx *t, const struct tx_file *f, char *err, size_t errlen)
{
	struct zc *z = t->priv;
	const char *p = f->map;
	const unsigned char *w = NULL;
	size_t wlen = t->hdr_len;
	uint32_t left = f->size;
	size_t n;

	if (f->size == 0)
		return 0;	/* the words wait for data to ride with */
	if (wlen) {
		if (z->words_used + wlen > ZC_WORDS_ARENA) {
			if (zc_settle(t, err, errlen) < 0)
				return -1;
			z->words_used = 0;
		}
		w = z->words + z->words_used;
		memcpy(z->words + z->words_used, t->hdr, wlen);
		z->words_used += wlen;
		t->hdr_len = 0;
	}
	while (left > 0) {
		n = left < t->chunk ? left : t->chunk;
		if (zc_send_all(t, f, f->size - left, w, wlen, p, n, MSG_ZEROCOPY,
				err, errlen) < 0)
			return -1;
		wlen = 0;
		p += n;
		left -= (uint32_t)n;
	}
	return 0;
}

static int zc_finish(struct tx *t, char *err, size_t errlen)
{
	return zc_settle(t, err, errlen);
}

static void zc_cleanup(struct tx *t, struct tx_file *files, uint32_t n_files)
{
	struct zc *z = t->priv;

	tx_map_close(files, n_files);
	if (z)
		free(z->words);
	free(z);
	t->priv = NULL;
}

const struct tx_method tx_zerocopy = {
	.name = "zerocopy",
	.how = "send(MSG_ZEROCOPY) from a mapping, completions from the error queue",
	.flags = TX_CHUNKED,
	.usable = zc_usable,
	.setup = zc_setup,
	.open_file = tx_map_open,
	.send_file = zc_send_file,
	.finish = zc_finish,
	.cleanup = zc_cleanup,
};
