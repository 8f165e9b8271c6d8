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
#include "app/opt_values.h"

static const char *rx_name(int i)
{
	return rx_methods[i] ? rx_methods[i]->name : NULL;
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

void serve_rounds_variants(struct rx_variants *vs, const char *methods, const char *sizes,
		     size_t size, size_t max_size)
{
	const struct opt_spec mspec = { .opt = 'M', .kind = OPT_NAMES, .what = "method",
		.name = rx_name };
	const struct opt_spec sspec = { .opt = 'b', .kind = OPT_SIZES, .min = 1,
		.max = (double)max_size };
	struct opt_value m[COMPARE_MAX], sz[COMPARE_MAX];
	struct opt_pair p[COMPARE_MAX];
	char one[32];
	unsigned nm, ns;

	snprintf(one, sizeof(one), "%zu", size);
	nm = opt_values(&mspec, methods ? methods : rx_methods[0]->name, m, COMPARE_MAX);
	ns = opt_values(&sspec, sizes ? sizes : one, sz, COMPARE_MAX);
	vs->n = opt_pairs(&mspec, m, nm, &sspec, sz, ns, NULL, p, COMPARE_MAX);
	vs->by_size = ns > 1;
	for (unsigned i = 0; i < vs->n; i++) {
		vs->v[i].method = rx_methods[p[i].name->index];
		vs->v[i].read_size = (size_t)p[i].value->value;
		snprintf(vs->v[i].name, sizeof(vs->v[i].name), "%s", p[i].label);
	}
	probe_all(vs);
}
