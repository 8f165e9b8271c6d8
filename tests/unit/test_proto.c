/*
 * lib/wire/proto.c: the wire encoding pinned byte for byte, the byte-count
 * formula both ends use, and the receiver fed whole, in bulk and one byte
 * at a time, cut at every position and given too much.
 */
#include <stdio.h>
#include <string.h>

#include "wire/proto.h"
#include "unit/t.h"

/* A small stream built by hand: 2 loops of files of 3 and 0 bytes, then 1. */
static const unsigned char small[] = {
	0x00, 0x00, 0x00, 0x02,			/* n_loops 2 */
	0x00, 0x00, 0x00, 0x02,			/* loop 1: 2 files */
	0x00, 0x00, 0x00, 0x03, 'a', 'b', 'c',	/* 3 bytes */
	0x00, 0x00, 0x00, 0x00,			/* 0 bytes */
	0x00, 0x00, 0x00, 0x01,			/* loop 2: 1 file */
	0x00, 0x00, 0x00, 0x01, 'z',		/* 1 byte */
};

static void encoding(void)
{
	unsigned char b[4];

	proto_put_u32(b, 0x01020304);
	CHECK(memcmp(b, "\x01\x02\x03\x04", 4) == 0, "proto_put_u32 is big-endian");
	proto_put_u32(b, 0xfffffffe);
	CHECK(memcmp(b, "\xff\xff\xff\xfe", 4) == 0, "proto_put_u32 of 0xfffffffe");
	proto_put_u32(b, 2222);
	CHECK(memcmp(b, "\x00\x00\x08\xae", 4) == 0, "proto_put_u32 of 2222");
	CHECK(proto_get_u32((const unsigned char *)"\x80\x00\x00\x01") == 0x80000001u,
	      "proto_get_u32 reads the top bit unsigned");
	CHECK(proto_get_u32((const unsigned char *)"\x00\x00\x08\xae") == 2222,
	      "proto_get_u32 round-trips 2222");
	CHECK(PROTO_WORD == 4, "header words are 4 bytes");
}

static void byte_count(void)
{
	CHECK(proto_stream_bytes(0, 0, 0) == 4, "no loops: just the loop count");
	CHECK(proto_stream_bytes(1, 0, 0) == 8, "one empty loop: 8 bytes");
	CHECK(proto_stream_bytes(1, 1, 10) == 22, "one 10-byte file once: 22 bytes");
	/* The acceptance run: 63 files of 350000 bytes, 20 times. */
	CHECK(proto_stream_bytes(20, 63, 63ull * 350000) ==
	      4 + 20ull * (4 + 4 * 63) + 20ull * 63 * 350000,
	      "63 files x 350000 bytes x 20 loops: %llu bytes",
	      (unsigned long long)proto_stream_bytes(20, 63, 63ull * 350000));
	CHECK(proto_stream_bytes(0xffffffffu, 0xffffffffu, 0xffffffffull * 3) ==
	      4 + 0xffffffffull * (4 + 4 * 0xffffffffull) + 0xffffffffull * 0xffffffffull * 3,
	      "the largest counts do not wrap at 32 bits");
}

static void hand_built(void)
{
	struct proto_rx rx;
	unsigned char b[4];
	char line[128];

	/* Loop count, 2 file counts, 3 lengths, 4 data bytes. */
	CHECK(sizeof(small) == 4 + 2 * 4 + 3 * 4 + 4,
	      "the hand-built stream is %zu bytes", sizeof(small));

	proto_rx_init(&rx);
	CHECK(proto_rx_feed(&rx, small, sizeof(small)) == 0 && proto_rx_complete(&rx) &&
	      rx.bytes == sizeof(small) && rx.n_loops == 2,
	      "the whole small stream in one feed is complete");
	proto_rx_describe(&rx, line, sizeof(line));
	CHECK(strcmp(line, "complete") == 0, "describe a complete stream: '%s'", line);

	proto_rx_init(&rx);
	CHECK(proto_rx_feed(&rx, (const unsigned char *)"\0\0\0\0", 4) == 0 &&
	      proto_rx_complete(&rx), "n_loops 0 is a complete 4-byte stream");

	proto_rx_init(&rx);
	proto_put_u32(b, 0xffffffff);
	CHECK(proto_rx_feed(&rx, b, 4) == 0 && !proto_rx_complete(&rx) &&
	      rx.state == PROTO_N_FILES, "2^32-1 loops announced, then EOF: incomplete");
	proto_rx_describe(&rx, line, sizeof(line));
	CHECK(strcmp(line, "ended before the file count word of loop 1 of 4294967295") == 0,
	      "describe it: '%s'", line);

	proto_rx_init(&rx);
	CHECK(proto_rx_feed(&rx, small, 0) == 0 && rx.bytes == 0 && rx.state == PROTO_N_LOOPS,
	      "an empty feed changes nothing");
	proto_rx_describe(&rx, line, sizeof(line));
	CHECK(strcmp(line, "ended before the first header word") == 0,
	      "describe an empty stream: '%s'", line);
}

