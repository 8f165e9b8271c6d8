/*
 * argvfuzz - run a program over and over with seeded random command lines
 * (or random calibration files) and report every way it misbehaves.
 *
 *   argvfuzz [-AckNv] [-e CODES] [-E LETTERS] [-g MSECS] [-H N]
 *            [-j JSONCHECK] [-n CASES] [-O OPTSTRING] [-o CASE] [-s SEED]
 *            [-T MSECS] [-t MSECS] [-x LETTERS] -- PROGRAM [FIXED ARG ...]
 *
 * Each case builds an argv from the program's option letters (read from the
 * synopsis its -h prints, or given getopt-style with -O) and values of many
 * kinds: empty, huge, negative, hexadecimal, exponents, K/M/G suffixes,
 * overlong, bytes that are not UTF-8, a newline or a terminal escape inside,
 * '-', '--', '--help=x', missing values, repeated options, and names of
 * files that are regular, empty, a FIFO, a directory, a device node, a
 * symlink or missing. The fixed arguments go before the random ones (after
 * them with -A). The case runs in a fresh directory holding those files,
 * stdin from /dev/null, stdout and stderr captured, PATH holding only true
 * and false (a random word is never a real command), in its own process
 * group, with us as its child subreaper so that anything it leaves behind
 * comes to us. A finding is printed as one line
 *
 *   finding: KIND: case N: what: argv: ARGV
 *
 * KIND is one of
 *   crash      killed by a signal we did not send
 *   hang       still running after -t ms (and, with -k, silent on stdout)
 *   nohup      (-k) started with SIGHUP ignored, as under nohup, and
 *              ended by the SIGHUP we sent once it wrote to stdout (with
 *              -H N, one case in N; -H 1: every case)
 *   term       still running -T ms (default 5000) after our SIGTERM
 *   status     an exit status other than 0, 1, 2 and the -e CODES
 *   silent     a non-zero exit with nothing on stderr
 *   lines      a usage error (exit 2) with other than one line on stderr
 *   prefix     a line on stderr not starting "PROG: " (not checked when
 *              the argv holds one of the -E LETTERS, default "d": debug)
 *   sanitizer  an AddressSanitizer, LeakSanitizer or UBSan report
 *   leftover   a process of the case alive 1 s after the program ended
 *   created    a file in the working directory that was not there before
 *   changed    one of the prepared files replaced or altered
 *   json       (-j JSONCHECK) -J asked, no help, and stdout is not JSON
 *              Lines with "program", "event" and "time" on every line
 *   accepted / refused   (-c) a calibration file judged otherwise than the
 *              format says
 *
 * -k: the program may run for ever once it has written to stdout (a server,
 * a meter): it is then given -g ms (default 100) and sent SIGTERM. -N runs
 * everything in a private network namespace (loopback only: no case reaches
 * another program's port or a name server) and a private /tmp (the meters'
 * one-per-machine lock is then ours alone); it needs root and says so when
 * it cannot. -c: every case writes a random or mutated calibration file
 * ./cal and runs the fixed arguments only (they name it: -f cal). -o CASE
 * replays that one case. Each case's randomness comes from the seed and its
 * number alone, so a case replays without the ones before it.
 *
 * Exit status: 0 no finding, 3 findings, 2 usage error, 1 our own failure.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <dirent.h>
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <regex.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/opt.h"
#include "base/clock.h"
#include "meter/proc.h"
#include "tools/rng.h"

#define MAX_OPTS	64
#define MAX_ARGS	24
#define CAPTURE_MAX	65536
#define LEFTOVER_MS	1000
#define FAR_LONG	100000

static long cfg_nohup;
static int cfg_after, cfg_forever, cfg_isolate, cfg_verbose, cfg_calib;
static const char *cfg_codes = "";
static const char *cfg_exempt = "d";
static const char *cfg_exclude = "";
static const char *cfg_optstring;
static const char *cfg_jsoncheck;
static long cfg_term_ms = 5000, cfg_cases = 100, cfg_only = -1, cfg_timeout_ms = 3000, cfg_grace_ms = 100;
static unsigned long long cfg_seed = 1;

static char **fixed;		/* PROGRAM [FIXED ARG ...] */
static int nfixed;
static const char *prog_name;	/* basename of PROGRAM, the stderr prefix */
static char workdir[PATH_MAX / 2];
/*
 * The cases' PATH: true and false alone. A random word given to a program
 * that runs a command (run_rr, cyclesoak --) must not run whatever real
 * program has that name ("write", "send"): it is simply not found.
 */
static char bindir[PATH_MAX / 2 + 8];

struct opt {
	char letter;
	int takes_value;
};
static struct opt opts[MAX_OPTS];
static int nopts;

/* ---- randomness ---- */

static const char *pick(const char *const *list, size_t n)
{
	return list[below((uint32_t)n)];
}
#define PICK(list) pick(list, sizeof(list) / sizeof((list)[0]))

/* ---- the files every case finds in its directory ---- */

static const char *const fixtures[] = {
	"data", "empty", "fifo", "dir", "devnull", "link", "dangling", "cal",
};

