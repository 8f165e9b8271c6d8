/*
 * UDP request/response in zcs's parent (lib/zcs/serve_udp.h): a small
 * table of flows, the oldest replaced when it is full; each datagram is
 * a hello (acknowledged), a request of a known flow (answered at once,
 * stamped), its bye (answered with the receiver's report), or foreign
 * (counted).
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
#include "wire/rr_io.h"
#include "wire/rxreport.h"
#include "zcs/serve.h"
#include "zcs/serve_sampler.h"
#include "zcs/serve_udp.h"

#define UDP_FLOWS 64

_Static_assert(RXREPORT_MAX <= RR_BYE_LEN, "a bye is at least the report that answers it");

struct udp_flow {
	struct sockaddr_storage from;
	socklen_t fromlen;
	uint32_t run, flow, req_bytes, resp_bytes;
	uint64_t last;		/* now_ns of its last datagram: the oldest goes first */
	uint64_t answered, start;	/* requests answered since the hello, at now_ns */
	double cpu0;		/* zcs's CPU seconds at the hello */
	struct serve_sampler_mark first;
	int ask;		/* RR_ASK_REPORT */
	int metered;		/* -c: first holds the ledger at the hello */
	int report_len;		/* the report, made at the first bye (0: not yet) */
	char report[RXREPORT_MAX];
};

static struct udp_flow flows[UDP_FLOWS];
static uint64_t foreign;
static unsigned char dgram[RR_UDP_MAX + 1], answer[RR_UDP_MAX];

uint64_t serve_udp_foreign(void)
{
	return foreign;
}

int serve_udp_open(int listen_fd, char *err, size_t errlen)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t len = sizeof(ss), olen;
	int fd, v6only = 0;

	if (getsockname(listen_fd, (struct sockaddr *)&ss, &len) < 0)
		return err_fill(err, errlen, errno, "UDP: the listener's address");
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return err_fill(err, errlen, errno, "UDP socket");
	olen = sizeof(v6only);
	if (ss.ss_family == AF_INET6 &&
	    getsockopt(listen_fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &olen) == 0)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
	if (bind(fd, (struct sockaddr *)&ss, len) < 0) {
		err_fill(err, errlen, errno, "UDP: bind to the listener's port");
		close(fd);
		return -1;
	}
	return fd;
}

static int same_peer(const struct udp_flow *f, const struct sockaddr_storage *from,
		     socklen_t fromlen)
{
	return f->fromlen == fromlen && !memcmp(&f->from, from, fromlen);
}

/* The flow of a datagram from there, or NULL. */
static struct udp_flow *flow_of(const struct sockaddr_storage *from, socklen_t fromlen)
{
	for (int i = 0; i < UDP_FLOWS; i++)
		if (flows[i].fromlen && same_peer(&flows[i], from, fromlen))
			return &flows[i];
	return NULL;
}

/* A hello from there: acknowledged (or refused by the ack), its flow kept. */
static void take_hello(int fd, const unsigned char *buf, size_t n,
		       const struct sockaddr_storage *from, socklen_t fromlen,
		       const struct serve_cfg *sc)
{
	struct rr_hello h;
	struct rr_ack a = { .max_bytes = RR_UDP_MAX };
	struct udp_flow *f = flow_of(from, fromlen), *old = &flows[0];
	enum rr_result res = rr_hello_decode(buf, n, &h);
	unsigned char ack[RR_ACK_LEN];
	char peer[128];

	if (res == RR_OK && (h.proto != RR_UDP || h.mode != RR_MODE_RR ||
			     !rr_timed(h.req_bytes, h.resp_bytes) || h.resp_bytes > h.req_bytes ||
			     h.req_bytes > RR_UDP_MAX))
		res = RR_FIELD;		/* unstamped, or an answer larger than asked */
	a.run = h.run;
	a.flow = h.flow;
	a.status = res;
	a.clock_err_us = rr_clock_err_us();
	rr_boot_id(a.boot_id);
	rr_ack_encode(ack, &a);
	sendto(fd, ack, sizeof(ack), MSG_DONTWAIT, (const struct sockaddr *)from, fromlen);
	net_addr_name((const struct sockaddr *)from, fromlen, peer, sizeof(peer));
	if (res != RR_OK) {
		error(0, 0, "%s: UDP request/response refused: the hello is %s", peer,
		      rr_result_text(res));
		return;
	}
	for (int i = 0; !f && i < UDP_FLOWS; i++)
		if (flows[i].last < old->last)
			old = &flows[i];
	f = f ? f : old;
	*f = (struct udp_flow){ .fromlen = fromlen, .run = h.run, .flow = h.flow,
		.req_bytes = h.req_bytes, .resp_bytes = h.resp_bytes, .last = now_ns(),
		.start = now_ns(), .cpu0 = cpu_self_secs(), .ask = h.flags & RR_ASK_REPORT };
	memcpy(&f->from, from, fromlen);
	f->metered = sc->meter && serve_sampler_read(&f->first) == 0;
	if (sc->debug)
		error(0, 0, "%s: UDP request/response, %" PRIu32 " and %" PRIu32 " bytes", peer,
		      h.req_bytes, h.resp_bytes);
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
static int take_bye(int fd, struct udp_flow *f, size_t n)
{
	struct rr_expect want = { .run = f->run, .flow = f->flow, .length = RR_BYE_LEN,
				  .kind = RR_BYE };
	struct rr_msg m;

	if (!f->ask || rr_msg_decode(dgram, n, &want, &m) != RR_OK)
		return 0;
	if (!f->report_len)
		make_report(f);
	if (f->report_len > 0)
		sendto(fd, f->report, (size_t)f->report_len, MSG_DONTWAIT,
		       (const struct sockaddr *)&f->from, f->fromlen);
	return 1;
}

/* A request of flow f: answered, stamped; a bye: the report; anything else counted. */
static void take_request(int fd, struct udp_flow *f, size_t n, uint64_t rx)
{
	struct rr_expect want = { .run = f->run, .flow = f->flow, .length = f->req_bytes,
				  .kind = RR_REQUEST };
	struct rr_msg m;

	if (rr_msg_decode(dgram, n, &want, &m) != RR_OK) {
		if (!take_bye(fd, f, n))
			foreign++;
		return;
	}
	f->last = now_ns();
	f->answered++;
	m.kind = RR_RESPONSE;
	m.length = f->resp_bytes;
	m.rx_real = rx;
	m.back_real = rr_real_ns();
	rr_msg_encode(answer, &m);
	sendto(fd, answer, f->resp_bytes, MSG_DONTWAIT, (const struct sockaddr *)&f->from,
	       f->fromlen);
}

void serve_udp_take(int fd, const struct serve_cfg *sc)
{
	struct sockaddr_storage from;
	socklen_t fromlen;
	struct udp_flow *f;
	ssize_t n;

	for (;;) {
		fromlen = sizeof(from);
		n = recvfrom(fd, dgram, sizeof(dgram), MSG_DONTWAIT, (struct sockaddr *)&from,
			     &fromlen);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return;
		if (rr_sniff(dgram, (size_t)n) == RR_SNIFF_RR) {
			take_hello(fd, dgram, (size_t)n, &from, fromlen, sc);
			continue;
		}
		f = flow_of(&from, fromlen);
		if (f)
			take_request(fd, f, (size_t)n, rr_real_ns());
		else
			foreign++;
	}
}
