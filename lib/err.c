#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

int err_fill(char *err, size_t errlen, int errnum, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	size_t n;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
		n = strlen(err);
		if (errnum && n < errlen)
			snprintf(err + n, errlen - n, ": %s", strerror(errnum));
	}
	errno = saved;
	return -1;
}
