/*
 * The steps every stream of a run shares: connecting as the options ask,
 * seeing the stream closed by the server, the meter's mark and reading
 * around the run.
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "app/env_out.h"
#include "app/mptcp_out.h"
#include "app/meter_session.h"
#include "app/others_out.h"
#include "base/cpu.h"
#include "zcc/limits.h"
#include "zcc/report.h"
#include "zcc/send_internal.h"
#include "app/stop_exit.h"
#include "zcc/suspended.h"
#include "base/clock.h"
#include "base/err.h"
#include "base/rate.h"
#include "wire/net.h"
#include "wire/proto.h"

void send_open(struct sender *sd, const char *const *names, int n_names,
	       const struct meter_cfg *meter, int where, int cpu)
{
	const struct send_cfg *cfg = sd->cfg;

	env_early();		/* before -B: the CPUs zcc was given */
	sd->env_due = 1;
	limits_check((unsigned long)n_names, cfg->streams);
	if (names)	/* NULL: a work without files (--rr) */
		fileset_open(&sd->files, names, n_names, cfg->debug);
	/* Before -B, so that the soakers do not inherit the binding. */
	if (meter)
		send_meter(sd, app_meter_start(meter, cfg->debug), where);
	if (cpu >= 0 && cpu_bind(cpu) < 0)
		error(1, errno, "bind to CPU %d", cpu);
}

void send_meter(struct sender *sd, struct meter *m, int where)
{
	sd->meter = m;
	sd->others = others_span_new(m);
	if (!where)
		return;
	sd->where = where_session_open(m, sd->cfg->debug, 0);
	sd->run = where_span_new(sd->where);
	if (sd->cfg->interval > 0)
		sd->interval = where_span_new(sd->where);
}

