/*
 * jsoncheck - a strict checker of JSON Lines (RFC 8259), for the tests and
 * the bench: the project depends on nothing beyond libc, so the -J output
 * is checked by this rather than by a JSON library.
 *
 *	jsoncheck [-k KEY]... [-E EVENT] [-g KEY | -s PREFIX] [FILE]
 *
 * Every non-empty line of FILE (default stdin) must be exactly one JSON
 * object: no trailing commas, no NaN or Infinity, no leading zeros, valid
 * escapes and UTF-8 (no lone surrogates), no duplicate keys at any depth,
 * nothing after the object but white space. -E EVENT keeps only the lines
 * whose "event" is the string EVENT (the others are still checked); -k KEY
 * requires the key at the top of every kept line; -g KEY prints each kept
 * line's value of KEY, one per line (a string decoded, anything else as
 * written), and a kept line without it is an error. -s PREFIX prints each
 * kept line as one line of shell assignments, PREFIXPATH=VALUE, one for
 * every number, string, true, false and null in it (at any depth), so that
 * `eval "$(jsoncheck -E load -s x_ FILE | tail -n 1)"` sets x_load_pct,
 * x_class_pct_user, x_cpus_0_cpu and so on: PATH is the keys and array
 * indexes down to the value joined by _ (a byte of a key that may not be in
 * a shell name becomes _ too), a string single-quoted (a control character
 * in it becomes a space), anything else as written.
 *
 * Exit 0: valid; 1: not (one line: "jsoncheck: NAME:LINE:COLUMN: why");
 * 2: a usage error or a file that cannot be read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/utf8.h"

#define MAX_DEPTH 64
#define MAX_KEYS 16

struct text {
	char *s;
	size_t n, cap;
};

struct key {
	struct text name;
	size_t value, value_end;	/* where its value's text starts, ends */
};

struct keys {
	struct key *k;
	size_t n, cap;
};

struct line {
	const unsigned char *s;
	size_t n, pos;
	const char *why;
	char why_buf[128];
	int depth;
};

static int parse_value(struct line *l);

static int fail(struct line *l, const char *why)
{
	if (!l->why)
		l->why = why;
	return -1;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "jsoncheck: out of memory\n");
		exit(2);
	}
	return p;
}

static void text_add(struct text *t, const void *p, size_t n)
{
	if (t->n + n + 1 > t->cap) {
		t->cap = (t->n + n + 1) * 2;
		t->s = xrealloc(t->s, t->cap);
	}
	memcpy(t->s + t->n, p, n);
	t->n += n;
	t->s[t->n] = '\0';
}

static int peek(const struct line *l)
{
	return l->pos < l->n ? l->s[l->pos] : -1;
}

static void skip_ws(struct line *l)
{
	while (l->pos < l->n && strchr(" \t\r\n", l->s[l->pos]) && l->s[l->pos])
		l->pos++;
}

static void add_utf8(struct text *t, unsigned long c)
{
	unsigned char b[4];
	size_t n;

	if (c < 0x80)
		b[0] = (unsigned char)c, n = 1;
	else if (c < 0x800)
		b[0] = 0xc0 | c >> 6, b[1] = 0x80 | (c & 0x3f), n = 2;
	else if (c < 0x10000)
		b[0] = 0xe0 | c >> 12, b[1] = 0x80 | (c >> 6 & 0x3f),
		b[2] = 0x80 | (c & 0x3f), n = 3;
	else
		b[0] = 0xf0 | c >> 18, b[1] = 0x80 | (c >> 12 & 0x3f),
		b[2] = 0x80 | (c >> 6 & 0x3f), b[3] = 0x80 | (c & 0x3f), n = 4;
	text_add(t, b, n);
}

static int hex4(struct line *l, unsigned long *c)
{
	int i, d;

	*c = 0;
	for (i = 0; i < 4; i++) {
		d = peek(l);
		if (d >= '0' && d <= '9')
			d -= '0';
		else if (d >= 'a' && d <= 'f')
			d -= 'a' - 10;
		else if (d >= 'A' && d <= 'F')
			d -= 'A' - 10;
		else
			return fail(l, "\\u needs four hex digits");
		*c = *c << 4 | (unsigned long)d;
		l->pos++;
	}
	return 0;
}

