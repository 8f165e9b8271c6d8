/*
 * uring and uring-zc: io_uring sends from a mapping of the file, through
 * our own ring (lib/wire/uring.h). uring uses IORING_OP_SEND (the kernel copies
 * the data into the socket); uring-zc uses IORING_OP_SEND_ZC (the pages are
 * pinned, and each send posts a second completion, the notification, once
 * the kernel is done with them, saying whether it had to copy after all).
 *
 * Order. A TCP stream must not reorder, and io_uring gives no order between
 * independent requests on one socket: one that finds the socket full waits
 * for space and is retried later, and another may overtake it. So each
 * batch is one chain of linked requests (IOSQE_IO_LINK): the kernel starts
 * a request only when the one before it has completed. Every request asks
 * MSG_WAITALL, which makes the kernel finish a short send itself; should a
 * request still come back short (an error part way), the link is broken,
 * the rest of the chain is cancelled without sending a byte, and we start
 * again from the first byte not sent. A new chain is submitted only when
 * every request of the one before has completed, since nothing links two
 * chains.
 *
 * Depth. Within a chain the sends run one after another, so the depth is
 * not parallelism: it is how many sends one io_uring_enter() carries. 16
 * chunks of the default 64 KiB are 1 MiB a system call, more than a
 * socket buffer holds on most links, so the socket never runs dry between
 * chains; a deeper chain only holds more of the file per call.
 *
 * The header words. uring sends them with the first chunk in one
 * IORING_OP_SENDMSG of two iovecs, as the mmap method does with
 * sendmsg(): one request fewer in each chain. uring-zc copies them with
 * MSG_MORE, as lending them zero-copy cost more than it saved.
 *
 * IORING_OP_SEND runs the same tcp_sendmsg() as send(), in this task on
 * this CPU, one request after the other: all uring can save over mmap
 * is system calls, so on loopback the two are level by design. zcc(1)'s
 * NOTES give what was measured of both.
 */
#include "wire/tx_zc.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "base/err.h"
#include "wire/tx_host.h"
#include "wire/uring.h"

#define URING_DEPTH TX_URING_DEPTH
/* Completion queue: the chain's completions plus the notifications still
 * due; before a chain is queued, notifications beyond NOTIFS_MAX are waited
 * for, so that the queue never overflows. */
#define URING_CQ_ENTRIES (8 * URING_DEPTH)
#define NOTIFS_MAX TX_URING_NOTIFS_MAX
_Static_assert(NOTIFS_MAX == URING_CQ_ENTRIES - 2 * URING_DEPTH,
	       "a chain's completions and their notifications fit beside those due");
/* Every wait wakes this often to look at *t->stop and at the socket: a
 * stall limit shuts the socket down, which ends a send in flight but
 * not a wait for notifications that will never come. */
#define WAIT_MS 100

struct ur {
	struct uring ring;
	const char *name;	/* the method, for messages */
	int zc;			/* data by IORING_OP_SEND_ZC */
	unsigned char *hdr;	/* our copy of the header words, stable in flight */
	size_t hdr_cap;
	struct msghdr msg;	/* the words and the first chunk, in one send */
	struct iovec iov[2];
	/*
	 * Zero-copy notifications still due. Signed: the kernel posts one for
	 * every send whose completion says IORING_CQE_F_MORE, and also for a
	 * linked send it cancelled (-ECANCELED, without F_MORE: the notifier
	 * was set up when the send was prepared); a count that went below 0
	 * would still be a bug to see, not a wrap to 4294967288.
	 */
	int64_t notifs;
	int res[URING_DEPTH];	/* the chain's results, by position */
	uint32_t len[URING_DEPTH];
	unsigned char zc_op[URING_DEPTH];	/* the send was IORING_OP_SEND_ZC */
};

