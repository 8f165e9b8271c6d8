#include <string.h>

#include "wire/proto.h"
#include "wire/rr_proto.h"

/* The other widths, on the stream protocol's one way to write a word. */
static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void put64(unsigned char *p, uint64_t v)
{
	proto_put_u32(p, (uint32_t)(v >> 32));
	proto_put_u32(p + 4, (uint32_t)v);
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)proto_get_u32(p) << 32 | proto_get_u32(p + 4);
}

const char *rr_result_text(enum rr_result r)
{
	static const char *const text[] = {
		[RR_OK] = "well formed",
		[RR_SHORT] = "too short",
		[RR_LONG] = "too long",
		[RR_MAGIC] = "not a zc message",
		[RR_VERSION] = "another version of the protocol",
		[RR_FOREIGN] = "from another run or flow",
		[RR_KIND] = "a request where an answer was due, or the reverse",
		[RR_FIELD] = "a field out of range",
	};

	return (unsigned)r < sizeof(text) / sizeof(text[0]) ? text[r] : "unknown result";
}

enum rr_sniff rr_sniff(const unsigned char *buf, size_t have)
{
	if (have < PROTO_WORD)
		return RR_SNIFF_MORE;
	if (proto_get_u32(buf) != RR_HELLO_W0)
		return RR_SNIFF_STREAM;
	if (have < RR_SNIFF_BYTES)
		return RR_SNIFF_MORE;
	return proto_get_u32(buf + PROTO_WORD) == RR_HELLO_W1 ? RR_SNIFF_RR : RR_SNIFF_STREAM;
}

void rr_hello_encode(unsigned char *buf, const struct rr_hello *h)
{
	memset(buf, 0, RR_HELLO_LEN);
	proto_put_u32(buf, RR_HELLO_W0);
	proto_put_u32(buf + 4, RR_HELLO_W1);
	put16(buf + 8, RR_PROTO_VERSION);
	put16(buf + 10, RR_HELLO_LEN);
	proto_put_u32(buf + 12, h->run);
	proto_put_u32(buf + 16, h->flow);
	proto_put_u32(buf + 20, h->req_bytes);
	proto_put_u32(buf + 24, h->resp_bytes);
	buf[28] = h->proto;
	buf[29] = h->mode;
	put16(buf + 30, h->flags);
	memcpy(buf + 32, h->boot_id, RR_BOOT_ID);
}

/* The hello's fields, each in range for its protocol. */
static enum rr_result hello_fields(const struct rr_hello *h)
{
	uint32_t max = rr_proto_dgram(h->proto) ? RR_UDP_MAX : RR_MSG_MAX;

	if (h->proto != RR_TCP && !rr_proto_dgram(h->proto))
		return RR_FIELD;
	if (h->mode != RR_MODE_RR || h->run == 0)
		return RR_FIELD;
	if (h->flags & ~RR_ASK_REPORT)
		return RR_FIELD;
	if (h->req_bytes < 1 || h->req_bytes > max || h->resp_bytes < 1 || h->resp_bytes > max)
		return RR_FIELD;
	if (rr_proto_dgram(h->proto) && !rr_timed(h->req_bytes, h->resp_bytes))
		return RR_FIELD;
	return RR_OK;
}

/* A size against the run's: short or long, either way. */
static enum rr_result size_check(uint64_t got, uint64_t want)
{
	return got < want ? RR_SHORT : got > want ? RR_LONG : RR_OK;
}

/*
 * The version and length words at vl of a hello or an ack of len bytes,
 * whose version 1 is size bytes: another version is told before anything
 * else is read (its length may differ).
 */
static enum rr_result version_length(const unsigned char *vl, size_t len, uint16_t size,
				     uint16_t *version)
{
	*version = get16(vl);
	if (*version != RR_PROTO_VERSION)
		return RR_VERSION;
	if (get16(vl + 2) != size)
		return RR_FIELD;
	return size_check(len, size);
}

enum rr_result rr_hello_decode(const unsigned char *buf, size_t len, struct rr_hello *h)
{
	enum rr_result r;

	memset(h, 0, sizeof(*h));
	if (len < 12)
		return RR_SHORT;
	if (rr_sniff(buf, len) != RR_SNIFF_RR)
		return RR_MAGIC;
	r = version_length(buf + 8, len, RR_HELLO_LEN, &h->version);
	if (r != RR_OK)
		return r;
	h->run = proto_get_u32(buf + 12);
	h->flow = proto_get_u32(buf + 16);
	h->req_bytes = proto_get_u32(buf + 20);
	h->resp_bytes = proto_get_u32(buf + 24);
	h->proto = buf[28];
	h->mode = buf[29];
	h->flags = get16(buf + 30);
	memcpy(h->boot_id, buf + 32, RR_BOOT_ID);
	return hello_fields(h);
}

void rr_ack_encode(unsigned char *buf, const struct rr_ack *a)
{
	memset(buf, 0, RR_ACK_LEN);
	proto_put_u32(buf, RR_ACK_MAGIC);
	put16(buf + 4, RR_PROTO_VERSION);
	put16(buf + 6, RR_ACK_LEN);
	proto_put_u32(buf + 8, a->run);
	proto_put_u32(buf + 12, a->flow);
	proto_put_u32(buf + 16, a->status);
	proto_put_u32(buf + 20, a->max_bytes);
	proto_put_u32(buf + 24, a->clock_err_us);
	memcpy(buf + 32, a->boot_id, RR_BOOT_ID);
}

