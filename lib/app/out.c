#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/out.h"
#include "base/utf8.h"

static const char *out_program = "";
static int out_as_json;
static int out_errno;		/* the first failed write's errno, 0: none */

/* The object being built: written in one piece by out_end. */
static char *line;
static size_t line_len, line_cap;
static int line_oom;

/*
 * A line goes out in one write(2) as long as it fits the buffer, so that
 * lines from zcs's connection processes, which share stdout, never tear.
 */
static char stdout_buf[1 << 16];

void out_init(const char *program, int json)
{
	static int buffered;

	out_program = program ? program : "";
	out_as_json = json;
	if (!buffered++)	/* before any output: only the first time */
		setvbuf(stdout, stdout_buf, _IOLBF, sizeof stdout_buf);
}

int out_json(void)
{
	return out_as_json;
}

static int grow(size_t more)
{
	size_t cap = line_cap ? line_cap : 256;
	char *p;

	if (line_oom)
		return -1;
	while (cap - line_len < more + 1)
		cap *= 2;
	if (cap == line_cap)
		return 0;
	p = realloc(line, cap);
	if (!p) {
		line_oom = 1;
		return -1;
	}
	line = p;
	line_cap = cap;
	return 0;
}

static void vadd(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static void vadd(const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n >= 0 && grow((size_t)n) == 0) {
		vsnprintf(line + line_len, line_cap - line_len, fmt, again);
		line_len += (size_t)n;
	}
	va_end(again);
}

static void add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void add(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(fmt, ap);
	va_end(ap);
}

/*
 * A JSON string (RFC 8259): quote, backslash and control characters
 * escaped; a byte that is not part of valid UTF-8 (a file name can hold
 * anything) becomes U+FFFD, so the line stays valid JSON.
 */
static void add_string(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	const unsigned char *end = p + strlen((const char *)p);
	size_t n;

	add("\"");
	while (*p) {
		if (*p == '"' || *p == '\\')
			add("\\%c", *p++);
		else if (*p == '\n')
			add("\\n"), p++;
		else if (*p == '\t')
			add("\\t"), p++;
		else if (*p == '\r')
			add("\\r"), p++;
		else if (*p < 0x20)
			add("\\u%04x", *p++);
		else if ((n = utf8_len(p, (size_t)(end - p))) == 0)
			add("\\ufffd"), p++;
		else
			add("%.*s", (int)n, (const char *)p), p += n;
	}
	add("\"");
}

/* A comma unless the key or element opens its object or array. */
static void add_comma(void)
{
	if (line_len && line[line_len - 1] != '{' && line[line_len - 1] != '[')
		add(",");
}

/* key NULL: an element of an array, no key. */
static void add_key(const char *key)
{
	add_comma();
	if (!key)
		return;
	add_string(key);
	add(":");
}

static void add_number(double v, int decimals)
{
	if (!isfinite(v)) {
		add("null");
		return;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 17)
		decimals = 17;
	add("%.*f", decimals, v);
}

void out_begin(const char *event)
{
	struct timespec now;

	line_len = 0;
	line_oom = 0;
	clock_gettime(CLOCK_REALTIME, &now);
	add("{\"program\":");
	add_string(out_program);
	add(",\"event\":");
	add_string(event);
	add(",\"time\":%lld.%06ld", (long long)now.tv_sec, now.tv_nsec / 1000);
}

void out_num(const char *key, double v, int decimals)
{
	add_key(key);
	add_number(v, decimals);
}

void out_u64(const char *key, uint64_t v)
{
	add_key(key);
	add("%" PRIu64, v);
}

void out_int(const char *key, long long v)
{
	add_key(key);
	add("%lld", v);
}

void out_str(const char *key, const char *s)
{
	add_key(key);
	add_string(s);
}

void out_bool(const char *key, int v)
{
	add_key(key);
	add(v ? "true" : "false");
}

void out_num_array(const char *key, const double *v, int n, int decimals)
{
	int i;

	add_key(key);
	add("[");
	for (i = 0; i < n; i++) {
		if (i)
			add(",");
		add_number(v[i], decimals);
	}
	add("]");
}

void out_object(const char *key)
{
	if (key)
		add_key(key);
	else
		add_comma();
	add("{");
}

void out_object_end(void)
{
	add("}");
}

void out_array(const char *key)
{
	add_key(key);
	add("[");
}

void out_array_end(void)
{
	add("]");
}

void out_null(const char *key)
{
	add_key(key);
	add("null");
}

/* Remember the first failure's reason; -1 with errno set to it. */
static int failed(int err)
{
	if (!out_errno)
		out_errno = err ? err : EIO;
	errno = out_errno;
	return -1;
}

int out_end(void)
{
	if (!out_as_json)
		return 0;
	add("}\n");
	if (line_oom)
		return failed(ENOMEM);
	errno = 0;
	if (fwrite(line, 1, line_len, stdout) != line_len || fflush(stdout) == EOF ||
	    ferror(stdout))
		return failed(errno);
	return 0;
}

