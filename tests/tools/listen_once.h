/*
 * What the one-connection test servers share (sink.c, rrpeer.c): listen
 * on a kernel-chosen port of addr (NULL: every address), say "listening
 * on port N" on stdout at once, and take the first connection. Any
 * failure is one line and exit 1.
 */
#ifndef ZC_LISTEN_ONCE_H
#define ZC_LISTEN_ONCE_H

#include <errno.h>
#include <error.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wire/net.h"

static int listen_once(const char *addr, const struct net_opts *o)
{
	unsigned port;
	char err[256];
	int lfd, fd;

	lfd = net_listen(addr, 0, o, &port, err, sizeof(err));
	if (lfd < 0) {
		error(0, 0, "%s", err);
		exit(1);
	}
	printf("listening on port %u\n", port);
	fflush(stdout);
	fd = accept(lfd, NULL, NULL);
	if (fd < 0) {
		error(0, errno, "accept");
		exit(1);
	}
	close(lfd);
	return fd;
}

#endif
