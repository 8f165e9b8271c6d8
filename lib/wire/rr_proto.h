/*
 * The request/response protocol of zcc --rr and zcs: what goes on the
 * wire, encoded and decoded here and nowhere else. Pure: no sockets, no
 * clocks; the callers stamp the times. All integers big-endian.
 *
 * 1. The hello. An RR client opens every connection (every UDP flow:
 * its first datagram) with RR_HELLO_LEN bytes:
 *
 *     u32 RR_HELLO_W0, u32 RR_HELLO_W1     where a stream has n_loops, n_files
 *     u16 version, u16 length              RR_PROTO_VERSION, RR_HELLO_LEN
 *     u32 run id                           the client's, random, not 0
 *     u32 flow id                          0.. for -P's flows
 *     u32 request bytes, u32 response bytes   1..RR_MSG_MAX (UDP: RR_UDP_MAX)
 *     u8 protocol, u8 mode, u16 flags      RR_TCP, RR_UDP, RR_IP, RR_PACKET; RR_MODE_RR; RR_ASK_*
 *     16 bytes: the client's boot id       zeros: unknown
 *
 * The flags were 0 before any was defined, so a client that asks for
 * nothing sends the hello it always did. RR_ASK_REPORT: the client wants
 * the receiver's report (lib/wire/rxreport.h, version 2: its transactions,
 * load, CPUs and seconds) to give the far end's CPU per transaction. Over
 * TCP, once the client has shut its side after the last answer, the
 * server writes it and then closes. Over UDP the client's last datagram
 * is a bye (below) and the server answers it with the report's line as
 * one datagram. An unknown flag is a field out of range.
 *
 * Telling it from a stream. A 2001 stream begins u32 n_loops, u32 n_files.
 * Read so, the hello announces RR_HELLO_W0 (about 2.05e9) loops of
 * RR_HELLO_W1 (about 2.66e9) files each. No zcc can announce that many
 * files in a loop: n_files counts the files it sends, which a 2001 zcc
 * names on its command line. A name costs at least 10 bytes there (two
 * of string, a pointer), and Linux caps a command line at a quarter of
 * the stack limit and at 6 MiB (128 KiB on the kernels of 2001): under a
 * million names. Even the kernels that let an unlimited stack lift the
 * cap would need 20 GiB of command line for 2^31. Ours keeps every file
 * open, a descriptor each, and descriptors are ints below the kernel's nr_open
 * ceiling (under 2^31 <= RR_HELLO_W1); its -t ending loops announce 0
 * files. So the second word decides, whatever the first; the first (no
 * stream's n_loops unless -n names exactly it) only lets zcs decide at 4
 * bytes for nearly every stream: rr_sniff.
 *
 * A 2001 zcs (or any stream-only one) reads the hello as the start of a
 * stream: it waits for the data of those 2e9 loops and never writes a
 * byte. zcc waits RR_ACK_WAIT_MS for the acknowledgement below; none (or
 * the connection closed first): "no answer: the server does not speak
 * request/response (a 2001 zcs?)", exit 1.
 *
 * 2. The acknowledgement, server to client, RR_ACK_LEN bytes:
 *
 *     u32 RR_ACK_MAGIC, u16 version, u16 length
 *     u32 run id, u32 flow id               the hello's
 *     u32 status                            RR_OK, or the rr_result refusing it
 *     u32 largest message the server takes  (to name in a refusal)
 *     u32 the server's clock error, us      adjtimex esterror; UINT32_MAX: unsynchronised
 *     u32 0
 *     16 bytes: the server's boot id        same as the client's: one clock
 *
 * 3. The messages. When both sizes are at least RR_MSG_HDR (rr_timed),
 * every request and response begins with a header, the rest of it filler:
 *
 *     u16 RR_MSG_MAGIC, u8 version, u8 kind  RR_REQUEST or RR_RESPONSE
 *     u32 run id, u32 flow id, u32 length    this whole message's bytes
 *     u64 seq                                from 0 in each flow
 *     u64 due_mono                           CLOCK_MONOTONIC ns it was due (client)
 *     u64 tx_mono                            ... it actually went out (client)
 *     u64 tx_real                            CLOCK_REALTIME ns of that send (client)
 *     u64 rx_real, back_real                 response: CLOCK_REALTIME the server
 *                                            read the request, sent the answer
 *
 * A bye (RR_BYE, UDP with RR_ASK_REPORT) is the header alone, seq the
 * requests sent, zeros to RR_BYE_LEN bytes: at least the report that
 * answers it (RXREPORT_MAX), so the server never sends an address more
 * than it got from it. The server's answer to each bye is the report
 * (the same line each time: the client sends the bye again until one
 * comes, as datagrams go missing).
 *
 * The server echoes run, flow, seq and the client's three stamps, sets
 * kind and length for its answer and fills the last two, so zcc holds
 * nothing per message: on each response it has the round trip from the
 * due time and from the send (its monotonic clock alone: immune to
 * steps), and, when the ends share a clock (boot ids) or --clocks-synced,
 * the one-way times rx_real - tx_real and arrival - back_real. A one-way
 * time below zero, or a realtime round trip that strays from the
 * monotonic one, means a clock stepped (rr_msg_times): zcc counts it
 * apart, never records it.
 *
 * Bare messages. Below RR_MSG_HDR either way (netperf's 1-byte TCP_RR),
 * messages are payload only: no sequence number, no stamps. TCP only
 * (the stream keeps order: the n-th answer is the n-th request's); zcc
 * keeps the due and send times of the requests in flight in a ring
 * (closed loop: one), measures round trips only, and when more requests
 * are unanswered than the ring holds, says the peer does not answer. A
 * long or short answer puts the stream out of step, seen as bytes after
 * the last answer or an early close. UDP needs the header
 * (its sequence number counts lost, duplicated and reordered datagrams).
 *
 * zcs, for each TCP connection: gather the first bytes, rr_sniff; a
 * stream goes to the stream checker with those same bytes; an RR hello
 * is read whole, rr_hello_decode, answered with an ack (a refusal is an
 * ack whose status says why, then close), then: read a request of its
 * size, rr_msg_decode it (timed), write the answer (rr_msg_encode with
 * the stamps), until the client closes. Over UDP the same per datagram,
 * for the runs whose hello came from that address and port; anything
 * else decodes to a result and is counted, never answered.
 */
