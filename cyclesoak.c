/*
 * cyclesoak - measure CPU load by subtraction.
 *
 * One busy soaker per CPU runs at the lowest priority; what they are denied
 * is the load everything else caused. The meter (lib/meter/meter.h) reads that
 * from their run time or from their loop counts against a calibration
 * (cyclesoak -C); the default is the method right for the machine.
 *
 * Three verbs: calibrate (-C), meter (a line every period), and measure a
 * command (-- command: the load over its lifetime, its exit status).
 */
#include <error.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/env_out.h"
#include "app/exits.h"
#include "app/opt.h"
#include "app/optab.h"
#include "app/out.h"
#include "app/meter_session.h"
#include "app/stop.h"
#include "app/where_out.h"
#include "app/where_session.h"
#include "base/clock.h"
#include "base/cpu.h"
#include "base/show.h"
#include "meter/calib_file.h"
#include "meter/meter.h"

/* What the options asked, set only by parse_options. */
struct settings {
	int once;			/* -1 */
	int calibrate;			/* -C */
	int debug;			/* -d */
	int where;			/* -W */
	int json;			/* -J */
	long long period_ms;		/* -p / -m */
	/* -N, -r / -L, -n, -f; -B binds the soakers, for each CPU's free share */
	struct meter_cfg meter;
	char **command;			/* after -- */
};

static struct settings cfg = {
	.period_ms = 1000,
	.meter.calib_path = CALIB_DEFAULT_PATH,
};

/* The stop signals we act on: those not ignored when we started (nohup). */
static sigset_t stop_set;
static sigset_t start_mask;		/* what the command inherits */

/*
 * Every option, once: getopt_long's tables and the option lines of -h are
 * made from it, and man/cyclesoak.1 is checked against -h.
 */
static const struct optab options[] = {
	{ 'C', "calibrate", NULL,
	  "calibrate the loop-count method on an idle machine, write the file" },
	{ 'f', "calibration-file", "FILE",
	  "calibration file (default ./" CALIB_DEFAULT_PATH ")" },
	{ 'N', "cpus", "CPUS",
	  "number of soakers (default: the CPUs this process may use: taskset, "
	  "a cpuset; more is a usage error)" },
	{ 'p', "period", "SECS", "sampling period in seconds (default 1); with -C, one sample" },
	{ 'm', "period-ms", "MSECS", "sampling period in milliseconds" },
	{ 'B', "per-cpu", NULL, "show each CPU's free share (soaker i on the i-th allowed CPU)" },
	{ '1', "once", NULL, "print one figure and exit" },
	{ 'n', "nice", NULL,
	  "soakers run plain nice 19 (SCHED_OTHER), as in 2001, not SCHED_IDLE" },
	{ 'r', "run-time", NULL,
	  "run time: the CPU time the soakers were denied, from the scheduler; no "
	  "calibration, immune to a host that slows a virtual machine, blind to "
	  "cache and memory interference" },
	{ 'L', "loop-counts", NULL,
	  "loop counts: lost soaker loops against the calibration (-C); sees cache "
	  "and memory interference, wrong when the CPUs' speed moves (a busy "
	  "virtual machine host)\n"
	  "default: run time on a virtual machine, loop counts on bare metal" },
	{ 'W', "where", NULL,
	  "where the CPU went, every period: the load by class (where:), each "
	  "CPU's load, softirq share and NET_RX/NET_TX per second (cpus:), "
	  "interrupts and packets per second (net:), kernel work by kind, sampled "
	  "(kernel:; needs root or perf_event_paranoid <= 0)" },
	{ 'd', "debug", NULL, "both methods' figures and per-CPU loads on stderr" },
	{ 'J', "json", NULL,
	  "JSON Lines on stdout: events using, method, load, nofigure, "
	  "calibrating, calibrated, command" },
	{ 'h', "help", NULL, "this help" },
	{ OPTAB_VERSION, "version", NULL, "print cyclesoak and its version" },
	{ 0, NULL, NULL, NULL },
};

/* Made from options[] by parse_options; "+": a command keeps its options. */
static struct optab_parser parser;

