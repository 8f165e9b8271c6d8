/* lib/app/out.c: the JSON Lines every -J figure goes through, and stdout's failures. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/out.h"
#include "unit/t.h"

static char got[4096];
static int end_rc, text_rc;

/*
 * Run fn with stdout on a temporary file; got holds what it wrote. The
 * test's own "ok" lines go to the real stdout, restored around them.
 */
static int capture(void (*fn)(void))
{
	FILE *tmp = tmpfile();
	int saved = dup(1);
	size_t n;
	int rc = -1;

	if (!tmp || saved < 0)
		return -1;
	fflush(stdout);
	dup2(fileno(tmp), 1);
	fn();
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	n = fread(got, 1, sizeof got - 1, tmp);
	got[n] = '\0';
	fclose(tmp);
	rc = 0;
	return rc;
}

/* got without its newline, for an "ok" line. */
static const char *shown(void)
{
	static char buf[sizeof got];

	snprintf(buf, sizeof buf, "%.*s", (int)strcspn(got, "\n"), got);
	return buf;
}

/* got with the "time" value (which changes) replaced by T. */
static const char *without_time(void)
{
	static char buf[sizeof got];
	const char *t = strstr(got, "\"time\":");
	size_t head;

	if (!t)
		return got;
	head = (size_t)(t - got) + 7;
	memcpy(buf, got, head);
	t += 7;
	while ((*t >= '0' && *t <= '9') || *t == '.')
		t++;
	snprintf(buf + head, sizeof buf - head, "T%s", t);

	return buf;
}

static void every_kind(void)
{
	double a[3] = { 1.5, NAN, -2 };

	out_begin("done");
	out_u64("bytes", 18446744073709551615ULL);
	out_num("seconds", 2.0 / 3, 3);
	out_int("status", -130);
	out_bool("interrupted", 1);
	out_bool("zc", 0);
	out_str("method", "sendfile");
	out_num("load_pct", NAN, 1);
	out_num("inf", INFINITY, 1);
	out_num("whole", 41.6, 0);
	out_num_array("free_pct", a, 3, 1);
	out_num_array("none", a, 0, 1);
	out_end();
}

/* An array of strings: its elements have no key. */
static void string_array(void)
{
	out_begin("keys");
	out_array("unknown");
	out_str(NULL, "driver");
	out_str(NULL, "mtu");
	out_array_end();
	out_array("none");
	out_array_end();
	out_end();
}

static void nasty_strings(void)
{
	out_begin("say \"hi\"");
	out_str("path", "a\\b\"c\nd\te\rf\001g\037h\x7fi");
	out_str("utf8", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	out_str("bad", "x\xff y\xc3 z\xed\xa0\x80 w\xc0\xaf");
	out_str("empty", "");
	out_str("null", NULL);
	out_end();
}

static void text_mode(void)
{
	out_init("zcc", 0);
	out_text("sent: %d bytes\n", 5);
	out_begin("sent");
	out_u64("bytes", 5);
	end_rc = out_end();
}

static void json_mode_text(void)
{
	out_init("zcc", 1);
	text_rc = out_text("sent: %d bytes\n", 5);
}

/* s with its newlines shown as |, for an "ok" line. */
static const char *one_row(const char *s)
{
	static char buf[sizeof got];
	size_t i;

	snprintf(buf, sizeof buf, "%s", s);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '\n')
			buf[i] = '|';
	return buf;
}

/* One description, both forms: the line API. */
static void nested_text(const void *arg)
{
	out_text("after: %s\n", (const char *)arg);
}

static void nested_json(const void *arg)
{
	out_str("nested", (const char *)arg);
}

static void one_line(void)
{
	line_begin("sent");
	line_text("sent: ");
	line_u64("bytes", 123, "%" PRIu64 " bytes");
	line_num("seconds", 1.5, 3, " in %.2f s");
	line_str("method", "splice", NULL);
	line_int(NULL, -7, " (%lld)");
	line_bool("interrupted", 1, " (interrupted)");
	line_bool("zc", 0, " (zc)");
	line_nested(nested_json, nested_text, "x");
	end_rc = line_end();
}

static void text_only_and_json_only(void)
{
	line_begin(NULL);
	line_text("listening on %d", 5);
	line_end();
	line_begin("using");
	line_int("ncpus", 2, NULL);
	line_end();
}

static void line_text_mode(void)
{
	out_init("zcc", 0);
	one_line();
	text_only_and_json_only();
}

static void line_json_mode(void)
{
	out_init("zcc", 1);
	one_line();
	text_only_and_json_only();
}

/* What the child of child_on does. */
struct on {
	const char *path;
	int json, exit_status;
	int fd;		/* child_on_closed_pipe's: a pipe nobody reads */
};

static void write_on(void *arg)
{
	const struct on *o = arg;
	int fd;

	signal(SIGPIPE, SIG_IGN);
	fd = o->path ? open(o->path, O_WRONLY) : -1;
	if (o->path && fd < 0)
		_exit(99);
	if (fd >= 0)
		dup2(fd, 1);
	else
		close(1);
	out_init("zcs", o->json);
	out_check_at_exit();
	if (o->json) {
		out_begin("listening");
		out_int("port", 2222);
		if (out_end() != -1 || errno != ENOSPC)
			_exit(98);
		if (!out_failed())
			_exit(97);
	} else if (o->path && strcmp(o->path, "/dev/full") == 0) {
		if (out_text("listening on port 2222\n") != -1 || !out_failed())
			_exit(96);
	}
	exit(o->exit_status);
}

