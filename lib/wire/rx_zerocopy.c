/*
 * zerocopy: TCP_ZEROCOPY_RECEIVE. A read-only area is mmap()ed on the
 * socket itself; getsockopt(TCP_ZEROCOPY_RECEIVE) then maps whole pages of
 * received payload into it instead of copying them. What the kernel cannot
 * map (a part page, payload not page-aligned in its buffers, as on
 * loopback) it reports in recv_skip_hint, and those bytes are recv()ed
 * normally. Both counts are kept: zc_mapped, zc_copied. The mapped pages
 * are dropped after each call, so the area is reused.
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

/* The area: at least this big, or -b if that is bigger. */
#define ZC_AREA_MIN (512u << 10)

struct zc_state {
	void *area;
	size_t area_size;
	size_t page;
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

/* One TCP_ZEROCOPY_RECEIVE call asking for want bytes into the area. */
static int zc_receive(const struct rx *r, const struct zc_state *s, size_t want,
		      struct tcp_zerocopy_receive *zc)
{
	socklen_t len = sizeof(*zc);

	memset(zc, 0, sizeof(*zc));
	zc->address = (uint64_t)(uintptr_t)s->area;
	zc->length = (uint32_t)want;
	return getsockopt(r->fd, IPPROTO_TCP, TCP_ZEROCOPY_RECEIVE, zc, &len);
}

static int zc_setup(struct rx *r, char *err, size_t errlen)
{
	struct tcp_zerocopy_receive zc;
	struct zc_state *s;
	size_t size = r->bufsize > ZC_AREA_MIN ? r->bufsize : ZC_AREA_MIN;

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
	 * it does, and the peer has closed with nothing queued.
	 */
	if (zc_receive(r, s, 0, &zc) < 0 && errno != EIO) {
		err_fill(err, errlen, errno, "zerocopy: TCP_ZEROCOPY_RECEIVE");
		goto fail;
	}
	return 0;
fail:
	zc_cleanup(r);
	return -1;
}

/* recv() n bytes the kernel would not map; count them as copied. */
static ssize_t zc_copy(struct rx *r, size_t n, int flags, char *err, size_t errlen)
{
	ssize_t got;

	if (n > r->bufsize)
		n = r->bufsize;
	got = recv(r->fd, r->buf, n, flags);
	if (got < 0)
		return err_fill(err, errlen, errno, "zerocopy: recv");
	r->zc_copied += (uint64_t)got;
	return got;
}

/*
 * Nothing to map or skip: the end of the stream, or an error. An error
 * handed over with data still queued comes now. A reset whose error the
 * kernel gave to no call (seen on Linux 6.18: recv() says 0, SO_ERROR 0)
 * still shows in the state: after the peer's FIN a socket we have not
 * closed waits in CLOSE_WAIT; only a reset (or a timeout) puts it in CLOSE.
 */
static ssize_t zc_end(struct rx *r, struct zc_state *s, size_t max, char *err,
		      size_t errlen)
{
	struct tcp_info ti = { 0 };
	socklen_t len = sizeof(ti);
	ssize_t got;

	if (s->err)
		return err_fill(err, errlen, s->err, "zerocopy");
	got = zc_copy(r, max, 0, err, errlen);
	if (got == 0 && getsockopt(r->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0 &&
	    ti.tcpi_state == 7 /* TCP_CLOSE */)
		return err_fill(err, errlen, ECONNRESET, "zerocopy");
	return got;
}

static ssize_t zc_take(struct rx *r, size_t max, char *err, size_t errlen)
{
	struct zc_state *s = r->priv;
	struct tcp_zerocopy_receive zc;
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	size_t want = (max < s->area_size ? max : s->area_size) / s->page * s->page;
	size_t mapped, hint;
	ssize_t copied;

	if (!want)	/* less than a page to come: no page can be mapped */
		return zc_copy(r, max, 0, err, errlen);
	if (poll(&pfd, 1, -1) < 0)
		return err_fill(err, errlen, errno, "zerocopy: poll");
	if (zc_receive(r, s, want, &zc) < 0) {
		/* EIO: the stream is over and nothing is queued. A reset
		 * leaves its error pending, which recv() would not report
		 * (it sees the end first): SO_ERROR says. */
		if (errno == EIO)
			return zc_end(r, s, max, err, errlen);
		return err_fill(err, errlen, errno, "zerocopy: TCP_ZEROCOPY_RECEIVE");
	}
	/* The error may come with data still queued (a reset behind it):
	 * the data first, as read() gives it, then the error. */
	if (zc.err && !s->err)
		s->err = zc.err < 0 ? -zc.err : zc.err;
	mapped = zc.length;
	if (mapped) {
		r->zc_mapped += mapped;
		/* Let the pages go back to the kernel; the area is reused. */
		madvise(s->area, mapped, MADV_DONTNEED);
	}
	hint = zc.recv_skip_hint;
	if (hint > max - mapped)
		hint = max - mapped;
	if (!mapped && !hint)	/* the end of the stream, or an error */
		return zc_end(r, s, max, err, errlen);
	if (!hint)
		return (ssize_t)mapped;
	/* The skipped bytes are queued already: this recv does not wait. */
	copied = zc_copy(r, hint, mapped ? MSG_DONTWAIT : 0, err, errlen);
	if (copied < 0)
		return mapped ? (ssize_t)mapped : -1;
	return (ssize_t)(mapped + (size_t)copied);
}

const struct rx_method rx_zerocopy = {
	.name = "zerocopy",
	.how = "TCP_ZEROCOPY_RECEIVE: payload pages mapped, not copied, where the kernel can",
	.setup = zc_setup,
	.take = zc_take,
	.cleanup = zc_cleanup,
};
