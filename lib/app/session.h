/*
 * The meter session as the programs show it: the lines zcc -C and
 * cyclesoak -C print, from one place, so the two calibrations cannot drift
 * apart (the same lines, JSON events, refusal and exit).
 */
#ifndef ZC_APP_SESSION_H
#define ZC_APP_SESSION_H

#include "meter/meter.h"

/* app_using - "using N CPUs", or the using event with -J. */
void app_using(int ncpus);

/*
 * app_calibrate - calibrate (meter_calibrate) and say so: the using line,
 * "calibrating: N loops/sec" per sample, "calibrated OK.  N loops/sec"
 * (JSON: calibrating, calibrated with loops_per_sec). A refusal is one
 * line and exit 1; a stop signal ends the program by it (lib/app/stop.h);
 * a failed stdout is exit 1. Returns 0 when the file was written.
 */
int app_calibrate(const struct meter_cfg *cfg, unsigned sample_ms);

#endif
