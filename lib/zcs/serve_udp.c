/*
 * Datagram request/response in zcs's parent (lib/zcs/serve_udp.h): a
 * small table of flows over every datagram end (UDP, raw IP, raw
 * Ethernet: lib/zcs/serve_dgram.h), the oldest replaced when it is full;
 * each datagram is a hello (acknowledged), a request of a known flow
 * (answered at once, stamped), its bye (answered with the receiver's
 * report), or foreign (counted).
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/err.h"
#include "base/textfile.h"
#include "meter/meter.h"
#include "wire/net.h"
#include "wire/proto.h"
#include "wire/rr_io.h"
#include "wire/rxreport.h"
#include "zcs/serve.h"
#include "zcs/serve_dgram.h"
#include "zcs/serve_sampler.h"
#include "zcs/serve_udp.h"

#define UDP_FLOWS 64

_Static_assert(RXREPORT_MAX <= RR_BYE_LEN, "a bye is at least the report that answers it");

struct udp_flow {
	const struct serve_dg *end;	/* where it came, and its answers go */
	uint64_t last;		/* now_ns of its last datagram: the oldest goes first */
	uint64_t answered, start;	/* requests answered since the hello, at now_ns */
	double cpu0;		/* zcs's CPU seconds at the hello */
	struct serve_sampler_mark first;
	struct sockaddr_storage from;
	socklen_t fromlen;
	uint32_t run, flow, req_bytes, resp_bytes;
	int ask;		/* RR_ASK_REPORT */
	int metered;		/* -c: first holds the ledger at the hello */
	int report_len;		/* the report, made at the first bye (0: not yet) */
	char report[RXREPORT_MAX];
};

static struct udp_flow flows[UDP_FLOWS];
static unsigned char dgram[RR_UDP_MAX + 1], answer[RR_UDP_MAX];

/*
 * The flow of a datagram from there on end d, of run and flow (a raw
 * end sees every client of the machine alike, -P's flows among them),
 * or NULL.
 */
static struct udp_flow *flow_of(const struct serve_dg *d, const struct sockaddr_storage *from,
				socklen_t fromlen, uint32_t run, uint32_t flow)
{
	for (int i = 0; i < UDP_FLOWS; i++)
		if (flows[i].fromlen == fromlen && flows[i].end == d && flows[i].run == run &&
		    flows[i].flow == flow && !memcmp(&flows[i].from, from, fromlen))
			return &flows[i];
	return NULL;
}

static const char *dg_name(const struct serve_dg *d)
{
	return d->proto == RR_IP ? "ip" : d->proto == RR_PACKET ? "packet" : "UDP";
}

/* A hello from there: acknowledged (or refused by the ack), its flow kept. */
static void take_hello(const struct serve_dg *d, const unsigned char *buf, size_t n,
		       const struct sockaddr_storage *from, socklen_t fromlen,
		       const struct serve_cfg *sc)
{
	struct rr_hello h;
	struct rr_ack a = { .max_bytes = (uint32_t)d->max };
	struct udp_flow *f, *old = &flows[0];
	enum rr_result res = rr_hello_decode(buf, n, &h);
	unsigned char ack[RR_ACK_LEN];
	char peer[128];

	if (res == RR_OK && (h.proto != d->proto || h.mode != RR_MODE_RR ||
			     !rr_timed(h.req_bytes, h.resp_bytes) || h.resp_bytes > h.req_bytes ||
			     h.req_bytes > d->max))
		res = RR_FIELD;		/* unstamped, or an answer larger than asked */
	a.run = h.run;
	a.flow = h.flow;
	a.status = res;
	a.clock_err_us = rr_clock_err_us();
	rr_boot_id(a.boot_id);
	rr_ack_encode(ack, &a);
	serve_dg_send(d, ack, sizeof(ack), from, fromlen);
	serve_dg_name(from, fromlen, peer, sizeof(peer));
	if (res != RR_OK) {
		error(0, 0, "%s: %s request/response refused: the hello is %s", peer,
		      dg_name(d), rr_result_text(res));
		return;
	}
	f = flow_of(d, from, fromlen, h.run, h.flow);
	for (int i = 0; !f && i < UDP_FLOWS; i++)
		if (flows[i].last < old->last)
			old = &flows[i];
	f = f ? f : old;
	*f = (struct udp_flow){ .end = d, .fromlen = fromlen, .run = h.run, .flow = h.flow,
		.req_bytes = h.req_bytes, .resp_bytes = h.resp_bytes, .last = now_ns(),
		.start = now_ns(), .cpu0 = cpu_self_secs(), .ask = h.flags & RR_ASK_REPORT };
	memcpy(&f->from, from, fromlen);
	f->metered = sc->meter && serve_sampler_read(&f->first) == 0;
	if (sc->debug)
		error(0, 0, "%s: %s request/response, %" PRIu32 " and %" PRIu32 " bytes", peer,
		      dg_name(d), h.req_bytes, h.resp_bytes);
}

