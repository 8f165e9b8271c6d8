/* Scheduling policy of the calling process. */
#ifndef ZC_SCHED_H
#define ZC_SCHED_H

/* Set SCHED_RR at prio for the calling process. -1/errno. */
int sched_set_rr(int prio);

#endif
