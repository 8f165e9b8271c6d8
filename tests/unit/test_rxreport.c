/*
 * lib/wire/rxreport.c: the receiver's report line written and parsed,
 * every way a line can be malformed, and the reader's rules (oversized,
 * extra, late) on an injected clock.
 */
#include <string.h>

#include "t.h"
#include "wire/rxreport.h"

#define MS 1000000ull

static int parses(const char *line, struct rxreport *r, char *why, size_t len)
{
	return rxreport_parse(line, strlen(line), r, why, len);
}

/* line must be refused, why naming what (a piece of the reason). */
static void refused(const char *line, const char *what)
{
	struct rxreport r;
	char why[128] = "";

	CHECK(parses(line, &r, why, sizeof(why)) < 0 && strstr(why, what),
	      "refused, %s: %s", what[0] ? what : "(any reason)", why);
}

static void formats(void)
{
	struct rxreport a = { .method = "discard", .read_bytes = 16384, .bytes = 123456789,
			      .seconds = 2.5, .own = 0.125,
			      .boot_id = "0f1e2d3c-aaaa-bbbb-cccc-0123456789ab" }, b;
	char buf[RXREPORT_MAX], small[40], why[128] = "";
	int n = rxreport_format(buf, sizeof(buf), &a);

	CHECK(n > 0 && buf[n - 1] == '\n' && (size_t)n == strlen(buf), "formatted: %.*s", n - 1, buf);
	CHECK(strncmp(buf, "zc-report 1 method=discard read_bytes=16384 bytes=123456789 ",
		      strlen("zc-report 1 method=discard read_bytes=16384 bytes=123456789 ")) == 0,
	      "version 1, the keys in order");
	CHECK(rxreport_parse(buf, (size_t)n, &b, why, sizeof(why)) == 0 && b.version == 1 &&
	      strcmp(b.method, "discard") == 0 && b.read_bytes == 16384 &&
	      b.bytes == 123456789 && b.seconds == 2.5 && b.own == 0.125 && !b.metered &&
	      strcmp(b.boot_id, a.boot_id) == 0, "parsed back unmetered (%s)", why);
	a.metered = 1;
	a.load = 0.5525;
	a.ncpus = 2;
	a.demand = 1.5;
	n = rxreport_format(buf, sizeof(buf), &a);
	CHECK(n > 0 && strstr(buf, " load_pct=55.2500 ncpus=2 service_demand_us_per_kb=1.500000\n"),
	      "metered: %.*s", n - 1, buf);
	CHECK(rxreport_parse(buf, (size_t)n, &b, why, sizeof(why)) == 0 && b.metered &&
	      b.ncpus == 2 && b.demand == 1.5 && b.load > 0.5524 && b.load < 0.5526,
	      "parsed back metered (%s)", why);
	CHECK(rxreport_format(small, sizeof(small), &a) < 0, "too small a buffer: -1");
	a.boot_id[0] = '\0';
	n = rxreport_format(buf, sizeof(buf), &a);
	CHECK(n > 0 && strstr(buf, " boot_id=- ") != NULL, "an unknown boot id is '-'");
}

