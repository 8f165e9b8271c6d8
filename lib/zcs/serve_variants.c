/*
 * zcs's -M and -b lists into receive variants (serve_rounds.h), checked
 * at the door: a method the kernel refuses is refused before listening.
 */
#include <errno.h>
#include <error.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcs/serve_rounds.h"
#include "app/opt.h"
#include "app/plot.h"

static const char *rx_name(int i)
{
	return rx_methods[i] ? rx_methods[i]->name : NULL;
}

/* The method called name; else a usage line. */
static const struct rx_method *method_named(const char *name)
{
	const struct rx_method *m = rx_find(name);

	if (!m)
		opt_unknown('M', name, "method", rx_name);
	return m;
}

/*
 * A comparison's methods must all work: one the kernel refuses is a
 * usage line before listening (a lone method is refused at the first
 * connection, as it always was).
 */
static void probe_all(const struct rx_variants *vs)
{
	char err[256];

	for (unsigned i = 0; vs->n > 1 && i < vs->n; i++)
		if (rx_probe(vs->v[i].method, err, sizeof(err)) < 0)
			usage_error("-M: %s: the kernel refuses it, so it cannot be "
				    "compared (%s)", vs->v[i].method->name, err);
}

static char *copy_of(const char *s)
{
	char *c = strdup(s);

	if (!c)
		error(1, errno, "memory");
	return c;
}

void serve_rounds_variants(struct rx_variants *vs, const char *methods, const char *sizes,
		     size_t size, size_t max_size)
{
	char *mlist = copy_of(methods ? methods : rx_methods[0]->name);
	char *slist = copy_of(sizes ? sizes : "16K");
	char *mitem[COMPARE_MAX], *sitem[COMPARE_MAX], label[32];
	size_t sz[COMPARE_MAX];
	unsigned nm = opt_list('M', mlist, mitem, COMPARE_MAX);
	unsigned ns = opt_list('b', slist, sitem, COMPARE_MAX);

	for (unsigned j = 0; j < ns; j++) {
		sz[j] = sizes ? (size_t)opt_size('b', sitem[j], 1, (long long)max_size) : size;
		for (unsigned k = 0; k < j; k++)
			if (sz[k] == sz[j])
				usage_error("-b: '%s' and '%s' are one size, %zu bytes", sitem[k],
					    sitem[j], sz[j]);
	}
	if ((size_t)nm * ns > COMPARE_MAX)
		usage_error("-M and -b: more than %d variants", COMPARE_MAX);
	vs->n = 0;
	vs->by_size = ns > 1;
	for (unsigned i = 0; i < nm; i++) {
		const struct rx_method *m = method_named(mitem[i]);

		for (unsigned j = 0; j < ns; j++) {
			struct rx_variant *v = &vs->v[vs->n++];

			v->method = m;
			v->read_size = sz[j];
			plot_size_label(label, sizeof(label), (double)sz[j]);
			if (ns > 1)
				snprintf(v->name, sizeof(v->name), "%s/%s", m->name, label);
			else
				snprintf(v->name, sizeof(v->name), "%s", m->name);
		}
	}
	free(mlist);
	free(slist);
	probe_all(vs);
}