#ifndef ZC_RR_PROTO_H
#define ZC_RR_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define RR_HELLO_W0	0x7a635252u	/* "zcRR" */
#define RR_HELLO_W1	0x9e3779b9u	/* over 2^31: see above */
#define RR_ACK_MAGIC	0x7a637272u	/* "zcrr" */
#define RR_MSG_MAGIC	0x7a63u		/* "zc" */
#define RR_PROTO_VERSION 1
#define RR_HELLO_LEN	48
#define RR_ACK_LEN	48
#define RR_MSG_HDR	64
#define RR_MSG_MAX	(1u << 20)
#define RR_UDP_MAX	65507u		/* a UDP datagram's payload over IPv4 */
#define RR_ACK_WAIT_MS	3000
#define RR_BOOT_ID	16
#define RR_SNIFF_BYTES	8		/* rr_sniff decides by then */
#define RR_BYE_LEN	512		/* a bye's bytes: RXREPORT_MAX */

/* RR_IP, RR_PACKET: raw IP and raw Ethernet (lib/wire/raw.h), a UDP datagram's payload. */
enum rr_proto { RR_TCP = 1, RR_UDP = 2, RR_IP = 3, RR_PACKET = 4 };
#define rr_proto_dgram(p) ((p) == RR_UDP || (p) == RR_IP || (p) == RR_PACKET)
enum rr_mode { RR_MODE_RR = 1 };
enum rr_kind { RR_REQUEST = 1, RR_RESPONSE = 2, RR_BYE = 3 };
enum rr_ask { RR_ASK_REPORT = 1 };	/* the hello's flags */

/* What a decode found; each refusal its own code. */
enum rr_result {
	RR_OK = 0,
	RR_SHORT,	/* fewer bytes than a header, than announced or than the run's size */
	RR_LONG,	/* more bytes than announced or than the run's size */
	RR_MAGIC,	/* not ours at all */
	RR_VERSION,	/* ours, another version */
	RR_FOREIGN,	/* ours, another run or flow */
	RR_KIND,	/* a request where an answer was due, or the reverse */
	RR_FIELD,	/* a field out of range: a size, the protocol, the mode, a reserved one */
};

/* rr_result_text - what a result means, a few words ("not a zc message"). */
const char *rr_result_text(enum rr_result r);

struct rr_hello {
	uint16_t version;
	uint32_t run, flow;
	uint32_t req_bytes, resp_bytes;
	uint8_t proto, mode;
	uint16_t flags;		/* RR_ASK_* */
	unsigned char boot_id[RR_BOOT_ID];
};

struct rr_ack {
	uint16_t version;
	uint32_t run, flow;
	uint32_t status;	/* an enum rr_result */
	uint32_t max_bytes;
	uint32_t clock_err_us;
	unsigned char boot_id[RR_BOOT_ID];
};

struct rr_msg {
	uint8_t kind;
	uint32_t run, flow, length;
	uint64_t seq;
	uint64_t due_mono, tx_mono, tx_real;
	uint64_t rx_real, back_real;
};

