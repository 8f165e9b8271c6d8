/*
 * cyclesoak - measure CPU load by subtraction.
 *
 * One busy soaker per CPU runs at the lowest priority; what they are denied
 * is the load everything else caused. The meter (lib/meter.h) reads that
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

#include "calib.h"
#include "clock.h"
#include "cpu.h"
#include "meter.h"
#include "opt.h"
#include "out.h"
#include "show.h"
#include "where.h"

/* What the options asked, set only by parse_options. */
struct settings {
	int once;			/* -1 */
	int free_share;			/* -B: bind soakers, show each CPU's free share */
	int calibrate;			/* -C */
	int debug;			/* -d */
	int where;			/* -W */
	int json;			/* -J */
	int ncpus;			/* -N; 0: the online CPUs */
	enum meter_method method;	/* -r / -L */
	enum soak_policy policy;	/* -n */
	long long period_ms;		/* -p / -m */
	const char *file;		/* -f */
	char **command;			/* after -- */
};

static struct settings cfg = {
	.period_ms = 1000,
	.file = CALIB_DEFAULT_PATH,
};

/* The stop signals we act on: those not ignored when we started (nohup). */
static sigset_t stop_set;
static sigset_t start_mask;		/* what the command inherits */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

#define OPTSTRING "+:1BCdhJLnrWf:m:N:p:"

static void usage(FILE *f, int status)
{
	fprintf(f,
"usage: cyclesoak [-1BCdhJLnrW] [-N nr_cpus] [-p secs | -m msecs] [-f file] [-- command ...]\n"
"  -C         calibrate the loop-count method on an idle machine, write the file\n"
"  -f FILE    calibration file (default ./" CALIB_DEFAULT_PATH ")\n"
"  -N CPUS    number of soakers (default: the online CPUs)\n"
"  -p SECS    sampling period in seconds (default 1); with -C, one sample\n"
"  -m MSECS   sampling period in milliseconds\n"
"  -B         bind soaker i to CPU i and show each CPU's free share\n"
"  -1         print one figure and exit\n"
"  -n         soakers run plain nice 19 (SCHED_OTHER), as in 2001, not SCHED_IDLE\n"
"  -r         run time: the CPU time the soakers were denied, from the\n"
"             scheduler; no calibration, immune to a host that slows a virtual\n"
"             machine, blind to cache and memory interference\n"
"  -L         loop counts: lost soaker loops against the calibration (-C);\n"
"             sees cache and memory interference, wrong when the CPUs' speed\n"
"             moves (a busy virtual machine host)\n"
"             default: run time on a virtual machine, loop counts on bare metal\n"
"  -d         both methods' figures and per-CPU loads on stderr\n"
"  -W         where the CPU went, every period: the load by class (where:),\n"
"             each CPU's load, softirq share and NET_RX/NET_TX per second\n"
"             (cpus:), interrupts and packets per second (net:), kernel work\n"
"             by kind, sampled (kernel:; needs root or perf_event_paranoid <= 0)\n"
"  -J         JSON Lines on stdout: events using, method, load, calibrating,\n"
"             calibrated, command\n"
"  --help, --version\n"
"  -- command run command, print the load over its lifetime, exit with its status\n"
"prints \"System load: xx.x%%\" every period\n"
"exit status: 0 done; 1 runtime error (a soaker died or was stopped, another\n"
"meter runs, a calibration refused); 2 usage error; with a command, its status\n"
"(126 cannot be executed, 127 not found)\n");
	exit(status);
}

/* Leave the way the signal asked, now that the soakers are gone. */
static void __attribute__((noreturn)) die_by_signal(int sig)
{
	sigset_t one;

	fflush(stdout);
	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	_exit(128 + sig);	// cppcheck-suppress unreachableCode
}

/* A line on stdout that did not get out: exit 1 (the at-exit check says why). */
static void check_stdout(struct meter *m)
{
	if (!out_failed())
		return;
	meter_close(m);
	exit(1);
}

