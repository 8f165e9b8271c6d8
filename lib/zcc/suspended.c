#include <errno.h>
#include <error.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "zcc/suspended.h"
#include "base/clock.h"

static uint64_t total;			/* stopped so far, ns */
static unsigned conts;			/* SIGCONTs so far (lock-free atomics) */
static int started, quit;
static pthread_t ticker;

static void on_cont(int sig)
{
	(void)sig;
	__atomic_add_fetch(&conts, 1, __ATOMIC_RELAXED);
}

/* The ticker: a pause that a SIGCONT came with (before or just after it
 * is seen) is time stopped. */
static void *tick(void *arg)
{
	uint64_t last = now_ns(), now, pause = 0, pause_end = 0;
	unsigned seen = __atomic_load_n(&conts, __ATOMIC_RELAXED), c;

	(void)arg;
	while (!__atomic_load_n(&quit, __ATOMIC_RELAXED)) {
		sleep_until(last + SUSPENDED_TICK_NS);
		now = now_ns();
		if (now > last + SUSPENDED_TICK_NS + SUSPENDED_LATE_NS) {
			/* stopped somewhere in the tick before: half of it, on average */
			pause = now - last - SUSPENDED_TICK_NS / 2;
			pause_end = now;
		}
		c = __atomic_load_n(&conts, __ATOMIC_RELAXED);
		if (c != seen && pause) {
			__atomic_add_fetch(&total, pause, __ATOMIC_RELAXED);
			pause = 0;
		}
		seen = c;
		if (pause && now - pause_end > 10 * SUSPENDED_TICK_NS)
			pause = 0;	/* no SIGCONT with it: starved, not stopped */
		last = now;
	}
	return NULL;
}

void suspended_start(void)
{
	struct sigaction sa = { .sa_handler = on_cont, .sa_flags = SA_RESTART };
	sigset_t all, old;
	int e;

	if (started)
		return;
	started = 1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGCONT, &sa, NULL) < 0)
		error(1, errno, "sigaction SIGCONT");
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	e = pthread_create(&ticker, NULL, tick, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e)
		error(1, e, "a thread to time stops");
	atexit(suspended_end);
}

/* At exit the ticker is ended and joined (a tick at most), so that no
 * thread is left mid-sleep with what it holds. */
void suspended_end(void)
{
	if (!started)
		return;
	__atomic_store_n(&quit, 1, __ATOMIC_RELAXED);
	pthread_join(ticker, NULL);
	started = 0;
}

uint64_t suspended_ns(void)
{
	return __atomic_load_n(&total, __ATOMIC_RELAXED);
}