enum rr_result rr_ack_decode(const unsigned char *buf, size_t len, uint32_t run,
			     uint32_t flow, struct rr_ack *a)
{
	enum rr_result r;

	memset(a, 0, sizeof(*a));
	if (len < 8)
		return RR_SHORT;
	if (proto_get_u32(buf) != RR_ACK_MAGIC)
		return RR_MAGIC;
	r = version_length(buf + 4, len, RR_ACK_LEN, &a->version);
	if (r != RR_OK)
		return r;
	a->run = proto_get_u32(buf + 8);
	a->flow = proto_get_u32(buf + 12);
	if (a->run != run || a->flow != flow)
		return RR_FOREIGN;
	a->status = proto_get_u32(buf + 16);
	a->max_bytes = proto_get_u32(buf + 20);
	a->clock_err_us = proto_get_u32(buf + 24);
	memcpy(a->boot_id, buf + 32, RR_BOOT_ID);
	if (a->status > RR_FIELD || proto_get_u32(buf + 28))
		return RR_FIELD;
	return RR_OK;
}

void rr_msg_encode(unsigned char *buf, const struct rr_msg *m)
{
	put16(buf, RR_MSG_MAGIC);
	buf[2] = RR_PROTO_VERSION;
	buf[3] = m->kind;
	proto_put_u32(buf + 4, m->run);
	proto_put_u32(buf + 8, m->flow);
	proto_put_u32(buf + 12, m->length);
	put64(buf + 16, m->seq);
	put64(buf + 24, m->due_mono);
	put64(buf + 32, m->tx_mono);
	put64(buf + 40, m->tx_real);
	put64(buf + 48, m->rx_real);
	put64(buf + 56, m->back_real);
}

enum rr_result rr_msg_decode(const unsigned char *buf, size_t len,
			     const struct rr_expect *want, struct rr_msg *m)
{
	enum rr_result r;

	memset(m, 0, sizeof(*m));
	if (len < RR_MSG_HDR)
		return RR_SHORT;
	if (get16(buf) != RR_MSG_MAGIC)
		return RR_MAGIC;
	if (buf[2] != RR_PROTO_VERSION)
		return RR_VERSION;
	m->kind = buf[3];
	m->run = proto_get_u32(buf + 4);
	m->flow = proto_get_u32(buf + 8);
	m->length = proto_get_u32(buf + 12);
	if (m->run != want->run || m->flow != want->flow)
		return RR_FOREIGN;
	if (m->kind != want->kind)
		return m->kind >= RR_REQUEST && m->kind <= RR_BYE ? RR_KIND : RR_FIELD;
	/* what the peer meant to send, then what came */
	r = size_check(m->length, want->length);
	if (r == RR_OK)
		r = size_check(len, m->length);
	if (r != RR_OK)
		return r;
	m->seq = get64(buf + 16);
	m->due_mono = get64(buf + 24);
	m->tx_mono = get64(buf + 32);
	m->tx_real = get64(buf + 40);
	m->rx_real = get64(buf + 48);
	m->back_real = get64(buf + 56);
	return RR_OK;
}

enum rr_clock rr_msg_times(const struct rr_msg *m, uint64_t arr_mono, uint64_t arr_real,
			   struct rr_times *t)
{
	uint64_t allow, stray;

	memset(t, 0, sizeof(*t));
	if (arr_mono < m->tx_mono || m->tx_mono < m->due_mono)
		return RR_CLOCK_BAD;
	t->from_due = arr_mono - m->due_mono;
	t->from_send = arr_mono - m->tx_mono;
	/* the realtime trip less the monotonic one, in -allow..allow (in
	 * unsigned arithmetic, so that no stamp can overflow it) */
	allow = RR_STEP_SLACK_NS + t->from_send / (1000000 / RR_STEP_PPM);
	stray = arr_real - m->tx_real - t->from_send;
	if (stray + allow > 2 * allow)
		return RR_CLOCK_STEPPED;
	if ((int64_t)(m->rx_real - m->tx_real) < 0 || (int64_t)(arr_real - m->back_real) < 0 ||
	    (int64_t)(m->back_real - m->rx_real) < 0)
		return RR_CLOCK_DISAGREE;
	t->out = m->rx_real - m->tx_real;
	t->back = arr_real - m->back_real;
	t->held = m->back_real - m->rx_real;
	t->one_way = 1;
	return RR_CLOCK_OK;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int rr_boot_id_parse(const char *text, unsigned char id[RR_BOOT_ID])
{
	size_t at = 0, n = 0;
	int hi, lo;

	memset(id, 0, RR_BOOT_ID);
	for (; n < RR_BOOT_ID; n++) {
		if (at == 8 || at == 13 || at == 18 || at == 23) {
			if (text[at] != '-')
				break;
			at++;
		}
		hi = hex_digit(text[at]);
		lo = hi < 0 ? -1 : hex_digit(text[at + 1]);
		if (lo < 0)
			break;
		id[n] = (unsigned char)(hi << 4 | lo);
		at += 2;
	}
	if (n == RR_BOOT_ID && (text[at] == '\0' || text[at] == '\n'))
		return 0;
	memset(id, 0, RR_BOOT_ID);
	return -1;
}

uint32_t rr_run_of(const unsigned char *buf, size_t len)
{
	if (len >= RR_HELLO_LEN && rr_sniff(buf, len) == RR_SNIFF_RR)
		return proto_get_u32(buf + 12);
	if (len >= RR_ACK_LEN && proto_get_u32(buf) == RR_ACK_MAGIC)
		return proto_get_u32(buf + 8);
	if (len >= RR_MSG_HDR && get16(buf) == RR_MSG_MAGIC)
		return proto_get_u32(buf + 4);
	return 0;
}
