/* lib/wire/tcpinfo.c: the figures of a loopback connection, and a refusal. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "t.h"
#include "wire/tcpinfo.h"

int main(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	struct tcp_figures f, sum = { 0 };
	static char buf[1 << 16];
	int l, c, s, pair[2];
	ssize_t n;
	size_t got = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	CHECK(l >= 0 && bind(l, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(l, 1) == 0 &&
	      getsockname(l, (struct sockaddr *)&a, &alen) == 0, "a loopback listener");
	c = socket(AF_INET, SOCK_STREAM, 0);
	CHECK(connect(c, (struct sockaddr *)&a, sizeof(a)) == 0, "connected");
	s = accept(l, NULL, NULL);
	CHECK(s >= 0, "accepted");
	memset(buf, 'x', sizeof(buf));
	CHECK(write(c, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "64 KiB written");
	while (got < sizeof(buf) && (n = read(s, buf, sizeof(buf))) > 0)
		got += (size_t)n;
	CHECK(got == sizeof(buf), "64 KiB read");

	CHECK(tcpinfo_read(c, &f) == 0, "TCP_INFO of the sender");
	CHECK(f.retransmits == 0, "no retransmits over loopback (%llu)",
	      (unsigned long long)f.retransmits);
	CHECK(f.rtt_us > 0 && f.rtt_us < 1000000, "an rtt under a second (%llu us)",
	      (unsigned long long)f.rtt_us);
	CHECK(f.cwnd_bytes >= 1000, "a window of at least one segment (%llu bytes)",
	      (unsigned long long)f.cwnd_bytes);

	tcpinfo_add(&sum, &(struct tcp_figures){ 2, 100, 1000 });
	tcpinfo_add(&sum, &(struct tcp_figures){ 3, 300, 500 });
	tcpinfo_mean(&sum, 2);
	CHECK(sum.retransmits == 5 && sum.rtt_us == 200 && sum.cwnd_bytes == 1500,
	      "two summed: retransmits and windows added, rtt the mean");
	tcpinfo_mean(&sum, 0);
	CHECK(sum.rtt_us == 200, "a mean of none leaves it");

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0, "a unix socket pair");
	f.rtt_us = 7;
	CHECK(tcpinfo_read(pair[0], &f) < 0 && f.rtt_us == 0 && f.cwnd_bytes == 0,
	      "not TCP: refused, figures zero");
	CHECK(tcpinfo_read(-1, &f) < 0, "no socket: refused");
	close(pair[0]);
	close(pair[1]);
	close(s);
	close(c);
	close(l);
	return t_exit();
}