static int make_fixtures(const char *dir)
{
	char p[PATH_MAX];
	FILE *f;

	if (mkdir(dir, 0755) < 0 || chdir(dir) < 0)
		return -1;
	f = fopen("data", "w");
	if (!f)
		return -1;
	for (int i = 0; i < 1000; i++)
		fprintf(f, "line %d of a small file to send\n", i);
	if (fclose(f) != 0)
		return -1;
	if (close(open("empty", O_WRONLY | O_CREAT, 0644)) < 0 ||
	    mkfifo("fifo", 0644) < 0 || mkdir("dir", 0755) < 0 ||
	    symlink("data", "link") < 0 || symlink("missing", "dangling") < 0)
		return -1;
	/* A null device of our own (root), or a symlink to the real one. */
	if (mknod("devnull", S_IFCHR | 0666, makedev(1, 3)) < 0 &&
	    symlink("/dev/null", "devnull") < 0)
		return -1;
	f = fopen("cal", "w");
	if (!f)
		return -1;
	fprintf(f, "123456789\nncpus %ld\nspread 0.42%%\nwritten-by zc cyclesoak\n",
		sysconf(_SC_NPROCESSORS_ONLN));
	if (fclose(f) != 0)
		return -1;
	snprintf(p, sizeof(p), "%s", workdir);
	return chdir(p);
}

static int is_fixture(const char *name)
{
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
		if (!strcmp(name, fixtures[i]))
			return 1;
	return 0;
}

static int rm_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	char sub[PATH_MAX];

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		rm_tree(sub);
	}
	closedir(d);
	return rmdir(path);
}

/* ---- values ---- */

static const char *const numbers[] = {
	"0", "1", "2", "3", "5", "7", "10", "60", "99", "100", "255", "256",
	"1000", "1024", "65535", "65536", "86400000", "86400001",
	"2147483647", "2147483648", "4294967295", "4294967296",
	"9223372036854775807", "9223372036854775808",
	"18446744073709551615", "18446744073709551616", "99999999999999999999",
	"-1", "-0", "-2147483649", "-9223372036854775808", "+5", "05", "007",
	"0x10", "0X7fffffff", "0b101", "010", "1e9", "1e-300", "1E3", "inf",
	"nan", "-inf", "1.5", ".5", "5.", "0.001", " 5", "5 ", "\t5", "5\n",
	"1K", "4k", "1M", "16m", "1G", "2g", "3T", "1KB", "1KiB", "K", "0K",
	"16KK", "-1K", "1.5K", "4294967295K", "17179869184G", "8796093022208K",
	"1073741824", "1073741823", "1073741825",
};

static const char *const words[] = {
	"", "-", "--", "---", "--help", "--help=x", "--version", "--version=1",
	"--bogus", "-h", "-?", "-:", "-\xff", "abc", "a b", "a\nb", "x\x1b[2Jy",
	"\xff\xfe", "\xc3\x28", "a\x80z", "%s%s%n%n", "%99999999d", "'", "\"",
	"\\", "*", ";true", "$(true)", "127.0.0.1", "::1", "0", "localhost",
	"256.0.0.1", "[::1]", "0.0.0.0", "::", "1.2.3", "::ffff:127.0.0.1",
	"nonexistent.invalid", "read", "discard", "splice", "zerocopy",
	"sendfile", "send", "write", "mmap", "uring", "uring-zc", "READ",
	"zerocopy\n", "true", "false",
};

static const char *const paths[] = {
	"data", "empty", "fifo", "dir", "devnull", "link", "dangling", "cal",
	"missing", "dir/", "./data", "data/", "/", "/proc/self/mem",
	"/dev/zero", "nodir/file", "", ".",
};

/* One random value into buf (no NUL inside: argv cannot hold one). */
static const char *value(char *buf, size_t size)
{
	size_t n, i;

	switch (below(10)) {
	case 0: case 1: case 2:
		return PICK(numbers);
	case 3: case 4:
		return PICK(words);
	case 5: case 6:
		return PICK(paths);
	case 7:		/* a number in some range */
		snprintf(buf, size, "%lld", (long long)(rnd() >> below(32)) - (below(4) ? 0 : 1000));
		return buf;
	case 8:		/* random bytes, short */
		n = 1 + below(12);
		for (i = 0; i < n && i + 1 < size; i++)
			buf[i] = (char)(1 + below(255));
		buf[i] = '\0';
		return buf;
	default:	/* overlong */
		n = below(2) ? 5000 : FAR_LONG;
		if (n >= size)
			n = size - 1;
		memset(buf, below(2) ? 'A' : '9', n);
		buf[n] = '\0';
		return buf;
	}
}

/* ---- the options ---- */

static int excluded(char c)
{
	return strchr(cfg_exclude, c) != NULL;
}

static void add_opt(char c, int takes_value)
{
	for (int i = 0; i < nopts; i++)
		if (opts[i].letter == c) {
			opts[i].takes_value |= takes_value;
			return;
		}
	if (nopts < MAX_OPTS && !excluded(c))
		opts[nopts++] = (struct opt){ c, takes_value };
}

static void opts_from_string(const char *s)
{
	for (; *s; s++)
		if (isalnum((unsigned char)*s))
			add_opt(*s, s[1] == ':');
}

