/* lib/base/parse.c, lib/app/opt.c: every numeric option goes through here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/opt.h"
#include "app/optab.h"
#include "t.h"
#include "unit/t.h"

typedef int parser(const char *, long long, long long, long long *, const char **);

static void refused_by(parser *parse, const char *what, const char *s, long long min,
		       long long max, const char *why)
{
	long long v = 12345;
	const char *got = NULL;

	int rc = parse(s, min, max, &v, &got);

	CHECK(rc == -1 && v == 12345 && got && strcmp(got, why) == 0,
	      "%s'%s' in [%lld, %lld] refused: %s (got %s)", what, s ? s : "(null)", min,
	      max, why, got ? got : "accepted");
}

static void accepted_by(parser *parse, const char *what, const char *s, long long min,
			long long max, long long want)
{
	long long v = -1;
	const char *why = NULL;

	int rc = parse(s, min, max, &v, &why);

	CHECK(rc == 0 && v == want, "%s'%s' in [%lld, %lld] is %lld (got %lld, %s)", what, s,
	      min, max, want, v, why ? why : "ok");
}

static void refuses(const char *s, long long min, long long max, const char *why)
{
	refused_by(parse_num, "", s, min, max, why);
}

static void accepts(const char *s, long long min, long long max, long long want)
{
	accepted_by(parse_num, "", s, min, max, want);
}

static void size_refuses(const char *s, long long min, long long max, const char *why)
{
	refused_by(parse_size, "size ", s, min, max, why);
}

static void size_accepts(const char *s, long long min, long long max, long long want)
{
	accepted_by(parse_size, "size ", s, min, max, want);
}

/* A parser of seconds (parse_secs, parse_time) within [min, max]. */
struct seconds {
	const char *name;
	int (*parse)(const char *, double, double, double *, const char **);
	double min, max;
};

static const struct seconds secs = { "secs", parse_secs, 0.001, 1e7 };
static const struct seconds times = { "time", parse_time, 1e-9, 1e3 };

/* p: v is what s gives (to a part in 10^12), or why is why it is refused. */
static void seconds_is(const struct seconds *p, const char *s, double want, const char *why)
{
	const char *got = NULL;
	double v = -1;
	int rc = p->parse(s, p->min, p->max, &v, &got);

	if (why)
		CHECK(rc == -1 && got && strcmp(got, why) == 0, "%s '%s' refused: %s (got %s)",
		      p->name, s ? s : "(null)", why, got ? got : "accepted");
	else
		CHECK(rc == 0 && fabs(v - want) <= 1e-12 * want, "%s '%s' is %g (got %g, %s)",
		      p->name, s, want, v, got ? got : "ok");
}

static void secs_is(const char *s, double want, const char *why)
{
	seconds_is(&secs, s, want, why);
}

static void time_is(const char *s, double want, const char *why)
{
	seconds_is(&times, s, want, why);
}

static void usage(FILE *f, int status)
{
	fprintf(f, "usage: test_opt [-h]\n");
	exit(status);
}

/*
 * The options the runs below parse: -h/--help, -s/--server HOST,
 * -p/--port N, -j/--json, --version; "--se" and "--s" are ambiguous.
 */
static const struct optab rows[] = {
	{ 'h', "help", NULL, "help" },
	{ 's', "server", "HOST", "server" },
	{ 'e', "send-buffer", "BYTES", "send buffer" },
	{ 'p', "port", "PORT", "port" },
	{ 'j', "json", NULL, "json" },
	{ OPTAB_VERSION, "version", NULL, "version" },
	{ 0, NULL, NULL, NULL },
};

/*
 * opt_common, then opt_next over argv, in a child (they exit): its status,
 * and its stdout and stderr together in out. mode is optab_build's ("+",
 * "-" or ""), or "size": opt_size on argv[1] instead, or "unknown":
 * opt_unknown on argv[1] (names: apple, pear). Returns 100 when
 * both returned, having printed each option's key and value.
 */
static const char *stdout_path;	/* the child's stdout: this file, not out */

static const char *fruit(int i)
{
	static const char *const names[] = { "apple", "pear", NULL };

	return names[i];
}