/* A ring that can send as the method does into *r, or -1 with the kernel's reason. */
static int ur_ring(struct uring *r, const char *name, int zc, char *err, size_t errlen)
{
	unsigned op = zc ? IORING_OP_SEND_ZC : IORING_OP_SEND;
	struct tx_host host;
	int known, e;

	if (uring_init(r, URING_DEPTH, URING_CQ_ENTRIES) < 0) {
		e = errno;
		tx_host_read(&host);
		tx_uring_refused(name, e, &host, err, errlen);
		errno = e;
		return -1;
	}
	known = uring_probe(r, op);
	if (known > 0 && !(r->features & IORING_FEAT_EXT_ARG))
		known = 0;	/* a kernel before 5.11: no timed waits */
	if (known > 0)
		return 0;
	if (known < 0)
		err_fill(err, errlen, errno, "%s: io_uring probe", name);
	else
		err_fill(err, errlen, 0, "%s: the kernel's io_uring lacks %s", name,
			 !(r->features & IORING_FEAT_EXT_ARG) ? "IORING_FEAT_EXT_ARG"
			 : zc ? "IORING_OP_SEND_ZC" : "IORING_OP_SEND");
	e = known < 0 ? errno : EOPNOTSUPP;
	uring_exit(r);
	errno = e;
	return -1;
}

static int ur_setup(struct tx *t, const char *name, int zc, char *err, size_t errlen)
{
	struct ur *u = calloc(1, sizeof(*u));

	if (!u)
		return err_fill(err, errlen, errno, "%s", name);
	u->name = name;
	u->zc = zc;
	if (ur_ring(&u->ring, name, zc, err, errlen) < 0) {
		free(u);
		return -1;
	}
	t->priv = u;
	return 0;
}

static int ur_setup_send(struct tx *t, char *err, size_t errlen)
{
	return ur_setup(t, "uring", 0, err, errlen);
}

/* Before connecting: a ring made and closed; uring-zc's chain of pages in the limit. */
static int ur_usable(const char *name, int zc, size_t chunk, char *err, size_t errlen)
{
	struct tx_host host;
	struct uring r;

	if (ur_ring(&r, name, zc, err, errlen) < 0)
		return -1;
	uring_exit(&r);
	tx_host_read(&host);
	/* The chain's pages and the lagging ones', and the ring's beside them. */
	return zc && tx_memlock_short(name, &host, TX_URING_PINNED * (uint64_t)chunk +
				      (64u << 10), err, errlen) ? -1 : 0;
}

static int ur_usable_send(size_t chunk, char *err, size_t errlen)
{
	return ur_usable("uring", 0, chunk, err, errlen);
}

static int ur_usable_send_zc(size_t chunk, char *err, size_t errlen)
{
	return ur_usable("uring-zc", 1, chunk, err, errlen);
}

/* Take every completion posted; returns how many were the chain's. */
static unsigned ur_reap(struct tx *t, struct ur *u)
{
	struct io_uring_cqe *cqe;
	unsigned got = 0;

	while ((cqe = uring_peek(&u->ring))) {
		if (cqe->flags & IORING_CQE_F_NOTIF) {
			u->notifs--;
			t->zc_sends++;
			if ((uint32_t)cqe->res & IORING_NOTIF_USAGE_ZC_COPIED)
				t->zc_copied++;
		} else {
			/* Counted as it completes, not when the chain has: a
			 * chain of large sends on a slow link shows progress
			 * at each wake (WAIT_MS). */
			if (cqe->res > 0)
				tx_account_bytes(t, (uint64_t)cqe->res);	/* the call was the submission */
			if (cqe->user_data < URING_DEPTH)
				u->res[cqe->user_data] = cqe->res;
			if ((cqe->flags & IORING_CQE_F_MORE) ||
			    (cqe->res == -ECANCELED && cqe->user_data < URING_DEPTH &&
			     u->zc_op[cqe->user_data]))
				u->notifs++;
			got++;
		}
		uring_seen(&u->ring);
	}
	return got;
}

/* Submit what is queued, then wait for want completions of the chain (0:
 * one completion of any kind, or WAIT_MS). A signal with *t->stop set ends
 * it: EINTR. */
static int ur_wait(struct tx *t, struct ur *u, unsigned want, char *err, size_t errlen)
{
	unsigned got = 0;
	int n;

	do {
		tx_call_begin(t);
		n = uring_enter(&u->ring, want > got ? want - got : 1, WAIT_MS);
		if (n < 0 && errno != EINTR && errno != ETIME)
			return err_fill(err, errlen, errno, "%s: io_uring_enter", u->name);
		if (n > 0)
			tx_count_call(t);	/* it submitted sends */
		if (*t->stop)
			return tx_stopped(t, err, errlen);
		got += ur_reap(t, u);
	} while (got < want);
	return 0;
}

/*
 * Queue one chain of sends of the stream [pos, hdr_len + f->size), where
 * [0, hdr_len) is our copy of the header words and the rest the file: at
 * most URING_DEPTH sends, each within one of the two and at most a chunk.
 */
