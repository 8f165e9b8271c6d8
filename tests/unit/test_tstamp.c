/*
 * lib/wire/tstamp.c and tstamp_track.c: a message's stages from the
 * kernel's stamps. The tracker on stamps made up here (the stages, a
 * stamp for a message gone from the ring, twice, or before the send, a
 * clock step; what counts as missing: only the kinds that came at all);
 * the parser on control data built by hand; then the real thing over a
 * loopback TCP connection: every send stamped SCHED, SND and
 * ACK with its last byte's number, and the receiver's arrival stamp; and
 * tstamp_every.c's one send in so many.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/errqueue.h>
#include <linux/net_tstamp.h>

#include "unit/t.h"
#include "wire/tstamp.h"
#include "wire/tstamp_every.h"

static struct tstamp_tx stamp(enum tstamp_kind k, uint32_t id, uint64_t ns)
{
	return (struct tstamp_tx){ .kind = k, .id = id, .ns = ns };
}

static void tracker(void)
{
	struct tstamp_track *t = malloc(sizeof(*t));
	struct tstamp_tx s;

	if (!t) {
		CHECK(0, "memory for a tracker");
		return;
	}
	tstamp_track_init(t, 100, 150);
	tstamp_track_sent(t, 1000);	/* message 0: bytes 0..99 */
	tstamp_track_sent(t, 2000);	/* message 1: bytes 100..199 */
	s = stamp(TSTAMP_SND, 99, 1250);	/* SND before SCHED: kept till SCHED comes */
	tstamp_track_take(t, &s);
	s = stamp(TSTAMP_SCHED, 99, 1100);
	tstamp_track_take(t, &s);
	s = stamp(TSTAMP_ACK, 99, 1600);
	tstamp_track_take(t, &s);
	s = stamp(TSTAMP_SCHED, 199, 2040);
	tstamp_track_take(t, &s);
	CHECK(hist_count(&t->stage[TS_USER_QDISC]) == 2 && hist_min(&t->stage[TS_USER_QDISC]) == 40 &&
	      hist_max(&t->stage[TS_USER_QDISC]) == 100, "user to qdisc: 100 and 40 ns");
	CHECK(hist_count(&t->stage[TS_QDISC_DEV]) == 1 && hist_max(&t->stage[TS_QDISC_DEV]) == 150,
	      "qdisc to device from SND then SCHED: 150 ns");
	CHECK(hist_count(&t->stage[TS_DEV_ACK]) == 1 && hist_max(&t->stage[TS_DEV_ACK]) == 350,
	      "device to ACK: 350 ns, over the 150 ns budget");
	CHECK(hist_over_budget(&t->stage[TS_DEV_ACK]) == 1, "the budget counted");
	CHECK(t->got[TSTAMP_SCHED] == 2 && t->got[TSTAMP_SND] == 1 && t->got[TSTAMP_ACK] == 1,
	      "stamps counted by kind");
	s = stamp(TSTAMP_SCHED, 99, 1200);	/* again */
	tstamp_track_take(t, &s);
	s = stamp(TSTAMP_SCHED, 299, 3000);	/* message 2: not sent */
	tstamp_track_take(t, &s);
	s = stamp(TSTAMP_SCHED, 50, 3000);	/* inside message 0: no send ends there */
	tstamp_track_take(t, &s);
	s = stamp(TSTAMP_ACK, 150, 3000);	/* inside message 1 */
	tstamp_track_take(t, &s);
	CHECK(t->late == 3 && t->again == 1 && t->got[TSTAMP_SCHED] == 2 &&
	      t->got[TSTAMP_ACK] == 1, "twice: again; unsent, mid-message: late (%llu)",
	      (unsigned long long)t->late);
	s = stamp(TSTAMP_SND, 199, 1999);	/* before its SCHED: the clock stepped */
	tstamp_track_take(t, &s);
	tstamp_track_wakeup(t, 5000, 4000);
	CHECK(t->stepped == 2 && hist_count(&t->stage[TS_QDISC_DEV]) == 1 &&
	      hist_count(&t->stage[TS_WAKEUP]) == 0, "negative stages counted apart, not recorded");
	tstamp_track_wakeup(t, 5000, 5070);
	CHECK(hist_max(&t->stage[TS_WAKEUP]) == 70, "wake-up: stamp to recv() returning");
	for (int i = 0; i < TSTAMP_RING; i++)
		tstamp_track_sent(t, 10000);
	s = stamp(TSTAMP_SCHED, 199, 2100);	/* message 1, long gone from the ring */
	tstamp_track_take(t, &s);
	CHECK(t->late == 4, "a stamp for a message out of the ring: late");
	free(t);
}

