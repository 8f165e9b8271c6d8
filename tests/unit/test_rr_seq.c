/*
 * lib/wire/rr_seq.c: datagram numbers in order, with losses, swaps,
 * duplicates, stale and bogus ones, and seeded random arrivals against a
 * reference that remembers every number (which rr_seq must match while
 * nothing strays further than its window).
 */
#include <stdlib.h>
#include <string.h>

#include "wire/rr_seq.h"
#include "tools/rng.h"
#include "unit/t.h"

#define N 100000

static struct rr_seq s;

/* The reference: a bit per number ever, nothing clever. */
static unsigned char ref_seen[N];
static uint64_t ref_next, ref_received, ref_late, ref_dup;

static void ref_see(uint64_t seq)
{
	if (ref_seen[seq]) {
		ref_dup++;
		return;
	}
	ref_seen[seq] = 1;
	ref_received++;
	if (seq < ref_next)
		ref_late++;
	else
		ref_next = seq + 1;
}

static void fixed_cases(void)
{
	unsigned bad = 0;

	rr_seq_init(&s);
	for (uint64_t i = 0; i < 10000; i++)
		bad += rr_seq_see(&s, i, 10000) != RR_SEQ_NEW;
	CHECK(!bad && s.received == 10000 && !s.reordered && !s.duplicated &&
	      rr_seq_lost(&s, 10000) == 0, "10000 in order: all new, none lost");

	rr_seq_init(&s);
	for (uint64_t i = 0; i < 10000; i++)
		if (i % 10 != 3)
			rr_seq_see(&s, i, 10000);
	CHECK(rr_seq_lost(&s, 10000) == 1000 && !s.reordered,
	      "every tenth dropped: 1000 lost, none reordered (%llu)",
	      (unsigned long long)rr_seq_lost(&s, 10000));

	rr_seq_init(&s);
	for (uint64_t i = 0; i < 1000; i += 2) {
		rr_seq_see(&s, i + 1, 1000);
		bad += rr_seq_see(&s, i, 1000) != RR_SEQ_LATE;
	}
	CHECK(!bad && s.reordered == 500 && s.received == 1000 && rr_seq_lost(&s, 1000) == 0,
	      "pairs swapped: 500 late, none lost");
	CHECK(rr_seq_see(&s, 999, 1000) == RR_SEQ_DUP && rr_seq_see(&s, 998, 1000) == RR_SEQ_DUP &&
	      s.duplicated == 2 && s.received == 1000, "the last two again: duplicates, not received");
	CHECK(rr_seq_see(&s, 1000, 1000) == RR_SEQ_BOGUS && s.bogus == 1 && s.next == 1000,
	      "a number never sent: bogus, not recorded");

	rr_seq_init(&s);
	rr_seq_see(&s, 0, UINT64_MAX);
	rr_seq_see(&s, RR_SEQ_WINDOW, UINT64_MAX);
	CHECK(rr_seq_see(&s, 0, UINT64_MAX) == RR_SEQ_STALE &&
	      rr_seq_see(&s, 1, UINT64_MAX) == RR_SEQ_LATE &&
	      rr_seq_see(&s, 1, UINT64_MAX) == RR_SEQ_DUP,
	      "a window below the highest: stale beyond it, late and then a duplicate at its edge");
	CHECK(rr_seq_see(&s, UINT64_MAX, UINT64_MAX) == RR_SEQ_BOGUS,
	      "the largest number: bogus, not wrapped");

	rr_seq_init(&s);
	rr_seq_see(&s, 5, 10);
	CHECK(rr_seq_see(&s, 0, 10) == RR_SEQ_LATE && rr_seq_lost(&s, 10) == 8,
	      "the first to come is 5: 0 is late when it comes, 8 lost of 10");
}

/* Arrivals shuffled within a distance well under the window, some
 * dropped, some twice: the same counts as the reference. */
static void random_arrivals(void)
{
	static uint64_t order[N + N / 10];
	size_t n = 0, i, j;
	uint64_t tmp;

	rr_seq_init(&s);
	for (i = 0; i < N; i++) {
		if (below(50) == 0)
			continue;	/* lost */
		order[n++] = i;
		if (below(100) == 0)
			order[n++] = i;	/* and again */
	}
	for (i = 0; i + 1 < n; i++) {
		if (below(20))
			continue;
		/* mostly near, now and then far, never near the window */
		j = i + 1 + (below(100) ? below(4) : below(RR_SEQ_WINDOW / 8));
		if (j < n) {
			tmp = order[i];
			order[i] = order[j];
			order[j] = tmp;
		}
	}
	for (i = 0; i < n; i++) {
		ref_see(order[i]);
		rr_seq_see(&s, order[i], N);
	}
	CHECK(s.received == ref_received && s.reordered == ref_late && s.duplicated == ref_dup &&
	      !s.stale && !s.bogus,
	      "%zu random arrivals: %llu received, %llu late, %llu duplicates, as the reference",
	      n, (unsigned long long)s.received, (unsigned long long)s.reordered,
	      (unsigned long long)s.duplicated);
	CHECK(rr_seq_lost(&s, N) == N - ref_received && ref_late > 1000 && ref_dup > 500,
	      "%llu lost, and the run had each kind", (unsigned long long)rr_seq_lost(&s, N));
}

int main(void)
{
	rng_seed(56, 3);
	fixed_cases();
	random_arrivals();
	return t_exit();
}
