/*
 * Multipath TCP (IPPROTO_MPTCP): whether this network namespace may open
 * such sockets, and what the kernel says of one: MPTCP or plain TCP (a
 * peer without MPTCP makes the connection fall back), and its subflows.
 * Every answer is the kernel's own (a socket() probe, TCP_IS_MPTCP,
 * MPTCP_TCPINFO, MPTCP_SUBFLOW_ADDRS), never inferred. Helpers return
 * failure to the caller as lib/wire/net.h's do.
 */
#ifndef ZC_MPTCP_H
#define ZC_MPTCP_H

#include <stddef.h>
#include <stdint.h>

/* The sysctl that allows MPTCP sockets, per network namespace. */
#define MPTCP_SYSCTL "net.mptcp.enabled"

/* A connection's subflows shown at most. */
#define MPTCP_SUBFLOWS_MAX 8

/*
 * mptcp_probe - may this process open an MPTCP socket? 0 yes; -1 with err
 * naming MPTCP_SYSCTL and why: set to 0, or a kernel without MPTCP.
 */
int mptcp_probe(char *err, size_t errlen);

/* mptcp_enabled - MPTCP_SYSCTL's value in this namespace; -1: unreadable. */
long mptcp_enabled(void);

/*
 * mptcp_active - the kernel's word on connected socket fd: 1 an MPTCP
 * connection, 0 plain TCP (opened so, or fallen back); -1 with errno when
 * the kernel does not say (one before 5.16).
 */
int mptcp_active(int fd);

/* One subflow of an MPTCP connection, as its own TCP_INFO gives it. */
struct mptcp_subflow {
	char local[64], remote[64];	/* "ADDR port N" */
	uint64_t bytes_sent;		/* tcpi_bytes_acked: sent and acknowledged */
	uint64_t bytes_received;	/* tcpi_bytes_received */
	uint64_t retransmits;		/* tcpi_total_retrans */
	uint64_t rtt_us;		/* tcpi_rtt */
	unsigned timeouts;		/* tcpi_retransmits: retransmission
					 * timeouts in a row, unanswered */
};

/*
 * mptcp_subflows - the subflows of MPTCP socket fd, at most max, into sf;
 * their number (0: none, a fallen back connection), or -1 with err.
 */
int mptcp_subflows(int fd, struct mptcp_subflow *sf, int max, char *err,
		   size_t errlen);

#endif
