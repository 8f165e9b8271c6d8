/*
 * zcs's -c figures for one line, its rate, done, total and answered
 * lines: the load of the CPUs over the line's seconds and per KB of what
 * it received.
 */
#ifndef ZC_ZCS_SERVE_LOAD_H
#define ZC_ZCS_SERVE_LOAD_H

#include <stdint.h>

struct serve_load {
	int valid;		/* 0: no meter, no figures */
	double load;		/* 0..1 of the machine */
	int ncpus;
	double demand;		/* us/KB */
};

/* serve_load_of - load of ncpus over secs, per KB of bytes moved in them
 * (demand NAN under DEMAND_MIN_BYTES, lib/meter/meter.h). */
struct serve_load serve_load_of(double load, int ncpus, double secs, uint64_t bytes);

/*
 * serve_load_line - in the line being described (app/out.h), ", load PCT%
 * of NCPUS CPUs, USPERKB us/KB" (load_pct, ncpus, service_demand_us_per_kb
 * with -J; a withheld demand "- us/KB" and null); nothing when !l->valid.
 */
void serve_load_line(const struct serve_load *l);

#endif
