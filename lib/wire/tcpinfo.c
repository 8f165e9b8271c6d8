/* tcpinfo.h: TCP_INFO's retransmits, rtt and window of a connection. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>

#include "wire/tcpinfo.h"

int tcpinfo_read(int sock, struct tcp_figures *f)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(f, 0, sizeof(*f));
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(sock, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
		return -1;
	/* An older kernel fills less of the struct: what it left is 0. */
	f->retransmits = ti.tcpi_total_retrans;
	f->rtt_us = ti.tcpi_rtt;
	f->cwnd_bytes = (uint64_t)ti.tcpi_snd_cwnd * ti.tcpi_snd_mss;
	return 0;
}

void tcpinfo_add(struct tcp_figures *sum, const struct tcp_figures *one)
{
	sum->retransmits += one->retransmits;
	sum->rtt_us += one->rtt_us;
	sum->cwnd_bytes += one->cwnd_bytes;
}

void tcpinfo_mean(struct tcp_figures *sum, unsigned n)
{
	if (n > 0)
		sum->rtt_us /= n;
}