/* Feed small[] one byte at a time; the state after each byte is pinned. */
static void byte_at_a_time(void)
{
	static const enum proto_state after[sizeof(small)] = {
		PROTO_N_LOOPS, PROTO_N_LOOPS, PROTO_N_LOOPS, PROTO_N_FILES,
		PROTO_N_FILES, PROTO_N_FILES, PROTO_N_FILES, PROTO_LENGTH,
		PROTO_LENGTH, PROTO_LENGTH, PROTO_LENGTH, PROTO_DATA,
		PROTO_DATA, PROTO_DATA, PROTO_LENGTH,
		PROTO_LENGTH, PROTO_LENGTH, PROTO_LENGTH, PROTO_N_FILES,
		PROTO_N_FILES, PROTO_N_FILES, PROTO_N_FILES, PROTO_LENGTH,
		PROTO_LENGTH, PROTO_LENGTH, PROTO_LENGTH, PROTO_DATA,
		PROTO_END,
	};
	struct proto_rx rx;
	size_t i, bad = sizeof(small);

	proto_rx_init(&rx);
	for (i = 0; i < sizeof(small); i++) {
		if (proto_rx_feed(&rx, small + i, 1) != 0 || rx.state != after[i] ||
		    rx.bytes != i + 1) {
			bad = i;
			break;
		}
	}
	CHECK(bad == sizeof(small), "byte at a time: the state after each byte as pinned "
	      "(%zu of %zu right)", bad, sizeof(small));
	CHECK(proto_rx_complete(&rx), "byte at a time: complete at the end");
}

/* Every split of small[] into two feeds gives the same result. */
static void every_split(void)
{
	struct proto_rx rx;
	size_t i, bad = 0;

	for (i = 0; i <= sizeof(small); i++) {
		proto_rx_init(&rx);
		if (proto_rx_feed(&rx, small, i) || proto_rx_feed(&rx, small + i, sizeof(small) - i) ||
		    !proto_rx_complete(&rx) || rx.bytes != sizeof(small))
			bad++;
	}
	CHECK(bad == 0, "small stream split in two at every position: complete (%zu bad)", bad);
}

/* Cut small[] after every length short of the whole: never complete. */
static void truncation(void)
{
	static const char *const want[] = {
		[0] = "ended before the first header word",
		[2] = "ended inside the loop count word (2 of 4 bytes)",
		[4] = "ended before the file count word of loop 1 of 2",
		[6] = "ended inside the file count word of loop 1 of 2 (2 of 4 bytes)",
		[8] = "ended before the length word of file 1 of 2, loop 1 of 2",
		[11] = "ended inside the length word of file 1 of 2, loop 1 of 2 (3 of 4 bytes)",
		[13] = "ended in file 1 of 2, loop 1 of 2, 1 of 3 bytes",
		[15] = "ended before the length word of file 2 of 2, loop 1 of 2",
		[19] = "ended before the file count word of loop 2 of 2",
		[27] = "ended in file 1 of 1, loop 2 of 2, 0 of 1 bytes",
	};
	struct proto_rx rx, one;
	char line[128];
	size_t cut, i, bad = 0;

	for (cut = 0; cut < sizeof(small); cut++) {
		proto_rx_init(&rx);
		proto_rx_init(&one);
		for (i = 0; i < cut; i++)
			proto_rx_feed(&one, small + i, 1);
		if (proto_rx_feed(&rx, small, cut) != 0 || proto_rx_complete(&rx) ||
		    proto_rx_complete(&one) || rx.state != one.state || rx.bytes != cut) {
			bad++;
			continue;
		}
		if (cut < sizeof(want) / sizeof(want[0]) && want[cut]) {
			proto_rx_describe(&rx, line, sizeof(line));
			CHECK(strcmp(line, want[cut]) == 0, "cut at %zu: '%s'", cut, line);
		}
	}
	CHECK(bad == 0, "cut at each of %zu positions: incomplete, bulk and bytewise agree "
	      "(%zu bad)", sizeof(small), bad);
}

