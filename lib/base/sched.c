#include <sched.h>

#include "base/sched.h"

int sched_set_rr(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return sched_setscheduler(0, SCHED_RR, &sp);
}
