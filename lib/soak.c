#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "cpu.h"
#include "err.h"
#include "soak.h"

/*
 * Each soaker's counter sits alone on 128 bytes: a cache line plus its
 * neighbour, which the adjacent-line prefetcher would otherwise pull in and
 * bounce between CPUs.
 */
#define SLOT_BYTES 128

struct slot {
	uint64_t count;		/* bumped by the soaker, read by the parent */
	int err;		/* errno of a failed set-up, then the soaker exits */
} __attribute__((aligned(SLOT_BYTES)));

_Static_assert(sizeof(struct slot) == SLOT_BYTES, "one slot per 128 bytes");

/*
 * The soaker's private scratch memory: small enough to stay in the L1/L2
 * cache of an idle CPU, so the count rate is steady, but touched every
 * count, so memory traffic from other work slows the soaker as it should.
 */
#define SCRATCH_BYTES 32768u
#define LINE 64
#define LINES_PER_COUNT 8

struct soak {
	int n;
	pid_t *pids;
	struct slot *slots;	/* MAP_SHARED: the parent sees the counts */
	size_t maplen;
};

/*
 * The loop itself. The scratch writes and the counter store go through
 * volatile pointers and the counter store is atomic, so no -O level may drop
 * or merge them: every count really is LINES_PER_COUNT memory touches.
 */
static void __attribute__((noreturn, noinline))
spin(volatile uint64_t *count, volatile unsigned char *scratch)
{
	uint64_t n = 0;
	size_t off = 0;
	int i;

	for (;;) {
		for (i = 0; i < LINES_PER_COUNT; i++) {
			scratch[off]++;
			off = (off + LINE) & (SCRATCH_BYTES - 1);
		}
		__atomic_store_n(count, ++n, __ATOMIC_RELAXED);
	}
}

/*
 * Give the soaker an autogroup of its own at nice 19. With autogroup on (the
 * default of most distributions) nice only ranks tasks within one session:
 * a nice 19 soaker in the shell's session would get half a CPU against a
 * load started from another terminal. Best effort: without autogroup there
 * is no file and nothing to fix. Unprivileged writes are rate limited
 * (EAGAIN), hence the retries.
 */
static void own_autogroup(void)
{
	int fd, tries;

	if (setsid() < 0)
		return;
	fd = open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (tries = 0; tries < 30; tries++) {
		if (write(fd, "19", 2) == 2 || errno != EAGAIN)
			break;
		soak_sleep_until(now_ns() + 50000000u);
	}
	close(fd);
}

static void __attribute__((noreturn))
soaker(struct slot *slot, pid_t parent, int cpu, enum soak_policy policy)
{
	struct sched_param sp = { 0 };
	sigset_t all;
	int fd, sig;
	unsigned char *scratch;

	/* Die with the parent; if it died before this took effect, go now. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(1);
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	/* Hold no pipe or socket of the parent's open. */
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
	}
	close_range(3, ~0U, 0);

	own_autogroup();
	if (setpriority(PRIO_PROCESS, 0, 19) < 0)
		goto fail;
	if (policy == SOAK_IDLE && sched_setscheduler(0, SCHED_IDLE, &sp) < 0)
		goto fail;
	if (cpu >= 0 && cpu_bind(cpu) < 0)
		goto fail;
	scratch = mmap(NULL, SCRATCH_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (scratch == MAP_FAILED)
		goto fail;
	spin(&slot->count, scratch);
fail:
	slot->err = errno ? errno : EINVAL;
	_exit(1);
}

/*
 * Lift a soaker that has just been killed out of SCHED_IDLE, nice 19 and
 * its nice 19 autogroup, as far as this process may (all the way as root;
 * unprivileged, SCHED_OTHER at nice 19 and autogroup nice 0). A dying task
 * must run to exit, and beside busy work at nice 0 an idle-class soaker got
 * so little CPU that Ctrl-C took over 5 s. Best effort, and only system
 * calls: signal handlers come here too.
 */