static void usage(FILE *f, int status)
{
	fprintf(f,
"usage: cyclesoak [-1BCdhJLnrW] [-N nr_cpus] [-p secs | -m msecs] [-f file] [-- command ...]\n"
"\n");
	optab_help(f, options);
	fprintf(f,
"\n"
"After --, a command: cyclesoak runs it, prints the load over its lifetime\n"
"and exits with its status.\n"
"Long options take their value as --opt=VALUE or --opt VALUE, and may be\n"
"shortened to any unambiguous prefix.\n"
"prints \"System load: xx.x%%\" every period\n"
"exit status: 0 done; 1 runtime error (a soaker died or was stopped, another\n"
"meter runs, a calibration refused); 2 usage error; with a command, its status\n"
"(126 cannot be executed, 127 not found)\n");
	exit(status);
}

/* A line on stdout that did not get out: exit 1 (the at-exit check says why). */
static void check_stdout(int rc)
{
	if (rc < 0 || out_failed())
		exit(1);
}

static void parse_options(int argc, char **argv)
{
	int opt, seen_p = 0, seen_m = 0;
	char shown[SHOW_LEN];
	const char *why;

	/* "+": options end at the first operand, so a command keeps its own. */
	if (optab_build(&parser, options, "+", &why) < 0)
		error(1, 0, "option table: %s", why);
	opt_common(argc, argv, &parser, usage);
	while ((opt = opt_next(argc, argv, &parser)) != -1) {
		switch (opt) {
		case '1': cfg.once = 1; break;
		case 'B': cfg.meter.bind = 1; break;
		case 'C': cfg.calibrate = 1; break;
		case 'd': cfg.debug = 1; break;
		case 'W': cfg.where = 1; break;
		case 'J': cfg.json = 1; break;
		case 'n': cfg.meter.policy = SOAK_NICE19; break;
		case 'r':
		case 'L':
			if (app_method_opt(opt, &cfg.meter.method) < 0)
				usage_error(APP_METHOD_OPPOSITE);
			break;
		case 'f': cfg.meter.calib_path = optarg; break;
		case 'N': cfg.meter.ncpus = (int)opt_num(opt, optarg, 1, cpu_max() + 1); break;
		case 'p':
			cfg.period_ms = opt_num(opt, optarg, 1, 3600) * 1000;
			seen_p = 1;
			break;
		case 'm':
			cfg.period_ms = opt_num(opt, optarg, 1, 3600000);
			seen_m = 1;
			break;
		case 'h': usage(stdout, 0); break;
		default: opt_refused(opt);
		}
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--") != 0)
			usage_error("unexpected argument '%s' (a command goes after --)",
				    show(argv[optind], shown, sizeof(shown)));
		cfg.command = argv + optind;
	}
	/* Combinations that mean nothing are refused at the door. */
	if (seen_p && seen_m)
		usage_error("-p and -m both set the period: give one");
	if (cfg.calibrate && cfg.command)
		usage_error("-C calibrates; it does not run a command");
	if (cfg.calibrate && cfg.meter.method != METER_DEFAULT)
		usage_error("-C calibrates the loop counts; -r and -L choose how to measure");
	if (cfg.calibrate && cfg.where)
		usage_error("-W says where a load went; -C measures none");
	if (cfg.calibrate && cfg.once)
		usage_error("-1 prints one load figure; -C prints none");
	if (cfg.command && cfg.once)
		usage_error("-1 prints one figure per period; with a command there is one");
	if (!*cfg.meter.calib_path)
		usage_error("-f: empty file name");
}

/*
 * SIGINT, SIGTERM and SIGHUP stop us (lib/app/stop.h). SIGCHLD gets its
 * default, so the soakers and the command can be waited for.
 */
static void set_up_signals(void)
{
	sigprocmask(SIG_SETMASK, NULL, &start_mask);
	stop_catch(NULL);
	stop_signals(&stop_set);
	signal(SIGCHLD, SIG_DFL);
}

static int do_calibrate(void)
{
	return app_calibrate(&cfg.meter, (unsigned)cfg.period_ms);
}

static struct meter *open_meter(void)
{
	struct meter *m = app_meter_open(&cfg.meter, 0);

