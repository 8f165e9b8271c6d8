/* lib/base/safe_text.c: untrusted text made fit for a one-line message. */
#include <string.h>

#include "base/safe_text.h"
#include "unit/t.h"

static void shows(const char *s, size_t len, const char *want)
{
	char buf[64];
	const char *got;

	memset(buf, '#', sizeof(buf));
	got = safe_text(s, buf, len);
	CHECK(got == buf && strcmp(got, want) == 0, "shown in %zu bytes: '%s' (got '%s')", len, want,
	      got);
}

int main(void)
{
	char big[300], again[SAFE_LEN], buf[SAFE_LEN];

	shows("plain text", 64, "plain text");
	shows("", 64, "");
	shows(NULL, 64, "(null)");
	shows("a\nb", 64, "a\\nb");
	shows("x\033[2Jy", 64, "x\\e[2Jy");
	shows("\t\r\x01\x7f", 64, "\\t\\r\\x01\\x7f");
	shows("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 64,
	      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	shows("\xc2\x9b" "31m", 64, "\\xc2\\x9b31m");
	shows("\xff\xc3(\xed\xa0\x80", 64, "\\xff\\xc3(\\xed\\xa0\\x80");
	shows("\xe2\x82", 64, "\\xe2\\x82");
	shows("\xc0\xaf", 64, "\\xc0\\xaf");
	/* Cut at a whole unit, "..." within the buffer. */
	shows("abcdefghij", 8, "abcd...");
	shows("abcdefg", 8, "abcdefg");
	shows("abcdef\n", 8, "abcd...");
	shows("abcde\n", 8, "abcde\\n");
	shows("abcdef\n", 10, "abcdef\\n");
	shows("abc\ndefg", 8, "abc...");
	shows("ab\xe2\x82\xac" "cdef", 8, "ab...");
	shows("abcdef", 3, "");
	shows("abcdef", 1, "");

	memset(big, 'v', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	safe_text(big, buf, sizeof(buf));
	CHECK(strlen(buf) < SAFE_LEN && strlen(buf) >= 200 &&
	      strcmp(buf + strlen(buf) - 3, "...") == 0,
	      "a 299 byte value is cut near 200 bytes with ... (got %zu bytes)", strlen(buf));
	/* A backslash is escaped: a newline and backslash-n never show alike. */
	shows("a\\nb", 64, "a\\\\nb");
	shows("\\", 64, "\\\\");
	shows("abcde\\", 8, "abcde\\\\");
	shows("abcdef\\", 8, "abcd...");
	safe_text("a\nb", buf, sizeof(buf));
	safe_text("a\\nb", again, sizeof(again));
	CHECK(strcmp(buf, again) != 0, "'a<newline>b' and 'a\\nb' differ: '%s', '%s'", buf,
	      again);
	safe_text("a\\xffb", buf, sizeof(buf));
	safe_text("a\xff" "b", again, sizeof(again));
	CHECK(strcmp(buf, again) != 0, "a literal \\xff and byte 0xff differ: '%s', '%s'",
	      buf, again);

	/* show_line: a message of shown values; backslashes kept, idempotent. */
	CHECK(strcmp(safe_line("x\\ny\nz", buf, sizeof(buf)), "x\\ny\\nz") == 0,
	      "show_line keeps a backslash, escapes a newline: '%s'", buf);
	safe_text("a\nb\\\033\xff\xc3\xa9", buf, sizeof(buf));
	CHECK(strcmp(safe_line(buf, again, sizeof(again)), buf) == 0,
	      "shown text through show_line is the same: '%s' (got '%s')", buf, again);
	return t_exit();
}
