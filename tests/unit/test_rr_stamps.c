/*
 * lib/zcc/rr_stamps.c, zcc --rr's probe of --call-times and --stamps,
 * and lib/wire/rr_io.c's calls under it: a probe asked for nothing, each
 * call timed once; then over a loopback UDP pair: a wait for an answer
 * that the error queue alone wakes drains it and goes on waiting (never
 * taken for an answer), the stamps left after the run collected by the
 * last drain, and one that never comes counted missing within the
 * drain's bound.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "zcc/rr_stamps.h"
#include "unit/t.h"

static void calls(void)
{
	struct rr_cfg rc = { .budget_ns = UINT64_MAX, .req_bytes = 10 };
	struct rr_probe *p = rr_probe_new(&rc);
	unsigned char buf[64] = "0123456789";
	uint64_t n;
	size_t got;
	int sv[2], rc_read;

	CHECK(p == NULL && rr_probe_ctl(p) == NULL && rr_probe_send_calls(p) == NULL,
	      "neither --call-times nor --stamps: no probe, nothing timed");
	rc.call_times = 1;
	p = rr_probe_new(&rc);
	if (!CHECK(p && rr_probe_send_calls(p) && rr_probe_ctl(p)->calls && !p->stamps,
		   "--call-times: both histograms, no stamps"))
		return;
	if (!CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "a socket pair"))
		return;
	rr_write_calls(sv[0], buf, 10, rr_probe_send_calls(p));
	rr_write_calls(sv[0], buf, 10, rr_probe_send_calls(p));
	CHECK(hist_count(&p->send_calls) == 2, "a send call each, timed");
	rc_read = rr_read_ctl(sv[1], buf, 20, &got, NULL, rr_probe_ctl(p));
	n = hist_count(&p->recv_calls);
	CHECK(rc_read == 0 && got == 20 && n >= 1 && n <= 2, "the receive calls timed, one each "
	      "(%llu)", (unsigned long long)n);
	close(sv[0]);
	CHECK(rr_read_ctl(sv[1], buf, 1, &got, NULL, rr_probe_ctl(p)) == 1 &&
	      hist_count(&p->recv_calls) <= 2, "the end of the stream: no call that moved data");
	close(sv[1]);
	rr_probe_free(p);
}

/* Two UDP sockets on loopback, each connected to the other: 0, or -1. */
static int udp_pair(int *a, int *b)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in sb = sa;
	socklen_t len = sizeof(sa);

	*a = socket(AF_INET, SOCK_DGRAM, 0);
	*b = socket(AF_INET, SOCK_DGRAM, 0);
	if (*a < 0 || *b < 0 || bind(*a, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    bind(*b, (struct sockaddr *)&sb, sizeof(sb)) < 0 ||
	    getsockname(*a, (struct sockaddr *)&sa, &len) < 0 ||
	    getsockname(*b, (struct sockaddr *)&sb, &len) < 0)
		return -1;
	return connect(*a, (struct sockaddr *)&sb, sizeof(sb)) < 0 ||
	       connect(*b, (struct sockaddr *)&sa, sizeof(sa)) < 0 ? -1 : 0;
}

static void stamps(void)
{
	struct rr_cfg rc = { .budget_ns = UINT64_MAX, .req_bytes = 8, .udp = 1, .stamps = 1 };
	struct rr_probe *p = rr_probe_new(&rc);
	unsigned char buf[8] = { 0 };
	char err[256] = "";
	uint64_t t0;
	int a, b, rc_poll;

	if (!CHECK(udp_pair(&a, &b) == 0, "a loopback UDP pair"))
		return;
	if (!CHECK(rr_probe_enable(p, a, err, sizeof(err)) == 0, "stamps on (%s)", err))
		return;
	rr_probe_sent(p);
	send(a, buf, sizeof(buf), 0);
	/* b never answers: only the error queue's stamps make a readable. */
	rc_poll = rr_probe_poll(p, a, 100);
	CHECK(rc_poll == 0 && p->tx->got[TSTAMP_SCHED] == 1 && p->tx->got[TSTAMP_SND] == 1,
	      "a wait woken by stamps alone takes them and times out (%d)", rc_poll);
	for (int i = 0; i < 4; i++) {
		rr_probe_sent(p);
		send(a, buf, sizeof(buf), 0);
	}
	rr_probe_finish(p, a);
	CHECK(p->tx->sent == 5 && p->tx->got[TSTAMP_SCHED] == 5 && p->tx->got[TSTAMP_SND] == 5 &&
	      tstamp_track_missing(p->tx) == 0, "the stamps left after the run: collected at the end");
	rr_probe_sent(p);	/* a request that never went: its stamps never come */
	t0 = now_ns();
	rr_probe_finish(p, a);
	CHECK(tstamp_track_missing(p->tx) == 2 && now_ns() - t0 < 20000000ull * TSTAMP_DRAIN_MS,
	      "stamps that never come: 2 missing, the wait bounded");
	close(a);
	close(b);
	rr_probe_free(p);
}

int main(void)
{
	calls();
	stamps();
	return t_exit();
}