	/* From here on the stop signals wait, blocked, for sigtimedwait. */
	sigprocmask(SIG_BLOCK, &stop_set, NULL);
	if (stop_signal)
		stop_exit(stop_signal);
	app_using(meter_cpus(m));
	line_begin("method");
	line_str("meter", meter_method_name(meter_method(m)), NULL);
	line_str("why", app_meter_why(m, cfg.meter.method), "method: %s");
	check_stdout(line_end());
	return m;
}

/* A reading the meter refused (a soaker died or stopped): say so, exit 1. */
static void broken(const char *err)
{
	error(1, 0, "%s", err);
}

/* A period the meter gave no figure for, and why (a CPU went offline). */
static void no_figure(const char *why)
{
	line_begin("nofigure");
	line_str("why", why, "no figure: %s");
	check_stdout(line_end());
}

/* -W: where the load went, over the meter's own periods. */
static struct where_session *where;
static struct where_span *where_span;

static void open_where(struct meter *m)
{
	if (!cfg.where)
		return;
	where = where_session_open(m, cfg.debug, WHERE_SESSION_EVERY_NETNS);
	where_span = where_span_new(where);
}

/* The meter was marked: so is where. */
static void where_start(void)
{
	char err[512];

	if (where && where_span_start(where_span, err, sizeof(err)) < 0)
		broken(err);
}

/* Where the load of reading r went, for where_line. */
static void where_read(double load)
{
	char err[512];

	if (where && !where_span_read(where_span, load, 0, 0, err, sizeof(err)))
		broken(err);
}

static void where_line_if(void)
{
	if (where)
		where_line(where_span_report(where_span));
}

static void close_where(void)
{
	where_span_free(where_span);
	where_session_close(where);
	where_span = NULL;
	where = NULL;
}

/* -d: both methods and each CPU's load, and what the two say together
 * (loop counts only where a calibration gives them). */
static void debug_line(const struct meter_reading *r)
{
	int counts = !isnan(r->load_counts), i;

	if (counts)
		fprintf(stderr, "cyclesoak: %.3f s: loop counts %.1f%%, run time %.1f%%; per CPU:",
			r->secs, 100 * r->load_counts, 100 * r->load_runtime);
	else
		fprintf(stderr, "cyclesoak: %.3f s: loop counts none (no calibration), "
			"run time %.1f%%; per CPU:", r->secs, 100 * r->load_runtime);
	for (i = 0; i < r->ncpus; i++)
		if (counts)
			fprintf(stderr, " %.1f%%/%.1f%%(%d)", 100 * r->cpu_load_counts[i],
				100 * r->cpu_load_runtime[i], r->cpu[i]);
		else
			fprintf(stderr, " %.1f%%(%d)", 100 * r->cpu_load_runtime[i], r->cpu[i]);
	fprintf(stderr, "; unseen steal %.1f%%", 100 * r->unseen_steal);
	if (r->throttled >= 0)
		fprintf(stderr, "; throttled in %lld of %lld quota periods",
			r->throttled, r->quota_periods);
	fputc('\n', stderr);
}

/*
 * Time the host took unseen, over this share of the CPUs covered, is worth
 * a warning: the soakers were charged for time they did not run. The
 * figure is in every JSON load event and on -d's line; the 2001 text line
 * keeps its shape.
 */
#define STEAL_MARK 0.015

/* The host's unseen share over STEAL_MARK: said once. */
static void steal_warning(double taken)
{
	static int said;

	if (taken > STEAL_MARK && !said++)
		fprintf(stderr, "cyclesoak: warning: the host took %.1f%% of the CPUs "
			"without the kernel counting it as steal: the soakers were "
			"charged for it, so the figures count it as idle time, not as "
			"load or steal (-d and -J show it every period)\n", 100 * taken);
}