static void print_using(int ncpus)
{
	if (!out_json()) {
		out_text("using %d CPUs\n", ncpus);
		return;
	}
	out_begin("using");
	out_int("ncpus", ncpus);
	out_end();
}

/* One figure in loops/sec: "calibrating" per sample, "calibrated" at the end. */
static void print_rate(const char *event, const char *text, double rate)
{
	if (!out_json()) {
		out_text("%s %.0f loops/sec\n", text, rate);
		return;
	}
	out_begin(event);
	out_num("loops_per_sec", rate, 0);
	out_end();
}

static void parse_options(int argc, char **argv)
{
	int opt, seen_p = 0, seen_m = 0;
	char shown[SHOW_LEN];

	/* "+": options end at the first operand, so a command keeps its own. */
	opt_common(argc, argv, OPTSTRING, usage);
	while ((opt = getopt(argc, argv, OPTSTRING)) != -1) {
		switch (opt) {
		case '1': cfg.once = 1; break;
		case 'B': cfg.free_share = 1; break;
		case 'C': cfg.calibrate = 1; break;
		case 'd': cfg.debug = 1; break;
		case 'W': cfg.where = 1; break;
		case 'J': cfg.json = 1; break;
		case 'n': cfg.policy = SOAK_NICE19; break;
		case 'r':
		case 'L':
			if (meter_method_opt(opt, &cfg.method) < 0)
				usage_error(METER_OPPOSITE);
			break;
		case 'f': cfg.file = optarg; break;
		case 'N': cfg.ncpus = (int)opt_num(opt, optarg, 1, cpu_max() + 1); break;
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
	if (cfg.calibrate && cfg.method != METER_DEFAULT)
		usage_error("-C calibrates the loop counts; -r and -L choose how to measure");
	if (cfg.calibrate && cfg.where)
		usage_error("-W says where a load went; -C measures none");
	if (cfg.calibrate && cfg.once)
		usage_error("-1 prints one load figure; -C prints none");
	if (cfg.command && cfg.once)
		usage_error("-1 prints one figure per period; with a command there is one");
	if (!*cfg.file)
		usage_error("-f: empty file name");
}

/*
 * SIGINT, SIGTERM and SIGHUP stop us, unless one was ignored when we
 * started (nohup): that one stays ignored. SIGCHLD gets its default, so the
 * soakers and the command can be waited for.
 */
static void set_up_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal }, old;
	size_t i;

	sigprocmask(SIG_SETMASK, NULL, &start_mask);
	sigemptyset(&stop_set);
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaddset(&stop_set, sigs[i]);
		sigaddset(&sa.sa_mask, sigs[i]);
	}
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigismember(&stop_set, sigs[i]))
			sigaction(sigs[i], &sa, NULL);
	signal(SIGCHLD, SIG_DFL);
	/* A closed stdout shows as a write error, reported, not a silent death. */
	signal(SIGPIPE, SIG_IGN);
}

static void print_sample(double rate, void *arg)
{
	(void)arg;
	print_rate("calibrating", "calibrating:", rate);
	check_stdout(NULL);
}

static int do_calibrate(void)
{
	struct meter_cfg mcfg = {
		.ncpus = cfg.ncpus,
		.calib_path = cfg.file,
		.policy = cfg.policy,
		.bind = cfg.free_share,
	};
	struct calib c;
	char err[512];

	if (!cfg.ncpus)
		print_using(cpu_online());
	if (meter_calibrate(&mcfg, (unsigned)cfg.period_ms, print_sample, NULL,
			    &c, err, sizeof(err)) < 0) {
		if (stop_signal)
			die_by_signal(stop_signal);
		error(1, 0, "%s", err);
	}
	print_rate("calibrated", "calibrated OK. ", c.loops_per_sec);
	check_stdout(NULL);
	return 0;
}

static struct meter *open_meter(void)
{
	struct meter_cfg mcfg = {
		.ncpus = cfg.ncpus,
		.method = cfg.method,
		.calib_path = cfg.file,
		.policy = cfg.policy,
		.bind = cfg.free_share,
	};
	struct meter *m;
	char err[512];

