/* needs: alone */
/*
 * lib/meter/meter.c: the arithmetic of both methods on made-up deltas, the
 * service demand, the choice of method by machine, the one-meter lock, and
 * one live meter on this machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cpu.h"
#include "meter/calib_file.h"
#include "meter/lock.h"
#include "meter/meter.h"
#include "meter/meter_internal.h"
#include "unit/t.h"

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void test_arithmetic(void)
{
	/* 2 CPUs, 0.5 s, calibrated 4e6 loops/s in all: 1e6 per CPU in 0.5 s. */
	uint64_t counts[2] = { 1000000, 250000 };
	uint64_t fast[2] = { 1100000, 1100000 };
	int64_t run[2] = { 500000000, 125000000 }, irq[2] = { -1000000, 125000000 };
	double cc[2], cr[2], lc, lr;
	struct meter_delta d = { 2, 0.5, counts, run, 4e6, 0, 0 };

	meter_compute(&d, &lc, &lr, cc, cr);
	CHECK(near(cc[0], 0) && near(cc[1], 0.75) && near(lc, 0.375),
	      "loop counts: CPU loads %.3f %.3f, machine %.3f (want 0, 0.75, 0.375)",
	      cc[0], cc[1], lc);
	CHECK(near(cr[0], 0) && near(cr[1], 0.75) && near(lr, 0.375),
	      "run time: CPU loads %.3f %.3f, machine %.3f (want 0, 0.75, 0.375)",
	      cr[0], cr[1], lr);
	/* Faster than calibrated: a negative load, printed as measured. */
	d.counts = fast;
	meter_compute(&d, &lc, &lr, cc, cr);
	CHECK(near(lc, -0.1), "loop counts above the calibration read %.3f (want -0.1)", lc);
	/* No calibration: loop counts say nothing, run time still does. */
	d.loops_per_sec = 0;
	meter_compute(&d, &lc, &lr, cc, cr);
	CHECK(isnan(lc) && isnan(cc[0]) && near(lr, 0.375),
	      "without a calibration: counts %g, run time %.3f", lc, lr);
	/* A soaker that lost system time to interrupts: more than its run. */
	d.run_ns = irq;
	meter_compute(&d, &lc, &lr, cc, cr);
	CHECK(near(cr[0], 1.002), "run time below zero reads over 100%%: %.4f", cr[0]);
}

/*
 * Kernel idle time on made-up /proc/stat text: CPU 0 half idle, CPU 1 a
 * quarter idle and a quarter iowait with steal, CPU 2 outside the set.
 */
static void test_kernel(void)
{
	static const char a_text[] =
		"cpu  1 2 3 4 5 6 7 8 0 0\n"
		"cpu0 100 0 0 1000 0 0 0 0 0 0\n"
		"cpu1 100 0 0 1000 50 0 0 10 0 0\n"
		"cpu2 5 5 5 5 5 5 5 5 0 0\n"
		"intr 1 2 3\n";
	static const char b_text[] =
		"cpu  1 2 3 4 5 6 7 8 0 0\n"
		"cpu0 130 10 5 1050 0 3 2 0 0 0\n"
		"cpu1 120 5 0 1025 75 5 0 30 9 0\n"
		"cpu2 500 5 5 5 5 5 5 5 0 0\n";
	static const char c_text[] = "cpu  1 2 3\ncpu1 150 5 0 1045 95 5 0 40 0 0\n";
	uint64_t a[3][PROC_STAT_COLS], b[3][PROC_STAT_COLS], c[3][PROC_STAT_COLS];
	int cpus[2] = { 0, 1 }, which[2], n;
	double load[2], mean;
	char note[128];

	CHECK(proc_stat_cpus(a_text, a, 3) == 3 && proc_stat_cpus(b_text, b, 3) == 3 &&
	      a[1][4] == 50 && b[1][7] == 30, "/proc/stat's cpuN lines parsed");
	n = meter_kernel_compute(a, b, cpus, 2, load, which, &mean);
	/* CPU 0: 100 ticks, 50 idle; CPU 1: 100 ticks, 25 idle + 25 iowait,
	 * the 20 of steal load. */
	CHECK(n == 2 && which[0] == 0 && which[1] == 1 && near(load[0], 0.5) &&
	      near(load[1], 0.5) && near(mean, 0.5),
	      "kernel idle time: CPU loads %.3f %.3f, mean %.3f (want 0.5 each)",
	      load[0], load[1], mean);
	CHECK(meter_kernel_moves(a, b, cpus, 2, note, sizeof(note)) == 0 && !*note,
	      "no CPU came or went");
	/* CPU 0 offline in c: no line. */
	CHECK(proc_stat_cpus(c_text, c, 3) == 2 && c[0][0] == 0, "a CPU without a line: zeroed");
	CHECK(meter_kernel_moves(b, c, cpus, 2, note, sizeof(note)) == 1 &&
	      strcmp(note, "CPU 0 went offline") == 0, "offline noticed: '%s'", note);
	CHECK(meter_kernel_moves(c, b, cpus, 2, note, sizeof(note)) == 1 &&
	      strcmp(note, "CPU 0 came back online") == 0, "back online noticed: '%s'", note);
	n = meter_kernel_compute(b, c, cpus, 2, load, which, &mean);
	CHECK(n == 1 && which[0] == 1 && near(load[0], 0.5),
	      "the online CPU alone: %d CPUs, CPU %d at %.3f", n, which[0], load[0]);
	n = meter_kernel_compute(b, b, cpus, 2, load, which, &mean);
	CHECK(n == 2 && load[0] == 0 && load[1] == 0, "under a tick: no load seen");
	CHECK(proc_stat_cpus("cpu0 1 2 3\n", a, 3) < 0, "a short cpuN line: refused");
}

