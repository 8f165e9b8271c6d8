#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/opt.h"
#include "base/out.h"
#include "base/show.h"
#include "base/version.h"

static const char out_of_range[] = "out of range";

/*
 * error(3) prefixes messages with program_invocation_name, the path the
 * program was run by ("./zcc"); every message should say "zcc: what: why".
 * Every program links this file for its option parsing, so this is where
 * both message paths are made to agree.
 */
__attribute__((constructor)) static void short_program_name(void)
{
	program_invocation_name = program_invocation_short_name;
}

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
		*why = out_of_range;
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
		*why = out_of_range;
		return -1;
	}
	*out = v;
	return 0;
}

/*
 * The message is one line whatever the user typed: a value holding a
 * newline or a terminal escape is shown escaped (show.h). Callers show()
 * each value too, which also cuts a long one short of the reason.
 */
void usage_error(const char *fmt, ...)
{
	char line[1024], shown[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", program_invocation_short_name,
		show(line, shown, sizeof(shown)));
	exit(2);
}

void opt_refused(int c)
{
	if (c == ':')
		usage_error("-%c: needs a value (%s -h for help)", optopt,
			    program_invocation_short_name);
	usage_error("-%c: unknown option (%s -h for help)", optopt,
		    program_invocation_short_name);
}

/* opt_num and opt_size: the value, or one usage line naming opt and arg. */
static long long opt_value(int opt, const char *arg, long long min, long long max,
			   int sized)
{
	char shown[SHOW_LEN];
	const char *why;
	long long v;

	if (parse_scaled(arg, min, max, sized, &v, &why) == 0)
		return v;
	show(arg, shown, sizeof(shown));
	if (why == out_of_range)
		usage_error("-%c: '%s': out of range (%lld..%lld%s)", opt, shown, min, max,
			    sized ? " bytes" : "");
	usage_error("-%c: '%s': %s%s", opt, shown, why,
		    sized ? " (a size is digits with an optional K, M or G)" : "");
}

long long opt_num(int opt, const char *arg, long long min, long long max)
{
	return opt_value(opt, arg, min, max, 0);
}

long long opt_size(int opt, const char *arg, long long min, long long max)
{
	return opt_value(opt, arg, min, max, 1);
}

double opt_secs(int opt, const char *arg, double min, double max)
{
	char shown[SHOW_LEN];
	const char *why;
	double v;

	if (parse_secs(arg, min, max, &v, &why) == 0)
		return v;
	show(arg, shown, sizeof(shown));
	if (why == out_of_range)
		usage_error("-%c: '%s': out of range (%.10g..%.10g seconds)", opt, shown, min, max);
	usage_error("-%c: '%s': %s (seconds are digits, a fraction allowed)", opt, shown, why);
}

/* 0: c is no option letter or takes no value; 1: takes one; 2: only attached. */
static int value_kind(const char *optstring, char c)
{
	const char *p;

	while (*optstring == '+' || *optstring == '-')
		optstring++;
	if (c == ':' || !(p = strchr(optstring, c)))
		return 0;
	if (p[1] != ':')
		return 0;
	return p[2] == ':' ? 2 : 1;
}

static __attribute__((noreturn)) void
long_option(const char *arg, void (*usage)(FILE *out, int status))
{
	char shown[SHOW_LEN];

	if (strcmp(arg, "--help") == 0) {
		usage(stdout, 0);
		exit(0);
	}
	if (strcmp(arg, "--version") == 0) {
		printf("%s %s\n", program_invocation_short_name, ZC_VERSION);
		exit(0);
	}
	usage_error("%s: unknown option (%s -h for help)", show(arg, shown, sizeof(shown)),
		    program_invocation_short_name);
}

/* cppcheck-suppress constParameter ; getopt's own type: main's argv converts to it */
void opt_common(int argc, char *const argv[], const char *optstring,
		void (*usage)(FILE *out, int status))
{
	int stop_at_operand = *optstring == '+' || getenv("POSIXLY_CORRECT");
	int i, j, kind;

	out_check_at_exit();
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0)
			return;
		if (a[0] != '-' || a[1] == '\0') {
			if (stop_at_operand)
				return;
			continue;
		}
		if (a[1] == '-')
			long_option(a, usage);
		for (j = 1; a[j]; j++) {
			kind = value_kind(optstring, a[j]);
			if (kind == 0)
				continue;
			if (kind == 1 && a[j + 1] == '\0')
				i++;
			break;
		}
	}
}
