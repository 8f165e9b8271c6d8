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
#include "app/meter_notes.h"
#include "app/meter_session.h"
#include "app/stop_exit.h"
#include "app/where_session.h"
#include "cyclesoak/cs_where.h"
#include "base/clock.h"
#include "base/cpu.h"
#include "base/spawn.h"
#include "base/safe_text.h"
#include "meter/calib_file.h"
#include "meter/meter.h"

/* What the options asked, set only by parse_args. */
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

/* Made from options[] by parse_args; "+": a command keeps its options. */
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

static void parse_args(int argc, char **argv)
{
	int opt;
	char shown[SAFE_LEN];
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
			break;
		case 'm': cfg.period_ms = opt_num(opt, optarg, 1, 3600000); break;
		case 'h': usage(stdout, 0); break;
		default: opt_refused(opt);
		}
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--") != 0)
			usage_error("unexpected argument '%s' (a command goes after --)",
				    safe_text(argv[optind], shown, sizeof(shown)));
		cfg.command = argv + optind;
	}
}

/* Combinations that mean nothing are refused at the door. */
static void check_args(void)
{
	if (optab_given(&parser, 'p') && optab_given(&parser, 'm'))
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
 * SIGINT, SIGTERM and SIGHUP stop us (lib/app/stop_exit.h). SIGCHLD gets its
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

/* -W: where the load went, over the meter's own periods; NULL: no -W. */
static struct cs_where *where;

/* The meter, its method line, and with -W where over it. */
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
	if (cfg.where)
		where = cs_where_open(m, cfg.debug, WHERE_SESSION_EVERY_NETNS);
	return m;
}

/* A period the meter gave no figure for, and why (a CPU went offline). */
static void no_figure(const char *why)
{
	line_begin("nofigure");
	line_str("why", why, "no figure: %s");
	check_stdout(line_end());
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
	/* Every line has the keys: text names the CPUs only when some went. */
	line_int("ncpus", r->ncpus, r->ncpus >= meter_ncpus(m) ? NULL : r->ncpus == 1 ?
		 " over %lld CPU online" : " over %lld CPUs online");
	line_num("unseen_steal_pct", 100 * r->unseen_steal, 1, NULL);
	if (cfg.debug)	/* no calibration: null */
		line_num("load_counts_pct", 100 * r->load_counts, 1, NULL);
	if (cfg.debug)
		line_num("load_runtime_pct", 100 * r->load_runtime, 1, NULL);
	if (cfg.meter.bind) {
		line_text(" || Free:");
		for (i = 0; i < r->ncpus; i++)
			line_text(" %.1f%%(%d)", 100 * r->cpu_free[i], r->cpu[i]);
		line_nested(free_json, NULL, r);
	}
	cs_where_line(where);
	check_stdout(line_end());
	if (cfg.debug)
		meter_note_debug(r);
	meter_note_warnings(m, r, cfg.debug);
}

static int do_meter(void)
{
	uint64_t period = (uint64_t)cfg.period_ms * 1000000u, next;
	struct meter_reading r;
	struct meter *m = open_meter();
	char err[512];
	int sig, rc;

	if (meter_mark(m, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	cs_where_start(where);
	next = now_ns() + period;
	for (;;) {
		sig = signal_wait_until(&stop_set, next);
		if (sig)
			stop_exit(sig);
		rc = meter_sample(m, &r, err, sizeof(err));
		if (rc < 0)
			error(1, 0, "%s", err);
		if (rc > 0) {
			no_figure(err);
			cs_where_start(where);
		} else {
			cs_where_read(where, r.load);
			print_load(m, &r);
			if (cfg.once)
				break;
		}
		next += period;
		if (next < now_ns())		/* we were stopped; do not catch up */
			next = now_ns() + period;
	}
	cs_where_close(where);
	app_meter_close();
	return 0;
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
		sig = signal_wait_until(&set, now_ns() + period);
		if (sig && sig != SIGCHLD && !forwarded++)
			kill(pid, sig);
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (command_period(m, &span, &taken_secs, err, sizeof(err)) < 0) {
			kill(pid, SIGTERM);
			error(1, 0, "%s", err);
		}
	}
	if (command_period(m, &span, &taken_secs, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	*secs = span.secs;
	*load = meter_span_load(&span);
	*taken = span.secs > 0 ? taken_secs / span.secs : 0;
	return status;
}

static int do_command(void)
{
	struct meter *m = open_meter();
	double load, secs, taken, quota = meter_quota(m);
	char err[512], shown[SAFE_LEN];
	int rc, status;
	pid_t pid;

	sigaddset(&stop_set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &stop_set, NULL);
	sigdelset(&stop_set, SIGCHLD);
	if (meter_mark(m, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	cs_where_start(where);
	rc = spawn_command(&pid, cfg.command, &start_mask);
	if (rc) {
		app_meter_close();
		error(0, rc, "%s", safe_text(cfg.command[0], shown, sizeof(shown)));
		return exit_exec_failed(rc);
	}
	status = wait_command(m, pid, &load, &secs, &taken);
	cs_where_read(where, load);
	app_meter_close();
	status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
	line_begin("command");
	line_num("load_pct", 100 * load, 1, "System load: %.1f%%");
	if (quota > 0)
		line_num("quota_cpus", quota, 2, " of a %.2f CPU quota");
	line_num("seconds", secs, 3, NULL);
	line_int("status", status, NULL);
	line_num("unseen_steal_pct", 100 * taken, 1, NULL);
	cs_where_line(where);
	check_stdout(line_end());
	cs_where_close(where);
	meter_note_steal(taken);
	return status;
}

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	check_args();
	out_init("cyclesoak", cfg.json);
	set_up_signals();
	env_print(ENV_MACHINE, -1, cfg.debug);
	if (cfg.calibrate)
		return do_calibrate();
	if (cfg.command)
		return do_command();
	return do_meter();
}
