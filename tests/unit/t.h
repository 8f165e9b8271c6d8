/*
 * The C tests' one assertion: prints "ok - what" or "not ok - what (file:line)"
 * for tests/run.sh to count. A test program returns t_exit().
 */
#ifndef ZC_T_H
#define ZC_T_H

#include <stdarg.h>
#include <stdio.h>

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

static inline int t_exit(void)
{
	return t_failures ? 1 : 0;
}

#endif
