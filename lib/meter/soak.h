/*
 * The soaker: CPU load measured by subtraction. One low-priority busy
 * process per CPU bumps its own counter in shared memory; whatever else the
 * machine does slows them down against a calibrated idle rate.
 */
#ifndef ZC_SOAK_H
#define ZC_SOAK_H

#include <stddef.h>
#include <stdint.h>

struct soak;			/* running soakers; opaque */

/*
 * How the soakers yield to everything else. Both run at nice 19 in an
 * autogroup of their own at nice 19. SCHED_IDLE, the default, also lets a
 * waking task preempt a soaker at once, where beside plain nice 19 soakers
 * it waits out their time slice and so gets less of the machine than it
 * would alone (README.zc, Results, has the figures).
 */
enum soak_policy {
	SOAK_IDLE,		/* SCHED_IDLE at nice 19 (default) */
	SOAK_NICE19,		/* SCHED_OTHER at nice 19 (the 2001 program's way) */
};

/* Knobs beyond the defaults; a zeroed struct (or NULL) means the defaults. */
struct soak_cfg {
	int bind;		/* bind soaker i to CPU i (else: to the i-th CPU
				   this process may use, modulo their count) */
	enum soak_policy policy;
	const int *cpus;	/* soaker i on cpus[i]; over bind when set */
};

/*
 * soak_start_cfg - fork ncpus soakers (nice 19, SCHED_IDLE), soaker i pinned to
 * CPU i when cfg->bind, else to the i-th CPU this process may run on (round
 * robin past the last), and return once every one is counting. Each dies
 * with its parent, however the parent dies (PR_SET_PDEATHSIG fires when the
 * forking *thread* ends, so
 * call this from the thread that lives longest). NULL with err filled on
 * failure (nothing left running).
 */
struct soak *soak_start_cfg(int ncpus, const struct soak_cfg *cfg,
			    char *err, size_t errlen);

/* Process id of soaker i, for the curious and for tests. */
int soak_pid(const struct soak *s, int i);

/* The CPU soaker i is pinned to; -1: none. */
int soak_cpu(const struct soak *s, int i);

/* Current counter of each soaker into counts[n], n the soakers started. */
void soak_read(const struct soak *s, uint64_t *counts);

/* Sum of all counters. */
uint64_t soak_total(const struct soak *s);

/*
 * soak_check - is every soaker still counting? -1 with err filled naming
 * the first that is not: "soaker for CPU 1 (PID 4321) was killed by
 * SIGKILL", "... was stopped (SIGSTOP)", "... exited with status 1". Works
 * in the soakers' parent and in a process it forked later (from /proc).
 */
int soak_check(const struct soak *s, char *err, size_t errlen);

/*
 * soak_gaps - the time each soaker spent away from its loop, in stretches
 * over SOAK_GAP_NS (preempted, or the hypervisor ran something else), into
 * gap_ns[] (one per soaker): nanoseconds from its start to now (now_ns()).
 *
 * SOAK_GAP_NS sits well above the short stretches a virtual machine loses
 * all the time: exits and the host's own interrupts, tens of microseconds
 * each, many a second, which the guest charges to the soaker as its own
 * user time. They are there when the meter calibrates too, so the load is
 * right with them; counted as host time they would read as several percent
 * taken on an idle guest. A hypervisor that gives the CPU to another guest
 * takes it for a slice, a millisecond or more, and that is what counts.
 */
#define SOAK_GAP_NS 100000
void soak_gaps(const struct soak *s, uint64_t now, uint64_t *gap_ns);

/*
 * CPUs that come and go. When a soaker's CPU goes offline the kernel moves
 * it to another CPU, where it would take a second soaker's time: it is
 * parked (stopped, and left out of soak_check) until its CPU returns. The
 * kernel does not pin it back then: soak_mend does.
 *
 * soak_mend - soaker i pinned to its CPU again where the kernel dropped the
 * pinning: 0 it was pinned, 1 it was not and is now (its old mask as a
 * list in was), -1 with err filled when it cannot be.
 * soak_park / soak_unpark - stop soaker i / pin it and let it go on;
 * soak_parked says which.
 */
int soak_mend(struct soak *s, int i, char *was, size_t len, char *err, size_t errlen);
void soak_park(struct soak *s, int i);
int soak_unpark(struct soak *s, int i, char *err, size_t errlen);
int soak_parked(const struct soak *s, int i);

/* Kill and reap every soaker, free s. Safe on NULL. */
void soak_stop(struct soak *s);

/* soak_forget - free s without touching the soakers: for a forked copy. */
void soak_forget(struct soak *s);

/*
 * soak_kill - kill and reap every soaker, and forget them, but free
 * nothing: only kill() and waitpid(), so a signal handler may call it
 * before its process dies. A SCHED_IDLE soaker needs the CPU to die, and
 * gets little when other work holds every CPU, so this can take a while;
 * the parent's death would kill the soakers too (PR_SET_PDEATHSIG), but
 * only this way are they gone before it is.
 */
void soak_kill(struct soak *s);

#endif
