/*
 * The comparison's command line: -M and -b lists into variants, --rate's
 * value, and the line for a run that fell short of that rate.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcc/compare.h"
#include "app/opt.h"
#include "app/plot.h"
#include "base/rate.h"
#include "base/safe_text.h"

#define DEFAULT_CHUNK 65536
#define MAX_CHUNK (1 << 30)	/* -b: as zcc's single size */
#define MAX_ITEMS COMPARE_MAX

static const char *tx_name(int i)
{
	return tx_methods[i] ? tx_methods[i]->name : NULL;
}

static const struct tx_method *method_named(const char *name)
{
	const struct tx_method *m = tx_find(name);

	if (!m)
		opt_unknown('M', name, "method", tx_name);
	return m;
}

static void add(struct variants *vs, const struct tx_method *m, size_t chunk, int sized)
{
	struct variant *v;
	char size[32];

	if (vs->n == COMPARE_MAX)
		usage_error("-M and -b: more than %d variants", COMPARE_MAX);
	v = &vs->v[vs->n++];
	v->method = m;
	v->chunk = chunk;
	plot_size_label(size, sizeof(size), (double)chunk);
	if (sized)
		snprintf(v->name, sizeof(v->name), "%s/%s", m->name, size);
	else
		snprintf(v->name, sizeof(v->name), "%s", m->name);
}

static char *copy_of(const char *s)
{
	char *c = strdup(s);

	if (!c)
		error(1, errno, "memory");
	return c;
}

void compare_variants(struct variants *vs, const char *methods, const char *chunks)
{
	char *mlist = copy_of(methods), *clist = copy_of(chunks ? chunks : "64K");
	char *mitem[MAX_ITEMS], *citem[MAX_ITEMS];
	size_t size[MAX_ITEMS] = { 0 };
	unsigned nm, nc, chunked = 0;

	nm = opt_list('M', mlist, mitem, MAX_ITEMS);
	nc = opt_list('b', clist, citem, MAX_ITEMS);
	for (unsigned j = 0; j < nc; j++) {
		size[j] = chunks ? (size_t)opt_size('b', citem[j], 1, MAX_CHUNK) : DEFAULT_CHUNK;
		for (unsigned k = 0; k < j; k++)
			if (size[k] == size[j])
				usage_error("-b: '%s' and '%s' are one size, %zu bytes", citem[k],
					    citem[j], size[j]);
	}
	vs->n = 0;
	vs->by_size = nc > 1;
	for (unsigned i = 0; i < nm; i++) {
		const struct tx_method *m = method_named(mitem[i]);

		if (!(m->flags & TX_CHUNKED)) {	/* whole files: one variant */
			add(vs, m, size[0], 0);
			continue;
		}
		chunked++;
		for (unsigned j = 0; j < nc; j++)
			add(vs, m, size[j], nc > 1);
	}
	if (chunks && !chunked)
		usage_error("-b: the %s method sends whole files, not chunks", vs->v[0].method->name);
	free(mlist);
	free(clist);
}

void compare_methods(struct variants *vs, const char *methods, const char *chunks,
		     int copy_path, int use_write)
{
	const char *implied = use_write ? "write" : "send";

	if (use_write && !copy_path)
		usage_error("-w needs -S (write() replaces send() in -S mode)");
	if (!methods)
		methods = copy_path ? implied : tx_methods[0]->name;
	compare_variants(vs, methods, chunks);
	for (unsigned i = 0; copy_path && i < vs->n; i++)
		if (strcmp(vs->v[i].method->name, implied) != 0)
			usage_error("-S%s means -M %s, not -M %s", use_write ? " -w" : "",
				    implied, vs->v[i].method->name);
}

enum compare_decide compare_decide_arg(const char *arg, int rx_report)
{
	static const char *const names[] = { "sender", "receiver", "path" };
	char shown[SAFE_LEN];

	for (int d = 0; d < 3; d++) {
		if (strcmp(arg, names[d]) != 0)
			continue;
		if (d && !rx_report)
			usage_error("--decide %s: the receiver's figures come with "
				    "--receiver-report: give it", names[d]);
		return (enum compare_decide)d;
	}
	usage_error("--decide: '%s': sender, receiver or path",
		    safe_text(arg, shown, sizeof(shown)));
}

double compare_rate(const char *opt, const char *arg)
{
	static const char units[] = "KMG";
	char shown[SAFE_LEN], digits[64];
	const char *why = "not a number", *u;
	size_t len = strlen(arg);
	double v = 0, scale = 1;

	if (len > 0 && len < sizeof(digits)) {
		memcpy(digits, arg, len + 1);
		u = strchr(units, digits[len - 1] & ~0x20);	/* k and K alike */
		if (u && *u && (unsigned char)digits[len - 1] >= 'A') {
			scale = pow(1000, (double)(u - units + 1));
			digits[len - 1] = '\0';
		}
		if (parse_secs(digits, 0, 1e15, &v, &why) == 0) {
			v *= scale;
			if (v >= 8 && v <= 1e12)
				return v;
			why = "out of range (8 to 1000G bits/s)";
		}
	}
	usage_error("%s: '%s': %s (bits/s: digits, a fraction allowed, then K, M or G "
		    "for 1000, 1000^2, 1000^3)", opt, safe_text(arg, shown, sizeof(shown)), why);
}

/*
 * The rate the receiver saw: the bytes over the time to the server's
 * close, as the last send returns with up to a socket buffer not yet on
 * the wire (at a low rate, a good part of a second).
 */
void compare_rate_short(const char *name, const struct send_result *r, double rate)
{
	uint64_t ns = r->ns_closed > r->ns ? r->ns_closed : r->ns;
	double bits = ns ? (double)r->bytes * 8 / ((double)ns / 1e9) : 0;

	if (rate <= 0 || r->interrupted || bits >= rate * 0.95)
		return;
	fprintf(stderr, "%s: %s%s%.1f Mbit/s, %.0f%% short of --rate %.1f Mbit/s\n",
		program_invocation_short_name, name ? name : "", name ? ": " : "",
		bits / 1e6, 100 * (1 - bits / rate), rate / 1e6);
}

void compare_usable(struct variants *vs)
{
	char why[512];
	unsigned kept = 0, n = vs->n;

	for (unsigned i = 0; i < n; i++) {
		if (tx_usable(vs->v[i].method, vs->v[i].chunk, why, sizeof(why)) == 0) {
			vs->v[kept++] = vs->v[i];
			continue;
		}
		if (n == 1)
			error(1, 0, "%s", why);
		fprintf(stderr, "%s: left out: %s\n", program_invocation_short_name, why);
	}
	vs->n = kept;
	if (!kept)
		error(1, 0, "every method of the list is refused by the kernel (above)");
}
