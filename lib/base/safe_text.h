/*
 * Untrusted text (an option value, a path, a host, a command name) made
 * safe for a one-line message: no newline to split it, no escape sequence
 * to reach the terminal, no unbounded length.
 */
#ifndef ZC_BASE_SAFE_TEXT_H
#define ZC_BASE_SAFE_TEXT_H

#include <stddef.h>

/* A buffer for safe_text(): up to 200 bytes of text, then "..." and the NUL. */
#define SAFE_LEN 204

/*
 * safe_text - s as it may appear in a message, written to buf (len bytes) and
 * returned. Printable ASCII and well-formed printable UTF-8 are kept;
 * control characters, DEL, the C1 controls and bytes that are not UTF-8
 * become \n, \t, \r, \e or \xNN, and a backslash becomes \\, so two
 * different texts never show alike (a name holding a newline and one
 * holding backslash-n). What does not fit in buf is cut at a whole
 * character or escape and "..." ends the text. A NULL s shows as "(null)".
 */
const char *safe_text(const char *s, char *buf, size_t len);

/*
 * safe_line - the same for a whole message made of values already shown
 * (safe_text) and text of the program's own: a backslash is kept, so the values
 * are not escaped twice, and showing the result again changes nothing.
 * A raw value in it still cannot split the line or reach the terminal.
 */
const char *safe_line(const char *s, char *buf, size_t len);

#endif
