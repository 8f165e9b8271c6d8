/*
 * lib/base/pace.c with an injected clock: a simulated sender that waits
 * as told (waking a little late), spends a while on each send, and is
 * stopped once if asked. The schedule must be kept to the request,
 * every request handed out in order at its due time, a stall shown in
 * the due-time figures (lib/base/hist.c) and not in the sent-time ones,
 * and a gap the sender cannot keep said, never stretched.
 */
#include <stdint.h>

#include "base/hist.h"
#include "base/pace.h"
#include "tools/rng.h"
#include "unit/t.h"

#define US 1000ull
#define MS 1000000ull
#define S 1000000000ull

struct sim {
	uint64_t now;
	uint64_t jitter;		/* a wait ends up to this late */
	uint64_t cost;			/* a send takes this long */
	uint64_t rtt;			/* the peer answers after this */
	uint64_t stall_at, stall;	/* the first wait ending after stall_at
					 * ends stall late (0: none) */
	uint64_t stall_from;		/*   when that wait was to end */
	uint64_t stall2_at, stall2;	/* the first send after stall2_at takes
					 * stall2 longer (0: none) */
	uint64_t off_schedule;		/* sends out of order, off the schedule or early */
	uint64_t wait_off;		/* waits where sent differs from the schedule */
	uint64_t stall_short;		/* requests due in the stall sent before its end */
	struct hist due, sent;		/* latency from the due time, the send */
};

static struct sim sim;

static void sim_init(uint64_t jitter, uint64_t cost)
{
	sim.now = 0;
	sim.jitter = jitter;
	sim.cost = cost;
	sim.rtt = 10 * US;
	sim.stall_at = sim.stall = sim.stall_from = 0;
	sim.stall2_at = sim.stall2 = 0;
	sim.off_schedule = sim.wait_off = sim.stall_short = 0;
	hist_init(&sim.due, UINT64_MAX);
	hist_init(&sim.sent, UINT64_MAX);
}

static void sim_send(struct pace *p, const struct pace_act *a, uint64_t *next_seq)
{
	if (a->seq != *next_seq || a->due != p->start + a->seq * p->gap ||
	    sim.now < a->due || a->lag != sim.now - a->due)
		sim.off_schedule++;
	(*next_seq)++;
	hist_record(&sim.due, sim.now + sim.rtt - a->due);
	hist_record(&sim.sent, sim.rtt);
	if (sim.stall_from && a->due >= sim.stall_from &&
	    a->due < sim.stall_from + sim.stall && sim.now < sim.stall_from + sim.stall)
		sim.stall_short++;
	sim.now += sim.cost;
	if (sim.stall2 && sim.now >= sim.stall2_at) {
		sim.now += sim.stall2;
		sim.stall2 = 0;
	}
}

/* Run the sender until the clock passes to or the schedule ends. */
static void sim_run(struct pace *p, uint64_t to)
{
	struct pace_act a;
	uint64_t next_seq = pace_sent(p);

	while (sim.now < to) {
		switch (pace_step(p, sim.now, &a)) {
		case PACE_SEND:
			sim_send(p, &a, &next_seq);
			break;
		case PACE_WAIT:
			sim.wait_off += pace_sent(p) != pace_due_count(p, sim.now) ||
					a.until <= sim.now;
			sim.now = a.until + below((uint32_t)sim.jitter + 1);
			if (sim.stall && !sim.stall_from && a.until >= sim.stall_at) {
				sim.stall_from = a.until;
				sim.now = a.until + sim.stall;
			}
			break;
		default:
			return;
		}
	}
}

/* 10 s at 100 us, waking up to 20 us late, 2 us a send. */
static void steady(void)
{
	struct pace p;

	sim_init(20 * US, 2 * US);
	pace_init(&p, 0, 100 * US, 10 * S, 0);
	sim_run(&p, 20 * S);
	CHECK(pace_sent(&p) == 100000 && pace_due_count(&p, sim.now) == 100000,
	      "10 s at 100 us: %llu sent, the schedule's 100000",
	      (unsigned long long)pace_sent(&p));
	CHECK(sim.off_schedule == 0 && sim.wait_off == 0,
	      "each request in order at its due time; at every wait, sent = due so far");
	CHECK(p.lag_max <= 22 * US && !p.behind && !p.pauses && !p.cannot_keep,
	      "lag at most the wake-up's and a send's (%llu ns), never behind or paused",
	      (unsigned long long)p.lag_max);
	CHECK(hist_at(&sim.due, 99.9) < 50 * US, "the due-time p99.9 is the wake-up's (%llu ns)",
	      (unsigned long long)hist_at(&sim.due, 99.9));
}