/* Run PROGRAM -h; its output (up to cap bytes) into buf. */
static int help_text(char *buf, size_t cap)
{
	int pipefd[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(pipefd) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		execl(fixed[0], fixed[0], "-h", (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	while (len + 1 < cap && (n = read(pipefd[0], buf + len, cap - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	return len ? 0 : -1;
}

/*
 * The synopsis: the "usage:" line and the lines after it that start with
 * '['. "[-abc]" is flags; "-x word" and "[-x word]" take a value.
 */
static int opts_from_help(void)
{
	char text[16384], *line, *save, *tok, *next, *save2;
	char *toks[256];
	int ntok = 0, in = 0;

	if (help_text(text, sizeof(text)) < 0)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *p = line + strspn(line, " \t");

		if (strstr(line, "usage:"))
			in = 1;
		else if (!in || *p != '[')
			in = in && *p == '[';
		if (!in)
			continue;
		for (tok = strtok_r(line, " \t", &save2); tok && ntok < 256;
		     tok = strtok_r(NULL, " \t", &save2))
			toks[ntok++] = tok;
	}
	for (int i = 0; i < ntok; i++) {
		const char *t = toks[i] + strspn(toks[i], "[|");
		size_t k;

		if (t[0] != '-' || t[1] == '-' || !isalnum((unsigned char)t[1]))
			continue;
		for (k = 1; isalnum((unsigned char)t[k]); k++)
			;
		next = i + 1 < ntok ? toks[i + 1] : NULL;
		if (k == 2 && t[k] != ']' && next && !strchr("[|-", next[0]))
			add_opt(t[1], 1);
		else
			for (size_t j = 1; j < k; j++)
				add_opt(t[j], 0);
	}
	return nopts ? 0 : -1;
}

/* ---- one case's argv ---- */

struct args {
	char *v[MAX_ARGS + 64];
	int n;
};

static void push(struct args *a, const char *s)
{
	if (a->n < MAX_ARGS + 62)
		a->v[a->n++] = strdup(s);
}

static void push_fixed(struct args *a)
{
	for (int i = 1; i < nfixed; i++)
		push(a, fixed[i]);
}

static void build_argv(struct args *a)
{
	char buf[FAR_LONG + 1], joined[FAR_LONG + 8];
	int items = (int)below(9);

	a->n = 0;
	push(a, fixed[0]);
	if (!cfg_after)
		push_fixed(a);
	for (int i = 0; i < items && nopts; i++) {
		const struct opt *o = &opts[below((uint32_t)nopts)];
		uint32_t how = below(20);
		char flag[3] = { '-', o->letter, '\0' };

		if (how == 0) {			/* an operand */
			push(a, value(buf, sizeof(buf)));
		} else if (how == 1) {		/* a long option or a lone dash */
			push(a, PICK(words));
		} else if (how == 2) {		/* a cluster of letters */
			char c[8] = "-";
			int n = 2 + (int)below(4), k;

			for (k = 1; k <= n; k++)
				c[k] = opts[below((uint32_t)nopts)].letter;
			c[k] = '\0';
			push(a, c);
		} else if (!o->takes_value || (how == 3 && i == items - 1)) {
			push(a, flag);		/* no value, or its value missing */
		} else if (how == 4) {		/* value attached */
			snprintf(joined, sizeof(joined), "-%c%s", o->letter, value(buf, sizeof(buf)));
			push(a, joined);
		} else {
			push(a, flag);
			push(a, value(buf, sizeof(buf)));
		}
	}
	if (cfg_after)
		push_fixed(a);
	a->v[a->n] = NULL;
}

static void free_argv(struct args *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
}

/* An argument as the shell reads it back: $'...' with \xHH, long runs cut. */
static void print_arg(FILE *f, const char *s)
{
	size_t len = strlen(s), run = strspn(s, (char[]){ s[0], '\0' });

	if (len > 64 && run == len) {
		fprintf(f, " $(printf '%%*s' %zu '' | tr ' ' '%c')", len, s[0]);
		return;
	}
	fputs(" $'", f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\'' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < ' ' || c > '~')
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('\'', f);
}

/* ---- running a case ---- */

static double now_s(void)
{
	return (double)now_ns() / 1e9;
}

struct result {
	int status;		/* waitpid's */
	int timed_out;		/* we sent SIGTERM (after -t, or after output with -k) */
	int started;		/* -k: it wrote to stdout before we stopped it */
	int term_ignored;	/* still there cfg_term_ms after SIGTERM */
	int nohup;		/* started with SIGHUP ignored, then sent one */
	int hup_killed;		/* ... and ended by it */
	int leftovers;		/* processes alive LEFTOVER_MS after it ended */
	char out[CAPTURE_MAX], err[CAPTURE_MAX];
	char left_what[256];
};

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : 0;
}

static void slurp(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = 0;

	buf[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, buf, cap - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
}

/* Sleep ms milliseconds (an early wake by a signal is fine: callers loop). */
static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Our children other than skip (orphans of the case come to us); zombies
 * are reaped, not counted. */
static int our_children(pid_t skip, char *what, size_t len)
{
	struct proc_task kids[64];
	int n = proc_children(getpid(), kids, 64), count = 0, i;

	if (what && len)
		what[0] = '\0';
	for (i = 0; i < n && i < 64; i++) {
		if (kids[i].pid == skip)
			continue;
		if (kids[i].state == 'Z') {
			waitpid(kids[i].pid, NULL, WNOHANG);
			continue;
		}
		count++;
		if (what && strlen(what) + 40 < len)
			snprintf(what + strlen(what), len - strlen(what), "%s%d (%s)",
				 count > 1 ? ", " : "", (int)kids[i].pid, kids[i].name);
	}
	return count;
}

static void kill_children(void)
{
	struct proc_task kids[64];
	int n, i;

	for (int tries = 0; tries < 50 && our_children(0, NULL, 0); tries++) {
		n = proc_children(getpid(), kids, 64);
		for (i = 0; i < n && i < 64; i++)
			kill(kids[i].pid, SIGKILL);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		sleep_ms(20);
	}
}

static pid_t spawn(char **argv, const char *dir, const char *out, const char *err, int nohup)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	setpgid(0, 0);
	int in = open("/dev/null", O_RDONLY);
	int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (in < 0 || o < 0 || e < 0 || chdir(dir) < 0)
		_exit(126);
	dup2(in, 0);
	dup2(o, 1);
	dup2(e, 2);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGHUP, nohup ? SIG_IGN : SIG_DFL);
	setenv("PATH", bindir, 1);
	execv(argv[0], argv);
	_exit(127);
}

/* Wait for pid up to ms; 1 when it ended (status filled). */
static int wait_ms(pid_t pid, long ms, int *status, const char *out, int *started)
{
	double end = now_s() + (double)ms / 1000.0;

	for (;;) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return 1;
		if (started && !*started && file_size(out) > 0) {
			*started = 1;
			end = now_s() + (double)cfg_grace_ms / 1000.0;
		}
		if (now_s() >= end)
			return 0;
		sleep_ms(5);
	}
}

static void run_case(char **argv, const char *dir, struct result *r, int nohup)
{
	char out[PATH_MAX], err[PATH_MAX];
	pid_t pid;
	int done;

	snprintf(out, sizeof(out), "%s/out", workdir);
	snprintf(err, sizeof(err), "%s/err", workdir);
	memset(r, 0, offsetof(struct result, out));
	r->nohup = nohup;
	/* Emptied here, not in the child: the last case's output must not look like this one's start. */
	if (truncate(out, 0) < 0 && errno != ENOENT)
		error(1, errno, "%s", out);
	pid = spawn(argv, dir, out, err, nohup);
	if (pid < 0)
		error(1, errno, "fork");
	done = wait_ms(pid, cfg_timeout_ms, &r->status, out, cfg_forever ? &r->started : NULL);
	/* Under nohup a SIGHUP must change nothing: still running 300 ms later. */
	if (!done && nohup && r->started) {
		kill(pid, SIGHUP);
		done = wait_ms(pid, 300, &r->status, out, NULL);
		/* Ended by it, or said so (128 + SIGHUP); not one that was ending anyway (-h). */
		r->hup_killed = done && ((WIFSIGNALED(r->status) && WTERMSIG(r->status) == SIGHUP) ||
					 (WIFEXITED(r->status) && WEXITSTATUS(r->status) == 128 + SIGHUP));
	}
	if (!done) {
		r->timed_out = 1;
		kill(pid, SIGTERM);
		if (!wait_ms(pid, cfg_term_ms, &r->status, out, NULL)) {
			r->term_ignored = 1;
			kill(pid, SIGKILL);
			waitpid(pid, &r->status, 0);
		}
	}
	/* Anything of the case's still alive a while after it ended is left over. */
	{
		double end = now_s() + LEFTOVER_MS / 1000.0;

		while (our_children(pid, NULL, 0) && now_s() < end)
			sleep_ms(20);
		r->leftovers = our_children(pid, r->left_what, sizeof(r->left_what));
		kill_children();
	}
	slurp(out, r->out, sizeof(r->out));
	slurp(err, r->err, sizeof(r->err));
}

/* ---- judging ---- */

static long findings, case_findings;

static void finding(const char *kind, long n, char **argv, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void finding(const char *kind, long n, char **argv, const char *fmt, ...)
{
	va_list ap;

	printf("finding: %s: case %ld: ", kind, n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(": argv:");
	for (int i = 0; argv[i]; i++)
		print_arg(stdout, argv[i]);
	putchar('\n');
	fflush(stdout);
	findings++;
	case_findings++;
}

/* The first line of s, printable and short, for a finding. */
static const char *first_line(const char *s)
{
	static char buf[160];
	size_t i;

	for (i = 0; s[i] && s[i] != '\n' && i + 1 < sizeof(buf); i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (*s == '\n' || !s[1])
			n++;
	return n;
}

static int code_allowed(int code)
{
	char list[64], *save, *t;
	long long v;
	const char *why;

	if (code == 0 || code == 1 || code == 2)
		return 1;
	snprintf(list, sizeof(list), "%s", cfg_codes);
	for (t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (parse_num(t, 0, INT_MAX, &v, &why) == 0 && v == code)
			return 1;
	return 0;
}

/* Does argv hold option letter c (alone or in a cluster)? Roughly. */
static int has_letter(char **argv, const char *letters)
{
	for (int i = 1; argv[i]; i++) {
		if (argv[i][0] != '-' || argv[i][1] == '-')
			continue;
		for (const char *p = argv[i] + 1; *p && isalnum((unsigned char)*p); p++)
			if (strchr(letters, *p))
				return 1;
	}
	return 0;
}

static void judge_stderr(long n, char **argv, const struct result *r, int code)
{
	char prefix[128];
	const char *line;
	int lines = count_lines(r->err);

	if (strstr(r->err, "Sanitizer") || strstr(r->err, "runtime error:")) {
		finding("sanitizer", n, argv, "%s", first_line(strstr(r->err, "ERROR") ?
			strstr(r->err, "ERROR") : strstr(r->err, "runtime error") ?
			strstr(r->err, "runtime error") : r->err));
		return;
	}
	if (code > 0 && !r->timed_out && lines == 0)
		finding("silent", n, argv, "exit %d with nothing on stderr", code);
	if (code == 2 && lines > 1)
		finding("lines", n, argv, "usage error with %d lines on stderr: %s", lines,
			first_line(r->err));
	if (*cfg_exempt && has_letter(argv, cfg_exempt))
		return;
	snprintf(prefix, sizeof(prefix), "%s: ", prog_name);
	for (line = r->err; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "") {
		if (*line == '\n' || !strncmp(line, prefix, strlen(prefix)))
			continue;
		finding("prefix", n, argv, "stderr line not starting '%s': %s", prefix,
			first_line(line));
		break;
	}
}

struct snap {
	struct stat st[sizeof(fixtures) / sizeof(fixtures[0])];
	int present[sizeof(fixtures) / sizeof(fixtures[0])];
};

static void snapshot(const char *dir, struct snap *s)
{
	char p[PATH_MAX];

	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, fixtures[i]);
		s->present[i] = lstat(p, &s->st[i]) == 0;
	}
}

static void judge_files(long n, char **argv, const char *dir, const struct snap *before)
{
	struct snap after;
	DIR *d;
	struct dirent *e;

	snapshot(dir, &after);
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		const struct stat *a = &before->st[i], *b = &after.st[i];

		if (before->present[i] != after.present[i] || a->st_ino != b->st_ino ||
		    (a->st_mode & S_IFMT) != (b->st_mode & S_IFMT) || a->st_size != b->st_size ||
		    a->st_mtim.tv_sec != b->st_mtim.tv_sec || a->st_mtim.tv_nsec != b->st_mtim.tv_nsec)
			finding("changed", n, argv, "./%s was %s", fixtures[i],
				after.present[i] ? "replaced or altered" : "removed");
	}
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || is_fixture(e->d_name))
			continue;
		finding("created", n, argv, "left ./%s behind", first_line(e->d_name));
	}
	if (d)
		closedir(d);
}

/* ---- calibration files (-c) ---- */

static const char *const cal_bits[] = {
	"0", "5", "999", "1000", "1001", "123456789", "1000000000000000",
	"1000000000000001", "18446744073709551616", "0x10", "1e6", "1e-300",
	"-5", "+5", " 5", "5 ", "5.0", "05", "nan", "inf", "ncpus ", "ncpus 0",
	"ncpus 1", "ncpus 2", "ncpus 1024", "ncpus 1025", "ncpus 02", "spread ",
	"spread 0.00%", "spread 9999.99%", "spread 10000.00%", "spread 1.5%",
	"spread -0.01%", "written-by zc cyclesoak", "written-by", "\n", "\n\n",
	"\r\n", "\t", "%", ".", "\xff", "\xc3\x28",
};

/* A calibration text: valid, mutated or noise, into buf; its length. */
static size_t cal_text(char *buf, size_t cap)
{
	size_t len, i, n;

	len = (size_t)snprintf(buf, cap, "%s\nncpus %ld\nspread %u.%02u%%\nwritten-by zc cyclesoak\n",
			       below(4) ? "123456789" : PICK(cal_bits),
			       below(4) ? sysconf(_SC_NPROCESSORS_ONLN) : (long)below(4),
			       below(100), below(100));
	switch (below(8)) {
	case 0:		/* whole, or cut after a random number of whole lines */
		for (n = below(5), i = 0; i < len && n; i++)
			if (buf[i] == '\n' && --n == 0)
				len = i + 1;
		break;
	case 1:		/* noise */
		len = below(300);
		for (i = 0; i < len && i < cap; i++)
			buf[i] = (char)below(256);
		break;
	case 2:		/* cut anywhere */
		len = below((uint32_t)len + 1);
		break;
	default:	/* a few edits: flip, replace, insert a piece */
		for (n = 1 + below(3); n; n--) {
			uint32_t at = below((uint32_t)len + 1), k = below(3);
			const char *bit = PICK(cal_bits);
			size_t bitlen = strlen(bit);

			if (k == 0 && at < len)
				buf[at] = (char)((unsigned char)buf[at] ^ (1u << below(8)));
			else if (k == 1 && at < len)
				buf[at] = bit[0];
			else if (len + bitlen < cap) {
				memmove(buf + at + bitlen, buf + at, len - at);
				/* buf is counted bytes (len), not a string: no '\0' belongs here */
				memcpy(buf + at, bit, bitlen);	// NOLINT(bugprone-not-null-terminated-result): see above
				len += bitlen;
			}
		}
	}
	return len < cap ? len : cap;
}

/* Is the text exactly what the format allows (for ncpus CPUs)? Regular expressions, not the program's code. */
static int cal_valid(const char *text, size_t len, long ncpus)
{
	static const char *const pat[] = {
		"^[1-9][0-9]{3,15}$", "^ncpus [1-9][0-9]{0,3}$",
		"^spread (0|[1-9][0-9]{0,3})\\.[0-9][0-9]%$", "^written-by zc cyclesoak$",
	};
	char line[300];
	size_t at = 0;
	int lineno = 0;
	long long v;
	const char *why;

	if (len == 0 || len >= 256 || memchr(text, '\0', len) || text[len - 1] != '\n')
		return 0;
	while (at < len) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = (size_t)(nl - text) - at;
		regex_t re;
		int ok;

		if (lineno >= 4 || n >= sizeof(line))
			return 0;
		memcpy(line, text + at, n);
		line[n] = '\0';
		if (regcomp(&re, pat[lineno], REG_EXTENDED | REG_NOSUB) != 0)
			return 0;
		ok = regexec(&re, line, 0, NULL, 0) == 0;
		regfree(&re);
		if (!ok)
			return 0;
		if (lineno == 0 && (strlen(line) == 16 && strcmp(line, "1000000000000000") > 0))
			return 0;
		if (lineno == 1 && (parse_num(line + 6, 1, 9999, &v, &why) < 0 || v != ncpus))
			return 0;
		at += n + 1;
		lineno++;
	}
	return 1;
}

