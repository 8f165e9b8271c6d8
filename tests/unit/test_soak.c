/*
 * lib/meter/soak.c and lib/meter/soaker.c: the soakers' life cycle, their health, and
 * the /proc readers the meter takes their run time with.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cpu.h"
#include "meter/proc.h"
#include "meter/soak.h"
#include "meter/soak_internal.h"
#include "unit/t.h"

/* ncpus soakers, each on CPU i when bind, else as soak_start_cfg spreads them. */
static struct soak *soak_start(int ncpus, int bind, char *err, size_t errlen)
{
	struct soak_cfg cfg = { .bind = bind };

	return soak_start_cfg(ncpus, &cfg, err, errlen);
}

static int alive(pid_t pid)
{
	return kill(pid, 0) == 0;
}

/*
 * What work at nice 0 did beside the soakers: start with others_mark(),
 * then others_held() is the percent of the machine it held since (0 when
 * /proc/stat says nothing). A soaker that does not advance while others
 * hold the CPUs is SCHED_IDLE doing its job, not a fault.
 */
struct others_mark {
	uint64_t busy, total;
	int ok;
};

static void others_mark(struct others_mark *m)
{
	m->ok = proc_machine_ticks(&m->busy, &m->total) == 0;
}

static int others_held(const struct others_mark *m)
{
	uint64_t busy, total;

	if (!m->ok || proc_machine_ticks(&busy, &total) < 0 || total <= m->total)
		return 0;
	return (int)((busy - m->busy) * 100 / (total - m->total));
}

static void test_soakers(enum soak_policy policy)
{
	struct soak_cfg cfg = { .policy = policy };
	const char *name = policy == SOAK_IDLE ? "SCHED_IDLE" : "nice 19";
	int want = policy == SOAK_IDLE ? SCHED_IDLE : SCHED_OTHER;
	uint64_t a[2] = { 0 }, b[2] = { 0 };
	struct others_mark mark;
	char err[256] = "";
	pid_t pids[2];
	struct soak *s;
	int i, ok, others;

	s = soak_start_cfg(2, &cfg, err, sizeof(err));
	CHECK(s != NULL, "%s: two soakers start: %s", name, err);
	if (!s)
		return;
	CHECK(soak_count(s) == 2, "%s: soak_count", name);
	for (i = 0; i < 2; i++)
		pids[i] = soak_pid(s, i);
	CHECK(alive(pids[0]) && alive(pids[1]), "%s: both are running", name);
	ok = sched_getscheduler(pids[0]) == want && sched_getscheduler(pids[1]) == want &&
	     getpriority(PRIO_PROCESS, (id_t)pids[0]) == 19 &&
	     getpriority(PRIO_PROCESS, (id_t)pids[1]) == 19;
	CHECK(ok, "%s: the policy and nice 19 are set on every soaker", name);

	/*
	 * A busy machine may starve a soaker for a while: allow 5 s. Beside
	 * work at nice 0 on every CPU a soaker may not count at all in those
	 * 5 s; when others held nine tenths of the CPUs, that is a skip with
	 * the figures.
	 */
	others_mark(&mark);
	soak_read(s, a);
	for (i = 0; i < 500; i++) {
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
		soak_read(s, b);
		if (b[0] > a[0] && b[1] > a[1])
			break;
	}
	others = others_held(&mark);
	if (a[0] > 0 && a[1] > 0 && !(b[0] > a[0] && b[1] > a[1]) && others >= 90)
		printf("skip - %s: every counter advances: others held %d%% of the CPUs "
		       "for 5 s (%" PRIu64 "->%" PRIu64 ", %" PRIu64 "->%" PRIu64 ")\n",
		       name, others, a[0], b[0], a[1], b[1]);
	else
		CHECK(a[0] > 0 && a[1] > 0 && b[0] > a[0] && b[1] > a[1],
		      "%s: every counter advances (%" PRIu64 "->%" PRIu64 ", %" PRIu64
		      "->%" PRIu64 ")", name, a[0], b[0], a[1], b[1]);
	CHECK(soak_total(s) >= b[0] + b[1], "%s: soak_total sums them", name);
	CHECK((uintptr_t)soak_counter(s, 0) % SLOT_BYTES == 0 &&
	      (const volatile char *)soak_counter(s, 1) -
	      (const volatile char *)soak_counter(s, 0) == SLOT_BYTES,
	      "%s: counters are %d bytes apart, %d-byte aligned", name,
	      SLOT_BYTES, SLOT_BYTES);

	soak_stop(s);
	CHECK(!alive(pids[0]) && !alive(pids[1]) && errno == ESRCH,
	      "%s: soak_stop leaves no process, not even a zombie", name);
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD,
	      "%s: and no child to reap", name);
}

