/* The one way lib/ hands a failure back: a "what: why" text in a buffer. */
#ifndef ZC_ERR_H
#define ZC_ERR_H

#include <stddef.h>

/*
 * err_fill - write "what" (printf-style) into err, followed by
 * ": strerror(errnum)" when errnum is not 0. errno is left as it was.
 * Returns -1, so a helper can end with `return err_fill(...)`.
 */
int err_fill(char *err, size_t errlen, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * err_wrap - "what: inner" into err, inner a message err_fill already made
 * one line of (its values shown, show.h), so it is not escaped twice: a
 * backslash in it stays one. inner may be err itself. errno is left as
 * it was; returns -1.
 */
int err_wrap(char *err, size_t errlen, const char *what, const char *inner);

#endif