/* What rr_msg_decode expects of a message. */
struct rr_expect {
	uint32_t run, flow, length;
	uint8_t kind;
};

/* Which protocol a connection's first have bytes speak. */
enum rr_sniff { RR_SNIFF_MORE, RR_SNIFF_STREAM, RR_SNIFF_RR };

/*
 * rr_sniff - a 2001 stream, an RR hello, or too few bytes to say (more
 * are needed: at most RR_SNIFF_BYTES). At the end of the input, MORE means a stream
 * (one too short to be anything else).
 */
enum rr_sniff rr_sniff(const unsigned char *buf, size_t have);

/*
 * rr_run_of - the run id a hello, an ack or a message in buf[0..len)
 * names, by its magic; 0 for anything else (no run's id is 0). What a
 * raw socket's reader tells its own run's packets by.
 */
uint32_t rr_run_of(const unsigned char *buf, size_t len);

/* rr_timed - do messages of these sizes carry the header? */
static inline int rr_timed(uint32_t req_bytes, uint32_t resp_bytes)
{
	return req_bytes >= RR_MSG_HDR && resp_bytes >= RR_MSG_HDR;
}

/* rr_hello_encode - h into buf[RR_HELLO_LEN] (version and length set here). */
void rr_hello_encode(unsigned char *buf, const struct rr_hello *h);

/*
 * rr_hello_decode - buf[0..len) into *h: RR_OK or why not. On RR_VERSION
 * h->version says which (for the refusal), the rest is not read.
 */
enum rr_result rr_hello_decode(const unsigned char *buf, size_t len, struct rr_hello *h);

/* rr_ack_encode - a into buf[RR_ACK_LEN]. */
void rr_ack_encode(unsigned char *buf, const struct rr_ack *a);

/*
 * rr_ack_decode - buf[0..len) into *a, for the hello of run and flow.
 * RR_OK says the ack is well formed; a->status whether the server took it.
 */
enum rr_result rr_ack_decode(const unsigned char *buf, size_t len, uint32_t run,
			     uint32_t flow, struct rr_ack *a);

/* rr_msg_encode - m's header into buf[RR_MSG_HDR]; the rest is the caller's. */
void rr_msg_encode(unsigned char *buf, const struct rr_msg *m);

/*
 * rr_msg_decode - the header of the message buf[0..len) into *m, if it is
 * one of want's: its run, flow and kind, and want->length bytes both by
 * its length field and by len.
 */
enum rr_result rr_msg_decode(const unsigned char *buf, size_t len,
			     const struct rr_expect *want, struct rr_msg *m);

/* What one response's stamps say, with the client's arrival times. */
struct rr_times {
	uint64_t from_due, from_send;	/* the round trip, monotonic ns */
	uint64_t out, back;		/* one-way times, realtime ns: */
	uint64_t held;			/*   and the server's hold, when */
	int one_way;			/*   this is 1 */
};

/* Whether the realtime stamps can be believed. */
enum rr_clock {
	RR_CLOCK_OK,
	RR_CLOCK_BAD,		/* the echoed monotonic stamps are not ours: no times */
	RR_CLOCK_STEPPED,	/* our realtime moved unlike our monotonic clock */
	RR_CLOCK_DISAGREE,	/* a one-way time or the hold came out negative */
};

/*
 * RR_STEP_SLACK_NS plus RR_STEP_PPM of the round trip: how far the
 * realtime round trip may stray from the monotonic one before it is a
 * step (slewing changes the rate by at most 500 ppm; the two clocks are
 * read a few instructions apart).
 */
#define RR_STEP_SLACK_NS 2000
#define RR_STEP_PPM 1000

/*
 * rr_msg_times - the times of response m, which arrived at arr_mono
 * (CLOCK_MONOTONIC) and arr_real (CLOCK_REALTIME). The round trips use
 * the monotonic stamps alone, so no clock step touches them. The
 * one-way times are given (t->one_way) only with RR_CLOCK_OK: a step of
 * the client's realtime during the trip, or a one-way time below zero
 * (a step at either end, or clocks further apart than the trip), leaves
 * them out, for the caller to count. Whether the two ends read one
 * clock at all is the caller's question (boot ids, --clocks-synced).
 */
enum rr_clock rr_msg_times(const struct rr_msg *m, uint64_t arr_mono, uint64_t arr_real,
			   struct rr_times *t);

/*
 * rr_boot_id_parse - the text of /proc/sys/kernel/random/boot_id (a UUID,
 * 36 characters) into id; -1 (id zeroed: unknown) when it is not one.
 */
int rr_boot_id_parse(const char *text, unsigned char id[RR_BOOT_ID]);

#endif
