#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/others_out.h"
#include "app/others_tally.h"
#include "app/out.h"

static int find(const struct others_tally *t, const char *variant)
{
	for (unsigned i = 0; i < t->n; i++)
		if (strcmp(t->v[i].name, variant) == 0)
			return (int)i;
	return -1;
}

void others_tally_add(struct others_tally *t, const char *variant,
		      const struct others_report *r)
{
	int i = find(t, variant);

	if (!r->valid)
		return;
	if (i < 0) {
		if (t->n == OTHERS_TALLY_MAX)
			return;
		i = (int)t->n++;
		snprintf(t->v[i].name, sizeof(t->v[i].name), "%s", variant);
	}
	t->v[i].runs++;
	t->v[i].over += others_over(r) != 0;
	t->v[i].pct_sum += r->pct;
	if (!t->worst.valid || r->pct > t->worst.pct)
		t->worst = *r;
}

unsigned others_tally_over(const struct others_tally *t, const char *variant)
{
	int i = find(t, variant);

	return i < 0 ? 0 : t->v[i].over;
}

int others_tally_uneven(const struct others_tally *t)
{
	double lo = INFINITY, hi = -INFINITY;

	for (unsigned i = 0; i < t->n; i++) {
		double mean = t->v[i].pct_sum / t->v[i].runs;

		if (t->v[i].over != t->v[0].over)
			return 1;
		lo = fmin(lo, mean);
		hi = fmax(hi, mean);
	}
	return t->n > 1 && hi - lo > OTHERS_MARK;
}

static void tally_json(const void *arg)
{
	const struct others_tally *t = arg;

	out_array("variants");
	for (unsigned i = 0; i < t->n; i++) {
		out_object(NULL);
		out_str("variant", t->v[i].name);
		out_int("runs", t->v[i].runs);
		out_int("over", t->v[i].over);
		out_num("mean_pct", t->v[i].pct_sum / t->v[i].runs, 1);
		out_object_end();
	}
	out_array_end();
	others_json(&t->worst);
}

void others_tally_line(const struct others_tally *t, const char *figure)
{
	unsigned runs = 0, over = 0;
	int uneven = others_tally_uneven(t), text = 0;

	for (unsigned i = 0; i < t->n; i++) {
		runs += t->v[i].runs;
		over += t->v[i].over;
	}
	if (!runs)
		return;
	text = over > 0;
	line_begin("others");
	if (text)
		line_text("others: over %.0f%% of the machine in ", OTHERS_MARK);
	line_int("runs_over", over, text ? "%lld" : NULL);
	line_int("runs", runs, text ? " of %lld runs (" : NULL);
	for (unsigned i = 0; text && i < t->n; i++)
		line_text("%s%s %u of %u", i ? ", " : "", t->v[i].name, t->v[i].over,
			  t->v[i].runs);
	line_num("max_pct", t->worst.pct, 1, text ? "), up to %.1f%% (" : NULL);
	for (int i = 0; text && i < t->worst.n; i++)
		line_text("%s%s %.1f%%", i ? ", " : "", t->worst.top[i].name,
			  t->worst.top[i].pct);
	if (text)
		line_text("%s); %s includes it", t->worst.more ? ", ..." : "", figure);
	line_bool("uneven", uneven, text ? "; unevenly: the verdicts may lean, rerun to "
		  "be sure" : NULL);
	line_nested(tally_json, NULL, t);
	if (line_end() < 0 || out_failed())
		exit(1);	/* the at-exit check says why */
}
