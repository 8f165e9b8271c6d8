#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/jsonl.h"

#define MAX_DEPTH 32

struct cursor {
	const char *s, *start;
	const char *why;	/* the first failure, NULL: none */
};

static void ws(struct cursor *c)
{
	while (*c->s == ' ' || *c->s == '\t' || *c->s == '\n' || *c->s == '\r')
		c->s++;
}

static int fail(struct cursor *c, const char *why)
{
	if (!c->why)
		c->why = why;
	return -1;
}

static int hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char h = p[i];

		*v <<= 4;
		if (h >= '0' && h <= '9')
			*v |= (unsigned)(h - '0');
		else if (h >= 'a' && h <= 'f')
			*v |= (unsigned)(h - 'a' + 10);
		else if (h >= 'A' && h <= 'F')
			*v |= (unsigned)(h - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

/* Append one code point as UTF-8 to out[*len], within cap (cut, not split). */
static void put_utf8(char *out, size_t cap, size_t *len, unsigned cp)
{
	unsigned char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (unsigned char)cp, n = 1;
	} else if (cp < 0x800) {
		b[0] = (unsigned char)(0xc0 | cp >> 6), n = 2;
	} else if (cp < 0x10000) {
		b[0] = (unsigned char)(0xe0 | cp >> 12), n = 3;
	} else {
		b[0] = (unsigned char)(0xf0 | cp >> 18), n = 4;
	}
	for (size_t i = 1; i < n; i++)
		b[i] = (unsigned char)(0x80 | ((cp >> (6 * (n - 1 - i))) & 0x3f));
	if (!out || *len + n >= cap)
		return;
	memcpy(out + *len, b, n);
	*len += n;
}

/* A string at c->s (its opening quote), unescaped into out (NULL: skip). */
static int string(struct cursor *c, char *out, size_t cap)
{
	size_t len = 0;
	unsigned cp, lo;

	if (*c->s != '"')
		return fail(c, "a string expected");
	c->s++;
	while (*c->s != '"') {
		unsigned char ch = (unsigned char)*c->s;

		if (ch == '\0')
			return fail(c, "a string not closed");
		if (ch < 0x20)
			return fail(c, "a control character in a string");
		if (ch != '\\') {
			if (out && len + 1 < cap)
				out[len++] = (char)ch;
			c->s++;
			continue;
		}
		c->s++;
		switch (*c->s) {
		case '"': case '\\': case '/': cp = (unsigned char)*c->s; break;
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'n': cp = '\n'; break;
		case 'r': cp = '\r'; break;
		case 't': cp = '\t'; break;
		case 'u':
			if (hex4(c->s + 1, &cp) < 0)
				return fail(c, "a bad \\u escape");
			c->s += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && c->s[1] == '\\' && c->s[2] == 'u' &&
			    hex4(c->s + 3, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				c->s += 6;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;	/* a lone surrogate */
			}
			break;
		default:
			return fail(c, "a bad escape in a string");
		}
		put_utf8(out, cap, &len, cp);
		c->s++;
	}
	c->s++;
	if (out)
		out[len] = '\0';
	return 0;
}

/* A number as RFC 8259 writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number(struct cursor *c, double *v, char *text, size_t cap)
{
	const char *p = c->s, *start = c->s;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return fail(c, "a value expected");
	if (*p == '.') {
		if (*++p < '0' || *p > '9')
			return fail(c, "a digit expected after '.'");
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return fail(c, "a digit expected in an exponent");
		while (*p >= '0' && *p <= '9')
			p++;
	}
	*v = strtod(start, NULL);
	if (text)
		snprintf(text, cap, "%.*s", (int)(p - start), start);
	c->s = p;
	return 0;
}

static int literal(struct cursor *c, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(c->s, word, n) != 0)
		return fail(c, "a value expected");
	c->s += n;
	return 0;
}

static int value(struct cursor *c, struct jsonl_field *f, int depth);

/* An object or array at c->s, checked and skipped. */
static int nested(struct cursor *c, int depth)
{
	char close = *c->s == '{' ? '}' : ']';

	if (depth >= MAX_DEPTH)
		return fail(c, "nested too deep");
	c->s++;
	ws(c);
	if (*c->s == close) {
		c->s++;
		return 0;
	}
	for (;;) {
		if (close == '}') {
			if (string(c, NULL, 0) < 0)
				return -1;
			ws(c);
			if (*c->s++ != ':')
				return fail(c, "':' expected");
			ws(c);
		}
		if (value(c, NULL, depth + 1) < 0)
			return -1;
		ws(c);
		if (*c->s == close) {
			c->s++;
			return 0;
		}
		if (*c->s++ != ',')
			return fail(c, "',' expected");
		ws(c);
	}
}

/* A value at c->s into f (NULL: check and skip). */
static int value(struct cursor *c, struct jsonl_field *f, int depth)
{
	struct jsonl_field skip;

	if (!f)
		f = &skip;
	switch (*c->s) {
	case '"':
		f->type = JSONL_STR;
		return string(c, f->text, sizeof(f->text));
	case '{':
	case '[':
		f->type = JSONL_NESTED;
		return nested(c, depth);
	case 't':
		f->type = JSONL_BOOL;
		f->boolean = 1;
		return literal(c, "true");
	case 'f':
		f->type = JSONL_BOOL;
		f->boolean = 0;
		return literal(c, "false");
	case 'n':
		f->type = JSONL_NULL;
		return literal(c, "null");
	default:
		f->type = JSONL_NUM;
		return number(c, &f->num, f->text, sizeof(f->text));
	}
}

int jsonl_parse(const char *line, struct jsonl_obj *o, char *err, size_t errlen)
{
	struct cursor c = { .s = line, .start = line };
	struct jsonl_field extra, *f;

	o->n = 0;
	ws(&c);
	if (*c.s != '{') {
		fail(&c, "not a JSON object");
		goto bad;
	}
	c.s++;
	ws(&c);
	if (*c.s == '}')
		c.s++;
	else
		for (;;) {
			f = o->n < JSONL_MAX_FIELDS ? &o->f[o->n] : &extra;
			if (string(&c, f->key, sizeof(f->key)) < 0)
				goto bad;
			ws(&c);
			if (*c.s++ != ':') {
				fail(&c, "':' expected");
				goto bad;
			}
			ws(&c);
			if (value(&c, f, 1) < 0)
				goto bad;
			if (f != &extra)
				o->n++;
			ws(&c);
			if (*c.s == '}') {
				c.s++;
				break;
			}
			if (*c.s++ != ',') {
				fail(&c, "',' or '}' expected");
				goto bad;
			}
			ws(&c);
		}
	ws(&c);
	if (*c.s == '\0')
		return 0;
	fail(&c, "more after the object");
bad:
	return err_fill(err, errlen, 0, "%s at column %zu", c.why,
			(size_t)(c.s - c.start) + 1);
}

const struct jsonl_field *jsonl_get(const struct jsonl_obj *o, const char *key)
{
	for (int i = 0; i < o->n; i++)
		if (strcmp(o->f[i].key, key) == 0)
			return &o->f[i];
	return NULL;
}

const char *jsonl_str(const struct jsonl_obj *o, const char *key)
{
	const struct jsonl_field *f = jsonl_get(o, key);

	return f && f->type == JSONL_STR ? f->text : NULL;
}

double jsonl_num(const struct jsonl_obj *o, const char *key)
{
	const struct jsonl_field *f = jsonl_get(o, key);

	return f && f->type == JSONL_NUM ? f->num : NAN;
}
