/* lib/base/err.c: lib's one way to hand a failure back, as one line. */
#include <errno.h>
#include <string.h>

#include "base/err.h"
#include "unit/t.h"

int main(void)
{
	char err[256], inner[256];

	errno = 42;
	CHECK(err_fill(err, sizeof(err), ENOENT, "open %s", "a\nb") == -1 && errno == 42,
	      "err_fill returns -1 and leaves errno alone");
	CHECK(strcmp(err, "open a\\nb: No such file or directory") == 0,
	      "a newline in a value is shown as \\n: %s", err);
	err_fill(err, sizeof(err), 0, "open %s", "a\\nb");
	CHECK(strcmp(err, "open a\\\\nb") == 0, "a backslash in a value is shown as \\\\: %s",
	      err);

	/* A message that holds another: its escapes are not escaped again. */
	err_fill(inner, sizeof(inner), 0, "%s: not found", "a\\nb");
	errno = 7;
	CHECK(err_wrap(err, sizeof(err), "loop counts", inner) == -1 && errno == 7 &&
	      strcmp(err, "loop counts: a\\\\nb: not found") == 0,
	      "err_wrap keeps the inner message as it was: %s", err);
	err_fill(err, sizeof(err), 0, "%s: not found", "x\ny");
	err_wrap(err, sizeof(err), "outer", err);
	CHECK(strcmp(err, "outer: x\\ny: not found") == 0, "err_wrap in place: %s", err);
	err_wrap(err, sizeof(err), "raw", "p\nq");
	CHECK(strcmp(err, "raw: p\\nq") == 0, "a raw newline still cannot split the line: %s",
	      err);
	err_wrap(err, 12, "cut", "0123456789abcdef");
	CHECK(strlen(err) < 12 && strstr(err, "..."), "cut to the buffer with ...: %s", err);
	return t_exit();
}
