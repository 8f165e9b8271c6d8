#include <string.h>

#include "base/pace.h"

void pace_init(struct pace *p, uint64_t start, uint64_t gap, uint64_t end, uint64_t limit)
{
	memset(p, 0, sizeof(*p));
	p->start = start;
	p->gap = gap ? gap : 1;
	p->end = end;
	p->limit = limit;
	p->expect = start;
	p->slack = p->gap > UINT64_MAX / PACE_SLACK_GAPS ? UINT64_MAX : PACE_SLACK_GAPS * p->gap;
	if (p->slack < PACE_SLACK_NS)
		p->slack = PACE_SLACK_NS;
}

/* When request i is due; UINT64_MAX beyond the clock's range. */
static uint64_t due_of(const struct pace *p, uint64_t i)
{
	if (i && p->gap > (UINT64_MAX - p->start) / i)
		return UINT64_MAX;
	return p->start + i * p->gap;
}

uint64_t pace_due_count(const struct pace *p, uint64_t now)
{
	uint64_t n;

	if (now < p->start || p->end <= p->start)
		return 0;
	if (now >= p->end)
		now = p->end - 1;
	n = (now - p->start) / p->gap + 1;
	return p->limit && n > p->limit ? p->limit : n;
}

/* An ask later than it should have come: the sender did not run. */
static void see_pause(struct pace *p, uint64_t now)
{
	if (now <= p->expect || now - p->expect <= PACE_PAUSE_NS)
		return;
	p->pauses++;
	if (now - p->expect > p->pause_max)
		p->pause_max = now - p->expect;
	p->judging = 0;		/* judge from here on, not across the pause */
}

/* A send lag behind: is the sender catching up, stretch by stretch? */
static void judge(struct pace *p, uint64_t now, uint64_t lag)
{
	if (lag <= p->slack) {
		p->judging = 0;
		return;
	}
	p->behind++;
	if (!p->judging) {
		p->judging = 1;
		p->judge_t = now;
		p->judge_lag = lag;
		return;
	}
	if (now - p->judge_t < PACE_JUDGE_NS)
		return;
	if (lag >= p->judge_lag && !p->cannot_keep) {
		p->cannot_keep = 1;
		p->cannot_at = now;
	}
	p->judge_t = now;
	p->judge_lag = lag;
}

enum pace_what pace_step(struct pace *p, uint64_t now, struct pace_act *act)
{
	uint64_t due = due_of(p, p->sent);

	memset(act, 0, sizeof(*act));
	see_pause(p, now);
	if ((p->limit && p->sent >= p->limit) || due >= p->end || due == UINT64_MAX) {
		p->expect = UINT64_MAX;
		return act->what = PACE_DONE;
	}
	if (now < due) {
		p->expect = due;
		act->until = due;
		return act->what = PACE_WAIT;
	}
	act->seq = p->sent++;
	act->due = due;
	act->lag = now - due;
	if (act->lag > p->lag_max)
		p->lag_max = act->lag;
	p->lag_sum += act->lag;
	judge(p, now, act->lag);
	p->expect = now;
	return act->what = PACE_SEND;
}

double pace_lag_mean(const struct pace *p)
{
	return p->sent ? (double)(p->lag_sum / (long double)p->sent) : 0;
}
