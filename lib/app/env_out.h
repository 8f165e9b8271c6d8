/*
 * The environment record: what a figure depends on besides the method,
 * as the first JSON event of zcc, zcs and cyclesoak ("env"), and with -d
 * a "PROG: env: key value, ..." line on stderr beside the other debug
 * lines (stdout keeps the 2001 lines alone). The machine (lib/meter/env.h),
 * the network sysctls and, once a connection is known, its interface
 * (lib/wire/ifinfo.h). Each key is one field of the record; what could
 * not be read is null in JSON and "unknown" in text, never a guess.
 * zcc --baseline (lib/zcc/baseline.h) reads an earlier run's record back
 * into the same shape and names every key that differs.
 */
#ifndef ZC_APP_ENV_OUT_H
#define ZC_APP_ENV_OUT_H

#include "base/jsonl.h"

#define ENV_MAX_FIELDS 40

enum env_type { ENV_STR, ENV_NUM, ENV_BOOL };

struct env_field {
	const char *key;	/* the JSON key, also the name in text and diffs */
	enum env_type type;
	int known;		/* 0: null */
	char text[160];		/* ENV_STR: the text; ENV_NUM: the digits;
				 * ENV_BOOL: "on"/"off" ("yes"/"no" for virtual) */
};

struct env_record {
	int n;
	struct env_field f[ENV_MAX_FIELDS];
};

/* What to record: the machine always; the rest as the program has it. */
enum env_parts {
	ENV_MACHINE = 0,	/* cyclesoak */
	ENV_NET = 1,		/* the sysctls: zcs before any connection */
	ENV_CONN = 3,		/* the sysctls and the interface of a socket */
};

/*
 * env_early - read the machine's part now, before the program binds
 * itself to a CPU (-B), so that the allowed CPUs are the ones it was
 * given. env_print calls it when nobody did.
 */
void env_early(void);

/*
 * env_print - the record of parts (sock: the connection, for ENV_CONN;
 * its interface from its local address) as the env event with -J, or
 * with debug the env: line on stderr; nothing else in text mode. The
 * record is kept: env_last. A failed stdout is exit 1.
 */
void env_print(enum env_parts parts, int sock, int debug);

/* env_mptcp_asked - whether --mptcp was given, for the record's mptcp_asked. */
void env_mptcp_asked(int asked);

/* env_last - the record env_print printed last; NULL before. */
const struct env_record *env_last(void);

/* env_field_find, env_field_of - r's field of key (to read, to set), or NULL. */
const struct env_field *env_field_find(const struct env_record *r, const char *key);
struct env_field *env_field_of(struct env_record *r, const char *key);

/* env_value - the field's value as text and diffs show it ("unknown": null). */
const char *env_value(const struct env_field *f);

/*
 * env_record_init - r with the record's keys in order up to (not
 * including) stop (NULL: all of them), each of its type, all unknown.
 */
void env_record_init(struct env_record *r, const char *stop);

/*
 * env_set_text, env_set_bool - r's field key known, as the text s (a
 * number's digits too; NULL or empty: left unknown) or as the truth v
 * (below 0: left unknown); a key r lacks is ignored.
 */
void env_set_text(struct env_record *r, const char *key, const char *s);
void env_set_bool(struct env_record *r, const char *key, int v);

/* env_record_print - r as the JSON event of that name. A failed stdout: exit 1. */
void env_record_print(const char *event, const struct env_record *r);

/* env_field_json - f's value under key in the object being written (null: unknown). */
void env_field_json(const char *key, const struct env_field *f);

/*
 * env_then - fn is called after every env_print, so that a program's
 * record of its own settings follows the environment's (NULL: none).
 */
void env_then(void (*fn)(void));

#endif