static void missing(void)
{
	struct tstamp_track *t = malloc(sizeof(*t));

	tstamp_track_init(t, 1, UINT64_MAX);
	for (int i = 0; i < 5; i++)
		tstamp_track_sent(t, 1000);
	t->got[TSTAMP_SCHED] = 5;
	t->got[TSTAMP_SND] = 3;
	CHECK(tstamp_track_missing(t) == 2, "missing: 2 SND of 5; no ACK came at all: none of it");
	t->got[TSTAMP_SND] = 0;
	CHECK(tstamp_track_missing(t) == 0, "a kind never stamped here is not missing");
	free(t);
}

/* Control data as the kernel writes it for a transmit stamp. */
static void parser(void)
{
	union {
		char buf[256];
		struct cmsghdr align;
	} u;
	struct msghdr msg = { .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct scm_timestamping ts = { .ts = { { 7, 500 } } };
	struct sock_extended_err ee = { .ee_errno = ENOMSG, .ee_origin = SO_EE_ORIGIN_TIMESTAMPING,
					.ee_info = SCM_TSTAMP_ACK, .ee_data = 4242 };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	struct tstamp_tx out;

	memset(u.buf, 0, sizeof(u.buf));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_TIMESTAMPING;
	cm->cmsg_len = CMSG_LEN(sizeof(ts));
	memcpy(CMSG_DATA(cm), &ts, sizeof(ts));
	cm = CMSG_NXTHDR(&msg, cm);
	cm->cmsg_level = SOL_IP;
	cm->cmsg_type = IP_RECVERR;
	cm->cmsg_len = CMSG_LEN(sizeof(ee));
	memcpy(CMSG_DATA(cm), &ee, sizeof(ee));
	msg.msg_controllen = CMSG_SPACE(sizeof(ts)) + CMSG_SPACE(sizeof(ee));
	CHECK(tstamp_parse_tx(&msg, &out) == 1 && out.kind == TSTAMP_ACK && out.id == 4242 &&
	      out.ns == 7000000500u, "an ACK stamp: its kind, number and time");
	CHECK(tstamp_parse_rx(&msg) == 7000000500u, "the software stamp read as an arrival too");
	msg.msg_flags = MSG_CTRUNC;
	CHECK(tstamp_parse_tx(&msg, &out) == 0, "cut control data: no stamp");
	msg.msg_flags = 0;
	ee.ee_origin = SO_EE_ORIGIN_ZEROCOPY;
	memcpy(CMSG_DATA(cm), &ee, sizeof(ee));
	CHECK(tstamp_parse_tx(&msg, &out) == 0, "a zero-copy notification is no stamp");
	msg.msg_controllen = CMSG_SPACE(sizeof(ts));
	CHECK(tstamp_parse_tx(&msg, &out) == 0, "a stamp without its error record: none");
}

static uint64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A loopback TCP connection: *cli and *srv, or -1. */
static int connected(int *cli, int *srv)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	if (l < 0)
		return -1;
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)&a, &len) < 0) {
		close(l);
		return -1;
	}
	*cli = socket(AF_INET, SOCK_STREAM, 0);
	if (*cli < 0 || connect(*cli, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(l);
		return -1;
	}
	*srv = accept(l, NULL, NULL);
	close(l);
	return *srv < 0 ? -1 : 0;
}