/*
 * Flow f's report, made at its first bye (so a bye sent again gets the
 * same line): the requests answered since the hello, zcs's own CPU and,
 * with -c, the machine's load over that time.
 */
static void make_report(struct udp_flow *f)
{
	double secs = (double)(now_ns() - f->start) / 1e9;
	uint64_t bytes = f->answered * f->req_bytes;
	uint64_t both = f->answered * ((uint64_t)f->req_bytes + f->resp_bytes);
	struct rxreport x = { .method = "rr", .read_bytes = f->req_bytes, .bytes = bytes,
			      .seconds = secs, .own = cpu_us_per_kb(cpu_self_secs() - f->cpu0, bytes),
			      .rr = 1, .transactions = f->answered };
	struct serve_load l;

	if (textfile_line("/proc/sys/kernel/random/boot_id", x.boot_id, sizeof(x.boot_id)) < 0)
		x.boot_id[0] = '\0';
	if (f->metered && bytes && (l = serve_sampler_since(&f->first, &both)).valid) {
		x.metered = 1;
		x.load = l.load;
		x.ncpus = (unsigned)l.ncpus;
		x.demand = service_demand_us_per_kb(l.load, l.ncpus, secs, bytes);
	}
	f->report_len = rxreport_format(f->report, sizeof(f->report), &x);
}

/* A bye of flow f (it asked for the report): answered with it; else 0. */
static int take_bye(struct udp_flow *f, size_t n)
{
	struct rr_expect want = { .run = f->run, .flow = f->flow, .length = RR_BYE_LEN,
				  .kind = RR_BYE };
	struct rr_msg m;

	if (!f->ask || rr_msg_decode(dgram, n, &want, &m) != RR_OK)
		return 0;
	if (!f->report_len)
		make_report(f);
	if (f->report_len > 0)
		serve_dg_send(f->end, f->report, (size_t)f->report_len, &f->from, f->fromlen);
	return 1;
}

/* A request of flow f: answered, stamped; a bye: the report; anything else counted. */
static void take_request(struct serve_dg *d, struct udp_flow *f, size_t n, uint64_t rx)
{
	struct rr_expect want = { .run = f->run, .flow = f->flow, .length = f->req_bytes,
				  .kind = RR_REQUEST };
	struct rr_msg m;

	if (rr_msg_decode(dgram, n, &want, &m) != RR_OK) {
		if (!take_bye(f, n))
			d->foreign++;
		return;
	}
	f->last = now_ns();
	f->answered++;
	m.kind = RR_RESPONSE;
	m.length = f->resp_bytes;
	m.rx_real = rx;
	m.back_real = rr_real_ns();
	rr_msg_encode(answer, &m);
	serve_dg_send(d, answer, f->resp_bytes, &f->from, f->fromlen);
}

int serve_udp_take(struct serve_dg *d, const struct serve_cfg *sc, char *err, size_t errlen)
{
	struct sockaddr_storage from;
	socklen_t fromlen;
	struct udp_flow *f;
	ssize_t n;

	for (;;) {
		n = serve_dg_recv(d, dgram, sizeof(dgram), &from, &fromlen);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)	/* a raw end's interface gone down */
			return err_fill(err, errlen, errno, "--proto %s: receive", dg_name(d));
		if (n < 0)
			return 0;
		if (n == 0 && d->proto == RR_PACKET)
			continue;	/* its own answer, going out */
		if (rr_sniff(dgram, (size_t)n) == RR_SNIFF_RR) {
			take_hello(d, dgram, (size_t)n, &from, fromlen, sc);
			continue;
		}
		/* The run and flow ids: a message's words 1 and 2. */
		f = n < 12 ? NULL : flow_of(d, &from, fromlen, proto_get_u32(dgram + 4),
					    proto_get_u32(dgram + 8));
		if (f)
			take_request(d, f, (size_t)n, rr_real_ns());
		else
			d->foreign++;
		/* UDP: back to poll(), which says at once when more wait; a
		 * receive that finds none would cost each closed-loop request a
		 * third system call (netserver's UDP_RR makes two). A raw end,
		 * which sees every packet of its protocol, drains them. */
		if (d->proto == RR_UDP)
			return 0;
	}
}
