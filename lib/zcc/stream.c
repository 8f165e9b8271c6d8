/*
 * One stream of a run (send_internal.h): its connection from connect to
 * close. A run of one stream lives it in the calling thread, where a
 * signal interrupts its system calls; the streams of -P each in a thread
 * of their own, ended by the main thread shutting their sockets.
 */
#include <errno.h>
#include <error.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "app/stop_exit.h"
#include "base/clock.h"
#include "base/err.h"
#include "zcc/send_internal.h"

/*
 * Stream s failed with err: the first failure ends the run, and stops the
 * others (the main thread shuts their sockets). A failure after the stop
 * is only the stop seen from inside.
 */
static void stream_fail(struct stream *s, const char *err)
{
	struct group *g = s->g;

	pthread_mutex_lock(&g->lock);
	if (!g->stop && !stop_signal) {
		g->stop = 1;
		g->failed = s->idx;
		snprintf(s->err, sizeof(s->err), "%s", err);
		pthread_cond_signal(&g->wake);
	} else {
		s->interrupted = 1;
	}
	pthread_mutex_unlock(&g->lock);
}

/*
 * --mptcp: where s's word on MPTCP and its subflows are kept: one stream's
 * are the run's (sd's), -P's its own.
 */
static struct mptcp_look *stream_mptcp(struct stream *s, int **mptcp)
{
	struct sender *sd = s->g->sd;

	*mptcp = s->g->n == 1 ? &sd->mptcp : &s->mptcp;
	return s->g->n == 1 ? &sd->subflows : &s->subflows;
}

/* --mptcp: a look at s's subflows; first: the connection is new. */
static void stream_subflows(struct stream *s, int first)
{
	int *mptcp;
	struct mptcp_look *look = stream_mptcp(s, &mptcp);

	send_subflows(s->g->sd, s->t.sock, first, mptcp, look);
}

/* --mptcp: where s's subflows go, or NULL (not MPTCP). */
static struct mptcp_look *stream_look(struct stream *s)
{
	int *mptcp;
	struct mptcp_look *look = stream_mptcp(s, &mptcp);

	return *mptcp ? look : NULL;
}

/* Bind the calling thread to cpu; -1 with err. */
static int bind_thread(int cpu, char *err, size_t errlen)
{
	cpu_set_t set;
	int e;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (e)
		return err_fill(err, errlen, e, "bind to CPU %d", cpu);
	return 0;
}

int stream_start(struct stream *s)
{
	struct group *g = s->g;
	const struct send_cfg *cfg = g->sd->cfg;
	char err[512];
	int sock;

	if (s->cpu >= 0 && bind_thread(s->cpu, err, sizeof(err)) < 0) {
		stream_fail(s, err);
		return -1;
	}
	sock = send_connect(g->sd, s->cancel, s->peer, sizeof(s->peer), err, sizeof(err));
	if (sock < 0) {
		stream_fail(s, err);	/* a stop while connecting: interrupted */
		return -1;
	}
	pthread_mutex_lock(&g->lock);
	s->t.sock = sock;
	s->t.peer = s->peer;
	s->connected = 1;
	if (g->stop)		/* stopped while connecting: no send to wake */
		shutdown(sock, SHUT_RDWR);
	pthread_mutex_unlock(&g->lock);
	stream_subflows(s, 1);
	s->opened = 1;		/* tx_close is owed, even when tx_open fails */
	if (tx_open(cfg->method, &s->t, s->set.f, s->set.n, err, sizeof(err)) < 0) {
		if (g->sd->refusal_ok) {	/* nothing was sent: send_run judges */
			snprintf(s->err, sizeof(s->err), "%s", err);
			s->refused = 1;
		} else {
			stream_fail(s, err);
		}
		return -1;
	}
	if (cfg->secs > 0)
		s->loops = deadline_arm(&s->dl, &s->t, &s->set, g->end);
	return 0;
}

void stream_send(struct stream *s)
{
	const struct send_cfg *cfg = s->g->sd->cfg;

	s->t0 = now_ns();
	__atomic_store_n(&s->sending, 1, __ATOMIC_RELEASE);
	s->rc = tx_send_stream(cfg->method, &s->t, s->set.f, s->set.n, s->loops,
			       s->err, sizeof(s->err));
	s->errnum = s->rc < 0 ? errno : 0;
	__atomic_store_n(&s->sending, 0, __ATOMIC_RELEASE);
	s->t_sent = now_ns();
	s->sent = 1;
}

/*
 * Where every connection ends: everything is in the kernel's hands, see
 * it delivered (or the failure the send left), take TCP's account, close.
 */
void stream_finish(struct stream *s)
{
	struct group *g = s->g;
	char err[512];

	if (!s->connected)
		return;
	if (s->sent && s->rc == 0) {
		s->rc = send_await_close(g->sd, &s->t, &s->rp, stream_look(s),
					 s->err, sizeof(s->err));
		s->errnum = s->rc < 0 ? errno : 0;
	}
	if (s->sent && s->rc == 0)	/* --receiver-report */
		s->rx_ok = rx_report_judge(&s->rp, s->peer, s->t.bytes, &s->rx);
	if (s->sent && s->rc < 0) {
		snprintf(err, sizeof(err), "%s", s->err);
		stream_fail(s, err);
	}
	tcpinfo_read(s->t.sock, &s->tcp);
	stream_subflows(s, 0);
	s->t_end = now_ns();
	if (s->opened)
		tx_close(g->sd->cfg->method, &s->t, s->set.f, s->set.n);
	pthread_mutex_lock(&g->lock);
	close(s->t.sock);
	s->t.sock = -1;
	pthread_mutex_unlock(&g->lock);
}

void *stream_thread(void *arg)
{
	struct stream *s = arg;
	struct group *g = s->g;

	if (stream_start(s) == 0)
		stream_send(s);
	stream_finish(s);
	pthread_mutex_lock(&g->lock);
	g->running--;
	pthread_cond_signal(&g->wake);
	pthread_mutex_unlock(&g->lock);
	return NULL;
}
