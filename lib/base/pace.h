/*
 * The open-loop schedule of zcc --rr --gap: request i is due at
 * start + i * gap, whatever the answers do. Pure, as lib/app/watch.c: the
 * sender asks with the time what to do now, and is told to send (one
 * request, with its due time and sequence number) or to wait until a
 * time; how it waits (poll for responses to that deadline) is its own
 * business.
 *
 *     pace_init(&p, now_ns(), gap, end, limit);
 *     for (;;) {
 *         pace_step(&p, now_ns(), &act);
 *         if (act.what == PACE_SEND)        stamp act.due into the request, send it
 *         else if (act.what == PACE_WAIT)   read responses until act.until
 *         else break;                       PACE_DONE: collect the last answers
 *     }
 *
 * Never stretched. Every due request is handed out, in order, each with
 * the time it was due, however late the sender is: after a stall the
 * sender sends the missed ones back to back. zcc counts each latency
 * from the due time (the figure that shows the stall) and, beside it,
 * from the actual send (the figure a closed-loop tool would have shown);
 * their difference is the sender's own lag, which pace keeps: the lag of
 * each send (now - due at the ask), its maximum and mean.
 *
 * Behind, and a gap that cannot be kept. A send is behind when its lag is
 * over the slack, PACE_SLACK_GAPS gaps or PACE_SLACK_NS, whichever is
 * more. The gap cannot be kept when the sender, behind at every send
 * of a stretch of PACE_JUDGE_NS, ends that stretch no less behind than
 * it began it: it is not catching up. A sender that catches up after a
 * stall (its lag falling) is not judged so; one that never catches up
 * is, within two stretches, and zcc says so on its line.
 *
 * Pauses. The sender should ask again at once after a send, and at the
 * time it was told after a wait. An ask more than PACE_PAUSE_NS after
 * that is a pause of the sender itself (SIGSTOP, starved of the CPU): it
 * is counted, the longest kept, and the judging stretch starts again
 * after it, so that a stall is shown as one, not as a gap the machine
 * cannot keep.
 *
 * Times are CLOCK_MONOTONIC ns (now_ns()), never CLOCK_REALTIME: a step
 * of the wall clock (NTP, date -s) neither stretches nor squeezes the
 * schedule. The monotonic clock stands still while the machine is
 * suspended: no request falls due then. Time the process was stopped
 * does count: those requests are due, and their latencies show it.
 */
#ifndef ZC_PACE_H
#define ZC_PACE_H

#include <stdint.h>

#define PACE_SLACK_GAPS 10
#define PACE_SLACK_NS 1000000ull		/* 1 ms */
#define PACE_JUDGE_NS 1000000000ull		/* 1 s */
#define PACE_PAUSE_NS 10000000ull		/* 10 ms */

struct pace {
	uint64_t start, gap, end, limit;	/* the schedule */
	uint64_t sent;				/* requests handed out */
	uint64_t expect;			/* when the next ask should come */
	uint64_t slack;
	uint64_t lag_max;
	long double lag_sum;
	uint64_t behind;			/* sends over the slack */
	uint64_t pauses, pause_max;
	int judging;				/* a behind stretch is being judged: */
	uint64_t judge_t, judge_lag;		/*   it began then, this far behind */
	int cannot_keep;			/* the gap was judged out of reach */
	uint64_t cannot_at;			/*   first at this time */
};

enum pace_what {
	PACE_SEND,		/* send one request now */
	PACE_WAIT,		/* nothing is due before until */
	PACE_DONE,		/* the schedule is over */
};

struct pace_act {
	enum pace_what what;
	uint64_t seq;		/* PACE_SEND: the request's number, from 0 */
	uint64_t due;		/*   when it was due */
	uint64_t lag;		/*   now - due */
	uint64_t until;		/* PACE_WAIT: ask again then */
};

/*
 * pace_init - the schedule from start, one request every gap ns (at least
 * 1), none due at or after end (UINT64_MAX: no end), at most limit of them
 * (0: no limit).
 */
void pace_init(struct pace *p, uint64_t start, uint64_t gap, uint64_t end, uint64_t limit);

/* pace_step - what to do at now; fills *act and returns act->what. */
enum pace_what pace_step(struct pace *p, uint64_t now, struct pace_act *act);

/*
 * pace_due_count - how many requests the schedule has due by now (due
 * at or before it), within its end and limit: what pace_sent should be.
 */
uint64_t pace_due_count(const struct pace *p, uint64_t now);

static inline uint64_t pace_sent(const struct pace *p) { return p->sent; }

/* pace_lag_mean - the mean lag of the sends so far, ns (0: none yet). */
double pace_lag_mean(const struct pace *p);

#endif
