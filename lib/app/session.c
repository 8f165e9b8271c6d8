#include <error.h>
#include <stdlib.h>

#include "app/session.h"
#include "app/stop.h"
#include "base/out.h"
#include "meter/calib.h"
#include "meter/cpu.h"

void app_using(int ncpus)
{
	if (out_json()) {
		out_begin("using");
		out_int("ncpus", ncpus);
		out_end();
	} else {
		out_text("using %d CPUs\n", ncpus);
	}
	if (out_failed())
		exit(1);	/* the at-exit check says why */
}

/* One figure in loops/sec: "calibrating" per sample, "calibrated" at the end. */
static void print_rate(const char *event, const char *text, double rate)
{
	if (out_json()) {
		out_begin(event);
		out_num("loops_per_sec", rate, 0);
		out_end();
	} else {
		out_text("%s %.0f loops/sec\n", text, rate);
	}
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
	struct calib c;
	char err[512];

	app_using(cfg->ncpus > 0 ? cfg->ncpus : cpu_online());
	if (meter_calibrate(cfg, sample_ms, print_sample, NULL, &c, err, sizeof(err)) < 0) {
		if (stop_signal)
			stop_exit(stop_signal);
		error(1, 0, "%s", err);
	}
	print_rate("calibrated", "calibrated OK. ", c.loops_per_sec);
	return 0;
}