static void judge_calib(long n, char **argv, const struct result *r, const char *text,
			size_t len)
{
	int valid = cal_valid(text, len, sysconf(_SC_NPROCESSORS_ONLN));
	int code = WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;
	char shown[600];
	size_t k = 0;

	for (size_t i = 0; i < len && k + 5 < sizeof(shown); i++)
		k += (size_t)snprintf(shown + k, sizeof(shown) - k,
				      isprint((unsigned char)text[i]) && text[i] != '\\' ? "%c" : "\\x%02x",
				      (unsigned char)text[i]);
	shown[k] = '\0';
	if (code == 2)
		finding("status", n, argv, "a usage error for a file's content: %s",
			first_line(r->err));
	else if (code == 0 && !valid)
		finding("accepted", n, argv, "a calibration file the format refuses: '%s'", shown);
	else if (code == 1 && valid)
		finding("refused", n, argv, "a valid calibration file: '%s': %s", shown,
			first_line(r->err));
	else if (code == 1 && !strstr(r->err, "cal"))
		finding("refused", n, argv, "the refusal does not name the file: '%s': %s",
			shown, first_line(r->err));
	if (cfg_verbose)
		printf("# case %ld: %s exit %d: '%s'\n", n, valid ? "valid" : "invalid", code, shown);
}

