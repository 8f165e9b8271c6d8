/*
 * Untrusted text (an option value, a path, a host, a command name) made
 * safe for a one-line message: no newline to split it, no escape sequence
 * to reach the terminal, no unbounded length.
 */
#ifndef ZC_SHOW_H
#define ZC_SHOW_H

#include <stddef.h>

/* A buffer for show(): up to 200 bytes of text, then "..." and the NUL. */
#define SHOW_LEN 204

/*
 * show - s as it may appear in a message, written to buf (len bytes) and
 * returned. Printable ASCII and well-formed printable UTF-8 are kept;
 * control characters, DEL, the C1 controls and bytes that are not UTF-8
 * become \n, \t, \r, \e or \xNN. What does not fit in buf is cut at a
 * whole character or escape and "..." ends the text. A NULL s shows as
 * "(null)". Showing shown text again changes nothing.
 */
const char *show(const char *s, char *buf, size_t len);

#endif
