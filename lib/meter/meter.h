/*
 * The meter: system CPU load by subtraction, one struct for every program
 * that measures (cyclesoak, zcc, zcs, the bench's helpers).
 *
 * One soaker per CPU (lib/meter/soak.h) runs at the lowest priority. Two ways
 * to read what they lost, both taken on every sample:
 *
 *   loop counts (METER_COUNTS, the 2001 method): load = 1 - counts per
 *     second now / calibrated counts per second. Sees everything that slows
 *     a CPU (cache, memory, a busy hyperthread sibling); needs a calibration
 *     file and is wrong whenever the CPUs' own speed moves, as it does on a
 *     virtual machine whose host is busy.
 *   run time (METER_RUNTIME): the CPU time the soakers were denied, from
 *     the scheduler's per-task run time less the interrupt work found inside
 *     it. No calibration; immune to a host that slows the VM; blind to
 *     interference that slows a soaker without taking its CPU.
 *
 * And one that runs no soakers at all:
 *
 *   kernel idle time (METER_KERNEL): each CPU's idle and iowait time from
 *     /proc/stat (exact where the kernel stamps each entry to and exit from
 *     idle), the rest of the CPU time being load, the hypervisor's steal
 *     included; under a CPU quota, the group's own usage as a share of
 *     it. Changes nothing it measures: a soaker beside a program that blocks
 *     takes the CPU each time the program waits and hands it back each
 *     time it wakes, switches an idle CPU does not make and a hypervisor
 *     may charge dearly for. Blind to what only a soaker feels: time the
 *     host took without the kernel counting it as steal, cache and memory
 *     slow-downs, a busy hyperthread sibling.
 *
 * METER_DEFAULT picks cfg->dflt where that is set (zcc and zcs: kernel idle
 * time), else run time on a virtual machine ("hypervisor" among the CPU
 * flags) and loop counts on bare metal. Only one meter may run on a
 * machine at a time (lib/meter/lock.h says why): opening a second one
 * fails, naming the first's PID. All the arithmetic (load, per-CPU load,
 * free share, service demand) lives in lib/meter/meter.c and nowhere else.
 *
 * Like every function below lib/app these return -1 (or NULL) with a
 * "what: why" text in err, never exit and name no option: printing,
 * exiting and the options are lib/app's and the programs'. The one printer
 * below them is lib/app/out.h's stdout lines, which lib/app drives.
 */
#ifndef ZC_METER_H
#define ZC_METER_H

#include <stddef.h>
#include <stdint.h>

#include <sched.h>

#include "meter/soak.h"

enum meter_method {
	METER_DEFAULT,		/* cfg->dflt, else by machine: run time on a VM,
				   else loop counts */
	METER_RUNTIME,
	METER_COUNTS,
	METER_KERNEL,
};

struct meter_cfg {
	int ncpus;			/* soakers; 0: the online CPUs */
	enum meter_method method;	/* as asked */
	enum meter_method dflt;		/* what METER_DEFAULT means; METER_DEFAULT:
					   by machine */
	const char *calib_path;		/* NULL: CALIB_DEFAULT_PATH */
	enum soak_policy policy;	/* default SOAK_NICE19 */
	int bind;			/* soaker i on CPU i */
};

struct meter;			/* opaque */

/*
 * The CPUs the soakers cover: those this process may run on (its affinity
 * mask, which taskset and a cpuset set; the kernel leaves offline CPUs
 * out), or the first cfg->ncpus of them. text is what the using line says: "2
 * CPUs" when that is every online CPU, else "1 of 2 CPUs (cpuset: 1)".
 */
struct meter_cpus {
	int n;				/* soakers, one per CPU of cpu[] */
	int online;			/* CPUs online */
	int cpu[CPU_SETSIZE];
	char list[256];			/* cpu[] as a kernel CPU list: "0-1,3" */
	char text[600];
};

/*
 * meter_cpus_pick - the CPUs cfg asks for into c. -1 with err filled when
 * it asks for more than the mask holds ("2 CPUs asked for, but this
 * process may use 1: CPU 0 is not in its CPU mask (cpuset: 1)"): a usage
 * error for the program, which knows the option that asked.
 */