/* The same stopped 100 ms at 5 s: the stall is in the due times. */
static void stalled(void)
{
	struct pace p;

	sim_init(20 * US, 2 * US);
	sim.stall_at = 5 * S;
	sim.stall = 100 * MS;
	pace_init(&p, 0, 100 * US, 10 * S, 0);
	sim_run(&p, 20 * S);
	CHECK(pace_sent(&p) == 100000, "stopped 100 ms: still all 100000 sent (%llu)",
	      (unsigned long long)pace_sent(&p));
	CHECK(sim.off_schedule == 0 && sim.stall_short == 0,
	      "none skipped, none due in the stall sent before its end");
	CHECK(hist_max(&sim.due) >= 100 * MS + sim.rtt,
	      "the request due as it stopped took 100 ms from its due time (%llu ns)",
	      (unsigned long long)hist_max(&sim.due));
	CHECK(hist_at(&sim.due, 99.9) >= 50 * MS && hist_at(&sim.sent, 99.9) < MS,
	      "due-time p99.9 %llu ns shows it, sent-time %llu ns does not",
	      (unsigned long long)hist_at(&sim.due, 99.9),
	      (unsigned long long)hist_at(&sim.sent, 99.9));
	CHECK(p.pauses == 1 && p.pause_max == 100 * MS && p.lag_max >= 100 * MS,
	      "one pause of 100 ms (%llu), lag at most %llu ns",
	      (unsigned long long)p.pauses, (unsigned long long)p.lag_max);
	CHECK(!p.cannot_keep, "caught up after it: the gap is not called out of reach");
}

/* 10 us a request, 15 us a send: the gap cannot be kept. */
static void too_slow(void)
{
	struct pace p;

	sim_init(0, 15 * US);
	pace_init(&p, 0, 10 * US, UINT64_MAX, 0);
	sim_run(&p, 3 * S);
	CHECK(p.cannot_keep && p.cannot_at <= 2 * S + 15 * US,
	      "10 us gap, 15 us a send: out of reach, said at %llu ms",
	      (unsigned long long)(p.cannot_at / MS));
	CHECK(sim.off_schedule == 0 && pace_sent(&p) < pace_due_count(&p, sim.now) * 7 / 10,
	      "never stretched: every send at its own due time, %llu sent of %llu due",
	      (unsigned long long)pace_sent(&p), (unsigned long long)pace_due_count(&p, sim.now));
	CHECK(p.lag_max > 900 * MS && pace_lag_mean(&p) > 400 * MS,
	      "the lag grows: %llu ms at most, %.0f ms mean",
	      (unsigned long long)(p.lag_max / MS), pace_lag_mean(&p) / MS);
}

/* Stopped 2 s, then slow to catch up (60 us a send at 100 us): behind
 * for seconds, but catching up, so the gap is kept. */
static void slow_catch_up(void)
{
	struct pace p;

	sim_init(0, 60 * US);
	sim.stall_at = 1 * S;
	sim.stall = 2 * S;
	pace_init(&p, 0, 100 * US, 10 * S, 0);
	sim_run(&p, 20 * S);
	CHECK(p.behind > 20000 && !p.cannot_keep && pace_sent(&p) == 100000,
	      "stopped 2 s, caught up slowly: %llu sends behind, the gap kept, all sent",
	      (unsigned long long)p.behind);

	/* stopped again, 0.8 s, while catching up: more behind a second on,
	 * but the pause is the sender's own, not a gap out of reach */
	sim_init(0, 60 * US);
	sim.stall_at = 1 * S;
	sim.stall = 2 * S;
	sim.stall2_at = 3500 * MS;
	sim.stall2 = 800 * MS;
	pace_init(&p, 0, 100 * US, 10 * S, 0);
	sim_run(&p, 20 * S);
	CHECK(p.pauses == 2 && !p.cannot_keep && pace_sent(&p) == 100000,
	      "stopped twice, the second time while behind: %llu pauses, the gap kept",
	      (unsigned long long)p.pauses);
}

/* The end, the limit, and requests due before the end but sent after. */
static void ends(void)
{
	struct pace p;
	struct pace_act a;
	unsigned n = 0;

	pace_init(&p, 1000, 100, UINT64_MAX, 10);
	for (uint64_t t = 0; t < 100000 && pace_step(&p, t, &a) != PACE_DONE; t += 7)
		n += a.what == PACE_SEND;
	CHECK(n == 10 && pace_due_count(&p, 1 << 30) == 10, "a limit of 10: 10 sent, then done");
	pace_init(&p, 1000, 100, 2000, 0);
	pace_step(&p, 0, &a);
	CHECK(a.what == PACE_WAIT && a.until == 1000,
	      "before the start: wait for it (%llu)", (unsigned long long)a.until);
	n = 0;
	while (pace_step(&p, 5000, &a) == PACE_SEND)
		n++;
	CHECK(n == 10 && a.what == PACE_DONE && pace_due_count(&p, 5000) == 10,
	      "end at 1000 ns in: all 10 due before it sent late, then done (%u)", n);
	pace_init(&p, 0, 0, 5, 0);
	n = 0;
	while (pace_step(&p, 1000, &a) == PACE_SEND)
		n++;
	CHECK(n == 5, "a gap of 0 is taken as 1 ns (%u)", n);
	pace_init(&p, UINT64_MAX - 10, 1ull << 62, UINT64_MAX, 0);
	n = 0;
	while (pace_step(&p, UINT64_MAX, &a) == PACE_SEND)
		n++;
	CHECK(n == 1 && a.what == PACE_DONE, "a schedule past the clock's range ends (%u)", n);
}

int main(void)
{
	rng_seed(56, 1);
	steady();
	stalled();
	too_slow();
	slow_catch_up();
	ends();
	return t_exit();
}
