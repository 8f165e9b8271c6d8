#include <string.h>

#include "app/optab.h"

/* -h lines end by this column; the help text starts at most at HELP_COL_MAX. */
#define LINE_WIDTH 79
#define HELP_COL_MAX 28

int optab_build(struct optab_parser *p, const struct optab *rows, const char *mode,
		const char **why)
{
	size_t len = strlen(mode);	/* "+", "-" or "" */
	char *s;
	int n;

	memset(p, 0, sizeof(*p));
	p->rows = rows;
	if (len > 1) {
		*why = "a mode of more than one character";
		return -1;
	}
	s = p->shortopts;
	memcpy(s, mode, len);
	s += len;
	*s++ = ':';
	for (n = 0; rows[n].name; n++) {
		const struct optab *r = &rows[n];

		if (n == OPTAB_MAX) {
			*why = "more options than OPTAB_MAX";
			return -1;
		}
		if (optab_find(rows, r->key) != r) {
			*why = "a key given twice";
			return -1;
		}
		for (int j = 0; j < n; j++)
			if (strcmp(rows[j].name, r->name) == 0) {
				*why = "a long name given twice";
				return -1;
			}
		p->longopts[n] = (struct option){
			.name = r->name,
			.has_arg = r->value ? required_argument : no_argument,
			.val = r->key,
		};
		if (r->key > ' ' && r->key < 127 && r->key != ':') {
			*s++ = (char)r->key;
			if (r->value)
				*s++ = ':';
		}
	}
	*s = '\0';
	return 0;
}

const struct optab *optab_find(const struct optab *rows, int key)
{
	for (; rows->name; rows++)
		if (rows->key == key)
			return rows;
	return NULL;
}

void optab_note(struct optab_parser *p, int key)
{
	const struct optab *r = p->rows ? optab_find(p->rows, key) : NULL;

	if (r)
		p->given[r - p->rows] = 1;
}

int optab_given(const struct optab_parser *p, int key)
{
	const struct optab *r = p->rows ? optab_find(p->rows, key) : NULL;

	return r ? p->given[r - p->rows] : 0;
}

int optab_matches(const struct optab *rows, const char *name, size_t len,
		  const struct optab **exact)
{
	int n = 0;

	if (exact)
		*exact = NULL;
	for (; rows->name; rows++) {
		if (strncmp(rows->name, name, len) != 0)
			continue;
		n++;
		if (exact && rows->name[len] == '\0')
			*exact = rows;
	}
	return n;
}

/* "-s, --server HOST" or "    --version HOST", into buf. */
static size_t left_part(const struct optab *r, char *buf, size_t len)
{
	int n;

	if (r->key > ' ' && r->key < 127)
		n = snprintf(buf, len, "  -%c, --%s%s%s", r->key, r->name,
			     r->value ? " " : "", r->value ? r->value : "");
	else
		n = snprintf(buf, len, "      --%s%s%s", r->name,
			     r->value ? " " : "", r->value ? r->value : "");
	return n < 0 ? 0 : (size_t)n;
}

/*
 * The text from col to LINE_WIDTH, the first line already at column at;
 * each '\n' in text starts a new line. A line that starts with spaces is
 * an example, printed as it is, never wrapped.
 */
static void wrapped(FILE *f, const char *text, size_t col, size_t at)
{
	int fresh = 1;	/* nothing on this line yet: no space before a word */

	while (*text) {
		size_t n;

		if (*text == '\n') {
			text++;
			n = *text == ' ' ? strcspn(text, "\n") : 0;
			fprintf(f, "\n%*s%.*s", (int)col, "", (int)n, text);
			at = col + n;
			text += n;
			fresh = 1;
			continue;
		}
		if (*text == ' ') {
			text++;
			continue;
		}
		n = strcspn(text, " \n");
		if (!fresh && at + 1 + n > LINE_WIDTH) {
			fprintf(f, "\n%*s", (int)col, "");
			at = col;
			fresh = 1;
		}
		if (!fresh) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", (int)n, text);
		at += n;
		text += n;
		fresh = 0;
	}
	fputc('\n', f);
}

void optab_help(FILE *f, const struct optab *rows)
{
	const struct optab *r;
	size_t col = 0, n;
	char left[128];

	for (r = rows; r->name; r++) {
		n = left_part(r, left, sizeof(left)) + 2;
		if (n > col && n <= HELP_COL_MAX)
			col = n;
	}
	for (r = rows; r->name; r++) {
		n = left_part(r, left, sizeof(left));
		fputs(left, f);
		if (n + 2 > col) {
			fprintf(f, "\n%*s", (int)col, "");
			n = col;
		}
		fprintf(f, "%*s", (int)(col - n), "");
		wrapped(f, r->help, col, col);
	}
}
