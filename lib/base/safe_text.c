#include <stdio.h>
#include <string.h>

#include "base/safe_text.h"
#include "base/utf8.h"

/*
 * One unit of s as shown: a kept character or an escape. Returns its
 * length. bs: a backslash is escaped too (safe_text), or kept (safe_line).
 */
static size_t unit(const unsigned char *s, size_t left, int bs, char out[4], size_t *used)
{
	size_t n = utf8_len(s, left);

	*used = 1;
	if (s[0] == '\\' && bs) {
		out[0] = out[1] = '\\';
		return 2;
	}
	if (s[0] >= ' ' && s[0] < 0x7f) {
		out[0] = (char)s[0];
		return 1;
	}
	/* C1 controls (U+0080..U+009F) act on some terminals as ESC does. */
	if (n > 1 && !(s[0] == 0xc2 && s[1] < 0xa0)) {
		memcpy(out, s, n);
		*used = n;
		return n;
	}
	out[0] = '\\';
	switch (s[0]) {
	case '\n': out[1] = 'n'; return 2;
	case '\t': out[1] = 't'; return 2;
	case '\r': out[1] = 'r'; return 2;
	case 0x1b: out[1] = 'e'; return 2;
	default: break;
	}
	out[1] = 'x';
	out[2] = "0123456789abcdef"[s[0] >> 4];
	out[3] = "0123456789abcdef"[s[0] & 0xf];
	return 4;
}

/* The length of p as shown, or more than limit when it is longer. */
static size_t shown_len(const unsigned char *p, size_t left, int bs, size_t limit)
{
	size_t total = 0, used;
	char u[4];

	while (left && total <= limit) {
		total += unit(p, left, bs, u, &used);
		p += used;
		left -= used;
	}
	return total;
}

/* s made safe into buf, unit by unit (bs: as unit's), cut with "..." to fit. */
static const char *made_safe(const char *s, int bs, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "(null)");
	size_t left = strlen((const char *)p), n = 0, k, used;
	char u[4];

	if (len == 0)
		return buf;
	while (left) {
		k = unit(p, left, bs, u, &used);
		/* Room for this unit and "...", or for all that is left. */
		if (n + k + 4 > len && n + shown_len(p, left, bs, len) + 1 > len) {
			if (n + 4 <= len)
				memcpy(buf + n, "...", 3), n += 3;
			break;
		}
		memcpy(buf + n, u, k);
		n += k;
		p += used;
		left -= used;
	}
	buf[n] = '\0';
	return buf;
}

const char *safe_text(const char *s, char *buf, size_t len)
{
	return made_safe(s, 1, buf, len);
}

const char *safe_line(const char *s, char *buf, size_t len)
{
	return made_safe(s, 0, buf, len);
}