/* After the backslash: one escape, decoded into t. */
static int parse_escape(struct line *l, struct text *t)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	unsigned long c, low;
	const char *p;
	int e = peek(l);

	if (e > 0 && e != 'u' && (p = strchr(from, e))) {
		l->pos++;
		text_add(t, &to[p - from], 1);
		return 0;
	}
	if (e != 'u')
		return fail(l, "invalid escape");
	l->pos++;
	if (hex4(l, &c) < 0)
		return -1;
	if (c >= 0xdc00 && c <= 0xdfff)
		return fail(l, "a low surrogate with no high one before it");
	if (c >= 0xd800 && c <= 0xdbff) {
		if (peek(l) != '\\' || l->pos + 1 >= l->n || l->s[l->pos + 1] != 'u')
			return fail(l, "a high surrogate with no low one after it");
		l->pos += 2;
		if (hex4(l, &low) < 0)
			return -1;
		if (low < 0xdc00 || low > 0xdfff)
			return fail(l, "a high surrogate with no low one after it");
		c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
	}
	add_utf8(t, c);
	return 0;
}

/* A string at pos, its decoded bytes in t. */
static int parse_string(struct line *l, struct text *t)
{
	size_t n;
	int c;

	t->n = 0;
	text_add(t, "", 0);
	if (peek(l) != '"')
		return fail(l, "expected a string");
	l->pos++;
	for (;;) {
		c = peek(l);
		if (c < 0)
			return fail(l, "unterminated string");
		if (c == '"') {
			l->pos++;
			return 0;
		}
		if (c == '\\') {
			l->pos++;
			if (parse_escape(l, t) < 0)
				return -1;
		} else if (c < 0x20) {
			return fail(l, "a control character in a string (escape it)");
		} else if (c < 0x80) {
			text_add(t, l->s + l->pos++, 1);
		} else if ((n = utf8_len(l->s + l->pos, l->n - l->pos)) == 0) {
			return fail(l, "invalid UTF-8");
		} else {
			text_add(t, l->s + l->pos, n);
			l->pos += n;
		}
	}
}

static int digits(struct line *l)
{
	size_t start = l->pos;

	while (peek(l) >= '0' && peek(l) <= '9')
		l->pos++;
	return l->pos > start ? 0 : fail(l, "expected a digit");
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int parse_number(struct line *l)
{
	if (peek(l) == '-')
		l->pos++;
	if (peek(l) == '0') {
		l->pos++;
		if (peek(l) >= '0' && peek(l) <= '9')
			return fail(l, "a leading zero");
	} else if (digits(l) < 0) {
		return -1;
	}
	if (peek(l) == '.') {
		l->pos++;
		if (digits(l) < 0)
			return -1;
	}
	if (peek(l) == 'e' || peek(l) == 'E') {
		l->pos++;
		if (peek(l) == '+' || peek(l) == '-')
			l->pos++;
		if (digits(l) < 0)
			return -1;
	}
	return 0;
}

static int parse_word(struct line *l, const char *word)
{
	size_t n = strlen(word);

	if (l->n - l->pos < n || memcmp(l->s + l->pos, word, n) != 0)
		return fail(l, "expected a value");
	l->pos += n;
	return 0;
}

static void keys_free(struct keys *ks)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		free(ks->k[i].name.s);
	free(ks->k);
	ks->k = NULL;
	ks->n = ks->cap = 0;
}

static int parse_key(struct line *l, struct keys *ks)
{
	struct key k = { 0 };
	size_t i, at = l->pos;

	if (parse_string(l, &k.name) < 0) {
		free(k.name.s);
		return -1;
	}
	for (i = 0; i < ks->n; i++) {
		if (ks->k[i].name.n == k.name.n &&
		    memcmp(ks->k[i].name.s, k.name.s, k.name.n) == 0) {
			snprintf(l->why_buf, sizeof l->why_buf, "duplicate key \"%.60s\"", k.name.s);
			free(k.name.s);
			l->pos = at;
			return fail(l, l->why_buf);
		}
	}
	if (ks->n == ks->cap) {
		ks->cap = ks->cap ? ks->cap * 2 : MAX_KEYS;
		ks->k = xrealloc(ks->k, ks->cap * sizeof *ks->k);
	}
	ks->k[ks->n++] = k;
	return 0;
}

/* An object at pos; its keys and where their values are, in ks. */
static int parse_object(struct line *l, struct keys *ks)
{
	struct key *k;

	if (peek(l) != '{')
		return fail(l, "expected an object");
	l->pos++;
	skip_ws(l);
	if (peek(l) == '}') {
		l->pos++;
		return 0;
	}
	for (;;) {
		skip_ws(l);
		if (peek(l) == '}')
			return fail(l, "a trailing comma");
		if (parse_key(l, ks) < 0)
			return -1;
		skip_ws(l);
		if (peek(l) != ':')
			return fail(l, "expected ':'");
		l->pos++;
		skip_ws(l);
		k = &ks->k[ks->n - 1];
		k->value = l->pos;
		if (parse_value(l) < 0)
			return -1;
		k->value_end = l->pos;
		skip_ws(l);
		if (peek(l) == '}') {
			l->pos++;
			return 0;
		}
		if (peek(l) != ',')
			return fail(l, "expected ',' or '}'");
		l->pos++;
	}
}

