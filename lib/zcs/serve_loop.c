#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "app/env_out.h"
#include "zcs/serve_conns.h"
#include "zcs/serve_loop.h"
#include "zcs/serve_dgram.h"
#include "zcs/serve_udp.h"
#include "zcs/serve_rounds.h"
#include "zcs/serve_sampler.h"
#include "zcs/serve_total.h"
#include "app/stop_exit.h"
#include "wire/net.h"
#include "wire/rr_proto.h"

static const struct serve_cfg *cfg;
static int listen_sock = -1;
static int wake_pipe[2] = { -1, -1 };	/* the parent's: wakes poll() from handlers */

/* The handlers' only work: poll() returns. */
static void wake(void)
{
	int saved = errno;
	char c = 0;

	if (wake_pipe[1] >= 0 && write(wake_pipe[1], &c, 1) < 0) {
		/* The pipe is full: poll() will wake anyway. */
	}
	errno = saved;
}

static void on_child(int sig)
{
	(void)sig;
	wake();
}

/*
 * accept_peer - accept a connection and name its peer from accept()'s own
 * address: a client that resets at once has no peer left to ask for.
 */
static int accept_peer(char *peer, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	int fd;

	fd = accept4(listen_sock, (struct sockaddr *)&ss, &sslen, SOCK_CLOEXEC);
	if (fd >= 0)
		net_addr_name((struct sockaddr *)&ss, sslen, peer, len);
	return fd;
}

/* In a connection's process: the parent's descriptors are not its own. */
static void forget_parent(void)
{
	close(listen_sock);
	if (cfg->raw)
		close(cfg->raw->fd);
	close(wake_pipe[0]);
	close(wake_pipe[1]);
	wake_pipe[0] = wake_pipe[1] = -1;
	serve_sampler_child();
}

/*
 * The environment record again, with the first connection's interface
 * (the one at start has none); later connections print none.
 */
static void conn_env(int fd)
{
	static int done;

	if (!done++)
		env_print(ENV_CONN, fd, cfg->debug);
}

/*
 * Accept one connection and fork its process: serve, then exit; stopped
 * by a signal (passed on by the parent, or the parent's death), print the
 * done line and die of it.
 */
static void accept_one(unsigned char *buf)
{
	char peer[CONN_PEER_LEN];
	struct timespec pause = { 0, 100000000L };	/* 0.1 s */
	struct serve_cfg sc = *cfg;
	struct serve_result res;
	pid_t pid;
	int fd, rc;

	fd = accept_peer(peer, sizeof(peer));
	if (fd < 0) {
		if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED)
			return;
		/* Out of descriptors or memory: say so, and do not spin. */
		error(0, errno, "accept");
		nanosleep(&pause, NULL);
		return;
	}
	conn_env(fd);
	if (serve_rounds_on()) {	/* the variant of this sender's turn */
		const struct rx_variant *v = serve_rounds_pick(peer);

		sc.method = v->method;
		sc.read_size = v->read_size;
	}
	pid = serve_conns_spawn(peer, forget_parent);
	if (pid == 0) {
		rc = serve(&sc, fd, peer, buf, &res);
		if (serve_rounds_on())
			serve_rounds_result(&res);
		if (stop_signal)
			stop_exit(stop_signal);
		exit(rc);
	}
	if (serve_rounds_on())
		serve_rounds_spawned(pid);
	close(fd);
}

/*
 * poll()'s timeout: for the refusals not shown and, while children serve,
 * the total's period; with -c every period, so that a dead soaker ends zcs
 * even while nobody is being served (the total samples the meter).
 */
static int poll_timeout(void)
{
	int ms = serve_conns_refused_due_ms(), due = serve_total_due_ms(serve_conns_live());

	if (cfg->meter && (ms < 0 || ms > (int)(cfg->period * 1000)))
		ms = (int)(cfg->period * 1000);
	if (due >= 0 && (ms < 0 || ms > due))
		ms = due;
	return ms;
}

/* Request/response over UDP beside the listener (lib/zcs/serve_udp.h): udp, or NULL. */
static struct serve_dg *udp_beside(struct serve_dg *udp, int listen_fd)
{
	char err[160];

	if (serve_dg_udp(udp, listen_fd, err, sizeof(err)) >= 0)
		return udp;
	error(0, 0, "warning: %s: no UDP request/response", err);
	return NULL;
}