static unsigned ur_queue(struct tx *t, struct ur *u, const struct tx_file *f,
			 size_t hdr_len, uint64_t pos)
{
	uint64_t total = hdr_len + (uint64_t)f->size;
	struct io_uring_sqe *sqe = NULL;
	unsigned i;

	for (i = 0; i < URING_DEPTH && pos < total; i++) {
		uint64_t end = pos < hdr_len ? hdr_len : total;
		uint64_t len = end - pos < t->chunk ? end - pos : t->chunk;

		sqe = uring_get_sqe(&u->ring);	/* the chain before is all done */
		sqe->fd = t->sock;
		sqe->len = (uint32_t)len;
		sqe->user_data = i;
		sqe->flags = IOSQE_IO_LINK;
		sqe->msg_flags = MSG_WAITALL | MSG_NOSIGNAL;
		if (pos < hdr_len && !u->zc) {
			/* The words and the first chunk in one sendmsg (why:
			 * at the top). */
			uint64_t data = f->size < t->chunk ? f->size : t->chunk;

			u->iov[0].iov_base = u->hdr + pos;
			u->iov[0].iov_len = hdr_len - pos;
			u->iov[1].iov_base = f->map;
			u->iov[1].iov_len = data;
			u->msg.msg_iov = u->iov;
			u->msg.msg_iovlen = 2;
			len = hdr_len - pos + data;
			sqe->opcode = IORING_OP_SENDMSG;
			sqe->addr = (uintptr_t)&u->msg;
			sqe->len = 1;
		} else if (pos < hdr_len) {
			/*
			 * uring-zc: copied, with the data to follow in the
			 * same segment. Tried and not kept: the words lent
			 * from an arena (a slot a file, reused once every
			 * notification has come, as the zerocopy method does)
			 * in one IORING_OP_SENDMSG_ZC with the first chunk:
			 * slower on loopback, for the same CPU.
			 */
			sqe->opcode = IORING_OP_SEND;
			sqe->addr = (uintptr_t)(u->hdr + pos);
			sqe->msg_flags |= MSG_MORE;
		} else {
			sqe->opcode = u->zc ? IORING_OP_SEND_ZC : IORING_OP_SEND;
			sqe->addr = (uintptr_t)((const char *)f->map + (pos - hdr_len));
			if (u->zc)
				sqe->ioprio = IORING_SEND_ZC_REPORT_USAGE;
		}
		u->len[i] = (uint32_t)len;
		u->res[i] = 0;
		u->zc_op[i] = sqe->opcode == IORING_OP_SEND_ZC;
		pos += len;
	}
	if (sqe)
		sqe->flags = 0;		/* the chain ends here */
	return i;
}

int tx_uring_cause(const int *res, unsigned i, unsigned n)
{
	if (res[i] != -ECANCELED)
		return res[i];
	for (unsigned j = i + 1; j < n; j++)
		if (res[j] < 0 && res[j] != -ECANCELED)
			return res[j];
	return res[i];
}

/*
 * Settle a completed chain of n sends, in order, into *pos. A short
 * send ends the accounting (what follows it was cancelled, never sent, and
 * is queued again from *pos); an error is the method's error.
 */
static int ur_settle(struct tx *t, struct ur *u, unsigned n, const struct tx_file *f,
		     size_t hdr_len, uint64_t *pos, char *err, size_t errlen)
{
	unsigned i, j;
	int res;

	for (i = 0; i < n; i++) {
		res = tx_uring_cause(u->res, i, n);
		if (res > 0)
			*pos += (uint64_t)res;	/* counted by ur_reap */
		if (res == (int)u->len[i])
			continue;
		if (res < 0 && res != -EINTR && res != -EAGAIN)
			return tx_map_fault(t, f, u->name, -res,
					    *pos > hdr_len ? *pos - hdr_len : 0, err, errlen);
		errno = EIO;
		if (res == 0)
			return err_fill(err, errlen, 0, "%s: send to %s took no data",
					u->name, t->peer);
		for (j = i + 1; j < n; j++)
			if (u->res[j] != -ECANCELED)
				return err_fill(err, errlen, 0, "%s: a send after a short one"
						" was not cancelled: the stream to %s is"
						" out of order", u->name, t->peer);
		return 0;
	}
	return 0;
}

