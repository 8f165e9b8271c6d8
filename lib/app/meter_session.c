#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "app/opt.h"
#include "app/out.h"
#include "app/meter_notes.h"
#include "app/meter_session.h"
#include "app/stop_exit.h"
#include "base/cpu.h"
#include "meter/calib_file.h"

static struct meter *session_meter;
static pid_t session_owner;

void app_meter_close(void)
{
	struct meter *m = session_meter;

	if (!m || getpid() != session_owner)
		return;
	session_meter = NULL;
	meter_close(m);
}

int app_method_opt(int opt, enum meter_method *m)
{
	enum meter_method want = opt == 'r' ? METER_RUNTIME
			       : opt == 'K' ? METER_KERNEL : METER_COUNTS;

	if (*m != METER_DEFAULT && *m != want)
		return -1;
	*m = want;
	return 0;
}

int app_method_letter(enum meter_method m)
{
	return m == METER_RUNTIME ? 'r' : m == METER_KERNEL ? 'K' : 'L';
}

/*
 * METER_DEFAULT is kernel idle time where the program says so (zcc, zcs),
 * else run time on a virtual machine and loop counts on bare metal.
 */
const char *app_meter_why(const struct meter *m, enum meter_method asked)
{
	enum meter_method got = meter_method(m);

	if (asked != METER_DEFAULT)
		return got == METER_COUNTS ? "loop counts (-L)"
		     : got == METER_KERNEL ? "kernel idle time (-K)" : "run time (-r)";
	if (got == METER_KERNEL)
		return "kernel idle time (the default: no soakers, so the run is "
		       "not slowed; blind to steal the kernel does not count, cache "
		       "and memory slow-downs and a busy hyperthread sibling: -r or "
		       "-L for those)";
	return got == METER_COUNTS ? "loop counts (bare metal; -r for run time)"
				   : "run time (virtual machine; -L for loop counts)";
}

void app_method_line(const struct meter *m, enum meter_method asked)
{
	line_begin("method");
	line_str("meter", meter_method_name(meter_method(m)), NULL);
	line_str("why", app_meter_why(m, asked), "method: %s");
	if (line_end() < 0 || out_failed())
		exit(1);	/* the at-exit check says why */
}

struct meter *app_meter_start(const struct meter_cfg *cfg, int debug)
{
	struct meter *m = app_meter_open(cfg, debug);

	app_method_line(m, cfg->method);
	return m;
}

int app_meter_sample(struct meter *m, struct meter_reading *r, char *err, size_t errlen)
{
	int rc = meter_sample(m, r, err, errlen);

	if (rc == 0)
		meter_note_warnings(m, r, 0);
	return rc;
}

/*
 * How to mend the calibration file that left loop counts without one, in
 * the options of the programs that calibrate (calib.c says only what is
 * wrong): the file is read again to tell which fix. "" when none fits.
 */
static const char *calib_fix(const struct meter_cfg *cfg, char *buf, size_t len)
{
	const char *path = cfg->calib_path ? cfg->calib_path : CALIB_DEFAULT_PATH;
	struct meter_cpus cpus;
	struct calib c;
	char err[512];

	if (meter_cpus_pick(cfg, &cpus, err, sizeof(err)) < 0 ||
	    calib_for(path, cpus.n, &c, NULL, 0, err, sizeof(err)) == 0)
		return "";
	switch (errno) {
	case ENOENT:
		return ": run cyclesoak -C (or zcc -C) on an idle machine first";
	case EBADMSG:
		return "; run cyclesoak -C again";
	case ERANGE:
		snprintf(buf, len, ": run with -N %d, or calibrate again with -C -N %d",
			 c.ncpus, cpus.n);
		return buf;
	}
	return "";
}

struct meter *app_meter_open(const struct meter_cfg *cfg, int debug)
{
	char err[512], fix[96];
	struct meter *m = meter_open(cfg, err, sizeof(err));

	if (!m && stop_signal)
		stop_exit(stop_signal);
	if (!m && errno == EDOM)
		usage_error("-N %d: %s", cfg->ncpus, err);
	if (!m && errno == ENODATA)
		error(1, 0, "%s%s", err, calib_fix(cfg, fix, sizeof(fix)));
	if (!m)
		error(1, 0, "%s", err);
	session_meter = m;
	session_owner = getpid();
	stop_cleanup(app_meter_close);
	if (stop_signal)
		stop_exit(stop_signal);
	if (*meter_quota_text(m))
		fprintf(stderr, "%s: %s\n", program_invocation_short_name,
			meter_quota_text(m));
	if (*meter_warning(m))
		fprintf(stderr, "%s: warning: %s\n", program_invocation_short_name,
			meter_warning(m));
	if (debug)
		fprintf(stderr, "%s: meter: %s, %d CPUs\n", program_invocation_short_name,
			app_meter_why(m, cfg->method), meter_ncpus(m));
	return m;
}

void app_using(const struct meter_cpus *c)
{
	line_begin("using");
	line_text("using %s", c->text);
	line_int("ncpus", c->n, NULL);
	line_int("online_cpus", c->online, NULL);
	line_str("cpus", c->list, NULL);
	line_end();
	if (out_failed())
		exit(1);	/* the at-exit check says why */
}

/* One figure in loops/sec: "calibrating" per sample, "calibrated" at the end. */
static void print_rate(const char *event, const char *text, double rate)
{
	line_begin(event);
	line_text("%s ", text);
	line_num("loops_per_sec", rate, 0, "%.0f loops/sec");
	line_end();
	if (out_failed())
		exit(1);
}

static void print_sample(double rate, void *arg)
{
	(void)arg;
	print_rate("calibrating", "calibrating:", rate);
}

int app_calibrate(const struct meter_cfg *cfg, unsigned sample_ms)
{
	struct meter_cpus cpus;
	struct calib c;
	char err[512];

	if (meter_cpus_pick(cfg, &cpus, err, sizeof(err)) < 0)
		usage_error("-N %d: %s", cfg->ncpus, err);
	app_using(&cpus);
	if (meter_calibrate(cfg, sample_ms, print_sample, NULL, &c, err, sizeof(err)) < 0) {
		if (stop_signal)
			stop_exit(stop_signal);
		error(1, 0, "%s", err);
	}
	print_rate("calibrated", "calibrated OK. ", c.loops_per_sec);
	return 0;
}
