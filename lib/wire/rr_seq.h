/*
 * Lost, duplicated and reordered messages of one datagram flow, counted
 * by sequence number (rr_proto.h's seq: 0, 1, 2... in each flow) in
 * constant memory. zcc --rr --proto udp keeps one per flow for the
 * responses (each echoes its request's number); zcs may keep one per
 * flow for the requests.
 *
 * Each well-formed message is seen once with rr_seq_see and is, by its
 * number against the highest seen so far:
 *
 *   new        above every number seen (numbers skipped on the way are
 *              missing for now: they may still come, late)
 *   late       below the highest, not seen before: it came out of order
 *              (counted as reordered, and as received)
 *   duplicate  seen before
 *   stale      more than RR_SEQ_WINDOW below the highest: too old to tell
 *              late from duplicate; counted apart, not as received
 *   bogus      at or above the count the sender has sent: no such
 *              request went out (a peer's fault); not recorded
 *
 * At the end, lost = sent - received: every request that no answer came
 * for, whichever way it was lost. A stale one counts as lost; the
 * stale counter says how many such may have come after all.
 */
#ifndef ZC_RR_SEQ_H
#define ZC_RR_SEQ_H

#include <stdint.h>

#define RR_SEQ_WINDOW 4096		/* numbers remembered below the highest */

struct rr_seq {
	uint64_t next;			/* the highest seen + 1; 0: none yet */
	uint64_t received;		/* distinct numbers seen (new and late) */
	uint64_t reordered, duplicated, stale, bogus;
	uint64_t seen[RR_SEQ_WINDOW / 64];	/* bit seq % WINDOW, for next - WINDOW.. next - 1 */
};

enum rr_seq_kind { RR_SEQ_NEW, RR_SEQ_LATE, RR_SEQ_DUP, RR_SEQ_STALE, RR_SEQ_BOGUS };

/* rr_seq_init - nothing seen. */
void rr_seq_init(struct rr_seq *s);

/*
 * rr_seq_see - a message numbered seq, of a flow that has sent sent
 * messages so far (UINT64_MAX: unknown): what it was, counted.
 */
enum rr_seq_kind rr_seq_see(struct rr_seq *s, uint64_t seq, uint64_t sent);

/* rr_seq_lost - of sent messages, how many never came (0 if more came). */
static inline uint64_t rr_seq_lost(const struct rr_seq *s, uint64_t sent)
{
	return sent > s->received ? sent - s->received : 0;
}

#endif