/* ---- the run ---- */

static long tool_failures;

/* Any argument that is (or begins) a long help or version request? */
static int asks_help(char **argv)
{
	for (int i = 1; argv[i]; i++)
		if (!strncmp(argv[i], "--help", 6) || !strncmp(argv[i], "--version", 9))
			return 1;
	return has_letter(argv, "h");
}

/*
 * -J asked (and no help, which is text): stdout must be JSON Lines with
 * "program", "event" and "time" on every line, as the checker says.
 */
static void judge_json(long n, char **argv, const struct result *r)
{
	char out[PATH_MAX], why[PATH_MAX], msg[512];
	int status = 0;	/* error(1, ...) never returns; clang cannot tell */
	pid_t pid;

	if (!cfg_jsoncheck || !has_letter(argv, "J") || asks_help(argv) || !r->out[0] ||
	    r->term_ignored)
		return;
	snprintf(out, sizeof(out), "%s/out", workdir);
	snprintf(why, sizeof(why), "%s/json.err", workdir);
	pid = fork();
	if (pid == 0) {
		int e = open(why, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (e < 0)
			_exit(126);
		dup2(e, 1);
		dup2(e, 2);
		execl(cfg_jsoncheck, cfg_jsoncheck, "-k", "program", "-k", "event", "-k", "time",
		      out, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		error(1, errno, "%s", cfg_jsoncheck);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return;
	slurp(why, msg, sizeof(msg));
	finding("json", n, argv, "stdout is not JSON Lines: %s", first_line(msg));
}

static void judge(long n, char **argv, const struct result *r)
{
	int code = WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;

	/*
	 * A sanitizer that failed itself, not the program: LeakSanitizer's
	 * tracer thread killed by SIGXCPU when run_rr -l has set a tiny
	 * real-time CPU limit before an exec that failed. Nothing to judge.
	 */
	if (strstr(r->err, "Sanitizer has encountered a fatal error")) {
		printf("# case %ld: the sanitizer failed, not the program: %s\n", n,
		       first_line(strstr(r->err, "==") ? strstr(r->err, "==") : r->err));
		tool_failures++;
		return;
	}

	if (WIFSIGNALED(r->status) && !(r->timed_out && WTERMSIG(r->status) == SIGTERM) &&
	    !r->term_ignored && !r->hup_killed)
		finding("crash", n, argv, "killed by signal %d (%s)", WTERMSIG(r->status),
			strsignal(WTERMSIG(r->status)));
	if (r->timed_out && !r->started)
		finding("hang", n, argv, "still running after %ld ms%s", cfg_timeout_ms,
			cfg_forever ? " with nothing on stdout" : "");
	if (r->hup_killed)
		finding("nohup", n, argv, "started with SIGHUP ignored, ended by a SIGHUP (%s %d)",
			WIFSIGNALED(r->status) ? "signal" : "exit", WIFSIGNALED(r->status) ?
			WTERMSIG(r->status) : WEXITSTATUS(r->status));
	if (r->term_ignored)
		finding("term", n, argv, "still running %ld ms after SIGTERM", cfg_term_ms);
	if (code >= 0 && !r->timed_out && !code_allowed(code))
		finding("status", n, argv, "exit %d: %s", code, first_line(r->err));
	if (r->leftovers)
		finding("leftover", n, argv, "%d process(es) alive %d ms after it ended: %s",
			r->leftovers, LEFTOVER_MS, r->left_what);
	judge_stderr(n, argv, r, r->timed_out ? -1 : code);
	judge_json(n, argv, r);
}

/*
 * The private /tmp hides what lived in the old one, the program under test
 * too when its tree is there (a clone in /tmp/x): the entry of the old /tmp
 * (oldtmp, opened before the mount) that path lies in is bound back in.
 */
static void keep_visible(int oldtmp, const char *path)
{
	char name[NAME_MAX + 1], top[NAME_MAX + 8], from[NAME_MAX + 64];
	const char *end;
	struct stat st;
	int fd = -1;

	if (!path || strncmp(path, "/tmp/", 5) != 0)
		return;
	end = strchrnul(path + 5, '/');
	if (end == path + 5 || (size_t)(end - path - 5) > NAME_MAX)
		return;
	snprintf(name, sizeof(name), "%.*s", (int)(end - path - 5), path + 5);
	snprintf(top, sizeof(top), "/tmp/%s", name);
	snprintf(from, sizeof(from), "/proc/self/fd/%d/%s", oldtmp, name);
	if (fstatat(oldtmp, name, &st, 0) < 0 || access(top, F_OK) == 0)
		return;		/* missing (the exec says so), or bound already */
	if (S_ISDIR(st.st_mode) ? mkdir(top, 0700) < 0 :
	    (fd = open(top, O_CREAT | O_WRONLY | O_CLOEXEC, 0600)) < 0 || close(fd) < 0)
		error(1, errno, "%s: in the private /tmp", top);
	if (mount(from, top, NULL, MS_BIND | MS_REC, NULL) < 0)
		error(1, errno, "%s: bound into the private /tmp", top);
}

static void isolate(void)
{
	struct ifreq ifr = { 0 };
	int s, oldtmp;

	if (unshare(CLONE_NEWNET | CLONE_NEWNS) < 0) {
		printf("# not isolated (%s): cases share this machine's network and /tmp\n",
		       strerror(errno));
		return;
	}
	oldtmp = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (oldtmp < 0)
		error(1, errno, "/tmp");
	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("zc-argvfuzz", "/tmp", "tmpfs", 0, "mode=1777") < 0)
		error(1, errno, "private /tmp");
	keep_visible(oldtmp, fixed[0]);
	keep_visible(oldtmp, cfg_jsoncheck);
	close(oldtmp);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		error(1, errno, "loopback");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		error(1, errno, "loopback up");
	close(s);
}

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: argvfuzz [-AckNv] [-e CODES] [-E LETTERS] [-g MSECS] [-H N]\n"
		"                [-j JSONCHECK] [-n CASES] [-O OPTSTRING] [-o CASE] [-s SEED]\n"
		"                [-T MSECS] [-t MSECS] [-x LETTERS] -- PROGRAM [FIXED ARG ...]\n");
	exit(status);
}