int meter_cpus_pick(const struct meter_cfg *cfg, struct meter_cpus *c,
		    char *err, size_t errlen);

/*
 * One reading: what the soakers lost between two samples. Loads are
 * fractions of the whole machine (0.25 = 25%) and may be slightly negative;
 * a method with nothing to say (loop counts without a calibration) has NAN.
 */
struct meter_reading {
	double secs;		/* wall time covered */
	double load;		/* by the meter's method */
	double load_counts;	/* loop counts; NAN without a calibration or
				   soakers */
	double load_runtime;	/* run time; NAN without soakers */
	int ncpus;		/* CPUs covered: less than meter_ncpus while
				   one of them is offline */
	double cpus;		/* what they can give, in CPUs: ncpus, or the
				   CPU quota where that is less */
	const int *cpu;		/* ncpus entries: which CPU each figure is of */
	long long quota_periods;	/* under a quota, cpu.stat's periods and */
	long long throttled;	/* those throttled, in this reading; else -1 */
	double unseen_steal;	/* time the soakers were charged for but did
				   not run (a host that took it without the
				   kernel counting steal), share of cpus;
				   NAN without soakers */
	double soaker_switches;	/* times the scheduler put a soaker on its
				   CPU, all soakers (meter_presence); NAN
				   without soakers */
	const double *cpu_load;	/* ncpus entries, by the meter's method */
	const double *cpu_free;	/* ncpus entries: 1 - cpu_load */
	const double *cpu_load_counts;	/* ncpus entries, each method */
	const double *cpu_load_runtime;
};

/*
 * meter_open - choose the method, load the calibration (required for loop
 * counts, used when present for the other figure), take the one-meter lock,
 * start the soakers and let them settle. NULL with err filled: a second
 * meter ("another meter is running: PID 1234"), soakers that would not
 * start; errno EDOM when the CPUs cfg asks for cannot be had, ENODATA when
 * loop counts have no calibration that fits (none, a bad file, another
 * CPU count: calib_for tells which).
 */
struct meter *meter_open(const struct meter_cfg *cfg, char *err, size_t errlen);

/* The method in use: the one asked for, or METER_DEFAULT's pick. */
enum meter_method meter_method(const struct meter *m);
/* The method's name in every program's output: "run time", "loop counts"
 * or "kernel idle time". */
const char *meter_method_name(enum meter_method method);
int meter_ncpus(const struct meter *m);
/* The CPUs the soakers cover, and what the using line says of them. */
const struct meter_cpus *meter_cpus(const struct meter *m);
/*
 * meter_quota - the group's CPU quota in CPUs where it is less than the
 * CPUs covered (loads are then shares of what the quota allows), else 0;
 * meter_quota_text the line that says so ("" when none).
 */
double meter_quota(const struct meter *m);
const char *meter_quota_text(const struct meter *m);
/* A warning about the calibration the loop counts use (a 2001 file that
 * does not say its CPU count), for the program to print; "" when none. */
const char *meter_warning(const struct meter *m);

/* The soakers' PIDs, at most max of them, into pids; how many (where.h):
 * 0 for kernel idle time. */
int meter_soakers(const struct meter *m, int *pids, int max);

/*
 * meter_mark - remember "now" as the start of the next reading.
 * meter_sample - fill r with what was lost since the last mark (or sample),
 * and mark again. -1 with err filled when a soaker died or was stopped
 * ("soaker for CPU 1 (PID 4321) was killed by SIGKILL"): no figure from
 * that period may be printed. 1 with err filled when this period has no
 * figure but the run goes on: a CPU went offline or came back ("CPU 1 went
 * offline"), a soaker's pinning had to be mended. Each call checks every
 * soaker's pinning, so a lost one is mended within a period.
 */
int meter_mark(struct meter *m, char *err, size_t errlen);
int meter_sample(struct meter *m, struct meter_reading *r, char *err, size_t errlen);

