/*
 * cyclesoak - measure CPU load by subtraction.
 *
 * One busy soaker per CPU runs at the lowest priority and counts. On an idle
 * machine they reach the calibrated rate (cyclesoak -C); whatever else the
 * machine does slows them down, so load = 1 - rate / calibrated rate.
 */
#include <error.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "cpu.h"
#include "opt.h"
#include "soak.h"

/* Settle time before measuring: page faults, scheduler placement. */
#define WARMUP_MS 300

static int cfg_once;
static int cfg_bind;
static int cfg_calibrate;
static int cfg_debug;
static int cfg_ncpus;
static int cfg_runtime;		/* -r: the soakers' run time, not their counts */
static enum soak_policy cfg_policy = SOAK_IDLE;
static long long cfg_period_ms = 1000;
static const char *cfg_file = CALIB_DEFAULT_PATH;
static char **cfg_command;

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void usage(void)
{
	printf(
"usage: cyclesoak [-1BCdhnr] [-N nr_cpus] [-p secs | -m msecs] [-f file] [-- command ...]\n"
"  -C         calibrate on an idle machine and write the calibration file\n"
"  -f FILE    calibration file (default ./" CALIB_DEFAULT_PATH ")\n"
"  -N CPUS    number of soakers (default: the online CPUs)\n"
"  -p SECS    sampling period in seconds (default 1); with -C, one sample\n"
"  -m MSECS   sampling period in milliseconds\n"
"  -B         bind soaker i to CPU i and show each CPU's free share\n"
"  -1         print one figure and exit\n"
"  -n         soakers run plain nice 19 (SCHED_OTHER), as in 2001, not SCHED_IDLE\n"
"  -r         measure the CPU time the soakers were denied (their run time\n"
"             from the scheduler, less the interrupt and softirq time the\n"
"             kernel's tick samples find in it) instead of their lost loop\n"
"             counts: no calibration, immune to a host that slows a virtual\n"
"             machine's CPUs, but blind to cache and memory interference\n"
"  -d         per-CPU counter deltas on stderr\n"
"  -- command run command, print the load over its lifetime, exit with its status\n"
"prints \"System load: xx.x%%\" every period\n");
}

/* Leave the way the signal asked, now that the soakers are gone. */
static void __attribute__((noreturn)) die_by_signal(int sig)
{
	fflush(stdout);
	signal(sig, SIG_DFL);
	raise(sig);
	/* Only if the signal is blocked, which ours never are. */
	_exit(128 + sig);	// cppcheck-suppress unreachableCode
}

static void print_sample(double rate, void *arg)
{
	(void)arg;
	printf("calibrating: %.0f loops/sec\n", rate);
}

