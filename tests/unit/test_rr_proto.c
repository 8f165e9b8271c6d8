/*
 * lib/wire/rr_proto.c: the hello told from every 2001 stream, each
 * refusal its own code, encodings that decode back to themselves, and a
 * seeded fuzz loop over exactly sized buffers (so that the sanitizer pass
 * sees any read past the end): decode never accepts what would not
 * encode back to the same bytes, and a cut or a longer buffer is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "wire/proto.h"
#include "wire/rr_proto.h"
#include "tools/rng.h"
#include "unit/t.h"

#define FUZZ 200000

static const struct rr_hello hello0 = {
	.version = RR_PROTO_VERSION, .run = 0xdeadbeef, .flow = 3, .req_bytes = 200,
	.resp_bytes = 1300, .proto = RR_UDP, .mode = RR_MODE_RR,
	.boot_id = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
};

static const struct rr_msg msg0 = {
	.kind = RR_RESPONSE, .run = 0xdeadbeef, .flow = 3, .length = 1300,
	.seq = 0x0123456789abcdefull, .due_mono = 1, .tx_mono = UINT64_MAX,
	.tx_real = 1700000000000000000ull, .rx_real = 2, .back_real = 3,
};

static const struct rr_expect want0 = {
	.run = 0xdeadbeef, .flow = 3, .length = 1300, .kind = RR_RESPONSE,
};

/* buf[0..len) in a buffer of exactly len bytes: a read past is caught. */
static unsigned char *exact(const unsigned char *buf, size_t len)
{
	unsigned char *p = malloc(len ? len : 1);

	if (p && len)
		memcpy(p, buf, len);
	return p;
}

static enum rr_result hello_of(const unsigned char *buf, size_t len, struct rr_hello *h)
{
	unsigned char *p = exact(buf, len);
	enum rr_result r = rr_hello_decode(p, len, h);

	free(p);
	return r;
}

static enum rr_result msg_of(const unsigned char *buf, size_t len, struct rr_msg *m)
{
	unsigned char *p = exact(buf, len);
	enum rr_result r = rr_msg_decode(p, len, &want0, m);

	free(p);
	return r;
}

static enum rr_result ack_of(const unsigned char *buf, size_t len, struct rr_ack *a)
{
	unsigned char *p = exact(buf, len);
	enum rr_result r = rr_ack_decode(p, len, 0xdeadbeef, 3, a);

	free(p);
	return r;
}

/* What was decoded encodes back to the bytes it came from. */
static int same_hello(const struct rr_hello *h, const unsigned char *from)
{
	unsigned char b[RR_HELLO_LEN];

	rr_hello_encode(b, h);
	return memcmp(b, from, sizeof(b)) == 0;
}

static int same_ack(const struct rr_ack *a, const unsigned char *from)
{
	unsigned char b[RR_ACK_LEN];

	rr_ack_encode(b, a);
	return memcmp(b, from, sizeof(b)) == 0;
}

static int same_msg(const struct rr_msg *m, const unsigned char *from)
{
	unsigned char b[RR_MSG_HDR];

	rr_msg_encode(b, m);
	return memcmp(b, from, sizeof(b)) == 0;
}

/* 2001 streams and hellos, whole and a byte at a time. */
static void sniffing(void)
{
	unsigned char s[8], hb[RR_HELLO_LEN];
	enum rr_sniff at[9];
	int grew = 1;

	proto_put_u32(s, 1);
	proto_put_u32(s + 4, 3);
	CHECK(rr_sniff(s, 3) == RR_SNIFF_MORE && rr_sniff(s, 4) == RR_SNIFF_STREAM,
	      "a stream of one loop: more wanted at 3 bytes, a stream at 4");
	proto_put_u32(s, 0);
	CHECK(rr_sniff(s, 4) == RR_SNIFF_STREAM, "the empty stream (n_loops 0): a stream at 4 bytes");
	proto_put_u32(s, RR_HELLO_W0);
	proto_put_u32(s + 4, 0x7fffffc0u);
	CHECK(rr_sniff(s, 4) == RR_SNIFF_MORE && rr_sniff(s, 8) == RR_SNIFF_STREAM,
	      "n_loops the hello's, n_files the most descriptors a process can hold: a stream");
	rr_hello_encode(hb, &hello0);
	for (size_t n = 0; n <= 8; n++)
		at[n] = rr_sniff(hb, n);
	for (size_t n = 0; n < 8; n++)
		grew &= at[n] == RR_SNIFF_MORE;
	CHECK(grew && at[8] == RR_SNIFF_RR && rr_sniff(hb, sizeof(hb)) == RR_SNIFF_RR,
	      "a hello: more wanted up to 7 bytes, an RR client at 8");
	CHECK(RR_HELLO_W1 >= 0x80000000u, "the hello's n_files is over 2^31");
}