static long num(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		error(2, 0, "'%s': not a number", s);
	return v;
}

static void parse(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "+AcE:e:g:H:hj:kn:NO:o:s:T:t:vx:")) != -1) {
		switch (c) {
		case 'A': cfg_after = 1; break;
		case 'c': cfg_calib = 1; break;
		case 'E': cfg_exempt = optarg; break;
		case 'e': cfg_codes = optarg; break;
		case 'g': cfg_grace_ms = num(optarg); break;
		case 'h': usage(0); break;
		case 'H': cfg_nohup = num(optarg); break;
		case 'j': cfg_jsoncheck = optarg; break;
		case 'k': cfg_forever = 1; break;
		case 'n': cfg_cases = num(optarg); break;
		case 'N': cfg_isolate = 1; break;
		case 'O': cfg_optstring = optarg; break;
		case 'o': cfg_only = num(optarg); break;
		case 's': cfg_seed = strtoull(optarg, NULL, 0); break;
		case 't': cfg_timeout_ms = num(optarg); break;
		case 'T': cfg_term_ms = num(optarg); break;
		case 'v': cfg_verbose = 1; break;
		case 'x': cfg_exclude = optarg; break;
		default: usage(2);
		}
	}
	if (optind >= argc)
		usage(2);
	fixed = argv + optind;
	nfixed = argc - optind;
	/* The cases run in a directory of their own: the program by its full name. */
	if (strchr(fixed[0], '/')) {
		fixed[0] = realpath(fixed[0], NULL);
		if (!fixed[0])
			error(1, errno, "%s", argv[optind]);
	}
	prog_name = strrchr(fixed[0], '/') ? strrchr(fixed[0], '/') + 1 : fixed[0];
}