	m = meter_open(&mcfg, err, sizeof(err));
	if (!m) {
		if (stop_signal)
			die_by_signal(stop_signal);
		error(1, 0, "%s", err);
	}
	/* From here on the stop signals wait, blocked, for sigtimedwait. */
	sigprocmask(SIG_BLOCK, &stop_set, NULL);
	if (stop_signal) {
		meter_close(m);
		die_by_signal(stop_signal);
	}
	if (!cfg.ncpus)
		print_using(meter_ncpus(m));
	if (out_json()) {
		out_begin("method");
		out_str("meter", meter_method(m) == METER_COUNTS ? "loop counts" : "run time");
		out_str("why", meter_why(m));
		out_end();
	} else {
		out_text("method: %s\n", meter_why(m));
	}
	check_stdout(m);
	return m;
}

/* A reading the meter refused (a soaker died or stopped): say so, exit 1. */
static void __attribute__((noreturn)) broken(struct meter *m, const char *err)
{
	meter_close(m);
	error(1, 0, "%s", err);
	exit(1);	// cppcheck-suppress unreachableCode
}

/* -W: where the load went, over the meter's own periods. */
static struct where *where;
static struct where_snap where_mark;
static struct where_report where_rep;

static void open_where(struct meter *m)
{
	char err[512];

	if (!cfg.where)
		return;
	where = where_open_meter(m, err, sizeof(err));
	if (!where)
		broken(m, err);
	if (where_sampling_why(where))
		fprintf(stderr, "cyclesoak: -W: kernel work not sampled: %s\n",
			where_sampling_why(where));
}

/* The meter was marked: so is where. */
static void where_start(struct meter *m)
{
	char err[512];

	if (where && where_take(where, &where_mark, err, sizeof(err)) < 0)
		broken(m, err);
}

/* Where the load of reading r went, into where_rep. */
static void where_read(struct meter *m, double load)
{
	char err[512];

	if (where && where_since(where, &where_mark, load, 0, &where_rep,
				 err, sizeof(err)) < 0)
		broken(m, err);
}

/* -d: both methods and each CPU's load, and what the two say together. */
static void debug_line(const struct meter_reading *r)
{
	int i;

	fprintf(stderr, "cyclesoak: %.3f s: loop counts %.1f%%, run time %.1f%%; per CPU:",
		r->secs, 100 * r->load_counts, 100 * r->load_runtime);
	for (i = 0; i < r->ncpus; i++)
		fprintf(stderr, " %.1f%%/%.1f%%(%d)", 100 * r->cpu_load_counts[i],
			100 * r->cpu_load_runtime[i], i);
	fputc('\n', stderr);
}

