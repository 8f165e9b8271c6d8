/*
 * An environment record (lib/app/env_out.h) read back from another run's
 * JSON, for zcc --baseline: the keys this build records, each unknown
 * where the old run had it null, missing or of another type.
 */
#ifndef ZC_ZCC_ENV_READ_H
#define ZC_ZCC_ENV_READ_H

#include "app/env_out.h"
#include "base/jsonl.h"

/*
 * env_from_json - the record an env event o holds (another run's, read
 * back): every key of the record, unknown where o has it null or not at
 * all or of another type.
 */
void env_from_json(struct env_record *r, const struct jsonl_obj *o);

/*
 * env_record_from_json - r's keys (set by its maker, types and all) from
 * the event o: unknown where o has a key null, missing or of another type.
 */
void env_record_from_json(struct env_record *r, const struct jsonl_obj *o);

#endif