int out_text(const char *fmt, ...)
{
	va_list ap;
	int rc;

	if (out_as_json)
		return 0;
	errno = 0;
	va_start(ap, fmt);
	rc = vfprintf(stdout, fmt, ap);
	va_end(ap);
	if (rc < 0 || ferror(stdout))
		return failed(errno);
	return 0;
}

/*
 * The line API. In JSON mode the out_* calls build the object; in text mode the
 * same buffer collects the text pieces, written by line_end in one piece.
 */
static const char *line_event;	/* NULL: a text-only line */
static int line_has_text;
#define LINE_AFTER_MAX 4
static struct {
	void (*text)(const void *);
	const void *arg;
} line_after[LINE_AFTER_MAX];
static int line_nafter;

void line_begin(const char *event)
{
	line_event = event;
	line_has_text = 0;
	line_nafter = 0;
	line_len = 0;
	line_oom = 0;
	if (out_as_json && event)
		out_begin(event);
}

/* In JSON mode the pieces of a text-only line go nowhere. */
static int json_field(const char *key)
{
	return out_as_json && line_event && key;
}

static int text_piece(const char *fmt)
{
	if (out_as_json || !fmt)
		return 0;
	line_has_text = 1;
	return 1;
}

void line_text(const char *fmt, ...)
{
	va_list ap;

	if (!text_piece(fmt))
		return;
	va_start(ap, fmt);
	vadd(fmt, ap);
	va_end(ap);
}

/* The formats are the caller's, one conversion for the one value. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
void line_u64(const char *key, uint64_t v, const char *fmt)
{
	if (json_field(key))
		out_u64(key, v);
	if (text_piece(fmt))
		add(fmt, v);
}

void line_int(const char *key, long long v, const char *fmt)
{
	if (json_field(key))
		out_int(key, v);
	if (text_piece(fmt))
		add(fmt, v);
}

void line_num(const char *key, double v, int decimals, const char *fmt)
{
	if (json_field(key))
		out_num(key, v, decimals);
	if (text_piece(fmt))
		add(fmt, v);
}

void line_str(const char *key, const char *s, const char *fmt)
{
	if (json_field(key))
		out_str(key, s);
	if (text_piece(fmt))
		add(fmt, s ? s : "");
}
#pragma GCC diagnostic pop

void line_bool(const char *key, int v, const char *text)
{
	if (json_field(key))
		out_bool(key, v);
	if (v && text_piece(text))
		add("%s", text);
}

void line_nested(void (*json)(const void *arg), void (*text)(const void *arg),
		 const void *arg)
{
	if (out_as_json) {
		if (line_event && json)
			json(arg);
	} else if (text && line_nafter < LINE_AFTER_MAX) {
		line_after[line_nafter].text = text;
		line_after[line_nafter++].arg = arg;
	}
}

int line_end(void)
{
	int i, rc = 0;

	if (out_as_json)
		return line_event ? out_end() : 0;
	if (line_has_text) {
		if (line_oom)
			return failed(ENOMEM);
		rc = out_text("%.*s\n", (int)line_len, line);
	}
	for (i = 0; i < line_nafter; i++)
		line_after[i].text(line_after[i].arg);
	line_nafter = 0;
	return rc;
}

int out_failed(void)
{
	errno = 0;
	if (fflush(stdout) == EOF || ferror(stdout))
		failed(errno);
	return out_errno != 0;
}

/*
 * At exit: stdout flushed, and a failure said and turned into exit 1.
 * Closing a duplicate of fd 1 reports what only a close can (a file
 * system that writes back at close, as NFS does) while leaving stdout
 * open for any exit handler that runs after this one. A stdout that was
 * never open (a program run with >&-) that printed nothing is no failure.
 */
static void check_stdout(void)
{
	const char *prog = *out_program ? out_program : program_invocation_short_name;
	int fd, last = errno;

	/*
	 * A failure out_text and out_end did not see (a usage text printed
	 * straight to stdout) left only the stream's error flag, and its
	 * errno is the one the failed write left, if nothing came after.
	 */
	if (out_failed() && out_errno == EIO && ferror(stdout) && last)
		out_errno = last;
	fd = dup(STDOUT_FILENO);
	if (fd >= 0 && close(fd) < 0 && !out_errno)
		failed(errno);
	if (!out_errno)
		return;
	fprintf(stderr, "%s: write to stdout: %s\n", prog, strerror(out_errno));
	_exit(1);
}

void out_check_at_exit(void)
{
	static int registered;

	/* A closed pipe is a write error to report, not a silent death:
	 * from the first line on, the help text included. */
	signal(SIGPIPE, SIG_IGN);
	if (!registered && atexit(check_stdout) == 0)
		registered = 1;
}