static void test_bad_start(void)
{
	struct soak_cfg cfg = { .bind = 1 };
	char err[256] = "";

	struct soak *s;

	s = soak_start(0, 0, err, sizeof(err));
	CHECK(!s && *err, "zero soakers refused: %s", err);
	soak_stop(s);
	/* The last soaker is bound to a CPU that does not exist. */
	err[0] = '\0';
	s = soak_start_cfg(cpu_max() + 2, &cfg, err, sizeof(err));
	CHECK(!s && strstr(err, "failed to start"),
	      "a soaker that cannot start fails soak_start: %s", err);
	soak_stop(s);
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD,
	      "and its siblings are killed and reaped");
}

/* Run time less system time of both soakers, as the run-time meter reads it. */
static int read_runtime(const struct soak *s, uint64_t ns[2], char *err, size_t errlen)
{
	uint64_t run, sys;
	int i;

	for (i = 0; i < 2; i++) {
		if (proc_task_ns(soak_pid(s, i), &run, &sys, err, errlen) < 0)
			return -1;
		ns[i] = run - sys;
	}
	return 0;
}

/* The run-time reading from /proc, and its failure. */
static void test_runtime(void)
{
	uint64_t t0[2] = { 0, 0 }, t1[2] = { 0, 0 }, ran, run, sys;
	struct others_mark mark;
	char err[256] = "";
	struct soak *s = soak_start(2, 0, err, sizeof(err));
	int rc, others;
	pid_t pid;

	if (!s) {
		CHECK(0, "two soakers start for the run-time reading (%s)", err);
		return;
	}
	others_mark(&mark);
	rc = read_runtime(s, t0, err, sizeof(err));
	sleep_until(now_ns() + 200000000u);
	rc |= read_runtime(s, t1, err, sizeof(err));
	others = others_held(&mark);
	ran = (t1[0] - t0[0]) + (t1[1] - t0[1]);
	/*
	 * Two busy soakers on 2 CPUs: on a quiet machine together near 400 ms
	 * of 400 ms. Other work takes that from them, as it should: SCHED_IDLE
	 * soakers beside work at nice 0 get next to nothing, and other
	 * programs' nice-19 soakers, which are not in "others", share the CPUs
	 * with ours unseen. So the bar is 20 ms, a tenth of one CPU,
	 * which a broken reader (nothing, or garbage) misses anyway; under it,
	 * with others holding half the machine, a skip with the figures.
	 */
	if (rc == 0 && ran <= 20000000u && others >= 50)
		printf("skip - run time advances: others held %d%% of the CPUs "
		       "(soakers ran %" PRIu64 " ns in 200 ms)\n", others, ran);
	else
		CHECK(rc == 0 && t1[0] >= t0[0] && t1[1] >= t0[1] && ran > 20000000u &&
		      ran < 500000000u,
		      "run time advances: %" PRIu64 " + %" PRIu64 " ns in 200 ms (%s)",
		      t1[0] - t0[0], t1[1] - t0[1], rc ? err : "ok");
	soak_stop(s);
	/* A process that is gone and reaped has no /proc entry left to read. */
	pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	err[0] = '\0';
	rc = proc_task_ns(pid, &run, &sys, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "schedstat"), "a vanished process is an error: %s", err);
}

/*
 * soak_check: a soaker killed or stopped is named with how it ended, in
 * the soakers' parent (waitid) and in a process forked later (/proc).
 */
static void check_in_child(const struct soak *s, const char *want, const char *what)
{
	int fds[2], status;
	char err[256] = "";
	ssize_t n;
	pid_t pid;

	if (pipe(fds) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (soak_check(s, err, sizeof(err)) < 0)
			(void)!write(fds[1], err, strlen(err));
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], err, sizeof(err) - 1);
	err[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	CHECK(strstr(err, want) != NULL, "%s, seen from a forked child: '%s'", what, err);
}