/* The datagram ends' turn: each one's waiting messages answered. */
static void take_datagrams(struct serve_dg *const dg[2], const struct pollfd *pfd)
{
	char err[160];

	for (int i = 0; i < 2; i++)
		if (dg[i] && (pfd[i].revents & (POLLIN | POLLERR)) &&
		    serve_udp_take(dg[i], cfg, err, sizeof(err)) < 0)
			error(0, 0, "warning: %s", err);
}

/* At the end: what the raw end counted as not of a run it serves. */
static void say_foreign(const struct serve_dg *d)
{
	if (d && d->foreign)
		error(0, 0, "--proto %s: %" PRIu64 " packet%s foreign (another protocol's "
		      "user, another run, or cut short), not answered",
		      d->proto == RR_PACKET ? "packet" : "ip", d->foreign, d->foreign == 1 ? "" : "s");
}

void serve_forever(const struct serve_cfg *sc, int listen_fd, unsigned max_conns,
		   unsigned char *buf)
{
	char drain[160];	/* the wake pipe's bytes */
	struct serve_dg udp;
	struct serve_dg *const dg[2] = { udp_beside(&udp, listen_fd), sc->raw };
	struct pollfd pfd[5] = {
		{ .fd = listen_fd, .events = POLLIN },
		{ .fd = -1, .events = POLLIN },
		{ .fd = serve_sampler_fd(), .events = POLLIN },
		{ .fd = dg[0] ? udp.fd : -1, .events = POLLIN },
		{ .fd = sc->raw ? sc->raw->fd : -1, .events = POLLIN },
	};
	int broken = 0;

	cfg = sc;
	listen_sock = listen_fd;
	serve_conns_open(max_conns, serve_rounds_on() ? serve_rounds_ended : NULL);
	serve_total_open(max_conns, sc->period, sc->meter != NULL);
	if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		error(1, errno, "pipe");
	pfd[1].fd = wake_pipe[0];
	if (fcntl(listen_sock, F_SETFL, O_NONBLOCK) < 0)
		error(1, errno, "set the listening socket non-blocking");
	/* A stop signal or a child's end now wakes poll() as well. */
	stop_catch(wake);
	serve_catch(SIGCHLD, on_child);

	while (!stop_signal && !broken) {
		if (poll(pfd, 5, poll_timeout()) < 0) {
			if (errno != EINTR)
				error(1, errno, "poll");
			pfd[0].revents = pfd[3].revents = pfd[4].revents = 0;
			pfd[1].revents = POLLIN;	/* the handler may have written */
		}
		take_datagrams(dg, pfd + 3);
		while ((pfd[1].revents & POLLIN) && read(wake_pipe[0], drain, sizeof(drain)) > 0)
			;
		serve_sampler_answer();
		broken = serve_conns_reap();
		if (!broken && !stop_signal)
			serve_total_tick();
		if (!stop_signal && !broken && (pfd[0].revents & POLLIN))
			accept_one(buf);
	}
	close(listen_sock);
	if (dg[0])
		serve_dg_close(&udp);
	say_foreign(sc->raw);
	if (sc->raw)
		serve_dg_close(sc->raw);
	/* Giving up: the others' lines could not be whole (no stdout, no meter). */
	serve_conns_stop(broken ? SIGKILL : stop_signal);
	serve_conns_close();
	serve_total_close();
	free(buf);
	if (broken)
		exit(1);	/* the child said why */
	stop_exit(stop_signal);
}

int serve_one(const struct serve_cfg *sc, int listen_fd, unsigned char *buf)
{
	char peer[CONN_PEER_LEN];
	int fd, rc;

	cfg = sc;
	listen_sock = listen_fd;
	do
		fd = accept_peer(peer, sizeof(peer));
	while (fd < 0 && errno == EINTR && !stop_signal);
	if (stop_signal)
		stop_exit(stop_signal);
	if (fd < 0)
		error(1, errno, "accept");
	/* An MPTCP connection's later subflows join through the listener:
	 * it stays open while the connection is served. */
	if (!sc->mptcp)
		close(listen_sock);
	conn_env(fd);
	rc = serve(sc, fd, peer, buf, NULL);
	if (sc->mptcp)
		close(listen_sock);
	free(buf);
	if (stop_signal)
		stop_exit(stop_signal);
	return rc;
}

void serve_catch(int sig, void (*fn)(int))
{
	if (signal_interrupts(sig, fn, NULL) < 0)
		error(1, errno, "sigaction");
}