static void hellos(void)
{
	unsigned char b[RR_HELLO_LEN + 1];
	struct rr_hello h;

	rr_hello_encode(b, &hello0);
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_OK && same_hello(&h, b),
	      "hello: decodes to what was encoded");
	CHECK(hello_of(b, RR_HELLO_LEN - 1, &h) == RR_SHORT && hello_of(b, 11, &h) == RR_SHORT,
	      "hello cut short: RR_SHORT");
	b[RR_HELLO_LEN] = 0;
	CHECK(hello_of(b, RR_HELLO_LEN + 1, &h) == RR_LONG, "hello with a byte more: RR_LONG");
	b[5] ^= 1;
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_MAGIC, "a stream's header: RR_MAGIC");
	b[5] ^= 1;
	b[9] = 2;
	CHECK(hello_of(b, RR_HELLO_LEN + 1, &h) == RR_VERSION && h.version == 2,
	      "version 2, however long: RR_VERSION, naming it");
	b[9] = RR_PROTO_VERSION;
	b[11]++;
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_FIELD, "hello of another length: RR_FIELD");
	b[11]--;
	b[28] = 5;
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_FIELD, "an unknown protocol: RR_FIELD");
	b[28] = RR_IP;
	proto_put_u32(b + 20, 63);
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_FIELD, "raw IP below the header's size: "
	      "RR_FIELD, as UDP");
	b[28] = RR_PACKET;
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_FIELD, "raw Ethernet below the header's "
	      "size: RR_FIELD, as UDP");
	b[28] = RR_UDP;
	proto_put_u32(b + 20, 63);
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_FIELD, "UDP below the header's size: RR_FIELD");
	b[28] = RR_TCP;
	proto_put_u32(b + 20, 1);
	proto_put_u32(b + 24, 1);
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_OK && !rr_timed(h.req_bytes, h.resp_bytes),
	      "TCP of 1-byte messages: taken, bare");
	proto_put_u32(b + 24, RR_MSG_MAX + 1);
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_FIELD, "a response over the largest: RR_FIELD");
}

/* The flags: RR_ASK_REPORT over TCP and UDP taken and kept; unknown ones refused. */
static void hello_flags(void)
{
	struct rr_hello ask = hello0, h;
	unsigned char b[RR_HELLO_LEN];

	rr_hello_encode(b, &hello0);
	CHECK(b[30] == 0 && b[31] == 0, "no flag asked: the hello's bytes as before");
	ask.proto = RR_TCP;
	ask.flags = RR_ASK_REPORT;
	rr_hello_encode(b, &ask);
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_OK && h.flags == RR_ASK_REPORT,
	      "TCP asking for the report: taken, the flag kept");
	b[30] = 0x80;
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_FIELD, "an unknown flag: RR_FIELD");
	ask.proto = RR_UDP;
	ask.req_bytes = ask.resp_bytes = RR_MSG_HDR;
	rr_hello_encode(b, &ask);
	CHECK(hello_of(b, RR_HELLO_LEN, &h) == RR_OK && h.flags == RR_ASK_REPORT,
	      "UDP asking for the report (by a bye): taken");
}

static void acks(void)
{
	static const struct rr_ack a0 = {
		.version = RR_PROTO_VERSION, .run = 0xdeadbeef, .flow = 3, .status = RR_VERSION,
		.max_bytes = RR_MSG_MAX, .clock_err_us = UINT32_MAX, .boot_id = { 9 },
	};
	unsigned char b[RR_ACK_LEN + 1] = { 0 };
	struct rr_ack a;

	rr_ack_encode(b, &a0);
	CHECK(ack_of(b, RR_ACK_LEN, &a) == RR_OK && same_ack(&a, b) && a.status == RR_VERSION,
	      "ack: decodes to what was encoded, a refusal's reason with it");
	CHECK(ack_of(b, RR_ACK_LEN - 1, &a) == RR_SHORT && ack_of(b, RR_ACK_LEN + 1, &a) == RR_LONG,
	      "ack short and long: RR_SHORT, RR_LONG");
	b[13] = 4;
	CHECK(ack_of(b, RR_ACK_LEN, &a) == RR_FOREIGN, "ack for another flow: RR_FOREIGN");
	b[13] = 3;
	b[5] = 9;
	CHECK(ack_of(b, RR_ACK_LEN, &a) == RR_VERSION, "ack of version 9: RR_VERSION");
	b[5] = RR_PROTO_VERSION;
	b[0] = 0;
	CHECK(ack_of(b, RR_ACK_LEN, &a) == RR_MAGIC, "not an ack: RR_MAGIC");
}

