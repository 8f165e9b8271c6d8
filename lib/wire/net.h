/*
 * Socket helpers. Each does one thing and returns failure to the caller:
 * -1, with errno set and, where an err buffer is given, a "what: why" text
 * ready to print. None of them prints or exits.
 */
#ifndef ZC_NET_H
#define ZC_NET_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

/* How often a connect that can be cancelled looks at its flag. */
#define NET_CANCEL_MS 50

/* The largest socket buffer that may be asked for: 1 GiB. */
#define NET_BUF_MAX (1 << 30)

/* Socket options the user asked for; 0 means leave it alone. */
struct net_opts {
	int rcvbuf;	/* SO_RCVBUF */
	int sndbuf;	/* SO_SNDBUF */
	int debug;	/* SO_DEBUG */
	uint64_t pacing;	/* SO_MAX_PACING_RATE, bytes/s */
	int mptcp;		/* open IPPROTO_MPTCP sockets (lib/wire/mptcp.h) */
	double connect_secs;	/* net_connect gives up after this long in all;
				 * 0: the kernel's own limit, minutes */
	const char *connect_limit;	/* how the user set connect_secs (an
					 * option), for its message; NULL: none */
	volatile sig_atomic_t *cancel;	/* set (by another thread): give up
					 * connecting; NULL: only a signal does */
};

/*
 * net_connect - resolve host ("0" is this machine; names, IPv4, IPv6) and
 * connect to the first address that answers. The options are set before
 * connect() so that the window scale follows the buffer sizes. A signal
 * ends the wait for an answer (-1, errno EINTR), and so does *o->cancel
 * once set, within NET_CANCEL_MS (a thread with the signals blocked is
 * stopped so); o->connect_secs too (ETIMEDOUT, "no answer within N s",
 * then " (LIMIT)" when o->connect_limit names it).
 */
int net_connect(const char *host, unsigned port, const struct net_opts *o,
		char *err, size_t errlen);

/*
 * net_listen - listen on addr (NULL: every IPv6 and IPv4 address, one
 * dual-stack socket where the kernel has IPv6) at port (0: the kernel picks).
 * *bound_port gets the port actually bound. Accepted sockets inherit opts.
 */
int net_listen(const char *addr, unsigned port, const struct net_opts *o,
	       unsigned *bound_port, char *err, size_t errlen);

/* Set the buffers and debug flag of o on fd and check the kernel kept them. */
int net_set_opts(int fd, const struct net_opts *o, char *err, size_t errlen);

/*
 * net_busy_poll - fd's receive calls busy-poll its device's queue for up
 * to us microseconds (SO_BUSY_POLL, and SO_PREFER_BUSY_POLL where the
 * kernel has it). Only where a packet has come in by a NAPI instance
 * (SO_INCOMING_NAPI_ID not 0): loopback and devices without NAPI have
 * nothing to poll, refused with that reason. -1 with err.
 */
int net_busy_poll(int fd, unsigned us, char *err, size_t errlen);

/* Set TCP_CORK on fd and check that it stuck. */
int net_set_cork(int fd, char *err, size_t errlen);

/*
 * net_reset_on_close - for a connection given up on (a stall): SO_LINGER
 * {1, 0}, so that the close of fd resets it and the kernel drops at once
 * what it still holds to send, instead of trying on after the exit.
 */
void net_reset_on_close(int fd);

/* Printable "address port" of the peer of fd. */
void net_peer_name(int fd, char *buf, size_t len);

/* The same for an address, e.g. from accept() (IPv4-mapped shown as IPv4). */
void net_addr_name(const struct sockaddr *sa, socklen_t salen, char *buf, size_t len);

#endif
