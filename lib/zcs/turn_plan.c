/* The order of zcs's turns (turn_plan.h). */
#include <string.h>

#include "zcs/turn_plan.h"

void plan_init(struct turn_plan *p, unsigned n)
{
	memset(p, 0, sizeof(*p));
	p->n = n ? n : 1;
}

struct plan_place plan_take(struct turn_plan *p)
{
	struct plan_place at = p->next;

	if (p->n_again) {
		at = p->again[0];
		memmove(p->again, p->again + 1, --p->n_again * sizeof(*p->again));
		return at;
	}
	if (++p->next.at == p->n) {
		p->next.at = 0;
		p->next.round++;
	}
	return at;
}

void plan_again(struct turn_plan *p, struct plan_place place)
{
	if (p->n_again < PLAN_AGAIN)
		p->again[p->n_again++] = place;
}

unsigned plan_variant(const struct turn_plan *p, struct plan_place place)
{
	return (unsigned)((place.round + place.at) % p->n);
}

int plan_joins(int same_host, int flowing, uint64_t opened, uint64_t now)
{
	return same_host && flowing && now >= opened && now - opened < PLAN_JOIN_NS;
}