static void test_health(int sig, const char *want_parent, const char *want_child)
{
	char err[256] = "", want[64];
	struct soak *s = soak_start(2, 0, err, sizeof(err));
	int i;

	if (!s) {
		CHECK(0, "two soakers start for the health check (%s)", err);
		return;
	}
	CHECK(soak_check(s, err, sizeof(err)) == 0, "%s: two running soakers are well", want_parent);
	kill(soak_pid(s, 1), sig);
	for (i = 0; i < 500 && soak_check(s, err, sizeof(err)) == 0; i++)
		sleep_until(now_ns() + 10000000u);
	snprintf(want, sizeof(want), "(PID %d) %s", soak_pid(s, 1), want_parent);
	CHECK(strstr(err, want) && strstr(err, "soaker for CPU "),
	      "soak_check names the soaker and how: '%s'", err);
	check_in_child(s, want_child, want_parent);
	soak_stop(s);
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD,
	      "%s: soak_stop still reaps every soaker", want_parent);
}

/*
 * proc_task_pending: a signal sent but not acted on yet shows in the mask
 * (a child that blocks SIGUSR1 and SIGTSTP keeps them pending); none for a
 * process without, and none for one that is gone.
 */
static void test_pending(void)
{
	uint64_t want = (1ull << (SIGUSR1 - 1)) | (1ull << (SIGTSTP - 1)), got = 0;
	sigset_t set, old;
	pid_t pid;
	int i;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTSTP);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		CHECK(0, "fork for the pending-signal check: %s", strerror(errno));
		return;
	}
	CHECK(proc_task_pending(pid) == 0, "nothing pending before a signal is sent");
	kill(pid, SIGUSR1);
	kill(pid, SIGTSTP);
	for (i = 0; i < 100 && (got & want) != want; i++) {
		got = proc_task_pending(pid);
		sleep_until(now_ns() + 10000000u);
	}
	CHECK(got == want, "SIGUSR1 and SIGTSTP pending: mask %#llx (want %#llx)",
	      (unsigned long long)got, (unsigned long long)want);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CHECK(proc_task_pending(pid) == 0, "a process that is gone has nothing pending");
}

/*
 * proc_children: our children, a running one and a zombie, each with its
 * state and name; none once they are reaped; the count when kids is short.
 */
static void test_children(void)
{
	struct proc_task kids[4];
	pid_t live = fork(), dead;
	int n, i, seen = 0;

	if (live == 0) {
		for (;;)
			pause();
	}
	dead = fork();
	if (dead == 0)
		_exit(0);
	if (live < 0 || dead < 0) {
		CHECK(0, "fork for the children check: %s", strerror(errno));
		return;
	}
	for (i = 0; i < 100 && proc_task_state(dead, &kids[0].state, &n) == 1 &&
	     kids[0].state != 'Z'; i++)
		sleep_until(now_ns() + 10000000u);
	n = proc_children(getpid(), kids, 4);
	for (i = 0; i < n && i < 4; i++) {
		if (kids[i].pid == live && kids[i].state != 'Z' &&
		    strcmp(kids[i].name, "test_soak") == 0)
			seen |= 1;
		if (kids[i].pid == dead && kids[i].state == 'Z')
			seen |= 2;
	}
	CHECK(n == 2 && seen == 3, "proc_children: %d children, the live one and the zombie "
	      "named and in their states (seen %d)", n, seen);
	CHECK(proc_children(getpid(), NULL, 0) == 2, "proc_children with no room still counts");
	kill(live, SIGKILL);
	waitpid(live, NULL, 0);
	waitpid(dead, NULL, 0);
	CHECK(proc_children(getpid(), kids, 4) == 0, "proc_children: none once they are reaped");
}

/* Where a field of /proc/PID/stat starts, past a name that holds ") ". */
static void test_proc_stat_field(void)
{
	const char *line = "9 (a) b 1) S 4 9 9 0 -1 0 0 0 0 0 7 8\n";
	const char *f3 = proc_stat_field(line, 3), *f4 = proc_stat_field(line, 4);
	const char *f15 = proc_stat_field(line, 15);

	CHECK(f3 && strncmp(f3, "S 4", 3) == 0, "field 3 is the state: '%.3s'", f3 ? f3 : "(null)");
	CHECK(f4 && strncmp(f4, "4 9", 3) == 0, "field 4 is the parent: '%.3s'", f4 ? f4 : "(null)");
	CHECK(f15 && strcmp(f15, "8\n") == 0, "field 15, the last one, is found");
	CHECK(!proc_stat_field(line, 16), "no field 16 in a 15-field line");
	CHECK(!proc_stat_field(line, 2) && !proc_stat_field("9 no name S 1", 3),
	      "field 2 (the name) and a line without ')' give NULL");
}

/* "Cpus_allowed_list" of a process, e.g. "0" or "0-1"; "" when unreadable. */
static void allowed_list(pid_t pid, char out[64])
{
	char path[64], line[256];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Cpus_allowed_list: %63s", out) == 1)
			break;
	fclose(f);
}

