#include <errno.h>
#include <error.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/opt.h"
#include "app/optab.h"
#include "app/out.h"
#include "wire/raw.h"
#include "base/safe_text.h"
#include "base/version.h"

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

/*
 * The message is one line whatever the user typed: a value holding a
 * newline or a terminal escape is shown escaped (show_line, show.h).
 * Callers safe_text() each value, which escapes its backslashes too (so that two
 * values never read alike) and cuts a long one short of the reason.
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
		safe_line(line, shown, sizeof(shown)));
	exit(2);
}

void opt_unknown(int opt, const char *arg, const char *what, const char *(*name)(int i))
{
	char names[512] = "", shown[SAFE_LEN], o[64];
	const char *n;

	for (int i = 0; (n = name(i)); i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? ", " : "", n);
	usage_error("%s: '%s': unknown %s (%s)", opt_spelled(opt, o, sizeof(o)),
		    safe_text(arg, shown, sizeof(shown)), what, names);
}

void opt_refused(int c)
{
	if (c == ':')
		usage_error("-%c: needs a value (%s -h for help)", optopt,
			    program_invocation_short_name);
	usage_error("-%c: unknown option (%s -h for help)", optopt,
		    program_invocation_short_name);
}

/*
 * The option opt_next returned last, when it was given by its long name:
 * a bad value is then reported as "--port: ..." rather than "-p: ...".
 */
static const struct optab *last_long;
static const struct optab *rows_read;	/* the table opt_next reads */

/* "-p" or, when the user wrote it so, "--port": the option as given (one
 * without a letter by its long name). */
const char *opt_spelled(int opt, char *buf, size_t len)
{
	const struct optab *r = opt > 255 && rows_read ? optab_find(rows_read, opt) : NULL;

	if (last_long && last_long->key == opt)
		r = last_long;
	if (r)
		snprintf(buf, len, "--%s", r->name);
	else
		snprintf(buf, len, "-%c", opt);
	return buf;
}

/*
 * argv[at] as the option it spells: NULL unless it is a long option whose
 * name (up to any '=') is key's long name or a prefix of it.
 */
static const struct optab *long_form(char *const argv[], int at, const struct optab *rows,
				     int key)
{
	const struct optab *r = optab_find(rows, key);
	const char *a = at > 0 ? argv[at] : NULL;
	size_t len;

	if (!r || !a || strncmp(a, "--", 2) != 0 || !a[2])
		return NULL;
	len = strcspn(a + 2, "=");
	return strncmp(r->name, a + 2, len) == 0 ? r : NULL;
}

/*
 * What getopt_long refused, as one usage line, exit 2. For a long option
 * getopt_long has stepped past the word (optind - 1); a short one may sit
 * in the middle of a cluster, so optopt is what names it.
 */
static __attribute__((noreturn)) void refused(int c, char *const argv[],
					      const struct optab_parser *p)
{
	const char *prog = program_invocation_short_name;
	const char *word = optind > 0 ? argv[optind - 1] : "--";
	const char *name = strncmp(word, "--", 2) == 0 ? word + 2 : word;
	const struct optab *r, *exact;
	char shown[SAFE_LEN], names[512] = "";
	size_t len;

	if (optopt == 0) {	/* a long option getopt_long does not know */
		len = strcspn(name, "=");
		snprintf(names, sizeof(names), "%.*s", (int)(name - word + len), word);
		safe_text(names, shown, sizeof(shown));
		*names = '\0';
		if (optab_matches(p->rows, name, len, &exact) < 2)
			usage_error("%s: unknown option (%s -h for help)", shown, prog);
		for (r = p->rows; r->name; r++)
			if (strncmp(r->name, name, len) == 0)
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 "%s--%s", *names ? ", " : "", r->name);
		usage_error("%s: ambiguous option (%s)", shown, names);
	}
	r = long_form(argv, optind - 1, p->rows, optopt);
	if (r && c == ':')
		usage_error("--%s: needs a value (%s -h for help)", r->name, prog);
	if (r)
		usage_error("--%s: takes no value (%s -h for help)", r->name, prog);
	opt_refused(c);
}

int opt_next(int argc, char *argv[], struct optab_parser *p)
{
	int c, index = -1;

	opterr = 0;
	c = getopt_long(argc, argv, p->shortopts, p->longopts, &index);
	if (c == '?' || c == ':')
		refused(c, argv, p);
	last_long = index >= 0 ? &p->rows[index] : NULL;
	rows_read = p->rows;
	optab_note(p, c);
	return c;
}

