/*
 * The programs' option handling: every number and byte size through one
 * checked, ranged conversion (lib/base/parse.h) or one usage line naming
 * the option; --help and --version; one usage-error exit.
 */
#ifndef ZC_OPT_H
#define ZC_OPT_H

#include <stdio.h>

#include "base/parse.h"

/*
 * opt_num - the option parser's gate: parse optarg for option letter opt or
 * die with one usage line ("prog: -n: 'abc': not a number") and exit 2.
 * A bad option value means the same in every program (a usage error), so
 * every program refuses it here.
 */
long long opt_num(int opt, const char *arg, long long min, long long max);

/* opt_size - opt_num for a byte size (parse_size): "-b: '1.5K': ..." */
long long opt_size(int opt, const char *arg, long long min, long long max);

/*
 * opt_ip_proto - opt_num for a raw IP protocol number (zcc's and zcs's
 * --ip-proto): one the kernel speaks itself, or a reserved one, refused
 * naming it (lib/wire/raw.h), exit 2.
 */
int opt_ip_proto(int opt, const char *arg);

/* opt_secs - opt_num for seconds (parse_secs): "-t: '0x10': ..." */
double opt_secs(int opt, const char *arg, double min, double max);

/*
 * opt_time - opt_num for a time (parse_time: "100us", "1.5ms", "2"), in
 * seconds within [min, max]: "--budget: '5x': ..." and exit 2 else.
 */
double opt_time(int opt, const char *arg, double min, double max);

/*
 * opt_spelled - option opt as the user gave it ("-b", "--size"), into
 * buf: the name a usage line gives it.
 */
const char *opt_spelled(int opt, char *buf, size_t len);

struct optab_parser;

/*
 * opt_common - the long options every program has, handled before the
 * program's own pass over argv: --help (any unambiguous prefix) calls
 * usage(stdout, 0) (usage prints the text to the stream and exits with the
 * status); --version prints "prog VERSION" and exits 0; an unknown or
 * ambiguous long option, or one given a value it does not take, is a usage
 * error naming it. The scan is getopt_long's over p (lib/app/optab.h), so it
 * sees argv as the program's pass will: an option's value ("-f --help") is
 * a value, "--" ends the options, and with a leading '+' (or
 * POSIXLY_CORRECT set) so does the first operand. Short options are left to
 * the program's pass, in their turn. Registers out_check_at_exit, so a
 * failed write of the help text is exit 1.
 */
void opt_common(int argc, char *argv[], const struct optab_parser *p,
		void (*usage)(FILE *out, int status));

/*
 * opt_next - getopt_long over p, quiet: the next option's key (its short
 * letter), 1 for an operand in '-' mode, -1 at the end. What getopt_long
 * refuses is one usage line naming the option as the user gave it, exit 2:
 * "-Z: unknown option", "--bogus: unknown option", "--s: ambiguous option
 * (--server, --streams)", "--port: needs a value", "--json: takes no
 * value". A bad value later reported by opt_num and the others names the
 * option as given too ("--port: 'x': not a number"). Every option it
 * returns is noted in p (optab_given).
 */
int opt_next(int argc, char *argv[], struct optab_parser *p);

/*
 * opt_refused - a short option refused, as one usage line, exit 2: c is
 * ':' (a value is missing) or '?' (an unknown option; optopt says which).
 */
void opt_refused(int c) __attribute__((noreturn));

/*
 * opt_unknown - arg is none of the names opt takes, name(0), name(1), ...
 * up to the first NULL: one usage line naming them all, "-M: 'x':
 * unknown method (read, discard)" (what: "method"), exit 2.
 */
void opt_unknown(int opt, const char *arg, const char *what, const char *(*name)(int i))
	__attribute__((noreturn));

/*
 * opt_list - split opt's comma list (-M, -b) in place into item[0..max):
 * returns how many. An empty item, one given twice or more than max: a
 * usage line naming opt, exit 2.
 */
unsigned opt_list(int opt, char *list, char **item, unsigned max);

/*
 * opt_spelled - opt as a usage line names it, into buf: "-p", or "--port"
 * when the user wrote it so or it has no letter. Returns buf.
 */
const char *opt_spelled(int opt, char *buf, size_t len);

/* usage_error - print "prog: message" and exit 2. */
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