static void child(int argc, char **argv, const char *mode)
{
	struct optab_parser p;
	const char *why;
	int c;

	if (strcmp(mode, "size") == 0) {
		printf("%lld\n", opt_size('b', argv[1], 1, 1LL << 30));
		exit(100);
	}
	if (strcmp(mode, "unknown") == 0)
		opt_unknown('M', argv[1], "method", fruit);
	if (optab_build(&p, rows, mode, &why) < 0) {
		printf("optab_build: %s\n", why);
		exit(99);
	}
	opt_common(argc, argv, &p, usage);
	while ((c = opt_next(argc, argv, &p)) != -1) {
		if (c == 'p')
			printf("p=%lld ", opt_num(c, optarg, 1, 65535));
		else if (c == 1)
			printf("operand=%s ", optarg);
		else
			printf("%c=%s ", c, optarg ? optarg : "");
	}
	if (optind < argc)
		printf("rest=%s", argv[optind]);
	exit(100);
}

/* What run's child is given. */
struct call {
	char **argv;
	const char *mode;
};

static void call_child(void *arg)
{
	const struct call *c = arg;
	int argc = 0;

	while (c->argv[argc])
		argc++;
	if (stdout_path && !freopen(stdout_path, "w", stdout))
		exit(99);
	child(argc, c->argv, c->mode);
}

/* child's first line of output (stdout and stderr), trailing blanks cut; its status. */
static int run(char *out, size_t outlen, const char *mode, char **argv)
{
	int rc = t_child(call_child, &(struct call){ argv, mode }, T_STDOUT | T_STDERR, out,
			 outlen);
	size_t len = strlen(out);

	while (len > 0 && out[len - 1] == ' ')
		out[--len] = '\0';
	return rc;
}

#define ARGV(...) ((char *[]){ "test_opt", __VA_ARGS__, NULL })

static void common(const char *what, const char *optstring, char **argv, int want_rc,
		   const char *want_out)
{
	char out[512];
	int rc = run(out, sizeof out, optstring, argv);

	CHECK(rc == want_rc && strcmp(out, want_out) == 0, "%s: exit %d '%s' (got %d '%s')",
	      what, want_rc, want_out, rc, out);
}

static void long_options(void)
{
	common("--help: usage on stdout, exit 0", "", ARGV("--help"), 0,
	       "usage: test_opt [-h]");
	common("--he: a prefix of --help is --help", "", ARGV("--he"), 0,
	       "usage: test_opt [-h]");
	common("--version: prog VERSION, exit 0", "", ARGV("-h", "--version"), 0,
	       "test_opt 2.0");
	common("--bogus: a usage error naming it", "", ARGV("--bogus"), 2,
	       "test_opt: --bogus: unknown option (test_opt -h for help)");
	common("--bogus=1: named without its value", "", ARGV("--bogus=1"), 2,
	       "test_opt: --bogus: unknown option (test_opt -h for help)");
	common("--bogus before --help: the error first", "", ARGV("--bogus", "--help"), 2,
	       "test_opt: --bogus: unknown option (test_opt -h for help)");
	common("--help=x is no --help", "", ARGV("--help=x"), 2,
	       "test_opt: --help: takes no value (test_opt -h for help)");
	common("-- ends the options: --help after it is left alone", "+",
	       ARGV("--", "--help"), 100, "rest=--help");
	common("a command's --help is left alone (+ stops at the operand)", "+",
	       ARGV("-s", "x", "cmd", "--bogus"), 100, "s=x rest=cmd");
	common("an option's separate value is a value (-s --help)", "",
	       ARGV("-s", "--help"), 100, "s=--help");
	common("a long option's separate value is a value (--server --help)", "",
	       ARGV("--server", "--help"), 100, "s=--help");
	common("an option's attached value is a value (-hs--help)", "",
	       ARGV("-js--help"), 100, "j= s=--help");
	common("operands may come before options in - mode (file --version)", "-",
	       ARGV("file", "--version"), 0, "test_opt 2.0");
	common("operands in place in - mode", "-", ARGV("a", "-j", "b"), 100,
	       "operand=a j= operand=b");
	common("no long option: nothing done", "", ARGV("-j", "-"), 100, "j= rest=-");
	common("a terminal escape in a long option is shown, not sent", "",
	       ARGV("--x\033[2J\x9b"), 2,
	       "test_opt: --x\\e[2J\\x9b: unknown option (test_opt -h for help)");
}

