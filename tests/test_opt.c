/* lib/opt.c: every numeric option of every program goes through here. */
#include <stdio.h>
#include <string.h>

#include "opt.h"
#include "t.h"

static void refuses(const char *s, long long min, long long max, const char *why)
{
	long long v = 12345;
	const char *got = NULL;

	int rc = parse_num(s, min, max, &v, &got);

	CHECK(rc == -1 && v == 12345 && got && strcmp(got, why) == 0,
	      "'%s' in [%lld, %lld] refused: %s (got %s)", s ? s : "(null)", min, max,
	      why, got ? got : "accepted");
}

static void accepts(const char *s, long long min, long long max, long long want)
{
	long long v = -1;
	const char *why = NULL;

	int rc = parse_num(s, min, max, &v, &why);

	CHECK(rc == 0 && v == want,
	      "'%s' in [%lld, %lld] is %lld (got %lld, %s)", s, min, max, want, v,
	      why ? why : "ok");
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
	return t_exit();
}