static void do_calibrate(void)
{
	struct soak_cfg cfg = {
		.bind = cfg_bind,
		.policy = cfg_policy,
		.sample_ms = (unsigned)cfg_period_ms,
		.warmup_ms = cfg_period_ms < 500 ? 2 * (unsigned)cfg_period_ms : 1000,
	};
	struct calib c;
	char warn[160], err[256];

	if (soak_calibrate_cfg(cfg_ncpus, &cfg, print_sample, NULL, &c,
			       warn, sizeof(warn), err, sizeof(err)) < 0) {
		if (stop_signal)
			die_by_signal(stop_signal);
		error(1, 0, "%s", err);
	}
	if (calib_save(cfg_file, &c, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	printf("calibrated OK.  %.0f loops/sec\n", c.loops_per_sec);
	if (*warn)
		fprintf(stderr, "cyclesoak: warning: %s\n", warn);
}

/*
 * One "System load:" line for the counter deltas d[] over secs seconds.
 * -1 when stdout is gone (a closed pipe: SIGPIPE is ignored, see main).
 */
static int print_load(const uint64_t *d, int n, double secs, const struct calib *c)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += d[i];
	printf("System load: %.1f%%", 100 * soak_load((double)sum / secs, c));
	if (cfg_bind) {
		printf(" || Free:");
		for (i = 0; i < n; i++)
			printf(" %.1f%%(%d)", 100 * (double)d[i] / secs /
			       (c->loops_per_sec / n), i);
	}
	putchar('\n');
	/* Line buffered: a failed write already happened at the newline. */
	if (fflush(stdout) == EOF || ferror(stdout))
		return -1;
	if (cfg_debug) {
		fprintf(stderr, "deltas over %.3f s:", secs);
		for (i = 0; i < n; i++)
			fprintf(stderr, " %" PRIu64 "(%d)", d[i], i);
		fprintf(stderr, " total %" PRIu64 ", %.0f loops/sec\n", sum,
			(double)sum / secs);
	}
	return 0;
}

/* The meter's reading of each soaker: its loop count, or with -r its run time. */
static void read_meter(struct soak *s, uint64_t *v)
{
	char err[256];

	if (!cfg_runtime) {
		soak_read(s, v);
		return;
	}
	if (soak_read_runtime(s, v, err, sizeof(err)) < 0) {
		soak_stop(s);
		error(1, 0, "-r: %s", err);
	}
}

static struct soak *start_soakers(void)
{
	struct soak_cfg cfg = { .bind = cfg_bind, .policy = cfg_policy };
	struct soak *s;
	char err[256];

	s = soak_start_cfg(cfg_ncpus, &cfg, err, sizeof(err));
	if (!s) {
		if (stop_signal)
			die_by_signal(stop_signal);
		error(1, 0, "%s", err);
	}
	if (soak_sleep_until(now_ns() + WARMUP_MS * 1000000ull) < 0 && stop_signal) {
		soak_stop(s);
		die_by_signal(stop_signal);
	}
	return s;
}

/*
 * A reading of the soakers: their meter values at its start, and what they
 * gained since (delta), both one per soaker.
 */
struct reading {
	uint64_t *start, *delta;
};

static void reading_start(struct soak *s, struct reading *r)
{
	r->start = calloc((size_t)cfg_ncpus, sizeof(*r->start));
	r->delta = calloc((size_t)cfg_ncpus, sizeof(*r->delta));
	if (!r->start || !r->delta) {
		soak_stop(s);
		error(1, errno, "counters");
	}
	read_meter(s, r->start);
}

/* Fill delta with the gain since the start; what was read is the new start. */
static void reading_take(struct soak *s, struct reading *r)
{
	int i;

	read_meter(s, r->delta);
	for (i = 0; i < cfg_ncpus; i++) {
		uint64_t now = r->delta[i];

		r->delta[i] -= r->start[i];
		r->start[i] = now;
	}
}

static void reading_free(struct reading *r)
{
	free(r->start);
	free(r->delta);
}

static void measure(const struct calib *c)
{
	uint64_t period = (uint64_t)cfg_period_ms * 1000000u, t0, t1, next;
	struct reading r;
	struct soak *s;

	s = start_soakers();
	t0 = now_ns();
	reading_start(s, &r);
	next = t0 + period;
	while (!stop_signal) {
		if (soak_sleep_until(next) < 0)
			continue;	/* a signal: the loop test decides */
		t1 = now_ns();
		reading_take(s, &r);
		if (print_load(r.delta, cfg_ncpus, (double)(t1 - t0) / 1e9, c) < 0) {
			soak_stop(s);
			error(1, errno, "write to stdout");
		}
		if (cfg_once)
			break;
		t0 = t1;
		next += period;
		if (next < t1)		/* we were stopped; do not catch up */
			next = t1 + period;
	}
	soak_stop(s);
	reading_free(&r);
	if (stop_signal)
		die_by_signal(stop_signal);
}

/* Run the command under measurement; returns its status for exit(). */
static int measure_command(const struct calib *c)
{
	struct reading r;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	uint64_t t0, t1;
	struct soak *s;
	int rc, status, forwarded = 0;
	pid_t pid;

	sigemptyset(&none);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	/* The command gets SIGPIPE back as it would have it without us. */
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

	s = start_soakers();
	fflush(stdout);
	t0 = now_ns();
	reading_start(s, &r);
	rc = posix_spawnp(&pid, cfg_command[0], NULL, &attr, cfg_command, environ);
	posix_spawnattr_destroy(&attr);
	if (rc) {
		soak_stop(s);
		reading_free(&r);
		error(0, rc, "%s", cfg_command[0]);
		return 127;
	}
	for (;;) {
		/* Pass our stop signal on once; the command decides. */
		if (stop_signal && !forwarded) {
			kill(pid, stop_signal);
			forwarded = 1;
		}
		if (waitpid(pid, &status, 0) == pid)
			break;
		if (errno != EINTR) {
			soak_stop(s);
			error(1, errno, "wait for %s", cfg_command[0]);
		}
	}
	t1 = now_ns();
	reading_take(s, &r);
	soak_stop(s);
	if (print_load(r.delta, cfg_ncpus, (double)(t1 - t0) / 1e9, c) < 0)
		error(0, errno, "write to stdout");
	reading_free(&r);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	struct calib c;
	char err[256], warn[160];
	int opt, seen_p = 0, seen_m = 0;

	/*
	 * "+": options end at the first operand, so a command keeps its own.
	 * ":": getopt stays quiet; the errors below are one line each.
	 */
	while ((opt = getopt(argc, argv, "+:1BCdhnrf:m:N:p:")) != -1) {
		switch (opt) {
		case '1': cfg_once = 1; break;
		case 'B': cfg_bind = 1; break;
		case 'C': cfg_calibrate = 1; break;
		case 'd': cfg_debug = 1; break;
		case 'n': cfg_policy = SOAK_NICE19; break;
		case 'r': cfg_runtime = 1; break;
		case 'f': cfg_file = optarg; break;
		case 'N': cfg_ncpus = (int)opt_num(opt, optarg, 1, cpu_max() + 1); break;
		case 'p':
			cfg_period_ms = opt_num(opt, optarg, 1, 3600) * 1000;
			seen_p = 1;
			break;
		case 'm':
			cfg_period_ms = opt_num(opt, optarg, 1, 3600000);
			seen_m = 1;
			break;
		case 'h': usage(); return 0;
		default: opt_refused(opt);
		}
	}
	if (seen_p && seen_m)
		usage_error("-p and -m both set the period: give one");
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--") != 0)
			usage_error("unexpected argument '%s' (a command goes after --)",
				    argv[optind]);
		cfg_command = argv + optind;
	}
	if (cfg_calibrate && cfg_command)
		usage_error("-C calibrates; it does not run a command");
	if (cfg_calibrate && cfg_runtime)
		usage_error("-r needs no calibration: give -C or -r, not both");
	if (!*cfg_file)
		usage_error("-f: empty file name");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!cfg_ncpus) {
		cfg_ncpus = cpu_online();
		printf("using %d CPUs\n", cfg_ncpus);
	}
	soak_on_stop_signals(on_signal);
	/* A closed stdout shows as a write error, reported, not a silent death. */
	signal(SIGPIPE, SIG_IGN);

	if (cfg_calibrate) {
		do_calibrate();
		return 0;
	}
	if (cfg_runtime) {
		/* Run time in ns: an idle CPU gives its soaker 1e9 a second. */
		c.loops_per_sec = 1e9 * cfg_ncpus;
		c.ncpus = cfg_ncpus;
		return cfg_command ? measure_command(&c) : (measure(&c), 0);
	}
	if (calib_for(cfg_file, cfg_ncpus, &c, warn, sizeof(warn), err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	if (warn[0])
		error(0, 0, "warning: %s", warn);
	if (cfg_command)
		return measure_command(&c);
	measure(&c);
	return 0;
}
