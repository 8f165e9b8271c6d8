/*
 * Comma lists of names, sizes, times and numbers (opt_values.h).
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/opt.h"
#include "app/opt_values.h"
#include "app/plot.h"
#include "base/parse.h"
#include "base/safe_text.h"

/* A time as written shortest: 10ms, 100us, 1.5s. */
static void time_label(char *buf, size_t len, double secs)
{
	if (secs >= 1 || secs == 0)
		snprintf(buf, len, "%gs", secs);
	else if (secs >= 1e-3)
		snprintf(buf, len, "%gms", secs * 1e3);
	else
		snprintf(buf, len, "%gus", secs * 1e6);
}

/* Item text as spec's kind reads it, into *v. */
static void read_item(const struct opt_spec *spec, const char *text, struct opt_value *v)
{
	snprintf(v->text, sizeof(v->text), "%s", text);
	v->index = -1;
	v->value = 0;
	switch (spec->kind) {
	case OPT_NAMES:
		for (int i = 0; v->index < 0 && spec->name(i); i++)
			if (strcmp(spec->name(i), text) == 0)
				v->index = i;
		if (v->index < 0)
			opt_unknown(spec->opt, text, spec->what, spec->name);
		snprintf(v->label, sizeof(v->label), "%s", spec->name(v->index));
		break;
	case OPT_SIZES:
		v->value = (double)opt_size(spec->opt, text, (long long)spec->min,
					    (long long)spec->max);
		plot_size_label(v->label, sizeof(v->label), v->value);
		break;
	case OPT_TIMES:
		v->value = opt_time(spec->opt, text, spec->min, spec->max);
		time_label(v->label, sizeof(v->label), v->value);
		break;
	case OPT_NUMS:
		v->value = (double)opt_num(spec->opt, text, (long long)spec->min,
					   (long long)spec->max);
		snprintf(v->label, sizeof(v->label), "%.0f", v->value);
		break;
	}
}

/* Two items of one value written two ways: one usage line. */
static void one_value(const struct opt_spec *spec, const struct opt_value *a,
		      const struct opt_value *b)
{
	char sa[SAFE_LEN], sb[SAFE_LEN], o[64];

	safe_text(a->text, sa, sizeof(sa));
	safe_text(b->text, sb, sizeof(sb));
	opt_spelled(spec->opt, o, sizeof(o));
	if (spec->kind == OPT_SIZES)
		usage_error("%s: '%s' and '%s' are one size, %.0f bytes", o, sa, sb, b->value);
	if (spec->kind == OPT_NUMS)
		usage_error("%s: '%s' and '%s' are one number, %.0f", o, sa, sb, b->value);
	usage_error("%s: '%s' and '%s' are one time, %g s", o, sa, sb, b->value);
}

unsigned opt_values(const struct opt_spec *spec, const char *arg, struct opt_value *v,
		    unsigned max)
{
	char *list = strdup(arg), *item[OPT_VALUES_MAX];
	unsigned n;

	if (!list)
		error(1, errno, "memory");
	n = list ? opt_list(spec->opt, list, item, max < OPT_VALUES_MAX ? max : OPT_VALUES_MAX) : 0;
	for (unsigned j = 0; j < n; j++) {
		read_item(spec, item[j], &v[j]);
		for (unsigned k = 0; spec->kind != OPT_NAMES && k < j; k++)
			if (fabs(v[k].value - v[j].value) <= 1e-9 * fabs(v[j].value))
				one_value(spec, &v[k], &v[j]);
	}
	free(list);
	return n;
}

unsigned opt_pairs(const struct opt_spec *ns, const struct opt_value *names, unsigned nn,
		   const struct opt_spec *vs, const struct opt_value *values, unsigned nv,
		   int (*takes)(int index), struct opt_pair *p, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < nn; i++) {
		int with = !takes || takes(names[i].index);

		for (unsigned j = 0; j < (with ? nv : 1); j++) {
			if (n == max)
				usage_error("-%c and -%c: more than %u variants", ns->opt, vs->opt,
					    max);
			p[n] = (struct opt_pair){ .name = &names[i], .value = &values[j],
						  .with_value = with };
			if (with && nv > 1)
				snprintf(p[n].label, sizeof(p[n].label), "%s/%s", names[i].label,
					 values[j].label);
			else
				snprintf(p[n].label, sizeof(p[n].label), "%s", names[i].label);
			n++;
		}
	}
	return n;
}
