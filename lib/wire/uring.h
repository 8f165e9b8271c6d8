/*
 * A minimal io_uring of our own, through the raw system calls and the
 * kernel's <linux/io_uring.h> alone (no liburing): set up a ring, probe an
 * opcode, take a submission entry, submit and wait, walk the completions.
 * Enough for zcc's io_uring transmit methods; nothing more.
 *
 * Functions return 0 (or a count), or -1 with errno set. None prints.
 */
#ifndef ZC_URING_H
#define ZC_URING_H

#include <stddef.h>
#include <linux/io_uring.h>

struct uring {
	int fd;
	unsigned features;	/* IORING_FEAT_*, as the kernel said */
	unsigned sq_entries;
	unsigned *sq_head, *sq_tail, *sq_mask, *sq_array;
	struct io_uring_sqe *sqes;
	unsigned sq_queued;	/* our tail: entries taken, not yet published */
	unsigned *cq_head, *cq_tail, *cq_mask;
	struct io_uring_cqe *cqes;
	void *sq_ring, *cq_ring;	/* the mappings, for uring_exit */
	size_t sq_ring_len, cq_ring_len, sqes_len;
};

/*
 * uring_init - a ring of sq_entries submissions and cq_entries completions
 * (a power of two, at least 2 * sq_entries: zero-copy sends post two each).
 * errno EPERM (io_uring disabled by sysctl) or ENOSYS (no io_uring) as the
 * kernel gave them. r->fd is -1 after a failure, so uring_exit stays safe.
 */
int uring_init(struct uring *r, unsigned sq_entries, unsigned cq_entries);

/* uring_probe - 1 when the kernel knows opcode op, 0 when not, -1 on error. */
int uring_probe(struct uring *r, unsigned op);

/* uring_get_sqe - a zeroed submission entry, or NULL when the queue is full. */
struct io_uring_sqe *uring_get_sqe(struct uring *r);

/*
 * uring_enter - publish the entries taken since the last call and submit
 * them, then wait until at least wait_nr completions are posted (0: do not
 * wait), or timeout_ms (needs IORING_FEAT_EXT_ARG, Linux 5.11). Returns the
 * entries submitted, or -1: ETIME when the time ran out first, EINTR for a
 * signal, both for the caller to judge.
 */
int uring_enter(struct uring *r, unsigned wait_nr, unsigned timeout_ms);

/* uring_peek - the oldest unseen completion, or NULL. */
struct io_uring_cqe *uring_peek(struct uring *r);

/* uring_seen - done with the completion uring_peek gave. */
void uring_seen(struct uring *r);

/*
 * uring_send_zc_probe - a send of no bytes on sock by IORING_OP_SEND_ZC
 * through r, whose queues are empty: its result (0, or the kernel's
 * -errno; -ETIME when its completions did not come within 5 s), both
 * completions taken (the send's and its notification).
 */
int uring_send_zc_probe(struct uring *r, int sock);

/* uring_exit - close the ring (the kernel cancels what is in flight). */
void uring_exit(struct uring *r);

#endif
