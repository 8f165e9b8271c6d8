/*
 * The receiver's report line (rxreport.h): written, parsed, and read as
 * it comes with its time bound (the clock is the caller's, so the rules
 * are tested without waiting).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/rxreport.h"

#define MAGIC "zc-report"

/* fmt's words after the *used bytes of buf[len]: 0, or -1 when they do not fit. */
static int __attribute__((format(printf, 4, 5)))
append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *used)
		return -1;
	*used += (size_t)n;
	return 0;
}

int rxreport_format(char *buf, size_t len, const struct rxreport *r)
{
	size_t used = 0;

	if (len == 0 ||
	    append(buf, len, &used, MAGIC " %u method=%s read_bytes=%" PRIu64 " bytes=%" PRIu64
		   " seconds=%.6f own_us_per_kb=%.4f boot_id=%s", r->rr ? 2u : 1u, r->method,
		   r->read_bytes, r->bytes, r->seconds, r->own,
		   r->boot_id[0] ? r->boot_id : "-") < 0)
		return -1;
	if (r->metered &&
	    append(buf, len, &used, " load_pct=%.4f ncpus=%u service_demand_us_per_kb=%.6f",
		   r->load * 100, r->ncpus, r->demand) < 0)
		return -1;
	if (r->rr && append(buf, len, &used, " transactions=%" PRIu64, r->transactions) < 0)
		return -1;
	if (append(buf, len, &used, "\n") < 0)
		return -1;
	return (int)used;
}

/* The keys known here (version 1's, then version 2's), as bits of what was seen. */
enum { K_METHOD, K_READ, K_BYTES, K_SECS, K_OWN, K_BOOT, K_LOAD, K_NCPUS, K_DEMAND,
       K_TRANS, K_N };
static const char *const keys[K_N] = {
	"method", "read_bytes", "bytes", "seconds", "own_us_per_kb", "boot_id",
	"load_pct", "ncpus", "service_demand_us_per_kb", "transactions",
};

#define K_METER ((1u << K_LOAD) | (1u << K_NCPUS) | (1u << K_DEMAND))

/* v is digits (with one '.' where frac): its value in *x. */
static int number(const char *v, int frac, double *x)
{
	int dots = 0, digits = 0;

	for (const char *p = v; *p; p++) {
		if (*p == '.' && frac && !dots++)
			continue;
		if (*p < '0' || *p > '9')
			return -1;
		digits++;
	}
	if (!digits || digits > 20)
		return -1;
	*x = strtod(v, NULL);
	return 0;
}