static void malformed(void)
{
	static const char ok[] = "zc-report 1 method=read read_bytes=16384 bytes=100 "
		"seconds=1.0 own_us_per_kb=0.3 boot_id=abc-1\n";
	struct rxreport r;
	char why[128] = "", line[RXREPORT_MAX + 8];

	CHECK(parses(ok, &r, why, sizeof(why)) == 0, "the model line parses (%s)", why);
	CHECK(parses("zc-report 7 method=read read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 "
		     "boot_id=- future=x\n", &r, why, sizeof(why)) == 0 && r.version == 7,
	      "a later version with a key of its own parses (%s)", why);
	refused("", "one line");
	refused("zc-report 1 method=read\n\n", "byte 24 is 0xa");
	refused("zc-report 1 method=read read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 boot_id=-",
		"one line");
	refused("HTTP/1.1 200 OK\n", "not a zc-report");
	refused("zc-report\n", "not a zc-report");
	refused("zc-report x method=read\n", "no version");
	refused("zc-report 0 method=read\n", "no version");
	refused("zc-report 01 method=read\n", "no version");
	refused("zc-report 1  method=read\n", "not a zc-report");
	refused("zc-report 1 method=read read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 boot_id=- \n",
		"not a zc-report");
	refused("zc-report 1 method=read\tread_bytes=1\n", "one line of text");
	refused("zc-report 1 method=read read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1\n",
		"no boot_id");
	refused("zc-report 1 read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 boot_id=-\n",
		"no method");
	refused("zc-report 1 method=read method=read read_bytes=1\n", "twice");
	refused("zc-report 1 method=read read_bytes=-1 bytes=1 seconds=1 own_us_per_kb=1 boot_id=-\n",
		"read_bytes=-1");
	refused("zc-report 1 method=read read_bytes=1 bytes=1e9 seconds=1 own_us_per_kb=1 boot_id=-\n",
		"bytes=1e9");
	refused("zc-report 1 method=read read_bytes=1 bytes=1 seconds=1.2.3 own_us_per_kb=1 boot_id=-\n",
		"seconds=1.2.3");
	refused("zc-report 1 method=read read_bytes=1 bytes=1 seconds=nan own_us_per_kb=1 boot_id=-\n",
		"seconds=nan");
	refused("zc-report 1 method=re/ad read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 boot_id=-\n",
		"method=re/ad");
	refused("zc-report 1 method= read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 boot_id=-\n",
		"method=");
	refused("zc-report 1 method=read junk read_bytes=1\n", "KEY=VALUE");
	refused("zc-report 1 method=read read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 boot_id=- "
		"load_pct=50\n", "come together");
	refused("zc-report 1 method=read read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 boot_id=- "
		"load_pct=50 ncpus=0 service_demand_us_per_kb=1\n", "ncpus=0");
	memset(line, 'a', sizeof(line));
	line[sizeof(line) - 1] = '\n';
	CHECK(rxreport_parse(line, sizeof(line), &r, why, sizeof(why)) < 0,
	      "a line over %d bytes is refused", RXREPORT_MAX);
	CHECK(rxreport_parse("zc-report 1 m\0=x\n", 17, &r, why, sizeof(why)) < 0,
	      "a NUL inside is refused");
}

static void reader(void)
{
	static const char line[] = "zc-report 1 method=read\n";
	struct rxreport_reader rd;
	char big[RXREPORT_MAX + 1];

	rxreport_reader_init(&rd, 2000 * MS);
	CHECK(rxreport_due_ms(&rd, 0) == -1, "no bound before delivery");
	rxreport_take(&rd, line, 10, 100 * MS);
	CHECK(rd.state == RXR_WAITING, "half a line: waiting");
	rxreport_take(&rd, line + 10, sizeof(line) - 11, 200 * MS);
	CHECK(rd.state == RXR_LINE && rd.have == sizeof(line) - 1 &&
	      memcmp(rd.line, line, rd.have) == 0, "in two pieces: the whole line");
	rxreport_take(&rd, "x", 1, 300 * MS);
	CHECK(rd.state == RXR_EXTRA, "a byte after it: extra");

	rxreport_reader_init(&rd, 2000 * MS);
	rxreport_take(&rd, "zc-report 1\nmore", 16, 0);
	CHECK(rd.state == RXR_EXTRA, "a line and more in one piece: extra");

	rxreport_reader_init(&rd, 2000 * MS);
	memset(big, 'a', sizeof(big));
	rxreport_take(&rd, big, RXREPORT_MAX - 1, 0);
	CHECK(rd.state == RXR_WAITING, "%d bytes, no newline: waiting", RXREPORT_MAX - 1);
	rxreport_take(&rd, "\n", 1, 0);
	CHECK(rd.state == RXR_LINE, "its newline as byte %d: a line", RXREPORT_MAX);
	rxreport_reader_init(&rd, 2000 * MS);
	rxreport_take(&rd, big, sizeof(big), 0);
	CHECK(rd.state == RXR_OVERSIZED, "%zu bytes, no newline: oversized", sizeof(big));

	/* The bound runs from delivery, not from the start. */
	rxreport_reader_init(&rd, 2000 * MS);
	rxreport_tick(&rd, 60000 * MS);
	CHECK(rd.state == RXR_WAITING, "a minute before delivery: waiting still");
	rxreport_delivered(&rd, 61000 * MS);
	rxreport_delivered(&rd, 62000 * MS);
	CHECK(rxreport_due_ms(&rd, 61500 * MS) == 1501, "due 1.5 s on (%d ms)",
	      rxreport_due_ms(&rd, 61500 * MS));
	rxreport_tick(&rd, 63000 * MS);
	CHECK(rd.state == RXR_WAITING, "2 s after delivery: in time");
	rxreport_take(&rd, line, sizeof(line) - 1, 63001 * MS);
	CHECK(rd.state == RXR_LATE, "a line 2.001 s after delivery: late");
	CHECK(rxreport_due_ms(&rd, 63001 * MS) == -1, "nothing due once late");

	rxreport_reader_init(&rd, 2000 * MS);
	rxreport_delivered(&rd, 0);
	rxreport_take(&rd, line, 5, 100 * MS);
	rxreport_tick(&rd, 2500 * MS);
	CHECK(rd.state == RXR_LATE, "half a line by the bound: late");
}