static void excess(void)
{
	unsigned char more[sizeof(small) + 5];
	struct proto_rx rx;
	char line[128];
	size_t i;
	int rc = 0;

	memcpy(more, small, sizeof(small));
	memset(more + sizeof(small), 'x', 5);

	proto_rx_init(&rx);
	CHECK(proto_rx_feed(&rx, more, sizeof(more)) == -1 && rx.state == PROTO_EXCESS &&
	      rx.excess == 5 && rx.bytes == sizeof(more) && !proto_rx_complete(&rx),
	      "5 bytes past the end in one feed: excess of 5");
	proto_rx_describe(&rx, line, sizeof(line));
	CHECK(strcmp(line, "5 bytes beyond the end") == 0, "describe it: '%s'", line);
	CHECK(proto_rx_feed(&rx, more, 3) == -1 && rx.excess == 8,
	      "excess stays excess and keeps counting");

	proto_rx_init(&rx);
	for (i = 0; i < sizeof(more); i++)
		rc |= proto_rx_feed(&rx, more + i, 1) < 0 && i < sizeof(small);
	CHECK(!rc && rx.state == PROTO_EXCESS && rx.excess == 5,
	      "byte at a time: excess flagged only after the end, 5 bytes");

	proto_rx_init(&rx);
	CHECK(proto_rx_feed(&rx, (const unsigned char *)"\0\0\0\0\0", 5) == -1 &&
	      rx.excess == 1, "one byte after a zero-loop stream is excess");
}

static unsigned headers_seen;
static uint32_t header_sum;

static void count_header(const struct proto_rx *rx, enum proto_state what, uint32_t v)
{
	(void)rx;
	(void)what;
	headers_seen++;
	header_sum += v;
}

static void header_hook(void)
{
	struct proto_rx rx;

	proto_rx_init(&rx);
	rx.on_header = count_header;
	proto_rx_feed(&rx, small, sizeof(small));
	CHECK(headers_seen == 6 && header_sum == 2 + 2 + 3 + 0 + 1 + 1,
	      "the header hook sees each of the 6 header words once (%u)", headers_seen);
}

/* Data taken by a method that never looks at it: skipped, not fed. */
static void skipping(void)
{
	struct proto_rx rx;

	proto_rx_init(&rx);
	proto_rx_feed(&rx, small, 12);		/* up to the first file's data */
	CHECK(rx.state == PROTO_DATA && rx.data_left == 3, "in data: 3 bytes left");
	proto_rx_skip(&rx, 2);
	CHECK(rx.state == PROTO_DATA && rx.data_left == 1 && rx.bytes == 14,
	      "skip 2: still in data, 1 left, 14 bytes counted");
	proto_rx_skip(&rx, 5);
	CHECK(rx.data_left == 1 && rx.bytes == 14, "skip beyond the file: refused, nothing counted");
	proto_rx_skip(&rx, 1);
	CHECK(rx.state == PROTO_LENGTH && rx.bytes == 15, "skip the last byte: on to the next length");
	proto_rx_skip(&rx, 1);
	CHECK(rx.bytes == 15, "skip outside data: refused");
	proto_rx_feed(&rx, small + 15, 12);
	CHECK(rx.state == PROTO_DATA && rx.data_left == 1, "the last file's data");
	proto_rx_skip(&rx, 1);
	CHECK(proto_rx_complete(&rx) && rx.bytes == sizeof(small),
	      "skipping the last byte completes the stream (%llu bytes)",
	      (unsigned long long)rx.bytes);
}

int main(void)
{
	encoding();
	byte_count();
	hand_built();
	byte_at_a_time();
	every_split();
	truncation();
	excess();
	header_hook();
	skipping();
	return t_exit();
}
