#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/safe_text.h"

/*
 * A failure is told on one line: a path, host or value in it that holds a
 * newline or a terminal escape is shown escaped (show.h), here, once for
 * every message lib/ hands back.
 */
static void one_line(char *err, size_t errlen)
{
	char raw[1024];

	if (strcmp(safe_text(err, raw, sizeof(raw)), err) == 0)
		return;
	snprintf(raw, sizeof(raw), "%s", err);
	safe_text(raw, err, errlen);
}

int err_fill(char *err, size_t errlen, int errnum, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	size_t n;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
		one_line(err, errlen);
		n = strlen(err);
		if (errnum && n < errlen)
			snprintf(err + n, errlen - n, ": %s", strerror(errnum));
	}
	errno = saved;
	return -1;
}

int err_wrap(char *err, size_t errlen, const char *what, const char *inner)
{
	int saved = errno;
	char line[1024];

	if (err && errlen) {
		snprintf(line, sizeof(line), "%s: %s", what, inner ? inner : "");
		safe_line(line, err, errlen);
	}
	errno = saved;
	return -1;
}
