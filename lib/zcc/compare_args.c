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
#include "zcc/rr_args.h"
#include "app/opt.h"
#include "app/opt_values.h"
#include "base/rate.h"
#include "base/safe_text.h"

#define MAX_CHUNK (1 << 30)	/* -b: as zcc's single size */
#define MAX_ITEMS COMPARE_MAX

static const char *tx_name(int i)
{
	return tx_methods[i] ? tx_methods[i]->name : NULL;
}

static int chunked(int i)
{
	return (tx_methods[i]->flags & TX_CHUNKED) != 0;
}

void compare_variants(struct variants *vs, const char *methods, const char *chunks)
{
	static const struct opt_spec mspec = { .opt = 'M', .kind = OPT_NAMES,
		.what = "method", .name = tx_name };
	static const struct opt_spec cspec = { .opt = 'b', .kind = OPT_SIZES, .min = 1,
		.max = MAX_CHUNK };
	struct opt_value m[MAX_ITEMS], c[MAX_ITEMS];
	struct opt_pair p[COMPARE_MAX];
	unsigned nm = opt_values(&mspec, methods, m, MAX_ITEMS);
	unsigned nc = opt_values(&cspec, chunks ? chunks : "64K", c, MAX_ITEMS);
	unsigned n = opt_pairs(&mspec, m, nm, &cspec, c, nc, chunked, p, COMPARE_MAX);
	int sized = 0;

	vs->n = n;
	vs->by_size = nc > 1;
	for (unsigned i = 0; i < n; i++) {
		vs->v[i].method = tx_methods[p[i].name->index];
		vs->v[i].chunk = (size_t)p[i].value->value;
		snprintf(vs->v[i].name, sizeof(vs->v[i].name), "%s", p[i].label);
		sized |= p[i].with_value;
	}
	if (chunks && !sized)
		usage_error("-b: the %s method sends whole files, not chunks", vs->v[0].method->name);
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

void compare_decide_check(const char *arg, unsigned n, int rr, int measured, int rx_report)
{
	char shown[SAFE_LEN];

	if (n < 2)
		usage_error("--decide names a comparison's figure: give -M or -b (--rr: or --gap, "
			    "--proto) a list of variants");
	if (rr)
		rr_decide_arg(arg, measured);
	else if (rr_decide_name(arg) >= 0)
		usage_error("--decide %s: a round trip's figure, for --rr",
			    safe_text(arg, shown, sizeof(shown)));
	else
		compare_decide_arg(arg, rx_report);
}

void compare_decide_set(struct compare_cfg *cc, const char *arg, const struct rr_cfg *rr,
			int measured)
{
	cc->rr = rr;
	cc->decide = rr ? COMPARE_FIGURE : arg ? compare_decide_arg(arg, 1) : COMPARE_SELF;
	cc->fig = rr ? rr_decide_arg(arg, measured) : FIG_RATE;
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
	unsigned kept = 0, asked = vs->n;

	for (unsigned i = 0; i < asked; i++) {
		if (tx_usable(vs->v[i].method, vs->v[i].chunk, why, sizeof(why)) == 0) {
			vs->v[kept++] = vs->v[i];
			continue;
		}
		if (asked == 1)
			error(1, 0, "%s", why);
		fprintf(stderr, "%s: left out: %s\n", program_invocation_short_name, why);
	}
	vs->n = kept;
	if (!kept)
		error(1, 0, "every method of the list is refused by the kernel (above)");
}