static void loopback(void)
{
	struct tstamp_track *t = malloc(sizeof(*t));
	unsigned char msg[100] = { 0 }, in[300];
	char err[256], control[TSTAMP_CMSG_SPACE];
	struct iovec iov = { in, sizeof(in) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct pollfd pfd;
	struct tstamp_tx s;
	uint64_t t0 = real_ns(), arrived;
	int cli = -1, srv = -1, got = 0, rc, stamped = 0, bad = 0;
	size_t have = 0;

	if (!t || connected(&cli, &srv) < 0) {
		CHECK(0, "a loopback connection");
		free(t);
		return;
	}
	CHECK(tstamp_enable(cli, 1, err, sizeof(err)) == 0, "the sender's stamps asked (%s)", err);
	CHECK(tstamp_enable(srv, 1, err, sizeof(err)) == 0, "the receiver's too");
	tstamp_track_init(t, sizeof(msg), UINT64_MAX);
	for (int i = 0; i < 3; i++) {
		tstamp_track_sent(t, real_ns());
		send(cli, msg, sizeof(msg), 0);
	}
	/* Each of the 3 sends: SCHED, SND and ACK, as they come (bounded). */
	pfd = (struct pollfd){ .fd = cli, .events = 0 };
	while (got < 9 && poll(&pfd, 1, 5000) > 0)
		while (tstamp_read_tx(cli, &s, err, sizeof(err)) == 1) {
			tstamp_track_take(t, &s);
			got++;
		}
	CHECK(got == 9 && t->got[TSTAMP_SCHED] == 3 && t->got[TSTAMP_SND] == 3 &&
	      t->got[TSTAMP_ACK] == 3 && t->late == 0,
	      "9 stamps, each send's three, none late (%d)", got);
	CHECK(hist_count(&t->stage[TS_USER_QDISC]) == 3 && hist_count(&t->stage[TS_QDISC_DEV]) == 3 &&
	      hist_count(&t->stage[TS_DEV_ACK]) == 3, "three stages a send");
	CHECK(hist_max(&t->stage[TS_DEV_ACK]) < 5000000000u, "times of this run, not of the epoch");
	while (have < sizeof(in)) {
		m.msg_control = control;
		m.msg_controllen = sizeof(control);
		*m.msg_iov = (struct iovec){ in + have, sizeof(in) - have };
		rc = (int)recvmsg(srv, &m, 0);
		if (rc <= 0)
			break;
		have += (size_t)rc;
	}
	/*
	 * The kernel stamps arrivals once a socket asked, but switches that on
	 * for the machine in the background: the first packets may come
	 * unstamped. So a byte at a time until one is (TCP gives the stamp of
	 * the last packet a read took, when it has one).
	 */
	for (int i = 0; i < 100000 && !stamped && have == sizeof(in); i++) {
		m.msg_control = control;
		m.msg_controllen = sizeof(control);
		*m.msg_iov = (struct iovec){ in, 1 };
		if (send(cli, msg, 1, 0) != 1 || recvmsg(srv, &m, 0) != 1)
			break;
		arrived = tstamp_parse_rx(&m);
		stamped = arrived != 0;
		bad = arrived && (arrived < t0 || arrived > real_ns());
	}
	CHECK(have == sizeof(in) && stamped && !bad, "the receiver's arrival stamp, in the run's time");
	close(cli);
	close(srv);
	free(t);
}

/*
 * Stream mode's stamps over loopback TCP: of 130 sends of 100 bytes, one
 * in 64 asks (the 1st, 65th and 129th), each found by its last byte's
 * number, and the last drain takes what is still to come.
 */
static void every(void)
{
	struct tstamp_every *e = tstamp_every_new(64, UINT64_MAX);
	unsigned char msg[100] = { 0 }, sink[4096];
	char err[256] = "";
	int cli = -1, srv = -1, sent = 0;

	if (!CHECK(e && connected(&cli, &srv) == 0, "a loopback connection"))
		return;
	CHECK(tstamp_enable_each(cli, err, sizeof(err)) == 0, "stamps asked send by send (%s)", err);
	for (int i = 0; i < 130; i++) {
		sent += tstamp_every_send(e, cli, msg, sizeof(msg), 0) == (ssize_t)sizeof(msg);
		while (recv(srv, sink, sizeof(sink), MSG_DONTWAIT) > 0)
			;
	}
	tstamp_every_finish(e, cli, TSTAMP_DRAIN_MS);
	CHECK(sent == 130 && e->calls == 130 && e->bytes == 13000, "every send went (%d)", sent);
	CHECK(e->track.sent == 3 && e->last[0] == 99 && e->last[1] == 6499 && e->last[2] == 12899,
	      "3 sends stamped, the 1st, 65th and 129th: their last bytes' numbers");
	CHECK(e->track.got[TSTAMP_SCHED] == 3 && e->track.got[TSTAMP_SND] == 3 &&
	      e->track.got[TSTAMP_ACK] == 3 && e->track.late == 0 &&
	      tstamp_track_missing(&e->track) == 0,
	      "each one's SCHED, SND and ACK, none other, none late (%llu %llu %llu, late %llu)",
	      (unsigned long long)e->track.got[TSTAMP_SCHED],
	      (unsigned long long)e->track.got[TSTAMP_SND],
	      (unsigned long long)e->track.got[TSTAMP_ACK], (unsigned long long)e->track.late);
	CHECK(hist_count(&e->track.stage[TS_DEV_ACK]) == 3, "their stages");
	close(cli);
	close(srv);
	free(e);
}

int main(void)
{
	tracker();
	missing();
	parser();
	loopback();
	every();
	return t_exit();
}