/* opt_num and opt_size: the value, or one usage line naming opt and arg. */
static long long opt_value(int opt, const char *arg, long long min, long long max,
			   int sized)
{
	char shown[SAFE_LEN], name[64];
	const char *why;
	long long v;
	int rc = sized ? parse_size(arg, min, max, &v, &why) :
			 parse_num(arg, min, max, &v, &why);

	if (rc == 0)
		return v;
	safe_text(arg, shown, sizeof(shown));
	opt_spelled(opt, name, sizeof(name));
	if (why == parse_out_of_range)
		usage_error("%s: '%s': out of range (%lld..%lld%s)", name, shown, min, max,
			    sized ? " bytes" : "");
	usage_error("%s: '%s': %s%s", name, shown, why,
		    sized ? " (a size is digits with an optional K, M or G)" : "");
}

/* opt_secs and opt_time: seconds by parse (what they are: what), or one usage line. */
static double opt_seconds(int opt, const char *arg, double min, double max,
			  int (*parse)(const char *, double, double, double *, const char **),
			  const char *what)
{
	char shown[SAFE_LEN], name[64];
	const char *why;
	double v;

	if (parse(arg, min, max, &v, &why) == 0)
		return v;
	safe_text(arg, shown, sizeof(shown));
	opt_spelled(opt, name, sizeof(name));
	if (why == parse_out_of_range)
		usage_error("%s: '%s': out of range (%.10g..%.10g seconds)", name, shown, min, max);
	usage_error("%s: '%s': %s (%s)", name, shown, why, what);
}

double opt_time(int opt, const char *arg, double min, double max)
{
	return opt_seconds(opt, arg, min, max, parse_time,
			   "a time: digits, a fraction allowed, then ns, us, ms or s");
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
	return opt_seconds(opt, arg, min, max, parse_secs, "seconds are digits, a fraction allowed");
}

/* cppcheck-suppress constParameter ; getopt_long's own type: main's argv converts to it */
void opt_common(int argc, char *argv[], const struct optab_parser *p,
		void (*usage)(FILE *out, int status))
{
	int c, index;

	out_check_at_exit();
	opterr = 0;
	optind = 0;	/* glibc: a fresh scan */
	for (;;) {
		index = -1;
		c = getopt_long(argc, argv, p->shortopts, p->longopts, &index);
		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			/* A short one is refused in its turn by the program's own pass. */
			if (optopt == 0 || long_form(argv, optind - 1, p->rows, optopt))
				refused(c, argv, p);
			continue;
		}
		if (index < 0)
			continue;	/* short options and operands: the program's pass */
		if (c == 'h') {
			usage(stdout, 0);
			exit(0);
		}
		if (c == OPTAB_VERSION) {
			printf("%s %s\n", program_invocation_short_name, ZC_VERSION);
			exit(0);
		}
	}
	optind = 0;	/* glibc: start afresh, the permutation state included */
}

unsigned opt_list(int opt, char *list, char **item, unsigned max)
{
	char shown[SAFE_LEN], o[64], *whole = strdup(list);
	unsigned n = 0;

	opt_spelled(opt, o, sizeof(o));
	for (char *p = list;; p++) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (!*p)
			usage_error("%s: '%s': an empty item in the list", o,
				    whole ? safe_text(whole, shown, sizeof(shown)) : "");
		for (unsigned i = 0; i < n; i++)
			if (strcmp(item[i], p) == 0)
				usage_error("%s: '%s' is in the list twice", o,
					    safe_text(p, shown, sizeof(shown)));
		if (n == max)
			usage_error("%s: more than %u items in the list", o, max);
		item[n++] = p;
		if (!comma)
			break;
		p = comma;
	}
	free(whole);
	return n;
}

int opt_ip_proto(int opt, const char *arg)
{
	int p = (int)opt_num(opt, arg, 0, 255);
	const char *why = raw_ip_proto_why(p);
	char spelled[32];

	if (why)
		usage_error("%s %d: the protocol is %s, the kernel's own or reserved: give an "
			    "unassigned or experimental one (253, 254)",
			    opt_spelled(opt, spelled, sizeof(spelled)), p, why);
	return p;
}
