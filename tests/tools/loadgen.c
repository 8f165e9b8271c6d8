/*
 * loadgen - a synthetic CPU load that knows exactly what it used.
 *
 *   loadgen [-u] [-k] -l PCT -t SECS [-p PERIOD_MS] [-n THREADS]
 *
 * Runs THREADS threads (default: one per online CPU), each busy for PCT% of
 * every period and asleep for the rest, for SECS seconds. The last line it
 * prints is its own CPU use over its whole run, as a share of all online
 * CPUs:
 *
 *   cpu: 24.87%
 *
 * That figure comes from CLOCK_PROCESS_CPUTIME_ID, the scheduler's exact
 * runtime of all its threads, not from /proc/stat's tick sampling, so it is
 * the truth a load meter is judged against. With -k it also ends (SIGKILL)
 * when the process that started it does: a load beside a test run
 * (make check LOAD=1) never outlives the run, however the run ends.
 *
 * Each period's length is drawn afresh from PERIOD/2 to 3*PERIOD/2. With a
 * fixed period of a whole number of ticks (20 ms is 5 at HZ 250) the busy
 * part kept the same phase against the timer tick, and while soakers kept
 * every CPU busy (so the tick never stopped) /proc/stat's samples missed
 * a good part of it.
 * Random lengths leave the samples unbiased, so a test can use /proc/stat
 * to see other work running beside this load.
 */
#include <error.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "app/opt.h"
#include "base/clock.h"
#include "base/cpu.h"

static long long cfg_pct = -1;
static long long cfg_secs = -1;
static long long cfg_period_ms = 20;
static long long cfg_threads;
static int cfg_user;		/* -u: burn by the wall clock, no system calls */

static uint64_t end_ns;

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleep to t (now_ns() time), whatever signal comes. */
static void sleep_to(uint64_t t)
{
	while (sleep_until(t) < 0 && errno == EINTR)
		;
}

/*
 * One duty cycle per period: burn busy_ns of this thread's own CPU time (so
 * preemption does not shorten the burn), but never past the period's end,
 * then sleep to the next period.
 */
static void *burn(void *arg)
{
	uint64_t period = (uint64_t)cfg_period_ms * 1000000u;
	uint64_t start = *(uint64_t *)arg, t, cpu0, len, busy;
	uint64_t seed = start ^ ((uint64_t)(uintptr_t)&period << 16);
	volatile uint64_t spins = 0;
	uint64_t (*clock)(void) = cfg_user ? now_ns : thread_cpu_ns;
	int i;

	for (t = start; t < end_ns; t += len) {
		uint64_t stop;

		/* xorshift64, seeded apart in each thread by its stack address */
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		len = period / 2 + seed % (period + 1);
		busy = len * (uint64_t)cfg_pct / 100u;
		stop = t + len < end_ns ? t + len : end_ns;

		cpu0 = clock();
		/* The thread CPU clock is a system call: look at it every ~10 us. */
		while (clock() - cpu0 < busy && now_ns() < stop)
			for (i = 0; i < 4000; i++)
				spins++;
		sleep_to(stop);
	}
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: loadgen [-u] [-k] -l PCT -t SECS [-p PERIOD_MS] [-n THREADS]\n"
		"  busy PCT%% of every period (its length drawn from PERIOD_MS/2 to\n"
		"  3*PERIOD_MS/2) in each thread, for SECS seconds;\n"
		"  -u: timed by the wall clock, read without a system call, so the\n"
		"  load is all user time (the thread's CPU clock is a system call:\n"
		"  30%% of the load is system time without -u); preemption then\n"
		"  shortens a burn\n"
		"  -k: end when the process that started it ends\n"
		"  the last line is the exact CPU use: \"cpu: X.XX%%\" of all CPUs\n");
}

int main(int argc, char **argv)
{
	struct timespec c0, c1;
	uint64_t w0, w1, start;
	pthread_t *tid;
	double cpu_ns;
	int c, i, rc;

	while ((c = getopt(argc, argv, "hkul:n:p:t:")) != -1) {
		switch (c) {
		case 'l': cfg_pct = opt_num(c, optarg, 0, 100); break;
		case 'n': cfg_threads = opt_num(c, optarg, 1, 1024); break;
		case 'p': cfg_period_ms = opt_num(c, optarg, 1, 10000); break;
		case 't': cfg_secs = opt_num(c, optarg, 1, 86400); break;
		case 'u': cfg_user = 1; break;
		case 'k':
			/* Its parent may have gone already: then it is not ours. */
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() == 1)
				error(1, errno, "-k: the parent's end");
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (cfg_pct < 0 || cfg_secs < 0 || optind != argc) {
		usage(stderr);
		return 2;
	}
	if (!cfg_threads)
		cfg_threads = cpu_online();
	tid = calloc((size_t)cfg_threads, sizeof(*tid));
	if (!tid)
		error(1, errno, "threads");

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	w0 = now_ns();
	start = w0;
	end_ns = w0 + (uint64_t)cfg_secs * 1000000000u;
	for (i = 0; i < cfg_threads; i++) {
		rc = pthread_create(&tid[i], NULL, burn, &start);
		if (rc)
			error(1, rc, "pthread_create");
	}
	for (i = 0; i < cfg_threads; i++)
		pthread_join(tid[i], NULL);
	w1 = now_ns();
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	free(tid);

	cpu_ns = (double)(c1.tv_sec - c0.tv_sec) * 1e9 + (double)(c1.tv_nsec - c0.tv_nsec);
	printf("threads: %lld, period %lld ms, target %lld%% each, %.3f s\n",
	       cfg_threads, cfg_period_ms, cfg_pct, (double)(w1 - w0) / 1e9);
	printf("cpu: %.2f%%\n", 100.0 * cpu_ns / ((double)(w1 - w0) * cpu_online()));
	return 0;
}
