/*
 * The C tests' one assertion: prints "ok - what" or "not ok - what (file:line)"
 * for tests/run.sh to count. A test program returns t_exit().
 */
#ifndef ZC_T_H
#define ZC_T_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int t_failures;

__attribute__((format(printf, 4, 5)))
static int t_check(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fputs(ok ? "ok - " : "not ok - ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!ok) {
		printf(" (%s:%d)", file, line);
		t_failures++;
	}
	putchar('\n');
	fflush(stdout);
	return ok;
}

#define CHECK(cond, ...) t_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* What t_child's pipe takes from the child: its stdout, its stderr. */
enum { T_STDOUT = 1, T_STDERR = 2 };

/*
 * t_child - fn(arg) in a child whose stdout and/or stderr (fds: T_STDOUT,
 * T_STDERR) go to a pipe; what it wrote there, up to its first newline,
 * in line[0..len). Its exit status (fn returning: 0), 128 + the signal
 * that ended it, or -1 when no child could be made.
 */
static inline int t_child(void (*fn)(void *), void *arg, int fds, char *line, size_t len)
{
	int p[2], st;
	size_t have = 0;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (fds & T_STDOUT)
			dup2(p[1], 1);
		if (fds & T_STDERR)
			dup2(p[1], 2);
		fn(arg);
		exit(0);
	}
	close(p[1]);
	while (have + 1 < len && (n = read(p[0], line + have, len - 1 - have)) > 0)
		have += (size_t)n;
	line[have] = '\0';
	line[strcspn(line, "\n")] = '\0';
	close(p[0]);
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static inline int t_exit(void)
{
	return t_failures ? 1 : 0;
}

#endif