int main(int argc, char **argv)
{
	long n, with_findings = 0, started = 0, exits[4] = { 0 };
	char dir[PATH_MAX / 2 + 8], tmpl[PATH_MAX], optsum[MAX_OPTS * 2 + 1] = "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	parse(argc, argv);
	if (cfg_isolate)
		isolate();
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		error(1, errno, "PR_SET_CHILD_SUBREAPER");
	if (!cfg_calib && (cfg_optstring ? (opts_from_string(cfg_optstring), 0) : opts_from_help()) < 0)
		error(1, 0, "%s -h: no usage line with options to read (give -O)", fixed[0]);
	for (int i = 0; i < nopts; i++)
		snprintf(optsum + strlen(optsum), sizeof(optsum) - strlen(optsum), "%c%s",
			 opts[i].letter, opts[i].takes_value ? ":" : "");
	snprintf(tmpl, sizeof(tmpl), "%s/argvfuzz.XXXXXX", getenv("TMPDIR") && !cfg_isolate ?
		 getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpl))
		error(1, errno, "mkdtemp %s", tmpl);
	if (strlen(tmpl) >= sizeof(workdir))
		error(1, 0, "%s: too long a path", tmpl);
	memcpy(workdir, tmpl, strlen(tmpl) + 1);
	snprintf(dir, sizeof(dir), "%s/cwd", workdir);
	snprintf(bindir, sizeof(bindir), "%s/bin", workdir);
	if (mkdir(bindir, 0755) < 0 ||
	    snprintf(tmpl, sizeof(tmpl), "%s/true", bindir) >= (int)sizeof(tmpl) ||
	    symlink("/bin/true", tmpl) < 0 ||
	    snprintf(tmpl, sizeof(tmpl), "%s/false", bindir) >= (int)sizeof(tmpl) ||
	    symlink("/bin/false", tmpl) < 0)
		error(1, errno, "%s", bindir);
	for (n = cfg_only >= 0 ? cfg_only : 0; n < (cfg_only >= 0 ? cfg_only + 1 : cfg_cases); n++) {
		struct args a;
		struct result *r = malloc(sizeof(*r));
		struct snap before;
		char text[400];
		size_t len = 0;

		if (!r)
			error(1, errno, "malloc");
		rng_seed(cfg_seed, (uint64_t)n);
		rm_tree(dir);
		if (make_fixtures(dir) < 0)
			error(1, errno, "preparing %s", dir);
		if (cfg_calib) {
			int fd;

			len = cal_text(text, sizeof(text));
			snprintf(tmpl, sizeof(tmpl), "%s/cal", dir);
			fd = open(tmpl, O_WRONLY | O_TRUNC);
			if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd) < 0)
				error(1, errno, "%s", tmpl);
			a.n = 0;
			push(&a, fixed[0]);
			push_fixed(&a);
			a.v[a.n] = NULL;
		} else {
			build_argv(&a);
		}
		snapshot(dir, &before);
		case_findings = 0;
		/* With -k and -H N, one case in N runs as under nohup. */
		run_case(a.v, dir, r, cfg_forever && cfg_nohup && below((uint32_t)cfg_nohup) == 0);
		judge(n, a.v, r);
		if (cfg_calib)
			judge_calib(n, a.v, r, text, len);
		judge_files(n, a.v, dir, &before);
		if (r->started)
			started++;
		else if (WIFEXITED(r->status) && WEXITSTATUS(r->status) <= 2)
			exits[WEXITSTATUS(r->status)]++;
		else
			exits[3]++;
		with_findings += case_findings > 0;
		if (cfg_verbose) {
			printf("# case %ld: %s, exit %d:", n, r->started ? "started" : "ran",
			       WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -WTERMSIG(r->status));
			for (int i = 0; a.v[i]; i++)
				print_arg(stdout, a.v[i]);
			printf("\n#   %s\n", first_line(r->err));
		}
		free_argv(&a);
		free(r);
	}
	rm_tree(workdir);
	printf("argvfuzz: %s: %ld cases (seed %llu, options %s): %ld exit 0, %ld exit 1, "
	       "%ld exit 2, %ld started and stopped, %ld other; %ld findings in %ld cases%s\n",
	       prog_name, cfg_only >= 0 ? 1 : cfg_cases, cfg_seed, cfg_calib ? "-" : optsum,
	       exits[0], exits[1], exits[2], started, exits[3], findings, with_findings,
	       tool_failures ? " (a sanitizer failed itself in some: see # lines)" : "");
	return findings ? 3 : 0;
}