/* The warnings a reading may call for, each said once. */
static void warnings(const struct meter *m, const struct meter_reading *r)
{
	static int apart, said_apart, said_fast;

	steal_warning(r->unseen_steal);
	if (isnan(r->load_counts))
		return;
	apart = fabs(r->load_counts - r->load_runtime) > 0.05 ? apart + 1 : 0;
	if (apart >= 5 && !said_apart++)
		fprintf(stderr, "cyclesoak: warning: loop counts and run time disagree by "
			"over 5 points for 5 periods (now %.1f%% and %.1f%%): the CPUs' "
			"speed moves (a busy virtual machine host: trust run time) or "
			"something slows the soakers without taking their CPU (cache, "
			"memory, a hyperthread sibling: trust loop counts)\n",
			100 * r->load_counts, 100 * r->load_runtime);
	if (r->load_counts < -0.02 && !said_fast++ &&
	    (meter_method(m) == METER_COUNTS || cfg.debug))
		fprintf(stderr, "cyclesoak: warning: loop counts read %.1f%%: the CPUs "
			"run faster than calibrated; a fresh -C is due\n",
			100 * r->load_counts);
}

/* -B: each CPU's free share, as an array with -J. */
static void free_json(const void *arg)
{
	const struct meter_reading *r = arg;
	double pct[CPU_SETSIZE];
	int i;

	for (i = 0; i < r->ncpus && i < CPU_SETSIZE; i++)
		pct[i] = 100 * r->cpu_free[i];
	out_num_array("free_pct", pct, i, 1);
	for (i = 0; i < r->ncpus && i < CPU_SETSIZE; i++)
		pct[i] = r->cpu[i];
	out_num_array("free_cpus", pct, i, 0);
}

/* "System load: xx.x%" [ "|| Free: xx.x%(0) ..." ], or the load event. */
static void print_load(struct meter *m, const struct meter_reading *r)
{
	int i;

	line_begin("load");
	line_num("load_pct", 100 * r->load, 1, "System load: %.1f%%");
	if (meter_quota(m) > 0)
		line_num("quota_cpus", meter_quota(m), 2, " of a %.2f CPU quota");
	if (r->throttled >= 0)
		line_int("throttled_periods", r->throttled, " (throttled in %lld");
	if (r->quota_periods >= 0)
		line_int("quota_periods", r->quota_periods, " of %lld periods)");
	if (r->ncpus < meter_ncpus(m))
		line_int("ncpus", r->ncpus, r->ncpus == 1 ? " over %lld CPU online"
						     : " over %lld CPUs online");
	line_num("unseen_steal_pct", 100 * r->unseen_steal, 1, NULL);
	if (cfg.debug && !isnan(r->load_counts))	/* no calibration: no such figure */
		line_num("load_counts_pct", 100 * r->load_counts, 1, NULL);
	if (cfg.debug)
		line_num("load_runtime_pct", 100 * r->load_runtime, 1, NULL);
	if (cfg.meter.bind) {
		line_text(" || Free:");
		for (i = 0; i < r->ncpus; i++)
			line_text(" %.1f%%(%d)", 100 * r->cpu_free[i], r->cpu[i]);
		line_nested(free_json, NULL, r);
	}
	where_line_if();
	check_stdout(line_end());
	if (cfg.debug)
		debug_line(r);
	warnings(m, r);
}

/*
 * Wait for the next signal in set until deadline (now_ns() time): the
 * signal, or 0 when the deadline came first.
 */
static int wait_signal(const sigset_t *set, uint64_t deadline)
{
	uint64_t now = now_ns(), left = deadline > now ? deadline - now : 0;
	struct timespec ts = {
		.tv_sec = (time_t)(left / 1000000000u),
		.tv_nsec = (long)(left % 1000000000u),
	};
	int sig = sigtimedwait(set, NULL, &ts);

	return sig > 0 ? sig : 0;
}

static int do_meter(void)
{
	uint64_t period = (uint64_t)cfg.period_ms * 1000000u, next;
	struct meter_reading r;
	struct meter *m = open_meter();
	char err[512];
	int sig, rc;

	open_where(m);
	if (meter_mark(m, err, sizeof(err)) < 0)
		broken(err);
	where_start();
	next = now_ns() + period;
	for (;;) {
		sig = wait_signal(&stop_set, next);
		if (sig)
			stop_exit(sig);
		rc = meter_sample(m, &r, err, sizeof(err));
		if (rc < 0)
			broken(err);
		if (rc > 0) {
			no_figure(err);
			where_start();
		} else {
			where_read(r.load);
			print_load(m, &r);
			if (cfg.once)
				break;
		}
		next += period;
		if (next < now_ns())		/* we were stopped; do not catch up */
			next = now_ns() + period;
	}
	close_where();
	app_meter_close();
	return 0;
}

