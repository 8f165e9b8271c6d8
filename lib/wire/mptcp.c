/* mptcp.h: MPTCP sockets allowed here, and what the kernel says of one. */
#include <errno.h>
#include <linux/mptcp.h>
#include <linux/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/err.h"
#include "base/textfile.h"
#include "wire/mptcp.h"
#include "wire/net.h"

#ifndef TCP_IS_MPTCP		/* uapi headers older than Linux 5.16 */
#define TCP_IS_MPTCP 43
#endif

long mptcp_enabled(void)
{
	return (long)textfile_num("/proc/sys/net/mptcp/enabled");
}

int mptcp_probe(char *err, size_t errlen)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_MPTCP);
	int e = errno;
	long on;

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	on = mptcp_enabled();
	if (on == 0)
		err_fill(err, errlen, e, "the kernel refuses MPTCP sockets: "
			 MPTCP_SYSCTL " is 0 in this network namespace");
	else if (on < 0)
		err_fill(err, errlen, e, "the kernel has no MPTCP (no " MPTCP_SYSCTL ")");
	else
		err_fill(err, errlen, e, "the kernel refuses an MPTCP socket ("
			 MPTCP_SYSCTL " is %ld)", on);
	errno = e;
	return -1;
}

int mptcp_active(int fd)
{
	int v = 0;
	socklen_t len = sizeof(v);

	if (getsockopt(fd, IPPROTO_TCP, TCP_IS_MPTCP, &v, &len) < 0)
		return -1;
	return v != 0;
}

/*
 * One MPTCP_TCPINFO or MPTCP_SUBFLOW_ADDRS call: a header, then room for
 * max elements of size each; the kernel says how many subflows there are
 * and how much of each element it filled. Returns the header, its elements
 * behind it (free it), or NULL with errno.
 */
static struct mptcp_subflow_data *subflow_call(int fd, int opt, size_t size, int max)
{
	size_t total = sizeof(struct mptcp_subflow_data) + size * (size_t)max;
	struct mptcp_subflow_data *d = calloc(1, total);
	socklen_t len = (socklen_t)total;

	if (!d)
		return NULL;
	d->size_subflow_data = sizeof(*d);
	d->size_user = (uint32_t)size;	/* the kernel may cut it to its own */
	if (getsockopt(fd, SOL_MPTCP, opt, d, &len) < 0) {
		int e = errno;

		free(d);
		errno = e;
		return NULL;
	}
	return d;
}

static void subflow_fill(struct mptcp_subflow *s, const struct tcp_info *ti,
			 const struct mptcp_subflow_addrs *a)
{
	memset(s, 0, sizeof(*s));
	s->bytes_sent = ti->tcpi_bytes_acked;
	s->bytes_received = ti->tcpi_bytes_received;
	s->retransmits = ti->tcpi_total_retrans;
	s->rtt_us = ti->tcpi_rtt;
	s->timeouts = ti->tcpi_retransmits;
	net_addr_name(&a->sa_local, sizeof(a->ss_local), s->local, sizeof(s->local));
	net_addr_name(&a->sa_remote, sizeof(a->ss_remote), s->remote, sizeof(s->remote));
}

/* The i-th element of d's answer, as much as the kernel filled, into out. */
static void subflow_elem(const struct mptcp_subflow_data *d, int i, void *out,
			 size_t size)
{
	size_t got = d->size_user < size ? d->size_user : size;

	memset(out, 0, size);
	memcpy(out, (const char *)(d + 1) + (size_t)i * d->size_user, got);
}

/*
 * A subflow torn down at the connection's end can stay on the list a
 * while, disconnected: no peer port, its counters wiped (seen on Linux
 * 6.18 as 0.0.0.0 to port 0, 0 bytes). It has gone; an earlier look
 * holds its figures.
 */
static int wiped(const struct mptcp_subflow_addrs *a)
{
	if (a->sa_remote.sa_family == AF_INET6)
		return a->sin6_remote.sin6_port == 0;
	return a->sin_remote.sin_port == 0;
}

int mptcp_subflows(int fd, struct mptcp_subflow *sf, int max, char *err,
		   size_t errlen)
{
	struct mptcp_subflow_data *info, *addrs;
	struct mptcp_subflow_addrs a;
	struct tcp_info ti;
	int n, kept = 0;

	info = subflow_call(fd, MPTCP_TCPINFO, sizeof(ti), max);
	if (!info)
		return err_fill(err, errlen, errno, "MPTCP_TCPINFO");
	addrs = subflow_call(fd, MPTCP_SUBFLOW_ADDRS, sizeof(a), max);
	if (!addrs) {
		free(info);
		return err_fill(err, errlen, errno, "MPTCP_SUBFLOW_ADDRS");
	}
	/* Both walk the connection's list in order; one may have come or
	 * gone between the two calls: only the ones both saw. */
	n = (int)(info->num_subflows < addrs->num_subflows ? info->num_subflows
		  : addrs->num_subflows);
	n = n < max ? n : max;
	for (int i = 0; i < n; i++) {
		subflow_elem(info, i, &ti, sizeof(ti));
		subflow_elem(addrs, i, &a, sizeof(a));
		if (!wiped(&a))
			subflow_fill(&sf[kept++], &ti, &a);
	}
	free(info);
	free(addrs);
	return kept;
}