static void lift(pid_t pid)
{
	struct sched_param sp = { 0 };
	char path[32] = "/proc/";
	char digits[12];
	int fd, n = 0, len = 6;

	sched_setscheduler(pid, SCHED_OTHER, &sp);
	setpriority(PRIO_PROCESS, (id_t)pid, 0);
	do
		digits[n++] = (char)('0' + pid % 10);
	while ((pid /= 10) > 0);
	while (n > 0)
		path[len++] = digits[--n];
	memcpy(path + len, "/autogroup", sizeof("/autogroup"));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "0", 1) < 0) {
			/* rate limited or refused: the soaker dies all the same */
		}
		close(fd);
	}
}

/* Kill and reap the first n soakers. */
static void kill_all(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			lift(pids[i]);
		}
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
}

int soak_sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000u),
		.tv_nsec = (long)(deadline_ns % 1000000000u),
	};
	int rc;

	/* now_ns() is CLOCK_MONOTONIC, so an absolute deadline never drifts. */
	rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	if (rc) {
		errno = rc;
		return -1;
	}
	return 0;
}

/* Wait until every soaker has counted; a soaker that exits is a failure. */
static int wait_counting(struct soak *s, char *err, size_t errlen)
{
	uint64_t give_up = now_ns() + 10 * 1000000000ull;
	int i, status, counting;

	for (;;) {
		counting = 0;
		for (i = 0; i < s->n; i++) {
			if (__atomic_load_n(&s->slots[i].count, __ATOMIC_RELAXED))
				counting++;
			else if (waitpid(s->pids[i], &status, WNOHANG) == s->pids[i]) {
				s->pids[i] = 0;
				err_fill(err, errlen, s->slots[i].err,
				     "soaker %d failed to start", i);
				return -1;
			}
		}
		if (counting == s->n)
			return 0;
		if (now_ns() > give_up) {
			err_fill(err, errlen, 0, "soakers did not start within 10 s "
			     "(%d of %d counting)", counting, s->n);
			return -1;
		}
		soak_sleep_until(now_ns() + 1000000u);
	}
}

struct soak *soak_start_cfg(int ncpus, const struct soak_cfg *cfg,
			    char *err, size_t errlen)
{
	static const struct soak_cfg defaults;
	struct soak *s;
	pid_t parent = getpid();
	int i, saved, n_allowed, allowed[CPU_SETSIZE];

	if (!cfg)
		cfg = &defaults;
	if (ncpus < 1) {
		err_fill(err, errlen, 0, "need at least one soaker, not %d", ncpus);
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s || !(s->pids = calloc((size_t)ncpus, sizeof(pid_t)))) {
		err_fill(err, errlen, errno, "soakers");
		free(s);
		return NULL;
	}
	s->maplen = (size_t)ncpus * sizeof(struct slot);
	s->slots = mmap(NULL, s->maplen, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->slots == MAP_FAILED) {
		err_fill(err, errlen, errno, "soakers' shared memory");
		free(s->pids);
		free(s);
		return NULL;
	}
	/*
	 * Soaker i goes to the i-th CPU we may use: left to the scheduler,
	 * SCHED_IDLE soakers pile up on one CPU and leave another idle while
	 * the work they measure comes and goes. On a 2-CPU VM, during a
	 * 100 Mbit/s transfer, unbound soakers left the CPUs idle 4-7% of the
	 * time (/proc/stat), and the meter read that idle time as load.
	 */
	n_allowed = cpu_allowed(allowed);
	fflush(NULL);		/* nothing buffered gets written twice */
	for (i = 0; i < ncpus; i++) {
		s->pids[i] = fork();
		if (s->pids[i] == 0)
			soaker(&s->slots[i], parent,
			       cfg->bind ? i : n_allowed ? allowed[i % n_allowed] : -1,
			       cfg->policy);
		if (s->pids[i] < 0) {
			err_fill(err, errlen, errno, "fork soaker %d", i);
			s->n = i;
			goto fail;
		}
		s->n = i + 1;
	}
	if (wait_counting(s, err, errlen) == 0)
		return s;
fail:
	saved = errno;
	soak_stop(s);
	errno = saved;
	return NULL;
}