/* Start the command with our signal mask and SIGPIPE as it was; 0 or errno. */
static int spawn_command(pid_t *pid, const sigset_t *mask)
{
	posix_spawnattr_t attr;
	sigset_t dfl;
	int rc;

	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, mask);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	fflush(NULL);
	rc = posix_spawnp(pid, cfg.command[0], NULL, &attr, cfg.command, environ);
	posix_spawnattr_destroy(&attr);
	return rc;
}

/*
 * One period of a command's lifetime into span and taken_secs, or the line
 * saying why it has none; -1 with err when a soaker broke.
 */
static int command_period(struct meter *m, struct meter_span *span, double *taken_secs,
			  char *err, size_t errlen)
{
	struct meter_reading r;
	int rc = meter_sample(m, &r, err, errlen);

	if (rc > 0)
		no_figure(err);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	meter_span_add(span, &r);
	*taken_secs += r.unseen_steal * r.secs;
	return 0;
}

/*
 * Wait for the command, sampling every period so a broken soaker is seen
 * within one. Our stop signals go to the command, once; it decides. All of
 * them and SIGCHLD stay blocked and are taken here, so none is lost between
 * a check and the wait. Returns its wait status; load, secs and taken (the
 * host's unseen share) cover its lifetime.
 */
static int wait_command(struct meter *m, pid_t pid, double *load, double *secs,
			double *taken)
{
	uint64_t period = (uint64_t)cfg.period_ms * 1000000u;
	sigset_t set = stop_set;
	struct meter_span span = { 0 };
	double taken_secs = 0;
	char err[512];
	int status, sig, forwarded = 0;

	sigaddset(&set, SIGCHLD);
	for (;;) {
		sig = wait_signal(&set, now_ns() + period);
		if (sig && sig != SIGCHLD && !forwarded++)
			kill(pid, sig);
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (command_period(m, &span, &taken_secs, err, sizeof(err)) < 0) {
			kill(pid, SIGTERM);
			broken(err);
		}
	}
	if (command_period(m, &span, &taken_secs, err, sizeof(err)) < 0)
		broken(err);
	*secs = span.secs;
	*load = meter_span_load(&span);
	*taken = span.secs > 0 ? taken_secs / span.secs : 0;
	return status;
}

static int do_command(void)
{
	struct meter *m = open_meter();
	double load, secs, taken, quota = meter_quota(m);
	char err[512], shown[SHOW_LEN];
	int rc, status;
	pid_t pid;

	sigaddset(&stop_set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &stop_set, NULL);
	sigdelset(&stop_set, SIGCHLD);
	open_where(m);
	if (meter_mark(m, err, sizeof(err)) < 0)
		broken(err);
	where_start();
	rc = spawn_command(&pid, &start_mask);
	if (rc) {
		app_meter_close();
		error(0, rc, "%s", show(cfg.command[0], shown, sizeof(shown)));
		return exit_exec_failed(rc);
	}
	status = wait_command(m, pid, &load, &secs, &taken);
	where_read(load);
	app_meter_close();
	status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
	line_begin("command");
	line_num("load_pct", 100 * load, 1, "System load: %.1f%%");
	if (quota > 0)
		line_num("quota_cpus", quota, 2, " of a %.2f CPU quota");
	line_num("seconds", secs, 3, NULL);
	line_int("status", status, NULL);
	line_num("unseen_steal_pct", 100 * taken, 1, NULL);
	where_line_if();
	check_stdout(line_end());
	close_where();
	steal_warning(taken);
	return status;
}

int main(int argc, char **argv)
{
	parse_options(argc, argv);
	out_init("cyclesoak", cfg.json);
	set_up_signals();
	env_print(ENV_MACHINE, -1, cfg.debug);
	if (cfg.calibrate)
		return do_calibrate();
	if (cfg.command)
		return do_command();
	return do_meter();
}
