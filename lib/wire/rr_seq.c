#include <string.h>

#include "wire/rr_seq.h"

void rr_seq_init(struct rr_seq *s)
{
	memset(s, 0, sizeof(*s));
}

static int bit(const struct rr_seq *s, uint64_t seq)
{
	uint64_t i = seq % RR_SEQ_WINDOW;

	return (int)(s->seen[i / 64] >> (i % 64) & 1);
}

static void set_bit(struct rr_seq *s, uint64_t seq)
{
	uint64_t i = seq % RR_SEQ_WINDOW;

	s->seen[i / 64] |= 1ull << (i % 64);
}

static void clear_bit(struct rr_seq *s, uint64_t seq)
{
	uint64_t i = seq % RR_SEQ_WINDOW;

	s->seen[i / 64] &= ~(1ull << (i % 64));
}

/* The highest becomes seq: the numbers next..seq enter the window, each
 * taking the bit of the one WINDOW below it, which leaves. */
static void advance(struct rr_seq *s, uint64_t seq)
{
	if (seq - s->next >= RR_SEQ_WINDOW)
		memset(s->seen, 0, sizeof(s->seen));
	else
		for (uint64_t n = s->next; n <= seq; n++)
			clear_bit(s, n);
	s->next = seq + 1;
}

enum rr_seq_kind rr_seq_see(struct rr_seq *s, uint64_t seq, uint64_t sent)
{
	if (seq >= sent || seq == UINT64_MAX) {
		s->bogus++;
		return RR_SEQ_BOGUS;
	}
	if (seq >= s->next) {
		advance(s, seq);
		set_bit(s, seq);
		s->received++;
		return RR_SEQ_NEW;
	}
	if (s->next - seq > RR_SEQ_WINDOW) {
		s->stale++;
		return RR_SEQ_STALE;
	}
	if (bit(s, seq)) {
		s->duplicated++;
		return RR_SEQ_DUP;
	}
	set_bit(s, seq);
	s->received++;
	s->reordered++;
	return RR_SEQ_LATE;
}