struct soak *soak_start(int ncpus, int bind, char *err, size_t errlen)
{
	struct soak_cfg cfg = { .bind = bind };

	return soak_start_cfg(ncpus, &cfg, err, errlen);
}

int soak_count(const struct soak *s)
{
	return s->n;
}

int soak_pid(const struct soak *s, int i)
{
	return i >= 0 && i < s->n ? s->pids[i] : -1;
}

void soak_read(const struct soak *s, uint64_t *counts)
{
	int i;

	for (i = 0; i < s->n; i++)
		counts[i] = __atomic_load_n(&s->slots[i].count, __ATOMIC_RELAXED);
}

uint64_t soak_total(const struct soak *s)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < s->n; i++)
		sum += __atomic_load_n(&s->slots[i].count, __ATOMIC_RELAXED);
	return sum;
}

int soak_parse_stime(const char *stat, unsigned long long *ticks)
{
	const char *p = proc_stat_field(stat, 15);
	char *end;

	if (!p || *p < '0' || *p > '9')
		return -1;
	errno = 0;
	*ticks = strtoull(p, &end, 10);
	return errno || (*end != ' ' && *end != '\n' && *end) ? -1 : 0;
}

/* read_line - the first line of a /proc file into buf; -1 with err filled. */
static int read_line(const char *path, char *buf, size_t len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return err_fill(err, errlen, errno, "%s", path);
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return err_fill(err, errlen, 0, "%s: empty", path);
	return 0;
}

int soak_read_runtime(const struct soak *s, uint64_t *ns, char *err, size_t errlen)
{
	char path[64], line[512], *end = line;
	unsigned long long run, stime = 0, sys_ns;
	long hz = sysconf(_SC_CLK_TCK);
	int i;

	if (hz <= 0)
		hz = 100;
	for (i = 0; i < s->n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)s->pids[i]);
		if (read_line(path, line, sizeof(line), err, errlen) < 0)
			return -1;
		/* "RUN_NS WAIT_NS TIMESLICES": the first number is ours. */
		errno = 0;
		run = strtoull(line, &end, 10);
		if (end == line || errno || *end != ' ')
			return err_fill(err, errlen, 0, "%s: no run time in it", path);
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)s->pids[i]);
		if (read_line(path, line, sizeof(line), err, errlen) < 0)
			return -1;
		if (soak_parse_stime(line, &stime) < 0)
			return err_fill(err, errlen, 0, "%s: no system time in it", path);
		/*
		 * A soaker never enters the kernel on its own: its system time
		 * is the interrupts and softirqs that ran on its time.
		 */
		sys_ns = stime * (1000000000ull / (unsigned long long)hz);
		ns[i] = run > sys_ns ? run - sys_ns : 0;
	}
	return 0;
}

void soak_kill(struct soak *s)
{
	int i;

	kill_all(s->pids, s->n);
	for (i = 0; i < s->n; i++)
		s->pids[i] = 0;
}