static int parse_array(struct line *l)
{
	l->pos++;
	skip_ws(l);
	if (peek(l) == ']') {
		l->pos++;
		return 0;
	}
	for (;;) {
		skip_ws(l);
		if (peek(l) == ']')
			return fail(l, "a trailing comma");
		if (parse_value(l) < 0)
			return -1;
		skip_ws(l);
		if (peek(l) == ']') {
			l->pos++;
			return 0;
		}
		if (peek(l) != ',')
			return fail(l, "expected ',' or ']'");
		l->pos++;
	}
}

static int parse_value(struct line *l)
{
	struct keys ks = { 0 };
	struct text t = { 0 };
	int c = peek(l), rc;

	if (++l->depth > MAX_DEPTH)
		return fail(l, "nested too deep");
	if (c == '{') {
		rc = parse_object(l, &ks);
		keys_free(&ks);
	} else if (c == '[') {
		rc = parse_array(l);
	} else if (c == '"') {
		rc = parse_string(l, &t);
		free(t.s);
	} else if (c == '-' || (c >= '0' && c <= '9')) {
		rc = parse_number(l);
	} else if (c == 't') {
		rc = parse_word(l, "true");
	} else if (c == 'f') {
		rc = parse_word(l, "false");
	} else if (c == 'n') {
		rc = parse_word(l, "null");
	} else {
		rc = fail(l, c < 0 ? "expected a value, found the end of the line"
				   : "expected a value");
	}
	l->depth--;
	return rc;
}

static const struct key *find(const struct keys *ks, const char *name)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		if (strlen(name) == ks->k[i].name.n && strcmp(ks->k[i].name.s, name) == 0)
			return &ks->k[i];
	return NULL;
}

/* A string value already checked, decoded into t. */
static void decode_value(const struct line *l, const struct key *k, struct text *t)
{
	struct line v = *l;

	v.pos = k->value;
	parse_string(&v, t);
}

struct want {
	const char *keys[32];
	int nkeys;
	const char *event;	/* -E */
	const char *get;	/* -g */
	const char *prefix;	/* -s */
};

