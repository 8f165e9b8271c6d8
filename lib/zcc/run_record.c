/*
 * The settings record (run_record.h): its keys, and this run's values.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcc/run_record.h"
#include "zcc/compare.h"
#include "app/out.h"

/* The settings record's keys, then the receiver's record's (from "rx_"). */
static const struct {
	const char *key;
	enum env_type type;
} keys[] = {
	{ "methods", ENV_STR }, { "chunk_bytes", ENV_STR }, { "streams", ENV_NUM },
	{ "rate_bits_per_sec", ENV_NUM }, { "loops", ENV_NUM }, { "time_ms", ENV_NUM },
	{ "files", ENV_NUM }, { "file_bytes", ENV_NUM }, { "runs", ENV_NUM },
	{ "rx_method", ENV_STR }, { "rx_read_bytes", ENV_STR },
};
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))
#define N_SETTINGS (N_KEYS - 2)

static struct env_record now, rx_now;
static int armed;

/* r with keys[from..to), all unknown. */
static void init(struct env_record *r, size_t from, size_t to)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = from; i < to; i++) {
		r->f[r->n].key = keys[i].key;
		r->f[r->n++].type = keys[i].type;
	}
}

void run_record_init(struct env_record *r)
{
	init(r, 0, N_SETTINGS);
}

void run_record_rx_init(struct env_record *r)
{
	init(r, N_SETTINGS, N_KEYS);
}

int run_record_compared(const char *key)
{
	return strcmp(key, "runs") != 0;
}

static void set(struct env_record *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set(struct env_record *r, const char *key, const char *fmt, ...)
{
	struct env_field *f = env_field_of(r, key);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
	va_end(ap);
	f->known = 1;
}

/* Add item to the comma list in f's text unless it is there. */
static void add_item(struct env_field *f, const char *item)
{
	size_t len = strlen(item), used = strlen(f->text);

	for (const char *p = f->text; *p; p += strcspn(p, ","), p += *p == ',')
		if (strncmp(p, item, len) == 0 && (p[len] == ',' || !p[len]))
			return;
	snprintf(f->text + used, sizeof(f->text) - used, "%s%s", used ? "," : "", item);
	f->known = 1;
}

/* a before b in a receiver's list: sizes by number, names by name. */
static int before(const char *a, size_t alen, const char *b, int numeric)
{
	int c;

	if (numeric)
		return strtoull(a, NULL, 10) < strtoull(b, NULL, 10);
	c = strncmp(a, b, alen);
	return c < 0 || (c == 0 && alen < strlen(b));
}

/*
 * Add item to the comma list in f's text unless it is there, in order:
 * the receiver's reports come in whatever order its rotation gave, and
 * the same set must read the same in two runs.
 */
static void add_sorted(struct env_field *f, const char *item, int numeric)
{
	char text[sizeof(f->text)];
	size_t len = strlen(item), at;
	const char *p = f->text;

	for (; *p; p += strcspn(p, ","), p += *p == ',') {
		if (strncmp(p, item, len) == 0 && (p[len] == ',' || !p[len]))
			return;
		if (!before(p, strcspn(p, ","), item, numeric))
			break;
	}
	at = (size_t)(p - f->text);
	if (snprintf(text, sizeof(text), "%.*s%s%s%s%s", (int)at, f->text,
		     at ? (*p ? "" : ",") : "", item, *p ? "," : "", p) >= (int)sizeof(text))
		return;		/* no room: the list as it was, never a cut item */
	memcpy(f->text, text, sizeof(text));
	f->known = 1;
}

void run_record_rx_add(struct env_record *r, const char *method, uint64_t read_bytes)
{
	char size[24];

	snprintf(size, sizeof(size), "%" PRIu64, read_bytes);
	add_sorted(env_field_of(r, "rx_method"), method, 0);
	add_sorted(env_field_of(r, "rx_read_bytes"), size, 1);
}

void run_record_rx(const char *method, uint64_t read_bytes)
{
	run_record_rx_add(&rx_now, method, read_bytes);
}

static void print(void)
{
	if (out_json())
		env_record_print("settings", &now);
}

void run_record_arm(const struct variants *vs, const struct send_cfg *c, uint32_t loops,
		    double rate, unsigned runs, const struct file_set *files)
{
	char size[24];

	run_record_init(&now);
	run_record_rx_init(&rx_now);
	for (unsigned i = 0; i < vs->n; i++) {
		snprintf(size, sizeof(size), "%zu", vs->v[i].chunk);
		add_item(env_field_of(&now, "methods"),
			 vs->v[i].method->name);
		add_item(env_field_of(&now, "chunk_bytes"), size);
	}
	set(&now, "streams", "%u", c->streams);
	set(&now, "rate_bits_per_sec", "%.0f", rate);
	set(&now, "loops", "%" PRIu32, c->secs > 0 ? 0 : loops);
	set(&now, "time_ms", "%lld", c->secs > 0 ? llround(c->secs * 1000) : 0);
	set(&now, "files", "%" PRIu32, files->n);
	set(&now, "file_bytes", "%" PRIu64, files->bytes);
	set(&now, "runs", "%u", runs);
	armed = 1;
	env_then(print);
}

const struct env_record *run_record_last(void)
{
	return armed ? &now : NULL;
}

const struct env_record *run_record_rx_last(void)
{
	return armed ? &rx_now : NULL;
}
