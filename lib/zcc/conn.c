/*
 * A connection's life (lib/zcc/conn.h), in a thread of its own with every
 * signal blocked: the main thread ends it by shutting its socket. Its
 * work is called only here, through its hooks.
 */
#include <errno.h>
#include <error.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/err.h"
#include "zcc/send_internal.h"

void conn_subflows(struct conn *c, int first)
{
	send_subflows(c->sd, c->t.sock, first, &c->mptcp, &c->subflows);
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

/* Connect c and open its work; -1 when that failed (failure or stop recorded). */
static int conn_start(struct conn *c)
{
	struct engine *e = c->e;
	char err[512];
	int sock, rc;

	if (c->cpu >= 0 && bind_thread(c->cpu, err, sizeof(err)) < 0) {
		engine_fail(c, err);
		return -1;
	}
	sock = c->ops->connect ? c->ops->connect(c, err, sizeof(err)) :
	       send_connect(c->sd, c->cancel, c->peer, sizeof(c->peer), err, sizeof(err));
	if (sock < 0) {
		engine_fail(c, err);	/* a stop while connecting: interrupted */
		return -1;
	}
	pthread_mutex_lock(&e->lock);
	c->t.sock = sock;
	c->t.peer = c->peer;
	c->connected = 1;
	if (e->stop)		/* stopped while connecting: no work to wake */
		shutdown(sock, SHUT_RDWR);
	pthread_mutex_unlock(&e->lock);
	conn_subflows(c, 1);
	c->opened = 1;		/* close is owed, even when open fails */
	rc = c->ops->open(c, err, sizeof(err));
	if (rc == -2 && c->sd->refusal_ok) {	/* nothing was sent: the engine judges */
		snprintf(c->err, sizeof(c->err), "%s", err);
		c->refused = 1;
	} else if (rc < 0) {
		engine_fail(c, err);
	}
	return rc < 0 ? -1 : 0;
}

/* c's whole work; its watch is on meanwhile. */
static void conn_run(struct conn *c)
{
	struct engine *e = c->e;

	c->t0 = now_ns();
	__atomic_store_n(&c->sending, 1, __ATOMIC_RELEASE);
	c->rc = c->ops->run(c, c->err, sizeof(c->err));
	c->errnum = c->rc < 0 ? errno : 0;
	pthread_mutex_lock(&e->lock);	/* the watcher's last look is over */
	__atomic_store_n(&c->sending, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&e->lock);
	c->t_done = now_ns();
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
}

/*
 * Where every connection ends: the work settled (or the failure its run
 * left), TCP's account taken, closed.
 */
static void conn_finish(struct conn *c)
{
	struct engine *e = c->e;
	char err[512];

	if (!c->connected)
		return;
	if (c->done && c->rc == 0) {
		c->rc = c->ops->settle(c, c->err, sizeof(c->err));
		c->errnum = c->rc < 0 ? errno : 0;
	}
	if (c->done && c->rc < 0) {
		snprintf(err, sizeof(err), "%s", c->err);
		engine_fail(c, err);
	}
	tcpinfo_read(c->t.sock, &c->tcp);
	conn_subflows(c, 0);
	c->t_end = now_ns();
	if (c->opened)
		c->ops->close(c);
	pthread_mutex_lock(&e->lock);
	close(c->t.sock);
	c->t.sock = -1;
	pthread_mutex_unlock(&e->lock);
}

void *conn_thread(void *arg)
{
	struct conn *c = arg;
	struct engine *e = c->e;

	if (conn_start(c) == 0) {
		if (e->span_each)
			engine_span_begin(e, c->t.sock);
		conn_run(c);
		if (e->span_each)
			engine_span_end(e);
	}
	conn_finish(c);
	pthread_mutex_lock(&e->lock);
	e->running--;
	pthread_cond_signal(&e->wake);
	pthread_mutex_unlock(&e->lock);
	return NULL;
}