/* Without bind, soaker i is pinned to the i-th CPU the parent may use. */
static void test_placement(void)
{
	cpu_set_t saved, one;
	char err[256] = "", a[64], b[64], want[16];
	struct soak *s;
	int first = -1, cpu;

	if (sched_getaffinity(0, sizeof(saved), &saved) < 0) {
		CHECK(0, "sched_getaffinity: %s", strerror(errno));
		return;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && first < 0; cpu++)
		if (CPU_ISSET(cpu, &saved))
			first = cpu;
	s = soak_start(CPU_COUNT(&saved), 0, err, sizeof(err));
	if (!s) {
		CHECK(0, "soakers start for placement (%s)", err);
		return;
	}
	allowed_list(soak_pid(s, 0), a);
	snprintf(want, sizeof(want), "%d", first);
	CHECK(strcmp(a, want) == 0, "soaker 0 is pinned to the first allowed CPU: '%s' (want '%s')",
	      a, want);
	if (CPU_COUNT(&saved) > 1) {
		allowed_list(soak_pid(s, 1), b);
		CHECK(b[0] && !strchr(b, '-') && !strchr(b, ',') && strcmp(a, b) != 0,
		      "soaker 1 is pinned to another single CPU: '%s' vs '%s'", b, a);
	} else {
		printf("skip - one CPU: no second soaker to place\n");
	}
	soak_stop(s);

	/* A parent held to one CPU: every soaker goes there, none fails. */
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	if (sched_setaffinity(0, sizeof(one), &one) < 0) {
		CHECK(0, "sched_setaffinity: %s", strerror(errno));
		return;
	}
	s = soak_start(2, 0, err, sizeof(err));
	sched_setaffinity(0, sizeof(saved), &saved);
	if (!s) {
		CHECK(0, "two soakers start in a one-CPU parent (%s)", err);
		return;
	}
	allowed_list(soak_pid(s, 0), a);
	allowed_list(soak_pid(s, 1), b);
	CHECK(strcmp(a, want) == 0 && strcmp(b, want) == 0,
	      "a parent held to CPU %d: both soakers there: '%s', '%s'", first, a, b);
	soak_stop(s);
}

/*
 * A soaker whose pinning was dropped (the kernel does so when its CPU goes
 * offline) is pinned again by soak_mend; a parked one is stopped, left out
 * of soak_check, and goes on when unparked.
 */
static void test_mend_park(void)
{
	char err[256] = "", was[64], mask[64], want[16];
	int cpus[CPU_SETSIZE], n = cpu_allowed(cpus), rc;
	struct soak_cfg cfg = { .cpus = cpus };
	cpu_set_t all;
	struct soak *s;
	uint64_t a, b;
	char state = 0;
	int status;

	s = n > 0 ? soak_start_cfg(1, &cfg, err, sizeof(err)) : NULL;
	if (!s) {
		CHECK(0, "a soaker starts for mend and park (%s)", err);
		return;
	}
	snprintf(want, sizeof(want), "%d", cpus[0]);
	CHECK(soak_cpu(s, 0) == cpus[0], "soak_cpu: %d (want %d)", soak_cpu(s, 0), cpus[0]);
	CHECK(soak_mend(s, 0, was, sizeof(was), err, sizeof(err)) == 0,
	      "soak_mend on a soaker still pinned: nothing to do");
	/*
	 * A dropped pinning is a mask of more than one CPU: with one CPU
	 * allowed (the others offline or outside the cpuset) the kernel's
	 * view of a widened mask is the same one CPU, nothing to see.
	 */
	if (n > 1) {
		sched_getaffinity(0, sizeof(all), &all);
		sched_setaffinity(soak_pid(s, 0), sizeof(all), &all);
		was[0] = '\0';
		rc = soak_mend(s, 0, was, sizeof(was), err, sizeof(err));
		allowed_list(soak_pid(s, 0), mask);
		CHECK(rc == 1 && strcmp(mask, want) == 0,
		      "soak_mend on a soaker whose pinning was dropped (was %s): %d, now '%s'",
		      was, rc, mask);
	} else {
		printf("skip - soak_mend on a dropped pinning: this process may use "
		       "1 CPU, a wider mask needs 2\n");
	}

	soak_park(s, 0);
	CHECK(soak_parked(s, 0), "soak_park: parked");
	for (rc = 0; rc < 200 && state != 'T'; rc++) {
		sleep_until(now_ns() + 5000000u);
		proc_task_state(soak_pid(s, 0), &state, &status);
	}
	CHECK(state == 'T' && soak_check(s, err, sizeof(err)) == 0,
	      "parked: stopped ('%c') and soak_check says nothing (%s)", state, err);
	CHECK(soak_unpark(s, 0, err, sizeof(err)) == 0 && !soak_parked(s, 0),
	      "soak_unpark: going on");
	soak_read(s, &a);
	for (rc = 0, b = a; rc < 200 && b == a; rc++) {
		sleep_until(now_ns() + 5000000u);
		soak_read(s, &b);
	}
	CHECK(b > a && soak_check(s, err, sizeof(err)) == 0,
	      "unparked: counting again (%llu -> %llu), healthy",
	      (unsigned long long)a, (unsigned long long)b);
	soak_stop(s);
}

