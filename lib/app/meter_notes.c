#include <error.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/meter_notes.h"
#include "app/out.h"

/*
 * One warning: "warning: TEXT" on stderr, and with -J the warning event on
 * stdout too (warning: its name, pct: the figure it is about, text).
 */
__attribute__((format(printf, 3, 4)))
static void warn(const char *name, double pct, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	error(0, 0, "warning: %s", text);
	if (!out_json())
		return;
	out_begin("warning");
	out_str("warning", name);
	out_num("pct", pct, 1);
	out_str("text", text);
	out_end();
}

void meter_note_debug(const struct meter_reading *r)
{
	int counts = !isnan(r->load_counts);
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);	/* one line, however many CPUs */

	if (!f)
		return;
	if (isnan(r->load_runtime))	/* kernel idle time: no soakers */
		fprintf(f, "%.3f s: kernel idle time %.1f%%; per CPU:", r->secs, 100 * r->load);
	else if (counts)
		fprintf(f, "%.3f s: loop counts %.1f%%, run time %.1f%%; per CPU:",
			r->secs, 100 * r->load_counts, 100 * r->load_runtime);
	else
		fprintf(f, "%.3f s: loop counts none (no calibration), run time %.1f%%; "
			"per CPU:", r->secs, 100 * r->load_runtime);
	for (int i = 0; i < r->ncpus; i++)
		if (isnan(r->load_runtime))
			fprintf(f, " %.1f%%(%d)", 100 * r->cpu_load[i], r->cpu[i]);
		else if (counts)
			fprintf(f, " %.1f%%/%.1f%%(%d)", 100 * r->cpu_load_counts[i],
				100 * r->cpu_load_runtime[i], r->cpu[i]);
		else
			fprintf(f, " %.1f%%(%d)", 100 * r->cpu_load_runtime[i], r->cpu[i]);
	if (!isnan(r->unseen_steal))
		fprintf(f, "; unseen steal %.1f%%", 100 * r->unseen_steal);
	if (r->throttled >= 0)
		fprintf(f, "; throttled in %lld of %lld quota periods", r->throttled,
			r->quota_periods);
	if (fclose(f) == 0)
		error(0, 0, "%s", line);
	free(line);
}

void meter_note_steal(double taken)
{
	static int said;

	if (taken > STEAL_MARK && !said++)
		warn("unseen_steal", 100 * taken, "the host took %.1f%% of the CPUs "
		     "without the kernel counting it as steal: the soakers were charged "
		     "for it, so the figures count it as idle time, not as load or "
		     "steal (-d and -J show it every period)", 100 * taken);
}

void meter_note_presence(const struct meter_reading *r)
{
	static int said;
	double slowed = meter_presence(r);

	if (slowed > PRESENCE_MARK && !said++)
		warn("meter_presence", 100 * slowed, "the meter's presence slowed this run "
		     "by about %.0f%%: its soakers were put back on their CPUs %.0f times "
		     "a second per CPU, each time a program that blocked had taken the "
		     "CPU from one and given it back (-K meters without soakers)",
		     100 * slowed, r->soaker_switches / r->secs / r->ncpus);
}

void meter_note_warnings(const struct meter *m, const struct meter_reading *r, int debug)
{
	static int apart, said_apart, said_fast;
	static double apart_secs;
	int far;

	meter_note_steal(r->unseen_steal);
	meter_note_presence(r);
	if (isnan(r->load_counts) || isnan(r->load_runtime))
		return;
	far = fabs(r->load_counts - r->load_runtime) > 0.05;
	apart = far ? apart + 1 : 0;
	apart_secs = far ? apart_secs + r->secs : 0;
	if ((apart >= APART_PERIODS || apart_secs >= APART_SECS) && !said_apart++)
		warn("methods_disagree", 100 * (r->load_counts - r->load_runtime),
		     "loop counts and run time disagree by over 5 points for %d "
		     "periods or %d s (now %.1f%% and %.1f%%): the CPUs' speed moves (a "
		     "busy virtual machine host: trust run time) or something slows "
		     "the soakers without taking their CPU (cache, memory, a "
		     "hyperthread sibling: trust loop counts)", APART_PERIODS,
		     APART_SECS, 100 * r->load_counts, 100 * r->load_runtime);
	if (r->load_counts < -0.02 && !said_fast++ &&
	    (meter_method(m) == METER_COUNTS || debug))
		warn("faster_than_calibrated", 100 * r->load_counts, "loop counts read "
		     "%.1f%%: the CPUs run faster than calibrated; a fresh -C is due",
		     100 * r->load_counts);
}
