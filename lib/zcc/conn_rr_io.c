/*
 * How a request's and an answer's bytes go (lib/zcc/rr_internal.h): by
 * send or write, or by -M uring's rings; each call timed with
 * --call-times.
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "zcc/rr_internal.h"
#include "base/clock.h"
#include "zcc/rr_stamps.h"

/* -M uring: the sender's ring, and an open loop's reader's; a refusal is -2. */
int rr_rings_open(struct conn *c, char *err, size_t errlen)
{
	struct rr_work *w = rr_work_of(c);

	w->tx_ring = calloc(1, sizeof(*w->tx_ring));
	if (rr_settings_of()->gap_ns)
		w->rx_ring = calloc(1, sizeof(*w->rx_ring));
	if (!w->tx_ring || (rr_settings_of()->gap_ns && !w->rx_ring))
		error(1, errno, "memory");
	if (rr_uring_open(w->tx_ring, c->t.sock, err, errlen) < 0) {
		free(w->tx_ring);
		w->tx_ring = NULL;
		return -2;
	}
	if (w->rx_ring && rr_uring_open(w->rx_ring, c->t.sock, err, errlen) < 0) {
		free(w->rx_ring);
		w->rx_ring = NULL;
		return -2;
	}
	return 0;
}

/* A request's bytes, by the method -M asked, each call timed with --call-times. */
int rr_send_bytes(struct conn *c, struct rr_work *w)
{
	struct hist *calls = rr_probe_send_calls(w->probe);
	uint64_t t0 = calls ? now_ns() : 0;
	int rc;

	if (w->udp && w->dg.proto != RR_UDP) {
		rc = rr_dgram_send(c, w->req, w->h.req_bytes);
		if (calls && rc == 0)
			hist_record(calls, now_ns() - t0);
		return rc;
	}
	if (!w->tx_ring)
		return rr_write_by(c->t.sock, w->req, w->h.req_bytes, rr_settings_of()->use_write, calls);
	rc = rr_uring_write(w->tx_ring, w->req, w->h.req_bytes);
	if (calls && rc == 0)	/* one io_uring_enter (or more, for a short send) */
		hist_record(calls, now_ns() - t0);
	return rc;
}

/* An answer's bytes by -M uring's ring, the call timed with --call-times. */
int rr_ring_read(struct rr_work *w, struct rr_uring *ring, size_t *got)
{
	uint64_t t0 = w->probe && w->probe->calls ? now_ns() : 0;
	int rc = rr_uring_read(ring, w->resp, w->h.resp_bytes, got);

	if (t0 && rc == 0)
		hist_record(&w->probe->recv_calls, now_ns() - t0);
	return rc;
}

void rr_rings_close(struct rr_work *w)
{
	if (w->tx_ring)
		rr_uring_close(w->tx_ring);
	if (w->rx_ring)
		rr_uring_close(w->rx_ring);
	free(w->tx_ring);
	free(w->rx_ring);
	w->tx_ring = w->rx_ring = NULL;
}

#if RR_BLOCK
/* RR_BLOCK's ledger: a block of RR_BLOCK transactions, clocked and bare in turn. */
int rr_block_bare(uint64_t seq)
{
	return (int)((seq / RR_BLOCK) % 2);
}

void rr_block_end(struct rr_blocks *b, uint64_t seq, int last)
{
	uint64_t t1;

	if ((seq + 1) % RR_BLOCK && !last)
		return;
	t1 = now_ns();
	b->ns[rr_block_bare(seq)] += t1 - b->t0;
	b->n[rr_block_bare(seq)] += seq % RR_BLOCK + 1;
	b->t0 = t1;
}

void rr_blocks_say(const struct rr_blocks *b)
{
	fprintf(stderr, "zcc: RR_BLOCK %d: clocked %" PRIu64 " in %" PRIu64 " ns, bare %" PRIu64
		" in %" PRIu64 " ns\n", RR_BLOCK, b->n[0], b->ns[0], b->n[1], b->ns[1]);
}
#endif