/* The soakers' presence: switches into them charged PRESENCE_PAIR_US each. */
static void test_presence(void)
{
	struct meter_reading r = { .secs = 2, .ncpus = 2 };
	double busy = PRESENCE_MARK / (PRESENCE_PAIR_US * 1e-6);	/* a second per CPU */

	r.soaker_switches = 2 * 2 * busy;
	CHECK(near(meter_presence(&r), PRESENCE_MARK), "%.0f switches a second per CPU "
	      "cost the mark: %.4f", busy, meter_presence(&r));
	r.soaker_switches = 2 * 2 * busy / 2;
	CHECK(meter_presence(&r) < PRESENCE_MARK, "half as many: under it (%.4f)",
	      meter_presence(&r));
	r.soaker_switches = NAN;
	CHECK(meter_presence(&r) == 0, "no soakers (kernel idle time): no cost");
	r.soaker_switches = 1000;
	r.secs = 0;
	CHECK(meter_presence(&r) == 0, "an empty reading: no cost");
}

static void test_service_demand(void)
{
	/* 50% of 2 CPUs for 2 s = 2 CPU s over 1024 KiB: 1953.125 us/KB. */
	double sd = service_demand_us_per_kb(0.5, 2, 2.0, 1024ull * 1024);

	CHECK(near(sd, 1953.125), "service demand %.3f us/KB (want 1953.125)", sd);
	CHECK(service_demand_us_per_kb(0.5, 2, 2.0, 0) == 0, "no bytes: 0");
	CHECK(near(cpu_us_per_kb(0.001, 1024), 1000), "1 ms of CPU for 1 KiB: 1000 us/KB");
	CHECK(near(service_demand_us_per_kb(-0.01, 2, 1.0, 1024), -20000),
	      "a slightly negative load gives a negative demand, as measured");
	/* 40% of 2 CPUs for 10 s over 100000 transactions: 80 us/Tran. */
	CHECK(near(cpu_us_per_tran(0.4 * 2 * 10, 100000), 80), "80 us/Tran (got %.3f)",
	      cpu_us_per_tran(0.4 * 2 * 10, 100000));
	CHECK(isnan(cpu_us_per_tran(1, 0)), "no transaction: NAN, not a figure");
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		perror(path);
}

static void test_machine(const char *dir)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/cpuinfo", dir);
	put(path, "processor\t: 0\nflags\t\t: fpu vme hypervisor lahf_lm\n\n");
	setenv("ZC_CPUINFO", path, 1);
	CHECK(meter_machine_is_virtual() == 1, "a 'hypervisor' flag is a virtual machine");
	put(path, "processor\t: 0\nflags\t\t: fpu vme lahf_lm\nbugs\t\t: hypervisor\n\n");
	CHECK(meter_machine_is_virtual() == 0, "no such flag (only elsewhere) is bare metal");
	put(path, "processor\t: 0\nflags\t\t: fpu hypervisorx\n");
	CHECK(meter_machine_is_virtual() == 0, "a flag that only starts so is not it");
	unlink(path);
	unsetenv("ZC_CPUINFO");
}