void soak_on_stop_signals(void (*handler)(int))
{
	struct sigaction sa = { .sa_handler = handler };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void soak_stop(struct soak *s)
{
	if (!s)
		return;
	soak_kill(s);
	munmap(s->slots, s->maplen);
	free(s->pids);
	free(s);
}

/*
 * Jiffies of the whole machine from /proc/stat's first line: *busy is what
 * ran at nice 0 or better (user, system, irq, softirq) plus what the
 * hypervisor stole; the soakers, at nice 19, are not in it. -1 when unreadable.
 */
static int machine_ticks(uint64_t *busy, uint64_t *total)
{
	/* user nice system idle iowait irq softirq steal */
	unsigned long long v[8] = { 0 };
	char line[512], *p, *end;
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return -1;
	p = fgets(line, sizeof(line), f);
	fclose(f);
	if (!p || strncmp(line, "cpu ", 4) != 0)
		return -1;
	p = line + 4;
	for (n = 0; n < 8; n++) {
		v[n] = strtoull(p, &end, 10);
		if (end == p)
			break;
		p = end;
	}
	if (n < 7)
		return -1;
	*busy = v[0] + v[2] + v[5] + v[6] + v[7];
	*total = *busy + v[1] + v[3] + v[4];
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int soak_calibrate_cfg(int ncpus, const struct soak_cfg *cfg,
		       void (*report)(double rate, void *arg), void *arg,
		       struct calib *out, char *warn, size_t warnlen,
		       char *err, size_t errlen)
{
	static const struct soak_cfg defaults;
	unsigned warmup_ms, sample_ms, samples, i;
	uint64_t t0, t1, c0, c1, busy0 = 0, busy1 = 0, total0 = 0, total1 = 0;
	double *rate, median, spread, others = 0;
	int ticks;
	struct soak *s;
	int saved;

	if (!cfg)
		cfg = &defaults;
	warmup_ms = cfg->warmup_ms ? cfg->warmup_ms : 1000;
	sample_ms = cfg->sample_ms ? cfg->sample_ms : 1000;
	samples = cfg->samples ? cfg->samples : 5;
	if (warn && warnlen)
		warn[0] = '\0';
	rate = calloc(samples, sizeof(*rate));
	if (!rate) {
		err_fill(err, errlen, errno, "calibrate");
		return -1;
	}
	s = soak_start_cfg(ncpus, cfg, err, errlen);
	if (!s) {
		free(rate);
		return -1;
	}
	/* Warm-up: page faults, CPU frequency, the scheduler's first guesses. */
	t0 = now_ns();
	if (soak_sleep_until(t0 + warmup_ms * 1000000ull) < 0)
		goto interrupted;
	ticks = machine_ticks(&busy0, &total0);
	t0 = now_ns();
	c0 = soak_total(s);
	for (i = 0; i < samples; i++) {
		if (soak_sleep_until(t0 + sample_ms * 1000000ull) < 0)
			goto interrupted;
		t1 = now_ns();
		c1 = soak_total(s);
		rate[i] = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
		if (report)
			report(rate[i], arg);
		t0 = t1;
		c0 = c1;
	}
	if (ticks == 0 && machine_ticks(&busy1, &total1) == 0 && total1 > total0)
		others = (double)(busy1 - busy0) / (double)(total1 - total0);
	soak_stop(s);
	/* The median: one disturbed sample cannot move it. */
	qsort(rate, samples, sizeof(*rate), cmp_double);
	median = samples % 2 ? rate[samples / 2]
			     : (rate[samples / 2 - 1] + rate[samples / 2]) / 2;
	spread = median > 0 ? (rate[samples - 1] - rate[0]) / median : 0;
	free(rate);
	if (median <= 0) {
		err_fill(err, errlen, 0, "soakers did not count");
		return -1;
	}
	out->loops_per_sec = median;
	out->ncpus = ncpus;
	out->spread = spread;
	/*
	 * A steady load spreads nothing but lowers every sample; /proc/stat
	 * (tick-sampled, but good enough to see a few percent) catches it.
	 */
	if (others > 0.03 && warn && warnlen)
		snprintf(warn, warnlen, "other work used %.1f%% of the CPUs during "
			 "calibration: calibrate again on an idle machine", others * 100);
	else if (spread > 0.02 && warn && warnlen)
		snprintf(warn, warnlen, "samples spread %.1f%%: was the machine "
			 "idle? calibrate again when it is", spread * 100);
	return 0;
interrupted:
	saved = errno;
	soak_stop(s);
	free(rate);
	err_fill(err, errlen, saved, "calibration interrupted");
	errno = saved;
	return -1;
}

int soak_calibrate(int ncpus, void (*report)(double rate, void *arg), void *arg,
		   struct calib *out, char *warn, size_t warnlen,
		   char *err, size_t errlen)
{
	return soak_calibrate_cfg(ncpus, NULL, report, arg, out, warn, warnlen,
				  err, errlen);
}

double soak_load(double rate, const struct calib *c)
{
	return 1.0 - rate / c->loops_per_sec;
}