void send_mark(struct sender *sd, int sock)
{
	char err[512];

	/* Before the mark: reading /proc is not the run's load. */
	others_span_start(sd->others);
	if (sd->meter && meter_mark(sd->meter, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	if (!sd->where)
		return;
	/* No socket yet (-P): every interface that moved. */
	where_session_socket(sd->where, sock);
	if (where_span_start(sd->run, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
}

double send_cpu_secs(void)
{
	return cpu_self_secs();
}

/*
 * The load since send_mark, into r; -1 with err when the meter has
 * no figure to give (a soaker died or was stopped).
 */
int send_meter_read(struct sender *sd, struct send_result *r, double own_secs,
		    char *err, size_t errlen)
{
	struct meter_reading mr;

	if (!sd->meter)
		return 0;
	if (app_meter_sample(sd->meter, &mr, err, errlen) != 0)
		return -1;	/* 1: a CPU came or went, no figure either */
	r->measured = 1;
	r->ncpus = mr.ncpus;
	r->load = meter_cpus_load(&mr);	/* under a quota, still of ncpus */
	r->meter = meter_method_name(meter_method(sd->meter));
	r->demand = service_demand_us_per_kb(r->load, mr.ncpus, mr.secs, r->bytes);
	r->own = cpu_us_per_kb(own_secs, r->bytes);
	r->others = *others_span_read(sd->others, mr.ncpus, mr.secs);
	r->soaker_switches = mr.soaker_switches / mr.secs / mr.ncpus;
	if (sd->where && !where_span_read(sd->run, r->load, r->bytes, r->calls, err, errlen))
		error(1, 0, "%s", err);
	return 0;
}

/*
 * mptcp_check - the kernel's word on connection fd to peer, opened
 * with --mptcp: 1 MPTCP, 0 it fell back to plain TCP (one line on stderr,
 * once a process: every connection to one peer falls back alike), -1 the
 * kernel does not say (one line too, once).
 */
static int mptcp_check(int fd, const char *peer)
{
	static int said;
	int active = mptcp_active(fd), e = errno;

	if (active == 1 || __atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		return active;
	if (active == 0)
		error(0, 0, "--mptcp: %s answered as plain TCP: the connection fell "
		      "back to TCP (the kernel's TCP_IS_MPTCP is 0)", peer);
	else
		error(0, e, "--mptcp: the kernel does not say whether the connection "
		      "to %s is MPTCP (TCP_IS_MPTCP)", peer);
	return active;
}

int send_connect(const struct sender *sd, volatile sig_atomic_t *cancel, char *peer,
		 size_t peerlen, char *err, size_t errlen)
{
	const struct send_cfg *cfg = sd->cfg;
	struct net_opts o = cfg->sockopts;
	int sock;

	o.cancel = cancel;
	sock = net_connect(cfg->host, cfg->port, &o, err, errlen);
	if (sock < 0)
		return -1;
	if (cfg->cork && net_set_cork(sock, err, errlen) < 0) {
		close(sock);
		return -1;
	}
	snprintf(peer, peerlen, "%s port %u", cfg->host, cfg->port);
	if (o.mptcp)
		mptcp_check(sock, peer);
	if (cfg->debug) {
		int sndbuf = 0;
		socklen_t len = sizeof(sndbuf);
		char name[160];

		net_peer_name(sock, name, sizeof(name));
		getsockopt(sock, SOL_SOCKET, SO_SNDBUF, &sndbuf, &len);
		fprintf(stderr, "%s: connected to %s, SO_SNDBUF %d\n",
			program_invocation_short_name, name, sndbuf);
	}
	return sock;
}

void send_subflows(const struct sender *sd, int sock, int first, int *mptcp,
		   struct mptcp_subflows *sf)
{
	if (first) {
		memset(sf, 0, sizeof(*sf));
		*mptcp = sd->cfg->sockopts.mptcp && mptcp_active(sock) == 1;
	}
	if (*mptcp)
		mptcp_subflows_read(sock, sf);
}

#define MPTCP_LOOK_MS 10	/* --mptcp: the subflows' figures at most this stale */

/*
 * Everything is in the kernel's hands; see it delivered. A zcs closes once
 * it has read our end of stream; a reset here means it died holding data.
 * -T bounds the wait, less any time zcc itself was stopped meanwhile (a
 * SIGSTOP is not the server's fault; suspended_start() ran before the
 * send). Returns 0, -1 when *t->stop cut it short, -2 with err when the
 * server failed.
 */
int send_await_close(const struct sender *sd, struct tx *t, struct rx_report_wait *rp,
		     struct mptcp_subflows *sf, char *err, size_t errlen)
{
	const struct send_cfg *cfg = sd->cfg;
	const char *peer = t->peer;
	int sock = t->sock;
	struct pollfd p = { .fd = sock, .events = POLLIN };
	uint64_t start = now_ns(), stopped0 = suspended_ns();
	int timeout, expired;
	char buf[512];
	ssize_t n;

	if (shutdown(sock, SHUT_WR) < 0) {
		if (*t->stop)
			return -1;
		err_fill(err, errlen, errno, "%s: shutdown", peer);
		return -2;
	}
	for (;;) {
		/* The socket is looked at before the deadline is: when zcc was
		 * stopped here, the server may have closed long ago, and the
		 * stop's own count may not be in yet. */
		expired = watch_close_wait(start, cfg->stall, suspended_ns() - stopped0,
					   now_ns(), &timeout);
		timeout = rx_report_timeout(rp, sock, timeout);
		if (sf) {	/* a subflow can be gone once the server has read all */
			mptcp_subflows_read(sock, sf);
			if (timeout < 0 || timeout > MPTCP_LOOK_MS)
				timeout = MPTCP_LOOK_MS;
		}
		if (poll(&p, 1, timeout) < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR)))
			n = 1;
		else
			n = rx_report_read(rp, sock, buf, sizeof(buf));
		if (*t->stop)
			return -1;
		if (n == 0)
			return 0;
		if (n < 0 && errno != EINTR) {
			err_fill(err, errlen, errno, "waiting for %s to close", peer);
			return -2;
		}
		if (expired) {
			snprintf(err, errlen, "%s: has not closed the connection %g s after "
				 "the last byte (-T)", peer, cfg->stall);
			net_reset_on_close(sock);	/* nothing of it lingers */
			errno = ETIME;
			return -2;
		}
	}
}
