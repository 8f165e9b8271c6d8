/*
 * lib/zcs/turn_plan.c: zcs's turns in rounds, rotated; a place not
 * counted served again first; a connection joins a turn only from its
 * host, while it flows, within a second of its start (injected times).
 */
#include "t.h"
#include "zcs/turn_plan.h"

#define MS 1000000ull

int main(void)
{
	static const unsigned want[] = { 0, 1, 2, 1, 2, 0, 2, 0, 1, 0, 1, 2 };
	struct turn_plan p;
	struct plan_place at, again;
	unsigned got[12], ok = 1;

	plan_init(&p, 3);
	for (unsigned i = 0; i < 12; i++) {
		at = plan_take(&p);
		got[i] = plan_variant(&p, at);
		ok &= got[i] == want[i] && at.round == i / 3 && at.at == i % 3;
	}
	CHECK(ok, "three variants, four rounds: 012 120 201 012, each round one on "
	      "(%u%u%u %u%u%u %u%u%u %u%u%u)", got[0], got[1], got[2], got[3], got[4], got[5],
	      got[6], got[7], got[8], got[9], got[10], got[11]);

	plan_init(&p, 2);
	(void)plan_take(&p);
	again = plan_take(&p);			/* round 0, at 1: not counted */
	plan_again(&p, again);
	at = plan_take(&p);
	CHECK(at.round == 0 && at.at == 1 && plan_variant(&p, at) == 1,
	      "a place not counted is served again, with its variant");
	at = plan_take(&p);
	CHECK(at.round == 1 && at.at == 0 && plan_variant(&p, at) == 1,
	      "then the rounds go on where they were");
	for (unsigned i = 0; i < PLAN_AGAIN + 2; i++)
		plan_again(&p, at);
	CHECK(p.n_again == PLAN_AGAIN, "at most %d places wait", PLAN_AGAIN);

	plan_init(&p, 1);
	at = plan_take(&p);
	CHECK(plan_variant(&p, at) == 0 && plan_take(&p).round == 1, "one variant: a round a turn");

	CHECK(plan_joins(1, 1, 5000 * MS, 5000 * MS), "-P's next connection at once: joins");
	CHECK(plan_joins(1, 1, 5000 * MS, 5999 * MS), "0.999 s on: joins");
	CHECK(!plan_joins(1, 1, 5000 * MS, 6000 * MS), "1 s on: a new turn");
	CHECK(!plan_joins(0, 1, 5000 * MS, 5001 * MS), "another host: never joins");
	CHECK(!plan_joins(1, 0, 5000 * MS, 5001 * MS), "the turn's streams ended: a new turn");
	CHECK(!plan_joins(1, 1, 5000 * MS, 4000 * MS), "a time before the start: a new turn");
	return t_exit();
}