/* -s: PATH=VALUE words for the value at l->pos (checked already). */
static void put_shell(struct line *l, const char *prefix, struct text *path, int *words)
{
	size_t at = path->n, i;
	struct text t = { 0 };
	int open = peek(l), close = open == '{' ? '}' : ']';
	char num[24];

	if (open == '{' || open == '[') {
		l->pos++;
		for (i = 0;; i++) {
			skip_ws(l);
			if (peek(l) == close)
				break;
			path->n = at;
			text_add(path, "_", at > 0);
			if (open == '{') {
				parse_string(l, &t);
				for (size_t j = 0; j < t.n; j++)
					if (!t.s[j] || !strchr("abcdefghijklmnopqrstuvwxyz"
						    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", t.s[j]))
						t.s[j] = '_';
				text_add(path, t.s, t.n);
				skip_ws(l);
				l->pos++;	/* the colon */
				skip_ws(l);
			} else {
				snprintf(num, sizeof num, "%zu", i);
				text_add(path, num, strlen(num));
			}
			put_shell(l, prefix, path, words);
			skip_ws(l);
			if (peek(l) == ',')
				l->pos++;
		}
		l->pos++;
		path->n = at;
		if (path->s)
			path->s[at] = '\0';
		free(t.s);
		return;
	}
	printf("%s%s%s=", (*words)++ ? " " : "", prefix, path->s ? path->s : "");
	if (open != '"') {
		size_t start = l->pos;

		while (l->pos < l->n && !strchr(",]} \t\r\n", l->s[l->pos]))
			l->pos++;
		printf("%.*s", (int)(l->pos - start), l->s + start);
		return;
	}
	parse_string(l, &t);
	putchar('\'');
	for (i = 0; i < t.n; i++) {
		unsigned char c = (unsigned char)t.s[i];

		if (c == '\'')
			fputs("'\\''", stdout);
		else
			putchar(c < 0x20 ? ' ' : c);
	}
	putchar('\'');
	free(t.s);
}

/* A kept line's -k and -g; 0, or -1 with l->why set. */
static int use_line(struct line *l, const struct keys *ks, const struct want *w)
{
	const struct key *k;
	struct text t = { 0 };
	int i;

	for (i = 0; i < w->nkeys; i++) {
		if (!find(ks, w->keys[i])) {
			snprintf(l->why_buf, sizeof l->why_buf, "no key \"%s\"", w->keys[i]);
			return fail(l, l->why_buf);
		}
	}
	if (w->prefix) {
		struct line v = *l;
		struct text path = { 0 };
		int words = 0;

		v.pos = 0;
		skip_ws(&v);
		put_shell(&v, w->prefix, &path, &words);
		putchar('\n');
		free(path.s);
		return 0;
	}
	if (!w->get)
		return 0;
	k = find(ks, w->get);
	if (!k) {
		snprintf(l->why_buf, sizeof l->why_buf, "no key \"%s\"", w->get);
		return fail(l, l->why_buf);
	}
	if (l->s[k->value] != '"') {
		printf("%.*s\n", (int)(k->value_end - k->value), l->s + k->value);
		return 0;
	}
	decode_value(l, k, &t);
	fwrite(t.s, 1, t.n, stdout);
	putchar('\n');
	free(t.s);
	return 0;
}

/* 1: the line is kept by -E (its "event" is that string). */
static int kept(const struct line *l, const struct keys *ks, const struct want *w)
{
	const struct key *k;
	struct text t = { 0 };
	int same;

	if (!w->event)
		return 1;
	k = find(ks, "event");
	if (!k || l->s[k->value] != '"')
		return 0;
	decode_value(l, k, &t);
	same = t.n == strlen(w->event) && strcmp(t.s, w->event) == 0;
	free(t.s);
	return same;
}

static int check_line(struct line *l, const struct want *w)
{
	struct keys ks = { 0 };
	int rc = -1;

	skip_ws(l);
	if (parse_object(l, &ks) == 0) {
		skip_ws(l);
		if (l->pos < l->n)
			fail(l, "text after the object");
		else if (!kept(l, &ks, w))
			rc = 0;
		else
			rc = use_line(l, &ks, w);
	}
	keys_free(&ks);
	return l->why ? -1 : rc;
}

static void usage(FILE *f, int status)
{
	fputs("usage: jsoncheck [-k KEY]... [-E EVENT] [-g KEY | -s PREFIX] [FILE]\n"
	      "  every non-empty line must be one JSON object (RFC 8259, strict)\n"
	      "  -k KEY    every kept line must have KEY (repeat for more)\n"
	      "  -E EVENT  keep only the lines whose \"event\" is EVENT\n"
	      "  -g KEY    print each kept line's value of KEY, one per line\n"
	      "  -s PREFIX print each kept line as shell assignments on one line,\n"
	      "            PREFIXPATH=VALUE for every value in it (PATH: keys and\n"
	      "            array indexes joined by _), strings single-quoted\n"
	      "exit status: 0 valid, 1 not (NAME:LINE:COLUMN: why), 2 usage error\n"
	      "or unreadable file\n", f);
	exit(status);
}

int main(int argc, char **argv)
{
	struct want w = { .nkeys = 0 };
	const char *name = "stdin";
	FILE *in = stdin;
	char *buf = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;
	int c;

	while ((c = getopt(argc, argv, ":hk:E:g:s:")) != -1) {
		switch (c) {
		case 'h': usage(stdout, 0); break;
		case 'k':
			if (w.nkeys == (int)(sizeof w.keys / sizeof w.keys[0]))
				usage(stderr, 2);
			w.keys[w.nkeys++] = optarg;
			break;
		case 'E': w.event = optarg; break;
		case 'g': w.get = optarg; break;
		case 's':
			if (!*optarg || strspn(optarg, "abcdefghijklmnopqrstuvwxyz"
					       "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") != strlen(optarg))
				usage(stderr, 2);
			w.prefix = optarg;
			break;
		default: usage(stderr, 2);
		}
	}
	if (argc - optind > 1 || (w.get && w.prefix))
		usage(stderr, 2);
	if (optind < argc && strcmp(argv[optind], "-") != 0) {
		name = argv[optind];
		in = fopen(name, "r");
		if (!in) {
			fprintf(stderr, "jsoncheck: %s: %s\n", name, strerror(errno));
			return 2;
		}
	}
	while ((n = getline(&buf, &cap, in)) > 0) {
		struct line l = { .s = (unsigned char *)buf, .n = (size_t)n };

		lineno++;
		if (l.s[l.n - 1] == '\n')
			l.n--;
		if (l.n == 0)
			continue;
		if (check_line(&l, &w) < 0) {
			fflush(stdout);
			fprintf(stderr, "jsoncheck: %s:%zu:%zu: %s\n", name, lineno,
				l.pos + 1, l.why);
			free(buf);
			return 1;
		}
	}
	free(buf);
	if (ferror(in)) {
		fprintf(stderr, "jsoncheck: %s: %s\n", name, strerror(errno));
		return 2;
	}
	if (fflush(stdout) == EOF) {
		fprintf(stderr, "jsoncheck: write to stdout: %s\n", strerror(errno));
		return 2;
	}
	return 0;
}