/* Another process took the meter lock: who, if anyone. */
static int lock_holder(void)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = open(METER_LOCK_PATH, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), pid = 0;

	if (fd < 0)
		return 0;
	if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
		pid = fl.l_pid;
	close(fd);
	return pid;
}

static void test_lock(void)
{
	char err[256] = "", want[64];
	int fd, fds[2], holder;
	pid_t pid, soaker;

	fd = meter_lock_take(err, sizeof(err));
	if (fd < 0 && (holder = lock_holder()) > 0) {
		printf("skip - the meter lock: another meter (PID %d) runs now\n", holder);
		return;
	}
	CHECK(fd >= 0, "the meter lock is taken: %s", fd < 0 ? err : "ok");
	if (fd < 0 || pipe(fds) < 0)
		return;
	/* A holder counts as a meter when it runs soakers (lib/meter/lock.h): one
	 * child at nice 19, sleeping, plays the part. */
	soaker = fork();
	if (soaker == 0) {
		if (setpriority(PRIO_PROCESS, 0, 19) < 0)
			_exit(1);
		pause();
		_exit(0);
	}
	nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	/* A forked child does not inherit it, and is refused, told our PID. */
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (meter_lock_take(err, sizeof(err)) >= 0)
			strcpy(err, "taken");
		(void)!write(fds[1], err, strlen(err));
		_exit(0);
	}
	close(fds[1]);
	memset(err, 0, sizeof(err));
	(void)!read(fds[0], err, sizeof(err) - 1);
	close(fds[0]);
	waitpid(pid, NULL, 0);
	snprintf(want, sizeof(want), "another meter is running (PID %d)", (int)getpid());
	CHECK(strstr(err, want) != NULL, "a second taker is refused: '%s'", err);
	kill(soaker, SIGKILL);
	waitpid(soaker, NULL, 0);
	meter_lock_drop(fd);
	fd = meter_lock_take(err, sizeof(err));
	CHECK(fd >= 0, "dropped, it can be taken again: %s", fd < 0 ? err : "ok");
	meter_lock_drop(fd);
}

/* /proc/stat's cpu line: ticks at nice 0 or better, at a positive nice, in all. */
struct ticks {
	unsigned long long others, nice, total;
};

static void read_ticks(struct ticks *t)
{
	unsigned long long v[8] = { 0 };
	char line[512], *p = line + 4;
	FILE *f = fopen("/proc/stat", "re");
	int i;

	memset(t, 0, sizeof(*t));
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && strncmp(line, "cpu ", 4) == 0) {
		for (i = 0; i < 8; i++)
			v[i] = strtoull(p, &p, 10);
		t->others = v[0] + v[2] + v[5] + v[6] + v[7];
		t->nice = v[1];
		t->total = t->others + v[1] + v[3] + v[4];
	}
	fclose(f);
}

/* The CPUs this process may use, as the meter counts them: the kernel's mask. */
static int usable_cpus(void)
{
	static int cpus[CPU_SETSIZE];
	int n = cpu_allowed(cpus);

	return n > 0 ? n : 1;
}