static void messages(void)
{
	unsigned char b[1301] = { 0 };
	struct rr_msg m;
	const char *t[RR_FIELD + 1];
	int distinct = 1;

	rr_msg_encode(b, &msg0);
	CHECK(msg_of(b, 1300, &m) == RR_OK && same_msg(&m, b) && m.back_real == 3,
	      "a response decodes to what was encoded, every stamp kept");
	CHECK(msg_of(b, 1299, &m) == RR_SHORT && msg_of(b, RR_MSG_HDR - 1, &m) == RR_SHORT,
	      "cut short: RR_SHORT");
	CHECK(msg_of(b, 1301, &m) == RR_LONG, "a byte more: RR_LONG");
	proto_put_u32(b + 12, 1301);
	CHECK(msg_of(b, 1301, &m) == RR_LONG, "an answer larger than asked, whole: RR_LONG");
	proto_put_u32(b + 12, 1300);
	b[0] = 0;
	CHECK(msg_of(b, 1300, &m) == RR_MAGIC, "not ours: RR_MAGIC");
	b[0] = 0x7a;
	b[2] = 2;
	CHECK(msg_of(b, 1300, &m) == RR_VERSION, "version 2: RR_VERSION");
	b[2] = RR_PROTO_VERSION;
	b[7] ^= 1;
	CHECK(msg_of(b, 1300, &m) == RR_FOREIGN, "another run: RR_FOREIGN");
	b[7] ^= 1;
	b[3] = RR_REQUEST;
	CHECK(msg_of(b, 1300, &m) == RR_KIND, "a request where the answer was due: RR_KIND");
	b[3] = RR_BYE;
	CHECK(msg_of(b, 1300, &m) == RR_KIND, "a bye where the answer was due: RR_KIND");
	b[3] = RR_BYE + 1;
	CHECK(msg_of(b, 1300, &m) == RR_FIELD, "a kind not defined: RR_FIELD");
	for (int i = 0; i <= RR_FIELD; i++) {
		t[i] = rr_result_text((enum rr_result)i);
		for (int j = 0; j < i; j++)
			distinct &= strcmp(t[i], t[j]) != 0;
	}
	CHECK(distinct, "each result its own words (%s, %s, ...)", t[RR_SHORT], t[RR_FOREIGN]);
}

/* The times of one response: R is the client's realtime at the send. */
static void times(void)
{
	const uint64_t R = 1700000000000000000ull;
	struct rr_msg m = { .due_mono = 1000, .tx_mono = 1500, .tx_real = R,
			    .rx_real = R + 20000, .back_real = R + 25000 };
	struct rr_times t;
	enum rr_clock c;

	c = rr_msg_times(&m, 51500, R + 50000, &t);
	CHECK(c == RR_CLOCK_OK && t.from_due == 50500 && t.from_send == 50000 && t.one_way &&
	      t.out == 20000 && t.back == 25000 && t.held == 5000,
	      "a response: 50.5 us from due, 50 from the send, 20 out, 25 back, 5 held");
	c = rr_msg_times(&m, 51500, R + 50000 - 1000000000, &t);
	CHECK(c == RR_CLOCK_STEPPED && !t.one_way && t.from_send == 50000,
	      "our realtime stepped back a second: no one-way times, the round trip kept");
	c = rr_msg_times(&m, 51500, R + 50000 + 2051, &t);
	CHECK(c == RR_CLOCK_STEPPED, "stepped 2.05 us ahead in 50 us: a step");
	c = rr_msg_times(&m, 51500, R + 50000 + 2049, &t);
	CHECK(c == RR_CLOCK_OK && rr_msg_times(&m, 51500, R + 50000 - 2049, &t) == RR_CLOCK_OK,
	      "2.049 us either way in 50 us: within the slack, not a step");
	c = rr_msg_times(&m, 51500, R + 50000 - 2051, &t);
	CHECK(c == RR_CLOCK_STEPPED, "stepped 2.05 us back in 50 us: a step");
	m.rx_real = R + 60000;
	m.back_real = R + 65000;
	c = rr_msg_times(&m, 51500, R + 50000, &t);
	CHECK(c == RR_CLOCK_DISAGREE && !t.one_way, "the server's clock ahead by more than "
	      "the way back: the clocks disagree");
	m.rx_real = R - 1;
	c = rr_msg_times(&m, 51500, R + 50000, &t);
	CHECK(c == RR_CLOCK_DISAGREE, "received before it was sent: the clocks disagree");
	m.rx_real = R + 30000;
	m.back_real = R + 29999;
	c = rr_msg_times(&m, 51500, R + 50000, &t);
	CHECK(c == RR_CLOCK_DISAGREE, "answered before it was received: the clocks disagree");
	c = rr_msg_times(&m, 1499, R + 50000, &t);
	CHECK(c == RR_CLOCK_BAD && !t.from_send && !t.one_way, "arrived before it was sent "
	      "(monotonic): not our stamps");
	m.due_mono = 1501;
	CHECK(rr_msg_times(&m, 51500, R + 50000, &t) == RR_CLOCK_BAD, "sent before it was due: "
	      "not our stamps");
}