/* The warnings a reading may call for, each said once. */
static void warnings(const struct meter *m, const struct meter_reading *r)
{
	static int apart, said_apart, said_fast;

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

/* "System load: xx.x%" [ "|| Free: xx.x%(0) ..." ] into buf. */
static void load_text(const struct meter_reading *r, char *buf, size_t len)
{
	size_t n;
	int i;

	n = (size_t)snprintf(buf, len, "System load: %.1f%%", 100 * r->load);
	if (cfg.free_share && n < len)
		n += (size_t)snprintf(buf + n, len - n, " || Free:");
	for (i = 0; cfg.free_share && i < r->ncpus && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, " %.1f%%(%d)", 100 * r->cpu_free[i], i);
}

static void load_json(const struct meter_reading *r)
{
	double pct[CPU_SETSIZE];
	int i;

	out_begin("load");
	out_num("load_pct", 100 * r->load, 1);
	if (cfg.debug) {
		out_num("load_counts_pct", 100 * r->load_counts, 1);
		out_num("load_runtime_pct", 100 * r->load_runtime, 1);
	}
	if (cfg.free_share) {
		for (i = 0; i < r->ncpus && i < CPU_SETSIZE; i++)
			pct[i] = 100 * r->cpu_free[i];
		out_num_array("free_pct", pct, i, 1);
	}
	if (where)
		where_json(&where_rep);
	out_end();
}

static void print_load(struct meter *m, const struct meter_reading *r)
{
	char line[64 + 24 * CPU_SETSIZE];

	if (out_json()) {
		load_json(r);
	} else {
		load_text(r, line, sizeof(line));
		out_text("%s\n", line);
		if (where)
			where_print(&where_rep);
	}
	check_stdout(m);
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
	int sig;

	open_where(m);
	if (meter_mark(m, err, sizeof(err)) < 0)
		broken(m, err);
	where_start(m);
	next = now_ns() + period;
	for (;;) {
		sig = wait_signal(&stop_set, next);
		if (sig) {
			meter_close(m);
			die_by_signal(sig);
		}
		if (meter_sample(m, &r, err, sizeof(err)) < 0)
			broken(m, err);
		where_read(m, r.load);
		print_load(m, &r);
		if (cfg.once)
			break;
		next += period;
		if (next < now_ns())		/* we were stopped; do not catch up */
			next = now_ns() + period;
	}
	where_close(where);
	meter_close(m);
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
 * Wait for the command, sampling every period so a broken soaker is seen
 * within one. Our stop signals go to the command, once; it decides. All of
 * them and SIGCHLD stay blocked and are taken here, so none is lost between
 * a check and the wait. Returns its wait status; load and secs cover its
 * lifetime.
 */
static int wait_command(struct meter *m, pid_t pid, double *load, double *secs)
{
	uint64_t period = (uint64_t)cfg.period_ms * 1000000u;
	struct meter_reading r;
	sigset_t set = stop_set;
	double weighted = 0;
	char err[512];
	int status, sig, forwarded = 0;

	sigaddset(&set, SIGCHLD);
	*secs = 0;
	for (;;) {
		sig = wait_signal(&set, now_ns() + period);
		if (sig && sig != SIGCHLD && !forwarded++)
			kill(pid, sig);
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (meter_sample(m, &r, err, sizeof(err)) < 0) {
			kill(pid, SIGTERM);
			broken(m, err);
		}
		weighted += r.load * r.secs;
		*secs += r.secs;
	}
	if (meter_sample(m, &r, err, sizeof(err)) < 0)
		broken(m, err);
	weighted += r.load * r.secs;
	*secs += r.secs;
	*load = *secs > 0 ? weighted / *secs : 0;
	return status;
}

static int do_command(void)
{
	struct meter *m = open_meter();
	double load, secs;
	char err[512], shown[SHOW_LEN];
	int rc, status;
	pid_t pid;

	sigaddset(&stop_set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &stop_set, NULL);
	sigdelset(&stop_set, SIGCHLD);
	open_where(m);
	if (meter_mark(m, err, sizeof(err)) < 0)
		broken(m, err);
	where_start(m);
	rc = spawn_command(&pid, &start_mask);
	if (rc) {
		meter_close(m);
		error(0, rc, "%s", show(cfg.command[0], shown, sizeof(shown)));
		return rc == ENOENT || rc == ENOTDIR ? 127 : 126;
	}
	status = wait_command(m, pid, &load, &secs);
	where_read(m, load);
	where_close(where);
	meter_close(m);
	status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
	if (out_json()) {
		out_begin("command");
		out_num("load_pct", 100 * load, 1);
		out_num("seconds", secs, 3);
		out_int("status", status);
		if (where)
			where_json(&where_rep);
		out_end();
	} else {
		out_text("System load: %.1f%%\n", 100 * load);
		if (where)
			where_print(&where_rep);
	}
	check_stdout(NULL);
	return status;
}

int main(int argc, char **argv)
{
	parse_options(argc, argv);
	out_init("cyclesoak", cfg.json);
	set_up_signals();
	if (cfg.calibrate)
		return do_calibrate();
	if (cfg.command)
		return do_command();
	return do_meter();
}