static void test_live(void)
{
	struct meter_cfg cfg = { .ncpus = usable_cpus(), .method = METER_RUNTIME,
				 .calib_path = "/nonexistent/counts" };
	struct meter_reading r;
	char err[256] = "";
	struct ticks t0, t1;
	struct meter *m;
	double others = 0, nice = 0;
	int rc, holder;

	m = meter_open(&cfg, err, sizeof(err));
	if (!m && (holder = lock_holder()) > 0) {
		printf("skip - live meter: another meter (PID %d) runs now\n", holder);
		return;
	}
	CHECK(m != NULL, "a run-time meter opens without a calibration: %s", m ? "ok" : err);
	if (!m)
		return;
	CHECK(meter_method(m) == METER_RUNTIME && meter_ncpus(m) == cfg.ncpus,
	      "method run time, %d CPUs (the mask's)", meter_ncpus(m));
	read_ticks(&t0);
	rc = meter_mark(m, err, sizeof(err));
	sleep_until(now_ns() + 500000000u);
	rc |= meter_sample(m, &r, err, sizeof(err));
	read_ticks(&t1);
	if (t1.total > t0.total) {
		others = 100.0 * (double)(t1.others - t0.others) / (double)(t1.total - t0.total);
		nice = 100.0 * (double)(t1.nice - t0.nice) / (double)(t1.total - t0.total);
	}
	CHECK(rc == 0 && r.ncpus == cfg.ncpus && isnan(r.load_counts) && r.load == r.load_runtime &&
	      near(r.cpu_free[0], 1 - r.cpu_load[0]) && r.secs > 0.4,
	      "a reading: load %.1f%%, counts %g, over %.3f s (%s)", 100 * r.load,
	      r.load_counts, r.secs, rc ? err : "ok");
	/*
	 * Idle but for others: the reading is what /proc/stat saw them use at
	 * nice 0, within 10 points, unless someone else's work at a positive
	 * nice (another program's soakers) took more than ours left over.
	 */
	if (rc == 0 && fabs(100 * r.load - others) >= 10 && nice > 100 - 100 * r.load + 10)
		printf("skip - the load %.1f%% against /proc/stat: others' work at a "
		       "positive nice ran too (nice %.1f%%, others %.1f%%)\n",
		       100 * r.load, nice, others);
	else if (rc == 0)
		CHECK(fabs(100 * r.load - others) < 10, "the load %.1f%% is about what "
		      "/proc/stat saw others use (%.1f%%, nice %.1f%%)", 100 * r.load, others, nice);
	meter_close(m);
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD,
	      "meter_close leaves no soaker");
	cfg.method = METER_COUNTS;
	m = meter_open(&cfg, err, sizeof(err));
	CHECK(!m && strstr(err, "/nonexistent/counts"),
	      "loop counts without a calibration are refused: %s", err);
	meter_close(m);
}

static void count_report(double rate, void *arg)
{
	(void)rate;
	++*(int *)arg;
}

/*
 * meter_calibrate: accepted (the file written, 5 reports per try) or, on
 * this shared machine as likely, refused after 3 tries (15 reports, no
 * file); a FIFO for the file is refused before any sample.
 */
static void test_calibrate(const char *dir)
{
	struct meter_cfg cfg = { .ncpus = usable_cpus() };
	struct calib c = { 0 };
	char path[300], err[512] = "";
	int reports = 0, rc, holder;

	snprintf(path, sizeof(path), "%s/fifo", dir);
	cfg.calib_path = path;
	if (mkfifo(path, 0600) == 0) {
		rc = meter_calibrate(&cfg, 50, count_report, &reports, &c, err, sizeof(err));
		CHECK(rc < 0 && reports == 0 && strstr(err, "FIFO"),
		      "a FIFO for the file: refused before any sample: %s", err);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/cal", dir);
	reports = 0;
	rc = meter_calibrate(&cfg, 50, count_report, &reports, &c, err, sizeof(err));
	if (rc < 0 && (holder = lock_holder()) > 0) {
		printf("skip - meter_calibrate: another meter (PID %d) runs now\n", holder);
	} else if (rc == 0) {
		CHECK(access(path, F_OK) == 0 && reports % 5 == 0 && reports <= 15 &&
		      c.ncpus == cfg.ncpus && c.loops_per_sec > 0 && c.spread <= 0.03,
		      "meter_calibrate accepted: %d reports, %.0f loops/sec, spread %.2f%%",
		      reports, c.loops_per_sec, 100 * c.spread);
	} else {
		CHECK(reports == 15 && access(path, F_OK) < 0 && strstr(err, "refused after 3"),
		      "meter_calibrate refused (%d reports, no file): %s", reports, err);
	}
	unlink(path);
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD,
	      "meter_calibrate leaves no soaker");
}

int main(void)
{
	char dir[] = "/tmp/zc-meter-XXXXXX";

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_arithmetic();
	test_kernel();
	test_presence();
	test_service_demand();
	test_machine(dir);
	test_lock();
	test_live();
	test_calibrate(dir);
	rmdir(dir);
	return t_exit();
}