/*
 * A process forked after meter_open (zcs's per-connection child) may call
 * meter_mark and meter_sample on its copy: it reads the same soakers, and
 * notices a dead or stopped one from /proc, not waitpid. Only the process
 * that opened the meter closes it; a child just forgets its copy.
 *
 * meter_close - stop and reap the soakers, drop the lock, free m. Safe on
 * NULL.
 */
void meter_close(struct meter *m);

/*
 * meter_cpus_load - r's load as a share of the CPUs it covers (r->ncpus),
 * whatever the quota: r->load where there is none, else r->load x the
 * quota's CPUs / r->ncpus. What zcc's and zcs's "load X% of N CPUs" and
 * their service demand take.
 */
double meter_cpus_load(const struct meter_reading *r);

/*
 * A load over several readings, each weighted by its length (zcs's done
 * line over a connection's periods, cyclesoak over a command's life):
 * meter_span_add a reading, meter_span_load the mean (0 before any).
 */
struct meter_span {
	double load_secs;	/* sum of load x secs */
	double secs;
};
void meter_span_add(struct meter_span *s, const struct meter_reading *r);
double meter_span_load(const struct meter_span *s);

/*
 * meter_presence - about what share of a run's time the soakers' presence
 * cost it, from r's soaker switches: a soaker is put back on its CPU each
 * time a program that blocked there wakes, takes the CPU, and blocks
 * again, two switches between address spaces an idle CPU does not make.
 * Each such return is charged PRESENCE_PAIR_US, the run's CPUs evenly:
 * switches / secs / ncpus x PRESENCE_PAIR_US. 0 without soakers.
 * A share over PRESENCE_MARK is worth saying (lib/app/meter_notes.h).
 *
 * PRESENCE_PAIR_US is the slow-down make bench PART=perturb measures per
 * switch into a soaker (its "per switch" line) on a hypervisor that
 * charges for each switch; bare metal pays less, so the figure errs on
 * the side of saying so.
 */
#define PRESENCE_PAIR_US 20.0
#define PRESENCE_MARK 0.03
double meter_presence(const struct meter_reading *r);

/*
 * service_demand_us_per_kb - CPU time of the whole machine per KiB moved, in
 * microseconds, as netperf defines it: load x ncpus x secs / (bytes / 1024).
 * Also "own CPU per KB" with load x ncpus x secs replaced by CPU seconds:
 * cpu_us_per_kb(cpu_secs, bytes). 0 when no bytes moved.
 */
double service_demand_us_per_kb(double load, int ncpus, double secs, uint64_t bytes);

/*
 * A CPU time per KB needs this many bytes behind it: below, the machine's
 * own work over the period outweighs what moving them cost, and the
 * figure would be that work divided by next to nothing. zcs's period
 * lines and -W's us/KB withhold it (NAN: "-" in text, null in JSON).
 */
#define DEMAND_MIN_BYTES 65536
double cpu_us_per_kb(double cpu_secs, uint64_t bytes);

/*
 * cpu_us_per_tran - CPU time per transaction in microseconds (netperf's
 * service demand for request/response): cpu_secs is load x ncpus x secs
 * for the machine's, a process's CPU seconds for its own. NAN when no
 * transaction was made.
 */
double cpu_us_per_tran(double cpu_secs, uint64_t transactions);

/*
 * meter_calibrate - calibrate the loop-count method (cfg's ncpus, policy,
 * bind and calib_path) and write the file: a warm-up, then samples of
 * sample_ms each (0: 1 s), report(rate, arg) after each one, their median
 * kept. An attempt whose samples spread over 3% or during which other work
 * held over 3% of the machine is tried again, up to 3 times, then refused
 * (-1, err says the spread, the file is left as it was). Holds the meter
 * lock while it runs. A signal cuts it short (-1, errno EINTR).
 */
struct calib;
int meter_calibrate(const struct meter_cfg *cfg, unsigned sample_ms,
		    void (*report)(double loops_per_sec, void *arg), void *arg,
		    struct calib *out, char *err, size_t errlen);

/*
 * meter_machine_is_virtual - the CPU flags of /proc/cpuinfo say
 * "hypervisor". The environment variable ZC_CPUINFO names another file to
 * read instead, so tests can play bare metal.
 */
int meter_machine_is_virtual(void);

#endif