/* The system time field, whatever the name in parentheses holds. */
static void test_parse_stime(void)
{
	static const struct {
		const char *line;
		int rc;
		unsigned long long ticks;
	} cases[] = {
		{ "42 (cyclesoak) R 1 42 42 0 -1 4194560 77 0 0 0 1234 56 0 0 39 19 1 0\n", 0, 56 },
		{ "7 (a) b (c) S 1 7 7 0 -1 0 0 0 0 0 9 10\n", 0, 10 },
		{ "7 (x y)) R 1 7 7 0 -1 0 0 0 0 0 9 18446744073709551615 0", 0, 18446744073709551615ull },
		{ "7 (short) R 1 7 7 0 -1 0 0 0 0 0 9\n", -1, 0 },
		{ "7 (bad) R 1 7 7 0 -1 0 0 0 0 0 9 x12 0\n", -1, 0 },
		{ "7 (big) R 1 7 7 0 -1 0 0 0 0 0 9 18446744073709551616 0\n", -1, 0 },
		{ "7 no name R 1 7 7 0 -1 0 0 0 0 0 9 10 0\n", -1, 0 },
		{ "", -1, 0 },
	};
	unsigned long long t;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t = 0;
		rc = proc_parse_stime(cases[i].line, &t);
		CHECK(rc == cases[i].rc && (rc < 0 || t == cases[i].ticks),
		      "stime of case %zu: rc %d, %llu ticks (want %d, %llu)", i, rc, t,
		      cases[i].rc, cases[i].ticks);
	}
}

/*
 * lift: a soaker being killed leaves the idle class, nice 19 and its nice 19
 * autogroup, so it gets the CPU it needs to die. Root may lift it all the
 * way; others only out of SCHED_IDLE.
 */
static void test_lift(void)
{
	struct sched_param sp = { 0 };
	char path[64], line[128] = "";
	int ready[2], prio, policy;
	FILE *f;
	pid_t pid;

	if (pipe(ready) < 0) {
		CHECK(0, "lift: pipe");
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		soak_own_autogroup();
		if (setpriority(PRIO_PROCESS, 0, 19) == 0 &&
		    sched_setscheduler(0, SCHED_IDLE, &sp) == 0)
			(void)!write(ready[1], "x", 1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], line, 1) != 1) {
		CHECK(0, "lift: a child at SCHED_IDLE, nice 19");
		close(ready[0]);
		return;
	}
	close(ready[0]);
	soak_lift(pid);
	policy = sched_getscheduler(pid);
	errno = 0;
	prio = getpriority(PRIO_PROCESS, (id_t)pid);
	snprintf(path, sizeof(path), "/proc/%d/autogroup", (int)pid);
	f = fopen(path, "re");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	CHECK(policy == SCHED_OTHER, "lift: out of SCHED_IDLE (policy %d)", policy);
	if (geteuid() == 0)
		CHECK(prio == 0 && (!f || strstr(line, " nice 0")),
		      "lift, as root: nice %d, autogroup '%s'", prio, f ? line : "(none)");
	else
		printf("skip - lift to nice 0: needs root (nice %d here)\n", prio);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

int main(void)
{
	test_soakers(SOAK_NICE19);
	test_soakers(SOAK_IDLE);
	test_bad_start();
	test_runtime();
	test_health(SIGKILL, "was killed by SIGKILL", "was killed by SIGKILL");
	test_health(SIGSTOP, "was stopped (SIGSTOP)", "was stopped");
	test_pending();
	test_children();
	test_parse_stime();
	test_proc_stat_field();
	test_placement();
	test_mend_park();
	test_lift();
	soak_stop(NULL);
	return t_exit();
}
