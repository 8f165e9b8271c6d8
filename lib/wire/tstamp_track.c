/*
 * A run's stages from its messages' stamps (tstamp.h): pure bookkeeping,
 * the caller reads the clocks and the error queue.
 */
#include <string.h>

#include "wire/tstamp.h"

void tstamp_track_init(struct tstamp_track *t, uint32_t unit, uint64_t budget_ns)
{
	memset(t, 0, sizeof(*t));
	t->unit = unit ? unit : 1;
	for (int s = 0; s < TS_STAGES; s++)
		hist_init(&t->stage[s], budget_ns);
}

void tstamp_track_sent(struct tstamp_track *t, uint64_t user_ns)
{
	uint64_t slot = t->sent++ % TSTAMP_RING;

	t->user[slot] = user_ns;
	memset(t->at[slot], 0, sizeof(t->at[slot]));
}

/* b - a into stage s, or counted as a step of the clock when negative. */
static void stage_put(struct tstamp_track *t, enum tstamp_stage s, uint64_t a, uint64_t b)
{
	if (!a || !b)
		return;
	if (b < a)
		t->stepped++;
	else
		hist_record(&t->stage[s], b - a);
}

void tstamp_track_take(struct tstamp_track *t, const struct tstamp_tx *s)
{
	/* The stamp's number is its message's last one: messages 0.. span unit each. */
	uint64_t msg = ((uint64_t)s->id + 1) / t->unit;

	if (msg == 0 || ((uint64_t)s->id + 1) % t->unit) {
		t->late++;
		return;
	}
	tstamp_track_put(t, msg - 1, s);
}

uint64_t tstamp_track_missing(const struct tstamp_track *t)
{
	uint64_t n = 0;

	for (int k = 0; k < TSTAMP_KINDS; k++)
		if (t->got[k] && t->got[k] < t->sent)
			n += t->sent - t->got[k];
	return n;
}

void tstamp_track_put(struct tstamp_track *t, uint64_t msg, const struct tstamp_tx *s)
{
	uint64_t slot, *at;

	if (msg >= t->sent || t->sent - msg > TSTAMP_RING) {
		t->late++;
		return;
	}
	slot = msg % TSTAMP_RING;
	at = t->at[slot];
	/*
	 * A kind stamped twice: TCP sent the packet again (a retransmission,
	 * a tail loss probe) and the clone carries the first's stamp flags.
	 * The first stands.
	 */
	if (at[s->kind]) {
		t->again++;
		return;
	}
	at[s->kind] = s->ns;
	t->got[s->kind]++;
	switch (s->kind) {
	case TSTAMP_SCHED:
		stage_put(t, TS_USER_QDISC, t->user[slot], s->ns);
		stage_put(t, TS_QDISC_DEV, s->ns, at[TSTAMP_SND]);
		break;
	case TSTAMP_SND:
		stage_put(t, TS_QDISC_DEV, at[TSTAMP_SCHED], s->ns);
		stage_put(t, TS_DEV_ACK, s->ns, at[TSTAMP_ACK]);
		break;
	default:
		stage_put(t, TS_DEV_ACK, at[TSTAMP_SND], s->ns);
		break;
	}
}

void tstamp_track_wakeup(struct tstamp_track *t, uint64_t stamp_ns, uint64_t user_ns)
{
	stage_put(t, TS_WAKEUP, stamp_ns, user_ns);
}

void tstamp_track_merge(struct tstamp_track *into, const struct tstamp_track *from)
{
	for (int k = 0; k < TSTAMP_KINDS; k++)
		into->got[k] += from->got[k];
	into->sent += from->sent;
	into->late += from->late;
	into->again += from->again;
	into->stepped += from->stepped;
	for (int s = 0; s < TS_STAGES; s++)
		hist_merge(&into->stage[s], &from->stage[s]);
}