/* opt_next: the long forms, and what it refuses. */
static void next_options(void)
{
	common("--server=VALUE", "", ARGV("--server=h"), 100, "s=h");
	common("--server VALUE", "", ARGV("--server", "h"), 100, "s=h");
	common("--server= gives an empty value", "", ARGV("--server="), 100, "s=");
	common("--ser: an unambiguous prefix", "", ARGV("--ser", "h"), 100, "s=h");
	common("--p=80: a prefix, its value attached", "", ARGV("--p=80"), 100, "p=80");
	common("short and long mixed", "", ARGV("-j", "--port", "9", "-sh", "--json"), 100,
	       "j= p=9 s=h j=");
	common("--s: ambiguous, the candidates named", "", ARGV("--s", "h"), 2,
	       "test_opt: --s: ambiguous option (--server, --send-buffer)");
	common("--se=1: ambiguous, named without its value", "", ARGV("--se=1"), 2,
	       "test_opt: --se: ambiguous option (--server, --send-buffer)");
	common("--server at the end: needs a value", "", ARGV("--server"), 2,
	       "test_opt: --server: needs a value (test_opt -h for help)");
	common("--serv at the end: named in full", "", ARGV("--serv"), 2,
	       "test_opt: --server: needs a value (test_opt -h for help)");
	common("--json=1: takes no value", "", ARGV("--json=1"), 2,
	       "test_opt: --json: takes no value (test_opt -h for help)");
	common("-Z: unknown, one line", "", ARGV("-Z"), 2,
	       "test_opt: -Z: unknown option (test_opt -h for help)");
	common("-jZ: unknown in a cluster after a long option", "", ARGV("--json", "-jZ"), 2,
	       "j= j= test_opt: -Z: unknown option (test_opt -h for help)");
	common("-s at the end: needs a value", "", ARGV("-s"), 2,
	       "test_opt: -s: needs a value (test_opt -h for help)");
	common("--port=x: the value's error names --port", "", ARGV("--port=x"), 2,
	       "test_opt: --port: 'x': not a number");
	common("--po x: the value's error names --port", "", ARGV("--po", "x"), 2,
	       "test_opt: --port: 'x': not a number");
	common("-p x: the value's error names -p", "", ARGV("--port=1", "-p", "x"), 2,
	       "p=1 test_opt: -p: 'x': not a number");
	common("-- ends the options", "", ARGV("-j", "--", "--json"), 100, "j= rest=--json");
}

/* opt_size's messages, and --help and --version to a full disk. */
static void size_options(void)
{
	common("opt_size: a bad size is one usage line, exit 2", "size", ARGV("1.5K"), 2,
	       "test_opt: -b: '1.5K': trailing garbage (a size is digits with an optional K, M or G)");
	common("opt_size: too large names the range in bytes", "size", ARGV("2G"), 2,
	       "test_opt: -b: '2G': out of range (1..1073741824 bytes)");
	common("opt_size: 64K", "size", ARGV("64K"), 100, "65536");
	common("opt_size: a newline in the value is shown, one line", "size", ARGV("a\nb"), 2,
	       "test_opt: -b: 'a\\nb': not a number (a size is digits with an optional K, M or G)");
	{
		char big[400], want[512];

		memset(big, '7', sizeof(big) - 2);
		big[sizeof(big) - 2] = 'x';
		big[sizeof(big) - 1] = '\0';
		snprintf(want, sizeof(want), "test_opt: -b: '%.200s...': trailing garbage "
			 "(a size is digits with an optional K, M or G)", big);
		common("opt_size: a long value is cut, the reason kept", "size",
		       ARGV(big), 2, want);
	}
	common("opt_unknown: one usage line naming every name, exit 2", "unknown",
	       ARGV("kiwi"), 2, "test_opt: -M: 'kiwi': unknown method (apple, pear)");
	common("opt_unknown: a newline in the value is shown, one line", "unknown",
	       ARGV("a\nb"), 2, "test_opt: -M: 'a\\nb': unknown method (apple, pear)");
	stdout_path = "/dev/full";
	common("--help to a full disk: one line, exit 1", "", ARGV("--help"), 1,
	       "test_opt: write to stdout: No space left on device");
	common("--version to a full disk: one line, exit 1", "", ARGV("--version"), 1,
	       "test_opt: write to stdout: No space left on device");
	stdout_path = NULL;
}

