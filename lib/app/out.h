/*
 * What the programs print on stdout: the 2001 text lines, or in JSON mode one
 * JSON object per line (JSON Lines). Every object has "program", "event"
 * and "time" (Unix seconds, fractional) and then the figures as numbers,
 * their units in the keys ("bytes", "seconds", "kbytes_per_sec",
 * "load_pct", "service_demand_us_per_kb"). Diagnostics stay text on stderr.
 * A program describes each line once with line_* (below), which makes the
 * text or the JSON from it; out_* are the pieces line_* writes with, for
 * the few places that build one form alone (a nested array, a table).
 *
 * stdout is line buffered; a line that cannot be written (a full disk, a
 * closed pipe) makes out_end / out_text return -1 with errno set, and
 * out_failed() stays true, so the program says so and exits 1. Not thread
 * safe between out_begin and out_end: one thread builds an object at a time.
 */
#ifndef ZC_APP_OUT_H
#define ZC_APP_OUT_H

#include <stdint.h>

/* out_init - the program's name for "program"; json: JSON lines wanted. */
void out_init(const char *program, int json);
int out_json(void);

/* One JSON object: begin, fields in order, end (writes the line). A key
 * NULL is an element of the array out_array opened (below). */
void out_begin(const char *event);
void out_num(const char *key, double v, int decimals);	/* NAN/inf: null */
void out_u64(const char *key, uint64_t v);
void out_int(const char *key, long long v);
void out_str(const char *key, const char *s);		/* escaped */
void out_bool(const char *key, int v);
void out_num_array(const char *key, const double *v, int n, int decimals);
int out_end(void);

/*
 * A line described once: one list of calls makes both the 2001 text line
 * and the JSON object, so the two cannot drift apart. Each figure has its
 * JSON key (NULL: the text only) and its text form, a printf format for
 * that one value (NULL: the JSON only); line_text adds text alone.
 *
 *	line_begin("done");
 *	line_text("done: ");
 *	line_u64("bytes", bytes, "%" PRIu64 " bytes");
 *	line_num("seconds", secs, 3, " in %.3f s");
 *	line_end();
 *
 * prints "done: 123 bytes in 1.000 s" or {...,"event":"done","bytes":123,
 * "seconds":1.000}. A line with no text piece prints nothing in text mode;
 * line_begin(NULL) is a text line with no JSON event. line_bool prints its
 * text only when v is true. line_nested adds what another module prints:
 * json() inside the object, or text() after the text line. line_end returns
 * what out_end or out_text does.
 */
void line_begin(const char *event);
void line_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void line_u64(const char *key, uint64_t v, const char *fmt);
void line_int(const char *key, long long v, const char *fmt);
void line_num(const char *key, double v, int decimals, const char *fmt);
void line_str(const char *key, const char *s, const char *fmt);
void line_bool(const char *key, int v, const char *text);
void line_nested(void (*json)(const void *arg), void (*text)(const void *arg),
		 const void *arg);
int line_end(void);

/*
 * Nested values: out_object(key) ... out_object_end(), out_array(key) ...
 * out_array_end(); inside an array, out_object(NULL) opens an element.
 */
void out_object(const char *key);
void out_object_end(void);
void out_array(const char *key);
void out_array_end(void);
void out_null(const char *key);

/* A text line (printf-style) in text mode; nothing in JSON mode. */
int out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Has any write to stdout failed? (also checks and flushes stdout) */
int out_failed(void);

/*
 * out_check_at_exit - call once at the start of main: SIGPIPE is ignored
 * from then on (a closed pipe is a write error like any other), at exit stdout is
 * flushed (and a duplicate of it closed, for errors only a close reports),
 * and if any write to it failed (a full disk, a closed pipe: the programs
 * ignore SIGPIPE) "prog: write to stdout: why" goes to stderr and the exit
 * status becomes 1. Calling it again does nothing.
 * opt_common calls it, so --help and --version are covered too.
 */
void out_check_at_exit(void);

#endif
