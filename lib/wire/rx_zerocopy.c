/*
 * zerocopy: TCP_ZEROCOPY_RECEIVE. A read-only area is mmap()ed on the
 * socket itself; getsockopt(TCP_ZEROCOPY_RECEIVE) then maps whole pages of
 * received payload into it instead of copying them. What the kernel cannot
 * map (a part page, payload not page-aligned in its buffers, as on
 * loopback) it copies in the same call into our buffer (copybuf, Linux
 * 5.11), or, lacking that, reports in recv_skip_hint for a recv(). Both
 * counts are kept: zc_mapped, zc_copied (file data only). The mapped pages
 * are dropped after each call, so the area is reused.
 *
 * The header words come in the same call as the data around them: a call
 * asks for the rest of the file and the words after it (between files, for
 * as much as the area holds), and the words are fed to the checker from
 * where they landed, the copied bytes or the first bytes of a mapped page:
 * no recv() or read() of their own. On loopback nothing is page aligned,
 * so all of it is copied, a buffer a call.
 */
#include <errno.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/err.h"
#include "wire/rx_methods.h"

/* The area: at least this big, or the buffer's size if that is bigger. */
#define ZC_AREA_MIN (512u << 10)

struct zc_state {
	void *area;
	size_t area_size;
	size_t page;
	int copybuf;	/* the kernel copies what it cannot map */
	int flowing;	/* the last call took bytes: try the next without poll */
	int err;	/* a socket error the kernel handed over early */
};

static void zc_cleanup(struct rx *r)
{
	struct zc_state *s = r->priv;

	if (!s)
		return;
	if (s->area != MAP_FAILED)
		munmap(s->area, s->area_size);
	free(s);
	r->priv = NULL;
}

/*
 * One TCP_ZEROCOPY_RECEIVE call asking for want bytes into the area, and
 * for at most copy bytes the kernel cannot map into the buffer.
 */
static int zc_receive(const struct rx *r, const struct zc_state *s, size_t want,
		      size_t copy, struct tcp_zerocopy_receive *zc)
{
	socklen_t len = sizeof(*zc);

	memset(zc, 0, sizeof(*zc));
	zc->address = (uint64_t)(uintptr_t)s->area;
	zc->length = (uint32_t)want;
	if (s->copybuf) {
		zc->copybuf_address = (uint64_t)(uintptr_t)r->buf;
		zc->copybuf_len = (int32_t)copy;
	}
	return getsockopt(r->fd, IPPROTO_TCP, TCP_ZEROCOPY_RECEIVE, zc, &len);
}

/*
 * A fresh, unconnected socket asked for nothing: a kernel that knows the
 * option answers (nothing to map), one that does not says ENOPROTOOPT.
 */
static int zc_probe(char *err, size_t errlen)
{
	struct tcp_zerocopy_receive zc;
	socklen_t len = sizeof(zc);
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0), rc, saved;

	if (fd < 0)
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return err_fill(err, errlen, errno, "zerocopy: socket");
	memset(&zc, 0, sizeof(zc));
	rc = getsockopt(fd, IPPROTO_TCP, TCP_ZEROCOPY_RECEIVE, &zc, &len);
	saved = errno;
	close(fd);
	if (rc < 0 && (saved == ENOPROTOOPT || saved == EOPNOTSUPP))
		return err_fill(err, errlen, saved, "zerocopy: TCP_ZEROCOPY_RECEIVE");
	return 0;
}

static int zc_setup(struct rx *r, char *err, size_t errlen)
{
	struct tcp_zerocopy_receive zc;
	struct zc_state *s;
	size_t size = r->bufsize > ZC_AREA_MIN ? r->bufsize : ZC_AREA_MIN;
	int rc;

	s = calloc(1, sizeof(*s));
	if (!s)
		return err_fill(err, errlen, errno, "zerocopy: allocate");
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->area_size = (size + s->page - 1) / s->page * s->page;
	s->area = mmap(NULL, s->area_size, PROT_READ, MAP_SHARED, r->fd, 0);
	r->priv = s;
	if (s->area == MAP_FAILED) {
		err_fill(err, errlen, errno, "zerocopy: mmap() of the socket");
		goto fail;
	}
	/*
	 * Asking for nothing tells whether the kernel knows the option. EIO:
	 * it does, and the peer has closed with nothing queued. A kernel
	 * before 5.11 refuses the copy buffer's fields (EINVAL): without.
	 */
	s->copybuf = 1;
	rc = zc_receive(r, s, 0, 0, &zc);
	if (rc < 0 && errno == EINVAL) {
		s->copybuf = 0;
		rc = zc_receive(r, s, 0, 0, &zc);
	}
	if (rc < 0 && errno != EIO) {
		err_fill(err, errlen, errno, "zerocopy: TCP_ZEROCOPY_RECEIVE");
		goto fail;
	}
	/* The kernel writes the copy buffer from inside a getsockopt(),
	 * which valgrind cannot see: defined once here, it stays so. */
	if (s->copybuf)
		memset(r->buf, 0, r->bufsize);
	return 0;
fail:
	zc_cleanup(r);
	return -1;
}

