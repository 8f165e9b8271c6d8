/*
 * Another run's environment record read back (env_read.h).
 */
#include "zcc/env_read.h"

void env_record_from_json(struct env_record *r, const struct jsonl_obj *o)
{
	for (int i = 0; i < r->n; i++) {
		const struct jsonl_field *j = jsonl_get(o, r->f[i].key);

		r->f[i].known = 0;
		if (!j)
			continue;
		/* A number is kept as written, as its text. */
		if ((r->f[i].type == ENV_STR && j->type == JSONL_STR) ||
		    (r->f[i].type == ENV_NUM && j->type == JSONL_NUM))
			env_set_text(r, r->f[i].key, j->text);
		else if (r->f[i].type == ENV_BOOL && j->type == JSONL_BOOL)
			env_set_bool(r, r->f[i].key, j->boolean);
	}
}

void env_from_json(struct env_record *r, const struct jsonl_obj *o)
{
	env_record_init(r, NULL);
	env_record_from_json(r, o);
}