/* v is a name: letters, digits, '-' and '_', at most len - 1 of them. */
static int name(const char *v, char *out, size_t len)
{
	size_t n = strlen(v);

	if (!n || n >= len || strspn(v, "abcdefghijklmnopqrstuvwxyz"
				      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != n)
		return -1;
	memcpy(out, v, n + 1);
	return 0;
}

/* One KEY=VALUE known here into r; -1 when its value is not one. */
static int value(struct rxreport *r, int k, const char *v)
{
	double x = 0;

	switch (k) {
	case K_METHOD: return name(v, r->method, sizeof(r->method));
	case K_BOOT: return name(v, r->boot_id, sizeof(r->boot_id));
	case K_READ: case K_BYTES: case K_NCPUS: case K_TRANS:
		if (number(v, 0, &x) < 0)
			return -1;
		if (k == K_READ)
			r->read_bytes = (uint64_t)x;
		else if (k == K_BYTES)
			r->bytes = (uint64_t)x;
		else if (k == K_TRANS)
			r->transactions = (uint64_t)x;
		else
			r->ncpus = x > 65536 ? 0 : (unsigned)x;
		return k == K_NCPUS && !r->ncpus ? -1 : 0;
	default:
		if (number(v, 1, &x) < 0)
			return -1;
		if (k == K_SECS)
			r->seconds = x;
		else if (k == K_OWN)
			r->own = x;
		else if (k == K_LOAD)
			r->load = x / 100;
		else
			r->demand = x;
		return 0;
	}
}

/* The words after the version, into r; seen: the keys met. */
static int words(char *s, struct rxreport *r, unsigned *seen, char *why, size_t whylen)
{
	char *save = NULL;

	for (char *w = strtok_r(s, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		int k;

		if (!eq || eq == w)
			return snprintf(why, whylen, "'%.40s' is not KEY=VALUE", w), -1;
		*eq = '\0';
		for (k = 0; k < K_N && strcmp(keys[k], w) != 0; k++)
			;
		if (k == K_N)
			continue;	/* a later version's key */
		if (*seen & (1u << k))
			return snprintf(why, whylen, "%s is given twice", w), -1;
		*seen |= 1u << k;
		if (value(r, k, eq + 1) < 0)
			return snprintf(why, whylen, "%s=%.40s is not a value", w, eq + 1), -1;
	}
	return 0;
}

int rxreport_parse(const char *s, size_t n, struct rxreport *r, char *why, size_t whylen)
{
	char copy[RXREPORT_MAX], *ver, *end;
	unsigned seen = 0;
	unsigned long v;

	memset(r, 0, sizeof(*r));
	if (n == 0 || n > RXREPORT_MAX || s[n - 1] != '\n')
		return snprintf(why, whylen, "not one line of text"), -1;
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] < ' ' || s[i] > '~')
			return snprintf(why, whylen, "not one line of text (byte %zu is %#x)",
					i + 1, (unsigned char)s[i]), -1;
	memcpy(copy, s, n - 1);
	copy[n - 1] = '\0';
	if (n < sizeof(MAGIC) + 2 || strncmp(copy, MAGIC " ", sizeof(MAGIC)) != 0 ||
	    strstr(copy, "  ") || copy[n - 2] == ' ')
		return snprintf(why, whylen, "not a zc-report line"), -1;
	ver = copy + sizeof(MAGIC);
	v = strtoul(ver, &end, 10);
	if (end == ver || (*end && *end != ' ') || v == 0 || v > 1000000 || *ver == '0')
		return snprintf(why, whylen, "no version"), -1;
	r->version = (unsigned)v;
	if (words(end, r, &seen, why, whylen) < 0)
		return -1;
	for (int k = 0; k < K_LOAD; k++)
		if (!(seen & (1u << k)))
			return snprintf(why, whylen, "no %s", keys[k]), -1;
	if ((seen & K_METER) && (seen & K_METER) != K_METER)
		return snprintf(why, whylen, "load_pct, ncpus and service_demand_us_per_kb "
				"come together"), -1;
	r->metered = (seen & K_METER) != 0;
	r->rr = (seen & (1u << K_TRANS)) != 0;
	if (r->rr && r->version < 2)
		return snprintf(why, whylen, "transactions in a version 1 line"), -1;
	return 0;
}

void rxreport_reader_init(struct rxreport_reader *rd, uint64_t bound_ns)
{
	memset(rd, 0, sizeof(*rd));
	rd->bound_ns = bound_ns;
}

void rxreport_take(struct rxreport_reader *rd, const void *b, size_t n, uint64_t now)
{
	const char *nl;
	size_t room;

	rxreport_tick(rd, now);		/* what comes after the bound is late */
	if (rd->state != RXR_WAITING) {
		if (rd->state == RXR_LINE && n)
			rd->state = RXR_EXTRA;
		return;
	}
	room = RXREPORT_MAX - rd->have;
	nl = memchr(b, '\n', n < room ? n : room);
	if (!nl) {
		memcpy(rd->line + rd->have, b, n < room ? n : room);
		rd->have += n < room ? n : room;
		if (rd->have == RXREPORT_MAX)
			rd->state = RXR_OVERSIZED;
		return;
	}
	memcpy(rd->line + rd->have, b, (size_t)(nl - (const char *)b) + 1);
	rd->have += (size_t)(nl - (const char *)b) + 1;
	rd->state = (size_t)(nl - (const char *)b) + 1 < n ? RXR_EXTRA : RXR_LINE;
}

void rxreport_delivered(struct rxreport_reader *rd, uint64_t now)
{
	if (!rd->delivered_ns)
		rd->delivered_ns = now ? now : 1;
}

void rxreport_tick(struct rxreport_reader *rd, uint64_t now)
{
	if (rd->state == RXR_WAITING && rd->delivered_ns &&
	    now > rd->delivered_ns + rd->bound_ns)
		rd->state = RXR_LATE;
}

int rxreport_due_ms(const struct rxreport_reader *rd, uint64_t now)
{
	uint64_t due = rd->delivered_ns + rd->bound_ns;

	if (rd->state != RXR_WAITING || !rd->delivered_ns)
		return -1;
	return now >= due ? 0 : (int)((due - now) / 1000000u) + 1;
}