/*
 * Version 2: a request/response report adds transactions; a stream's line
 * stays version 1, an old line still reads, and a version 1 line that
 * names transactions is malformed.
 */
static void version2(void)
{
	struct rxreport a = { .method = "rr", .read_bytes = 200, .bytes = 2000000,
			      .seconds = 10, .own = 2.5, .boot_id = "-", .metered = 1,
			      .load = 0.4, .ncpus = 2, .demand = 4, .rr = 1,
			      .transactions = 10000 }, b;
	char buf[RXREPORT_MAX], why[128] = "";
	static const char old[] = "zc-report 1 method=read read_bytes=16384 bytes=100 "
		"seconds=1.5 own_us_per_kb=2 boot_id=- load_pct=50 ncpus=4 "
		"service_demand_us_per_kb=3\n";
	int n = rxreport_format(buf, sizeof(buf), &a);

	CHECK(n > 0 && strncmp(buf, "zc-report 2 method=rr ", 22) == 0 &&
	      strstr(buf, " service_demand_us_per_kb=4.000000 transactions=10000\n"),
	      "version 2 with its key last: %.*s", n - 1, buf);
	CHECK(rxreport_parse(buf, (size_t)n, &b, why, sizeof(why)) == 0 && b.version == 2 &&
	      b.rr && b.transactions == 10000 && b.metered && b.ncpus == 2 &&
	      b.bytes == 2000000 && b.seconds == 10, "parsed back (%s)", why);
	a.metered = 0;
	n = rxreport_format(buf, sizeof(buf), &a);
	CHECK(n > 0 && rxreport_parse(buf, (size_t)n, &b, why, sizeof(why)) == 0 && b.rr &&
	      !b.metered && b.transactions == 10000, "unmetered version 2 (%s)", why);
	a.rr = 0;
	n = rxreport_format(buf, sizeof(buf), &a);
	CHECK(n > 0 && strncmp(buf, "zc-report 1 ", 12) == 0 && !strstr(buf, "transactions"),
	      "no transactions: version 1, as before: %.*s", n - 1, buf);
	CHECK(parses(old, &b, why, sizeof(why)) == 0 && b.version == 1 && !b.rr &&
	      !b.transactions && b.metered && b.ncpus == 4, "an old line reads (%s)", why);
	refused("zc-report 1 method=rr read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 "
		"boot_id=- transactions=1\n", "transactions in a version 1");
	refused("zc-report 2 method=rr read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 "
		"boot_id=- transactions=x\n", "transactions=x is not a value");
	refused("zc-report 2 method=rr read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 "
		"boot_id=- transactions=1 transactions=1\n", "given twice");
	CHECK(parses("zc-report 3 method=rr read_bytes=1 bytes=1 seconds=1 own_us_per_kb=1 "
		     "boot_id=- transactions=7 later_key=1\n", &b, why, sizeof(why)) == 0 &&
	      b.version == 3 && b.transactions == 7, "a later version's keys ignored (%s)", why);
}

int main(void)
{
	formats();
	malformed();
	version2();
	reader();
	return t_exit();
}
