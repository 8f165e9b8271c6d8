/*
 * The meter's arithmetic as a pure function, for lib/meter/meter.c and its
 * tests: what the soakers gained over one period in, loads out.
 */
#ifndef ZC_METER_INTERNAL_H
#define ZC_METER_INTERNAL_H

#include <stdint.h>

/* What each soaker gained over one period. */
struct meter_delta {
	int ncpus;
	double secs;			/* wall time of the period */
	const uint64_t *counts;		/* loop counts, one per soaker */
	const int64_t *run_ns;		/* run time less system time, ns */
	double loops_per_sec;		/* calibrated, all soakers; 0: none */
};

/*
 * meter_compute - the load of each CPU and of the whole machine by both
 * methods, as fractions. Loop counts: 1 - counts / (secs x calibrated rate
 * / ncpus), all NAN without a calibration. Run time: 1 - run_ns / secs.
 * The whole machine's load is the mean of its CPUs'. cpu_counts and
 * cpu_runtime have ncpus entries each.
 */
void meter_compute(const struct meter_delta *d, double *load_counts,
		   double *load_runtime, double *cpu_counts, double *cpu_runtime);

#endif
