/*
 * What zcc and zcs say of Multipath TCP (--mptcp, lib/wire/mptcp.h): the
 * refusal of a namespace that allows no MPTCP socket, the line of a
 * connection that fell back to TCP, and a connection's subflows (-d lines
 * on stderr, a "subflows" list in JSON). Every word is the kernel's.
 */
#ifndef ZC_APP_MPTCP_OUT_H
#define ZC_APP_MPTCP_OUT_H

#include "wire/mptcp.h"

/*
 * mptcp_asked - whether --mptcp was given, for the environment record;
 * given, the kernel must allow MPTCP sockets here, or one line naming
 * net.mptcp.enabled and exit 1. Call it before any file is opened or any
 * socket listens.
 */
void mptcp_asked(int asked);

/* A connection's subflows at one moment, and those seen before that went. */
struct mptcp_subflows {
	int n;				/* -1: the kernel gave none (said why once) */
	struct mptcp_subflow sf[MPTCP_SUBFLOWS_MAX];
	int n_gone;			/* seen by an earlier read, now gone */
	struct mptcp_subflow gone[MPTCP_SUBFLOWS_MAX];
};

/*
 * mptcp_subflows_read - the subflows of MPTCP socket fd now into l; a
 * subflow an earlier read of l listed and this one does not is kept in
 * l->gone.
 */
void mptcp_subflows_read(int fd, struct mptcp_subflows *l);

/* mptcp_debug - -d: a line per subflow on stderr, each after what. */
void mptcp_debug(const char *what, const struct mptcp_subflows *l);

/* mptcp_json - the "subflows" list of the JSON line being made (a struct
 * mptcp_subflows *, for line_nested). */
void mptcp_json(const void *subflows);

#endif