/* recv() at most n bytes (0: a buffer) and feed them; data counts as copied. */
static ssize_t zc_copy(struct rx *r, struct proto_rx *p, size_t n, int flags,
		       char *err, size_t errlen)
{
	ssize_t got;

	if (!n || n > r->bufsize)
		n = r->bufsize;
	got = recv(r->fd, r->buf, n, flags);
	if (got < 0)
		return err_fill(err, errlen, errno, "zerocopy: recv");
	r->zc_copied += rx_feed(p, r->buf, (size_t)got);
	return got;
}

/*
 * Nothing to map or skip: the end of the stream, or an error. An error
 * handed over with data still queued comes now. A reset whose error the
 * kernel gave to no call (seen on Linux 6.18: recv() says 0, SO_ERROR 0)
 * still shows in the state: after the peer's FIN a socket we have not
 * closed waits in CLOSE_WAIT; only a reset (or a timeout) puts it in CLOSE.
 */
#define TCPI_CLOSE 7	/* TCP_CLOSE: <netinet/tcp.h> has it, <linux/tcp.h> not */
static ssize_t zc_end(struct rx *r, struct zc_state *s, struct proto_rx *p,
		      char *err, size_t errlen)
{
	struct tcp_info ti = { 0 };
	socklen_t len = sizeof(ti);
	ssize_t got;

	if (s->err)
		return err_fill(err, errlen, s->err, "zerocopy");
	got = zc_copy(r, p, 0, 0, err, errlen);
	if (got == 0 && getsockopt(r->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0 &&
	    ti.tcpi_state == TCPI_CLOSE)
		return err_fill(err, errlen, ECONNRESET, "zerocopy");
	return got;
}

static ssize_t zc_take(struct rx *r, struct proto_rx *p, char *err, size_t errlen)
{
	struct zc_state *s = r->priv;
	struct tcp_zerocopy_receive zc;
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	size_t want = s->area_size, mapped, copied;
	int polled = 0;

	/* In a file: its rest and the words after it; between files, all the
	 * area holds (the words' bytes are fed wherever they land). */
	if (p->state == PROTO_DATA && p->data_left + rx_words(p) < want)
		want = p->data_left + rx_words(p);
	/*
	 * TCP_ZEROCOPY_RECEIVE never waits, so poll() waits for it; but while
	 * bytes keep coming, the next call is tried first and poll() only
	 * when it finds nothing: a flowing stream then costs almost no
	 * poll() at all.
	 */
again:
	if (!s->flowing) {
		if (poll(&pfd, 1, -1) < 0)
			return err_fill(err, errlen, errno, "zerocopy: poll");
		polled = 1;
	}
	if (zc_receive(r, s, want, r->bufsize, &zc) < 0) {
		/* EIO: the stream is over and nothing is queued. A reset
		 * leaves its error pending, which recv() would not report
		 * (it sees the end first): SO_ERROR says. */
		s->flowing = 0;
		if (errno == EIO)
			return zc_end(r, s, p, err, errlen);
		return err_fill(err, errlen, errno, "zerocopy: TCP_ZEROCOPY_RECEIVE");
	}
	/* The error may come with data still queued (a reset behind it):
	 * the data first, as read() gives it, then the error. */
	if (zc.err && !s->err)
		s->err = zc.err < 0 ? -zc.err : zc.err;
	/* The mapped bytes come first in the stream, then the copied ones. */
	mapped = zc.length;
	if (mapped) {
		r->zc_mapped += rx_feed(p, s->area, mapped);
		/* Let the pages go back to the kernel; the area is reused. */
		madvise(s->area, mapped, MADV_DONTNEED);
	}
	copied = s->copybuf && zc.copybuf_len > 0 ? (size_t)zc.copybuf_len : 0;
	if (copied)
		r->zc_copied += rx_feed(p, r->buf, copied);
	s->flowing = mapped + copied > 0;
	if (s->flowing)
		return (ssize_t)(mapped + copied);
	if (!polled && !zc.recv_skip_hint && !s->err)
		goto again;	/* nothing queued yet: wait for it */
	/* Nothing taken: bytes the kernel would neither map nor copy (a
	 * kernel without copybuf; less than a page queued, more than the
	 * buffer holds) are recv()ed; none at all is the end or an error. */
	if (!zc.recv_skip_hint)
		return zc_end(r, s, p, err, errlen);
	return zc_copy(r, p, zc.recv_skip_hint < want ? zc.recv_skip_hint : want, 0,
		       err, errlen);
}

const struct rx_method rx_zerocopy = {
	.name = "zerocopy",
	.how = "TCP_ZEROCOPY_RECEIVE: payload pages mapped, not copied, where the kernel can",
	.probe = zc_probe,
	.setup = zc_setup,
	.take = zc_take,
	.cleanup = zc_cleanup,
};