/*
 * Wait until at most max notifications are still due. They come when the
 * peer has acknowledged the data; a connection shut down or broken while
 * some are due (a stall limit, a reset) holds them for ever, and is an error.
 */
static int ur_drain(struct tx *t, struct ur *u, int64_t max, char *err, size_t errlen)
{
	struct pollfd pfd = { .fd = t->sock, .events = 0 };
	int64_t before;

	while (u->notifs > max) {
		before = u->notifs;
		if (ur_wait(t, u, 0, err, errlen) < 0)
			return -1;
		errno = EPIPE;
		if (u->notifs == before && poll(&pfd, 1, 0) > 0)
			return err_fill(err, errlen, EPIPE, "%s: send to %s (%lld notifications"
					" still due)", u->name, t->peer, (long long)u->notifs);
	}
	return 0;
}

static int ur_send_file(struct tx *t, const struct tx_file *f, char *err, size_t errlen)
{
	struct ur *u = t->priv;
	size_t hdr_len = t->hdr_len;
	uint64_t pos = 0;
	unsigned n;

	if (f->size == 0)
		return 0;	/* the words wait for data to ride with */
	if (hdr_len > u->hdr_cap) {
		unsigned char *p = realloc(u->hdr, hdr_len);

		if (!p)
			return err_fill(err, errlen, errno, "%s", u->name);
		u->hdr = p;
		u->hdr_cap = hdr_len;
	}
	if (hdr_len)
		memcpy(u->hdr, t->hdr, hdr_len);
	t->hdr_len = 0;
	while (pos < hdr_len + (uint64_t)f->size) {
		if (ur_drain(t, u, (int64_t)NOTIFS_MAX, err, errlen) < 0)
			return -1;
		n = ur_queue(t, u, f, hdr_len, pos);
		if (ur_wait(t, u, n, err, errlen) < 0 ||
		    ur_settle(t, u, n, f, hdr_len, &pos, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* Every send has completed with its file; the notifications may lag. */
static int ur_finish(struct tx *t, char *err, size_t errlen)
{
	return ur_drain(t, t->priv, 0, err, errlen);
}

static void ur_cleanup(struct tx *t, struct tx_file *files, uint32_t n_files)
{
	struct ur *u = t->priv;

	/* The ring goes first, so that nothing still queued starts on pages
	 * about to be unmapped (after an interruption; a finished run has
	 * nothing in flight). */
	if (u) {
		uring_exit(&u->ring);
		free(u->hdr);
		free(u);
	}
	t->priv = NULL;
	tx_map_close(files, n_files);
}

/*
 * A kernel that knows IORING_OP_SEND_ZC may refuse it on this socket (one
 * not marked for zero-copy, as MPTCP's) only at the first send: asked with
 * no bytes before the first byte goes. The connection's own state (not
 * connected, reset) is no refusal: the sends report it.
 */
static int ur_setup_send_zc(struct tx *t, char *err, size_t errlen)
{
	int res;

	if (ur_setup(t, "uring-zc", 1, err, errlen) < 0)
		return -1;
	res = uring_send_zc_probe(&((struct ur *)t->priv)->ring, t->sock);
	if (res >= 0 || res == -EPIPE || res == -ENOTCONN || res == -ECONNRESET)
		return 0;
	ur_cleanup(t, NULL, 0);	/* as every setup's, a failure leaves nothing */
	errno = -res;
	return err_fill(err, errlen, errno, "uring-zc: the kernel refuses "
			"IORING_OP_SEND_ZC on this socket");
}

const struct tx_method tx_uring = {
	.name = "uring",
	.how = "io_uring IORING_OP_SEND from a mapping, 16 linked in flight",
	.flags = TX_CHUNKED,
	.usable = ur_usable_send,
	.setup = ur_setup_send,
	.open_file = tx_map_open,
	.send_file = ur_send_file,
	.finish = ur_finish,
	.cleanup = ur_cleanup,
};

const struct tx_method tx_uring_zc = {
	.name = "uring-zc",
	.how = "io_uring IORING_OP_SEND_ZC from a mapping, 16 linked in flight",
	.flags = TX_CHUNKED,
	.usable = ur_usable_send_zc,
	.setup = ur_setup_send_zc,
	.open_file = tx_map_open,
	.send_file = ur_send_file,
	.finish = ur_finish,
	.cleanup = ur_cleanup,
};
