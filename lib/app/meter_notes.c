#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/meter_notes.h"

void meter_note_debug(const struct meter_reading *r)
{
	int counts = !isnan(r->load_counts);
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);	/* one line, however many CPUs */

	if (!f)
		return;
	if (counts)
		fprintf(f, "%.3f s: loop counts %.1f%%, run time %.1f%%; per CPU:",
			r->secs, 100 * r->load_counts, 100 * r->load_runtime);
	else
		fprintf(f, "%.3f s: loop counts none (no calibration), run time %.1f%%; "
			"per CPU:", r->secs, 100 * r->load_runtime);
	for (int i = 0; i < r->ncpus; i++)
		if (counts)
			fprintf(f, " %.1f%%/%.1f%%(%d)", 100 * r->cpu_load_counts[i],
				100 * r->cpu_load_runtime[i], r->cpu[i]);
		else
			fprintf(f, " %.1f%%(%d)", 100 * r->cpu_load_runtime[i], r->cpu[i]);
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
		error(0, 0, "warning: the host took %.1f%% of the CPUs without the "
		      "kernel counting it as steal: the soakers were charged for it, "
		      "so the figures count it as idle time, not as load or steal "
		      "(-d and -J show it every period)", 100 * taken);
}

void meter_note_warnings(const struct meter *m, const struct meter_reading *r, int debug)
{
	static int apart, said_apart, said_fast;

	meter_note_steal(r->unseen_steal);
	if (isnan(r->load_counts))
		return;
	apart = fabs(r->load_counts - r->load_runtime) > 0.05 ? apart + 1 : 0;
	if (apart >= 5 && !said_apart++)
		error(0, 0, "warning: loop counts and run time disagree by over 5 points "
		      "for 5 periods (now %.1f%% and %.1f%%): the CPUs' speed moves (a "
		      "busy virtual machine host: trust run time) or something slows the "
		      "soakers without taking their CPU (cache, memory, a hyperthread "
		      "sibling: trust loop counts)",
		      100 * r->load_counts, 100 * r->load_runtime);
	if (r->load_counts < -0.02 && !said_fast++ &&
	    (meter_method(m) == METER_COUNTS || debug))
		error(0, 0, "warning: loop counts read %.1f%%: the CPUs run faster than "
		      "calibrated; a fresh -C is due", 100 * r->load_counts);
}