/* In a child with stdout on path: returns the child's stderr and status. */
static int child_on(const char *path, int json, int exit_status, char *err, size_t errlen)
{
	return t_child(write_on, &(struct on){ path, json, exit_status, -1 }, T_STDERR, err,
		       errlen);
}

static void write_closed(void *arg)
{
	const struct on *o = arg;

	signal(SIGPIPE, SIG_IGN);
	dup2(o->fd, 1);
	out_init("cyclesoak", 0);
	out_check_at_exit();
	out_text("System load: 1.0%%\n");
}

/* stdout a pipe whose reader has gone: EPIPE, said, exit 1. */
static int child_on_closed_pipe(char *err, size_t errlen)
{
	int p[2], rc;

	if (pipe(p) < 0)
		return -1;
	close(p[0]);
	rc = t_child(write_closed, &(struct on){ .fd = p[1] }, T_STDERR, err, errlen);
	close(p[1]);
	return rc;
}

int main(void)
{
	char err[512];
	int rc;

	out_init("zcc", 1);
	CHECK(out_json(), "out_json after out_init(..., 1)");
	capture(every_kind);
	CHECK(strcmp(without_time(),
		     "{\"program\":\"zcc\",\"event\":\"done\",\"time\":T,"
		     "\"bytes\":18446744073709551615,\"seconds\":0.667,\"status\":-130,"
		     "\"interrupted\":true,\"zc\":false,\"method\":\"sendfile\","
		     "\"load_pct\":null,\"inf\":null,\"whole\":42,"
		     "\"free_pct\":[1.5,null,-2.0],\"none\":[]}\n") == 0 &&
	      strchr(got, '\n') == got + strlen(got) - 1,
	      "one line, fields in order, decimals as asked, NAN and inf null: %s",
	      shown());

	capture(string_array);
	CHECK(strcmp(without_time(),
		     "{\"program\":\"zcc\",\"event\":\"keys\",\"time\":T,"
		     "\"unknown\":[\"driver\",\"mtu\"],\"none\":[]}\n") == 0,
	      "an array's strings, no key (key NULL): %s", shown());

	capture(nasty_strings);
	CHECK(strcmp(without_time(),
		     "{\"program\":\"zcc\",\"event\":\"say \\\"hi\\\"\",\"time\":T,"
		     "\"path\":\"a\\\\b\\\"c\\nd\\te\\rf\\u0001g\\u001fh\x7fi\","
		     "\"utf8\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
		     "\"bad\":\"x\\ufffd y\\ufffd z\\ufffd\\ufffd\\ufffd w\\ufffd\\ufffd\","
		     "\"empty\":\"\",\"null\":\"\"}\n") == 0,
	      "strings escaped per RFC 8259, valid UTF-8 kept, invalid bytes U+FFFD: %s",
	      shown());

	{
		struct timespec now;
		double t;
		const char *p;

		clock_gettime(CLOCK_REALTIME, &now);
		p = strstr(got, "\"time\":");
		t = p ? strtod(p + 7, NULL) : 0;
		CHECK(fabs(t - (now.tv_sec + now.tv_nsec / 1e9)) < 5 && p && strchr(p, '.'),
		      "time: Unix seconds with a fraction (%.6f)", t);
	}

	capture(text_mode);
	CHECK(strcmp(got, "sent: 5 bytes\n") == 0 && end_rc == 0,
	      "text mode: only the text line, out_end 0 (%.13s)", got);
	capture(json_mode_text);
	CHECK(strcmp(got, "") == 0 && text_rc == 0, "-J: out_text writes nothing (%s)", got);

	capture(line_text_mode);
	CHECK(strcmp(got, "sent: 123 bytes in 1.50 s (-7) (interrupted)\nafter: x\n"
		     "listening on 5\n") == 0 && end_rc == 0,
	      "line API, text: the pieces with a format, in order; nested text after; "
	      "a line with no text piece prints nothing (%s)", one_row(got));
	capture(line_json_mode);
	CHECK(strstr(without_time(), "{\"program\":\"zcc\",\"event\":\"sent\",\"time\":T,"
		     "\"bytes\":123,\"seconds\":1.500,\"method\":\"splice\","
		     "\"interrupted\":true,\"zc\":false,\"nested\":\"x\"}\n") == without_time() &&
	      strstr(got, "\"event\":\"using\"") && strstr(got, "\"ncpus\":2}") &&
	      !strstr(got, "listening") && end_rc == 0,
	      "line API, -J: the keyed pieces as one object, nested inside; "
	      "a text-only line writes nothing (%s)", shown());

	rc = child_on("/dev/full", 1, 0, err, sizeof err);
	CHECK(rc == 1 && strcmp(err, "zcs: write to stdout: No space left on device") == 0,
	      "-J to /dev/full: out_end -1 ENOSPC, then one line and exit 1 (%d, %s)", rc, err);
	rc = child_on("/dev/full", 0, 0, err, sizeof err);
	CHECK(rc == 1 && strstr(err, "zcs: write to stdout: No space") == err,
	      "text to /dev/full: out_text -1, then one line and exit 1 (%d, %s)", rc, err);
	rc = child_on("/dev/null", 0, 3, err, sizeof err);
	CHECK(rc == 3 && !*err, "a stdout that works leaves the exit status alone (%d, %s)", rc, err);
	rc = child_on(NULL, 0, 0, err, sizeof err);
	CHECK(rc == 0 && !*err, "stdout closed but never written: no complaint (%d, %s)", rc, err);
	rc = child_on_closed_pipe(err, sizeof err);
	CHECK(rc == 1 && strstr(err, "cyclesoak: write to stdout: Broken pipe"),
	      "a pipe with no reader (SIGPIPE ignored): one line, exit 1 (%d, %s)", rc, err);
	return t_exit();
}
