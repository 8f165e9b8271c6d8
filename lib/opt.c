#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "opt.h"

static const char out_of_range[] = "out of range";

/*
 * error(3) prefixes messages with program_invocation_name, the path the
 * program was run by ("./zcc"); the spec's lines say "zcc: what: why".
 * Every program links this file for its option parsing, so this is where
 * both message paths are made to agree.
 */
__attribute__((constructor)) static void short_program_name(void)
{
	program_invocation_name = program_invocation_short_name;
}

int parse_num(const char *s, long long min, long long max, long long *out,
	      const char **why)
{
	char *end;
	long long v;

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
	if (*end) {
		*why = "trailing garbage";
		return -1;
	}
	if (errno == ERANGE || v < min || v > max) {
		*why = out_of_range;
		return -1;
	}
	*out = v;
	return 0;
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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

long long opt_num(int opt, const char *arg, long long min, long long max)
{
	const char *why;
	long long v;

	if (parse_num(arg, min, max, &v, &why) == 0)
		return v;
	if (why == out_of_range)
		usage_error("-%c: '%s': out of range (%lld..%lld)", opt, arg, min, max);
	usage_error("-%c: '%s': %s", opt, arg, why);
}
