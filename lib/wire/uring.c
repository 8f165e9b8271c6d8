/*
 * The ring: three shared mappings (submission ring, completion ring, the
 * submission entries) and two system calls. The kernel and we each own one
 * end of each ring; an index the other side reads is stored with release
 * order after the entries it covers, and an index the other side writes is
 * loaded with acquire order before the entries it covers are read.
 */
#include "wire/uring.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Map one of the ring's regions into *where; NULL there when it fails. */
static void ring_map(int fd, size_t len, off_t what, void **where)
{
	*where = mmap(NULL, len, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_POPULATE, fd, what);
	if (*where == MAP_FAILED)
		*where = NULL;
}

static unsigned *at(void *ring, unsigned off)
{
	return (unsigned *)((char *)ring + off);
}

int uring_init(struct uring *r, unsigned sq_entries, unsigned cq_entries)
{
	struct io_uring_params p;
	unsigned i;
	int saved;

	memset(r, 0, sizeof(*r));
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = cq_entries;
	r->fd = (int)syscall(__NR_io_uring_setup, sq_entries, &p);
	if (r->fd < 0)
		return -1;

	r->features = p.features;
	r->sq_entries = p.sq_entries;
	r->sq_ring_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	r->cq_ring_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	r->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	ring_map(r->fd, r->sq_ring_len, IORING_OFF_SQ_RING, &r->sq_ring);
	ring_map(r->fd, r->cq_ring_len, IORING_OFF_CQ_RING, &r->cq_ring);
	ring_map(r->fd, r->sqes_len, IORING_OFF_SQES, (void **)&r->sqes);
	if (!r->sq_ring || !r->cq_ring || !r->sqes) {
		saved = errno;
		uring_exit(r);
		errno = saved;
		return -1;
	}

	r->sq_head = at(r->sq_ring, p.sq_off.head);
	r->sq_tail = at(r->sq_ring, p.sq_off.tail);
	r->sq_mask = at(r->sq_ring, p.sq_off.ring_mask);
	r->sq_array = at(r->sq_ring, p.sq_off.array);
	r->cq_head = at(r->cq_ring, p.cq_off.head);
	r->cq_tail = at(r->cq_ring, p.cq_off.tail);
	r->cq_mask = at(r->cq_ring, p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)((char *)r->cq_ring + p.cq_off.cqes);
	/* Entry i of the array always names submission entry i: we fill the
	 * entries in ring order, so the indirection is the identity. */
	for (i = 0; i < p.sq_entries; i++)
		r->sq_array[i] = i;
	r->sq_queued = *r->sq_tail;
	return 0;
}

int uring_probe(struct uring *r, unsigned op)
{
	enum { N_OPS = 256 };
	struct io_uring_probe *p;
	int known = 0;

	p = calloc(1, sizeof(*p) + N_OPS * sizeof(p->ops[0]));
	if (!p)
		return -1;
	if (syscall(__NR_io_uring_register, r->fd, IORING_REGISTER_PROBE, p, N_OPS) < 0) {
		free(p);
		return -1;
	}
	if (op <= p->last_op && op < N_OPS)
		known = !!(p->ops[op].flags & IO_URING_OP_SUPPORTED);
	free(p);
	return known;
}

struct io_uring_sqe *uring_get_sqe(struct uring *r)
{
	unsigned head = __atomic_load_n(r->sq_head, __ATOMIC_ACQUIRE);
	struct io_uring_sqe *sqe;

	if (r->sq_queued - head >= r->sq_entries)
		return NULL;
	sqe = &r->sqes[r->sq_queued & *r->sq_mask];
	r->sq_queued++;
	memset(sqe, 0, sizeof(*sqe));
	return sqe;
}

int uring_enter(struct uring *r, unsigned wait_nr, unsigned timeout_ms)
{
	struct __kernel_timespec ts = {
		.tv_sec = timeout_ms / 1000,
		.tv_nsec = (long long)(timeout_ms % 1000) * 1000000,
	};
	struct io_uring_getevents_arg arg = { .ts = (uintptr_t)&ts };
	unsigned to_submit, flags = 0;
	long n;

	if (wait_nr)
		flags = IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG;
	__atomic_store_n(r->sq_tail, r->sq_queued, __ATOMIC_RELEASE);
	to_submit = r->sq_queued - __atomic_load_n(r->sq_head, __ATOMIC_ACQUIRE);
	n = syscall(__NR_io_uring_enter, r->fd, to_submit, wait_nr, flags,
		    wait_nr ? &arg : NULL, wait_nr ? sizeof(arg) : 0);
	return n < 0 ? -1 : (int)n;
}

struct io_uring_cqe *uring_peek(struct uring *r)
{
	unsigned head = __atomic_load_n(r->cq_head, __ATOMIC_RELAXED);
	unsigned tail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);

	if (head == tail)
		return NULL;
	return &r->cqes[head & *r->cq_mask];
}

void uring_seen(struct uring *r)
{
	unsigned head = __atomic_load_n(r->cq_head, __ATOMIC_RELAXED);

	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
}

void uring_exit(struct uring *r)
{
	if (r->sqes)
		munmap(r->sqes, r->sqes_len);
	if (r->cq_ring)
		munmap(r->cq_ring, r->cq_ring_len);
	if (r->sq_ring)
		munmap(r->sq_ring, r->sq_ring_len);
	if (r->fd >= 0)
		close(r->fd);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

int uring_send_zc_probe(struct uring *r, int sock)
{
	struct io_uring_sqe *sqe = uring_get_sqe(r);
	struct io_uring_cqe *cqe;
	int res = -ETIME, due = 1;

	sqe->opcode = IORING_OP_SEND_ZC;
	sqe->fd = sock;
	sqe->addr = (uintptr_t)&res;	/* any address: no byte is read */
	sqe->msg_flags = MSG_NOSIGNAL;
	for (int tries = 0; due > 0 && tries < 50; tries++) {
		if (uring_enter(r, 1, 100) < 0 && errno != EINTR && errno != ETIME)
			return -errno;
		for (; (cqe = uring_peek(r)); uring_seen(r)) {
			due--;
			if (!(cqe->flags & IORING_CQE_F_NOTIF))
				res = cqe->res;
			if (cqe->flags & IORING_CQE_F_MORE)
				due++;	/* its notification follows */
		}
	}
	return res;
}