int main(void)
{
	accepts("0", 0, 65535, 0);
	accepts("65535", 0, 65535, 65535);
	accepts("2222", 0, 65535, 2222);
	accepts("-5", -10, 10, -5);
	accepts("9223372036854775807", 0, 9223372036854775807LL, 9223372036854775807LL);
	refuses("", 0, 10, "empty value");
	refuses(NULL, 0, 10, "empty value");
	refuses("abc", 0, 10, "not a number");
	refuses("12abc", 0, 100, "trailing garbage");
	refuses("1.5", 0, 100, "trailing garbage");
	refuses(" 5", 0, 10, "not a number");
	refuses("5 ", 0, 10, "trailing garbage");
	refuses("+5", 0, 10, "not a number");
	refuses("-1", 0, 10, "must not be negative");
	refuses("65536", 0, 65535, "out of range");
	refuses("0", 1, 10, "out of range");
	refuses("99999999999999999999999", 0, 9223372036854775807LL, "out of range");
	refuses("-11", -10, 10, "out of range");

	secs_is("5", 5, NULL);
	secs_is("0.5", 0.5, NULL);
	secs_is("10000000", 1e7, NULL);
	secs_is("0.001", 0.001, NULL);
	secs_is(NULL, 0, "empty value");
	secs_is("", 0, "empty value");
	secs_is("-1", 0, "must not be negative");
	secs_is("+1", 0, "not a number");
	secs_is(" 1", 0, "not a number");
	secs_is(".5", 0, "not a number");
	secs_is("inf", 0, "not a number");
	secs_is("nan", 0, "not a number");
	secs_is("1.", 0, "trailing garbage");
	secs_is("1e1", 0, "trailing garbage");
	secs_is("0x10", 0, "trailing garbage");
	secs_is("1.5.5", 0, "trailing garbage");
	secs_is("1 ", 0, "trailing garbage");
	secs_is("0", 0, "out of range");
	secs_is("10000000.5", 0, "out of range");
	secs_is("99999999999999999999999999999999", 0, "out of range");
	time_is("100us", 1e-4, NULL);
	time_is("1.5ms", 1.5e-3, NULL);
	time_is("20ns", 2e-8, NULL);
	time_is("2s", 2, NULL);
	time_is("2", 2, NULL);
	time_is("1000", 1000, NULL);
	time_is(NULL, 0, "empty value");
	time_is("us", 0, "not a number");
	time_is("5x", 0, "trailing garbage");
	time_is("5 us", 0, "trailing garbage");
	time_is("1e3us", 0, "trailing garbage");
	time_is("-1ms", 0, "must not be negative");
	time_is("0", 0, "out of range");
	time_is("1001s", 0, "out of range");
	time_is("0.1ns", 0, "out of range");

	size_accepts("65536", 1, 1LL << 40, 65536);
	size_accepts("64K", 1, 1LL << 40, 65536);
	size_accepts("64k", 1, 1LL << 40, 65536);
	size_accepts("1M", 1, 1LL << 40, 1048576);
	size_accepts("1m", 1, 1LL << 40, 1048576);
	size_accepts("2G", 1, 1LL << 40, 2147483648LL);
	size_accepts("3g", 1, 1LL << 40, 3221225472LL);
	size_accepts("0K", 0, 10, 0);
	size_accepts("8589934591G", 0, 9223372036854775807LL, 8589934591LL << 30);
	size_refuses("8589934592G", 0, 9223372036854775807LL, "out of range");
	size_refuses("9007199254740992K", 0, 9223372036854775807LL, "out of range");
	size_refuses("99999999999999999999K", 0, 9223372036854775807LL, "out of range");
	size_refuses("1.5K", 1, 1LL << 40, "trailing garbage");
	size_refuses("1KB", 1, 1LL << 40, "trailing garbage");
	size_refuses("1KiB", 1, 1LL << 40, "trailing garbage");
	size_refuses("1T", 1, 1LL << 40, "trailing garbage");
	size_refuses("1 K", 1, 1LL << 40, "trailing garbage");
	size_refuses("K", 1, 1LL << 40, "not a number");
	size_refuses("", 1, 1LL << 40, "empty value");
	size_refuses(NULL, 1, 1LL << 40, "empty value");
	size_refuses(" 1K", 1, 1LL << 40, "not a number");
	size_refuses("+1K", 1, 1LL << 40, "not a number");
	size_refuses("-1K", 1, 1LL << 40, "must not be negative");
	size_refuses("0", 1, 1LL << 40, "out of range");
	size_refuses("2G", 1, 1LL << 30, "out of range");
	size_refuses("1025K", 1, 1LL << 20, "out of range");
	size_accepts("1024K", 1, 1LL << 20, 1LL << 20);

	long_options();
	next_options();
	size_options();
	return t_exit();
}
