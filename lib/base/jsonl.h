/*
 * Reading back a line of JSON Lines as lib/app/out.h writes them: one
 * object whose values are mostly strings, numbers, true, false and null.
 * Keys are taken by name; nested objects and arrays are checked and kept
 * as a mark only (their insides are not needed by any reader yet). Not a
 * general JSON library: keys and strings longer than the fields below are
 * cut, and an object of more than JSONL_MAX_FIELDS keys keeps the first.
 */
#ifndef ZC_JSONL_H
#define ZC_JSONL_H

#include <stddef.h>

#define JSONL_MAX_FIELDS 96

enum jsonl_type { JSONL_NULL, JSONL_BOOL, JSONL_NUM, JSONL_STR, JSONL_NESTED };

struct jsonl_field {
	char key[48];
	enum jsonl_type type;
	int boolean;		/* JSONL_BOOL */
	double num;		/* JSONL_NUM */
	char text[256];		/* JSONL_STR: the string, unescaped (UTF-8);
				 * JSONL_NUM: the number as written */
};

struct jsonl_obj {
	int n;
	struct jsonl_field f[JSONL_MAX_FIELDS];
};

/*
 * jsonl_parse - the one JSON object of line (surrounding white space
 * allowed) into *o; -1 with err saying where it stops being one.
 */
int jsonl_parse(const char *line, struct jsonl_obj *o, char *err, size_t errlen);

/* jsonl_get - the field named key, or NULL. */
const struct jsonl_field *jsonl_get(const struct jsonl_obj *o, const char *key);

/* jsonl_str, jsonl_num - its string, its number; NULL, NAN when o has no
 * such key or its value is of another type. */
const char *jsonl_str(const struct jsonl_obj *o, const char *key);
double jsonl_num(const struct jsonl_obj *o, const char *key);

#endif
