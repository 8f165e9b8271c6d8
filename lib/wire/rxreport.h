/*
 * The receiver's report: the one line zcs writes back on a connection
 * after the stream's end, and zcc reads when asked (--receiver-report).
 * The stream's bytes do not change; the 2001 programs never write it
 * (zcs) nor read it (zcc).
 *
 * The line, at most RXREPORT_MAX bytes with its newline, is ASCII words
 * parted by one space:
 *
 *	zc-report VERSION KEY=VALUE ... \n
 *
 * VERSION is a decimal number, the lowest whose keys the line holds; a
 * later version keeps version 1's keys and adds others, which a reader
 * of an earlier one ignores. The keys of version 1:
 *
 *	method=NAME            the receive method (read, discard, ...)
 *	read_bytes=N           its read size
 *	bytes=N                bytes counted, header words included
 *	seconds=S              from the first byte to the end of stream
 *	own_us_per_kb=X        the receiving process's CPU time per KB
 *	boot_id=ID             the receiving kernel's boot id, "-" unknown
 *	load_pct=P ncpus=N service_demand_us_per_kb=D
 *	                       the three together, when the receiver meters
 *
 * Version 2 adds, for a request/response connection (zcc --rr), whose
 * bytes are the requests' and seconds from the acknowledgement to the
 * client's end:
 *
 *	transactions=N         requests answered
 *
 * so the far end's CPU per transaction is load x CPUs x seconds / N, and
 * its own CPU time own_us_per_kb x bytes / 1024 us (netperf's service
 * demand for RR). A stream's report stays version 1.
 *
 * N is decimal digits, S, X, P and D digits with at most one '.', NAME
 * and ID letters, digits, '-' and '_'. Anything else, a key given twice,
 * a version 1 key missing, or a line that does not end where it should
 * is malformed.
 */
#ifndef ZC_WIRE_RXREPORT_H
#define ZC_WIRE_RXREPORT_H

#include <stddef.h>
#include <stdint.h>

#define RXREPORT_MAX 512	/* the line's bytes, its newline included */

/* What a report says. */
struct rxreport {
	unsigned version;
	char method[32];
	uint64_t read_bytes, bytes;
	double seconds, own;		/* own: us/KB */
	char boot_id[64];		/* "-": unknown */
	int metered;			/* the three below are set */
	double load;			/* 0..1 */
	unsigned ncpus;
	double demand;			/* us/KB */
	int rr;				/* version 2: transactions is set */
	uint64_t transactions;
};

/* rxreport_format - r as its line (newline included) into buf, version 1
 * or, when r->rr, 2 (r->version is not read); its length, or -1 when it
 * does not fit (len >= RXREPORT_MAX always fits). */
int rxreport_format(char *buf, size_t len, const struct rxreport *r);

/* rxreport_parse - the line of n bytes at s (its newline included) into
 * *r: 0, or -1 with why it is malformed in why. */
int rxreport_parse(const char *s, size_t n, struct rxreport *r, char *why, size_t whylen);

/*
 * Reading the line as it comes, among whatever else comes: the bytes
 * taken, the time zcc's data had all reached the receiver's kernel, and
 * the bound after it by which the line must be whole.
 */
enum rxreport_state {
	RXR_WAITING,		/* nothing whole yet */
	RXR_LINE,		/* a whole line, in time */
	RXR_EXTRA,		/* more came after the line */
	RXR_OVERSIZED,		/* RXREPORT_MAX bytes and no newline */
	RXR_LATE,		/* not whole within the bound */
};

struct rxreport_reader {
	enum rxreport_state state;
	char line[RXREPORT_MAX];
	size_t have;
	uint64_t bound_ns;		/* the line's time once delivered */
	uint64_t delivered_ns;		/* 0: not yet */
};

/* rxreport_reader_init - a reader for a line due bound_ns after delivery. */
void rxreport_reader_init(struct rxreport_reader *rd, uint64_t bound_ns);

/* rxreport_take - n bytes came at now. */
void rxreport_take(struct rxreport_reader *rd, const void *b, size_t n, uint64_t now);

/* rxreport_delivered - at now, every byte sent has reached the receiver
 * (the first call counts); the bound runs from then. */
void rxreport_delivered(struct rxreport_reader *rd, uint64_t now);

/* rxreport_tick - the bound is looked at: a line not whole by it is late. */
void rxreport_tick(struct rxreport_reader *rd, uint64_t now);

/* rxreport_due_ms - how long until the bound (0: past), -1: no bound yet
 * or no line awaited. */
int rxreport_due_ms(const struct rxreport_reader *rd, uint64_t now);

#endif
