#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"

const char parse_out_of_range[] = "out of range";

/* parse_num and parse_size: a byte size may end in K, M or G. */
static int parse_scaled(const char *s, long long min, long long max, int sized,
			long long *out, const char **why)
{
	long long v, unit = 1;
	char *end;

	if (!s || !*s) {
		*why = "empty value";
		return -1;
	}
	if (isspace((unsigned char)*s) || *s == '+' || (*s == '-' && min >= 0)) {
		*why = *s == '-' ? "must not be negative" : "not a number";
		return -1;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s) {
		*why = "not a number";
		return -1;
	}
	if (sized && *end && end[1] == '\0' && strchr("KkMmGg", *end)) {
		unit = *end == 'K' || *end == 'k' ? 1LL << 10 :
		       *end == 'M' || *end == 'm' ? 1LL << 20 : 1LL << 30;
		end++;
	}
	if (*end) {
		*why = "trailing garbage";
		return -1;
	}
	if (errno == ERANGE || v > LLONG_MAX / unit || v < LLONG_MIN / unit ||
	    v * unit < min || v * unit > max) {
		*why = parse_out_of_range;
		return -1;
	}
	*out = v * unit;
	return 0;
}

int parse_num(const char *s, long long min, long long max, long long *out,
	      const char **why)
{
	return parse_scaled(s, min, max, 0, out, why);
}

int parse_size(const char *s, long long min, long long max, long long *out,
	       const char **why)
{
	return parse_scaled(s, min, max, 1, out, why);
}

static const char *skip_digits(const char *p)
{
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

int parse_secs(const char *s, double min, double max, double *out, const char **why)
{
	const char *p;
	char *end;
	double v;

	if (!s || !*s) {
		*why = "empty value";
		return -1;
	}
	if (*s == '-') {
		*why = "must not be negative";
		return -1;
	}
	if (*s < '0' || *s > '9') {
		*why = "not a number";
		return -1;
	}
	p = skip_digits(s);
	if (*p == '.' && p[1] >= '0' && p[1] <= '9')
		p = skip_digits(p + 1);
	if (*p) {
		*why = "trailing garbage";
		return -1;
	}
	errno = 0;
	v = strtod(s, &end);	/* plain decimal digits: strtod reads them all */
	if (end != p || errno || v < min || v > max) {
		*why = parse_out_of_range;
		return -1;
	}
	*out = v;
	return 0;
}

int parse_time(const char *s, double min, double max, double *out, const char **why)
{
	static const struct { const char *unit; double scale; } units[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
	};
	char digits[64];
	size_t len = s ? strlen(s) : 0;
	double scale = 1, v;

	if (len >= sizeof(digits)) {
		*why = "too long";
		return -1;
	}
	memcpy(digits, s ? s : "", len + 1);
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		size_t ul = strlen(units[u].unit);

		if (len > ul && strcmp(digits + len - ul, units[u].unit) == 0) {
			digits[len - ul] = '\0';
			scale = units[u].scale;
			break;
		}
	}
	if (parse_secs(digits, 0, 1e15, &v, why) < 0)
		return -1;
	v *= scale;
	if (v < min || v > max) {
		*why = parse_out_of_range;
		return -1;
	}
	*out = v;
	return 0;
}
