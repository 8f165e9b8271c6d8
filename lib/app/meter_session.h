/*
 * The meter session as the programs show it, from one place: the meter
 * opened and closed for the run, the "using" line, the calibration's lines
 * (zcc -C and cyclesoak -C: the same lines, JSON events, refusal and
 * exit), and the load piece that zcs's lines carry.
 */
#ifndef ZC_APP_METER_SESSION_H
#define ZC_APP_METER_SESSION_H

#include <stdint.h>

#include "meter/meter.h"

/*
 * app_meter_open - the meter as cfg asks (meter_open), for the whole run.
 * A refusal is one line and exit 1 (CPUs asked for outside the process's
 * CPU mask: exit 2); a stop signal that came while it
 * settled ends the program by it. A warning is said on stderr, and with
 * debug "meter: WHY, N CPUs". The meter is closed at exit and before a
 * stop signal's exit, by the process that opened it only (zcs's connection
 * processes inherit it and leave it alone). Open it before -B, so that the
 * soakers do not inherit the program's binding.
 */
struct meter *app_meter_open(const struct meter_cfg *cfg, int debug);

/*
 * app_meter_start - app_meter_open, then the method line (app_method_line):
 * zcc's and zcs's -c.
 */
struct meter *app_meter_start(const struct meter_cfg *cfg, int debug);

/*
 * app_method_opt - the method option opt ('r': run time, 'L': loop counts,
 * 'K': kernel idle time) into *m: -1 (a usage error for the caller,
 * APP_METHOD_OPPOSITE says why) when *m holds another one already.
 * app_method_letter - the option of method m ('r', 'L', 'K').
 */
int app_method_opt(int opt, enum meter_method *m);
int app_method_letter(enum meter_method m);
#define APP_METHOD_OPPOSITE "-r, -L and -K each choose a method: give one"

/*
 * app_meter_why - the meter's method and why, for a person: "run time
 * (-r)" when asked is METER_RUNTIME, "run time (virtual machine; -L for
 * loop counts)" when the meter picked it (asked: METER_DEFAULT), and for
 * kernel idle time picked by default what it cannot see.
 */
const char *app_meter_why(const struct meter *m, enum meter_method asked);

/*
 * app_method_line - "method: WHY" (app_meter_why), or the method event
 * with -J (meter: meter_method_name, why).
 */
void app_method_line(const struct meter *m, enum meter_method asked);

/*
 * app_meter_sample - meter_sample, and on a figure the warnings it calls
 * for (lib/app/meter_notes.h), each said once a process: what zcc and zcs
 * sample through.
 */
int app_meter_sample(struct meter *m, struct meter_reading *r, char *err, size_t errlen);

/* app_meter_close - close the meter now (the run is over). Safe twice. */
void app_meter_close(void);

/*
 * app_using - "using 2 CPUs" or "using 1 of 2 CPUs (cpuset: 1)", or the
 * using event with -J (ncpus, online_cpus, cpus: the list).
 */
void app_using(const struct meter_cpus *c);

/*
 * app_calibrate - calibrate (meter_calibrate) and say so: the using line,
 * "calibrating: N loops/sec" per sample, "calibrated OK.  N loops/sec"
 * (JSON: calibrating, calibrated with loops_per_sec). A refusal is one
 * line and exit 1; a stop signal ends the program by it (lib/app/stop_exit.h);
 * a failed stdout is exit 1. Returns 0 when the file was written.
 */
int app_calibrate(const struct meter_cfg *cfg, unsigned sample_ms);

#endif