static void boot_ids(void)
{
	unsigned char id[RR_BOOT_ID];

	CHECK(rr_boot_id_parse("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\n", id) == 0 &&
	      id[0] == 0x0f && id[15] == 0xf0, "a boot id parses");
	CHECK(rr_boot_id_parse("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f", id) == -1 &&
	      rr_boot_id_parse("0f1e2d3c4b5a-6978-8796-a5b4c3d2e1f0", id) == -1 &&
	      rr_boot_id_parse("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f00", id) == -1 &&
	      rr_boot_id_parse("", id) == -1 && id[0] == 0,
	      "short, long or misplaced: refused, zeroed");
}

/* One case: a valid encoding, mutated, cut or grown, decoded three ways. */
static int fuzz_one(unsigned char *b, unsigned *ok)
{
	int is_msg = (int)below(2), bad = 0;
	size_t size = is_msg ? 1300 : RR_HELLO_LEN, len;
	struct rr_hello h;
	struct rr_msg m;
	struct rr_ack a;
	struct rr_times t;
	uint64_t arr_real;

	switch (below(4)) {
	case 0: len = size; break;
	case 1: len = size + below(5) - 2; break;
	case 2: len = below(RR_MSG_HDR + 1300); break;
	default: len = below(80); break;
	}
	if (is_msg)
		rr_msg_encode(b, &msg0);
	else
		rr_hello_encode(b, &hello0);
	for (unsigned n = below(4); n; n--)
		b[below(RR_MSG_HDR)] = below(2) ? (unsigned char)rnd() : (unsigned char)below(4);
	if (msg_of(b, len, &m) == RR_OK) {
		bad |= !same_msg(&m, b) || len != 1300;
		(*ok)++;
	}
	if (hello_of(b, len, &h) == RR_OK) {
		bad |= !same_hello(&h, b) || len != RR_HELLO_LEN;
		(*ok)++;
	}
	ack_of(b, len, &a);
	/* any stamps at all: no overflow, and round trips only when possible */
	m.due_mono = (uint64_t)rnd() << 32 | rnd();
	m.tx_mono = below(2) ? m.due_mono + below(1000) : (uint64_t)rnd() << 32 | rnd();
	m.tx_real = (uint64_t)rnd() << 32 | rnd();
	m.rx_real = below(2) ? m.tx_real + below(1000) : (uint64_t)rnd() << 32 | rnd();
	m.back_real = (uint64_t)rnd() << 32 | rnd();
	arr_real = m.tx_real + rnd();
	if (rr_msg_times(&m, m.tx_mono + rnd(), arr_real, &t) != RR_CLOCK_BAD)
		bad |= t.from_send > UINT32_MAX ||
		       (t.one_way && t.out + t.held + t.back != arr_real - m.tx_real);
	return bad;
}

static void fuzz(void)
{
	static unsigned char b[RR_MSG_HDR + 1300];
	unsigned bad = 0, ok = 0;

	for (unsigned i = 0; i < FUZZ; i++)
		bad += fuzz_one(b, &ok);
	CHECK(bad == 0 && ok > 100, "%d mutated, cut and grown buffers: whatever decodes "
	      "encodes back to the same bytes at the run's size (%u decoded, %u not)",
	      FUZZ, ok, bad);
}

/* The run a hello, an ack or a message names; anything else, or one cut short: 0. */
static void run_ids(void)
{
	unsigned char b[RR_MSG_HDR + 8] = { 0 };

	rr_hello_encode(b, &hello0);
	CHECK(rr_run_of(b, RR_HELLO_LEN) == 0xdeadbeef, "a hello's run");
	CHECK(rr_run_of(b, RR_HELLO_LEN - 1) == 0, "a hello cut short: none");
	rr_ack_encode(b, &(struct rr_ack){ .run = 0xfeedf00d, .flow = 1 });
	CHECK(rr_run_of(b, RR_ACK_LEN) == 0xfeedf00d, "an ack's run");
	rr_msg_encode(b, &msg0);
	CHECK(rr_run_of(b, sizeof(b)) == 0xdeadbeef, "a message's run");
	CHECK(rr_run_of(b, RR_MSG_HDR - 1) == 0, "a message cut short of its header: none");
	b[0] ^= 0xff;
	CHECK(rr_run_of(b, sizeof(b)) == 0, "no magic: none");
	memset(b, 0, sizeof(b));
	CHECK(rr_run_of(b, sizeof(b)) == 0, "zeros: none");
}

int main(void)
{
	rng_seed(56, 2);
	sniffing();
	hellos();
	hello_flags();
	acks();
	messages();
	times();
	boot_ids();
	run_ids();
	fuzz();
	return t_exit();
}
