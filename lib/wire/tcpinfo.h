/*
 * TCP's own account of one connection (getsockopt TCP_INFO): how many
 * segments it retransmitted, its smoothed round-trip time and its
 * congestion window, for zcc's debug line and JSON keys.
 */
#ifndef ZC_TCPINFO_H
#define ZC_TCPINFO_H

#include <stdint.h>

struct tcp_figures {
	uint64_t retransmits;	/* tcpi_total_retrans: segments sent again */
	uint64_t rtt_us;	/* tcpi_rtt: smoothed round-trip time */
	uint64_t cwnd_bytes;	/* tcpi_snd_cwnd * tcpi_snd_mss */
};

/* tcpinfo_read - the figures of TCP socket sock into *f; -1/errno (and *f
 * zeroed) when the kernel gives none (not a TCP socket, closed). */
int tcpinfo_read(int sock, struct tcp_figures *f);

/*
 * Several connections as one: tcpinfo_add sums one more into *sum (rtt
 * too), tcpinfo_mean then divides the summed rtt by the n added, so the
 * retransmits and windows are totals and the rtt is their mean.
 */
void tcpinfo_add(struct tcp_figures *sum, const struct tcp_figures *one);
void tcpinfo_mean(struct tcp_figures *sum, unsigned n);

#endif
