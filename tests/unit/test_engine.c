/*
 * The engine of a zcc run (lib/zcc/engine.c) with a made-up work of its
 * own: every hook of struct conn_ops is called once per connection, for
 * one connection as for several; the result is the sum of what they
 * moved; a method refused on every connection is a refused result.
 * Against a drain on loopback that reads each connection to its end.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "zcc/send_internal.h"
#include "t.h"

#define MAX_CONNS 8
#define PIECE 1000

/* The calls each hook had, per connection (1..N), over one run. */
static unsigned calls[MAX_CONNS + 1][9];
enum { INIT, OPEN, RUN, SETTLE, CLOSE, PLANNED, PLAN, DEBUG, FREE };
static int refuse;	/* open answers -2: the method refused */

static void count(const struct conn *c, int hook)
{
	__atomic_add_fetch(&calls[c->idx][hook], 1, __ATOMIC_RELAXED);
}

static void w_init(struct conn *c, uint32_t loops)
{
	(void)loops;
	count(c, INIT);
}

static int w_open(struct conn *c, char *err, size_t errlen)
{
	count(c, OPEN);
	if (refuse)
		snprintf(err, errlen, "made-up method: refused");
	return refuse ? -2 : 0;
}

/* Connection i sends i pieces. */
static int w_run(struct conn *c, char *err, size_t errlen)
{
	char piece[PIECE] = { 0 };

	count(c, RUN);
	for (unsigned i = 0; i < c->idx; i++) {
		if (send(c->t.sock, piece, sizeof(piece), MSG_NOSIGNAL) != (ssize_t)sizeof(piece)) {
			snprintf(err, errlen, "send failed");
			return -1;
		}
		c->t.bytes += sizeof(piece);
	}
	return 0;
}

static int w_settle(struct conn *c, char *err, size_t errlen)
{
	char buf[64];

	(void)err;
	(void)errlen;
	count(c, SETTLE);
	shutdown(c->t.sock, SHUT_WR);
	while (read(c->t.sock, buf, sizeof(buf)) > 0)
		;
	return 0;
}

static void w_close(struct conn *c)
{
	count(c, CLOSE);
}

static uint64_t w_planned(const struct conn *c)
{
	count(c, PLANNED);
	return (uint64_t)c->idx * PIECE;
}

static void w_plan(const struct conn *c, unsigned n, int named)
{
	(void)n;
	(void)named;
	count(c, PLAN);
}

static void w_debug(const struct conn *c, const char *what)
{
	(void)what;
	count(c, DEBUG);
}

static void w_free(struct conn *c)
{
	count(c, FREE);
}

static const struct conn_ops made_up = {
	.name = "made-up", .init = w_init, .open = w_open, .run = w_run,
	.settle = w_settle, .close = w_close, .planned = w_planned, .plan = w_plan,
	.debug = w_debug, .free = w_free,
};

/* The drain: accept each connection, read it to its end, close it. */
static void *drain(void *arg)
{
	int lfd = *(int *)arg, fd;
	char buf[4096];

	while ((fd = accept(lfd, NULL, NULL)) >= 0) {
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
	return NULL;
}

/* One run of n connections, stdout (its sent: line) to /dev/null. */
static struct send_result run(struct sender *sd, struct send_cfg *cfg, unsigned n)
{
	struct send_result r;
	int out = dup(1), null = open("/dev/null", O_WRONLY);

	memset(calls, 0, sizeof(calls));
	cfg->streams = n;
	fflush(stdout);
	dup2(null, 1);
	r = engine_send(sd, &made_up, 1);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	close(null);
	return r;
}

/* Every connection's hooks called as the contract says. */
static int each_once(unsigned n, int ran)
{
	for (unsigned i = 1; i <= n; i++) {
		if (calls[i][INIT] != 1 || calls[i][OPEN] != 1 || calls[i][CLOSE] != 1 ||
		    calls[i][FREE] != 1)
			return 0;
		if (calls[i][RUN] != (unsigned)ran || calls[i][SETTLE] != (unsigned)ran)
			return 0;
	}
	return calls[n + 1][INIT] == 0;
}

int main(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	struct send_cfg cfg = { .host = "127.0.0.1", .method = tx_methods[0], .chunk = 65536 };
	struct sender sd = { .cfg = &cfg, .refusal_ok = 1 };
	struct send_result r;
	pthread_t t;
	int lfd = socket(AF_INET, SOCK_STREAM, 0);

	if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(lfd, 16) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&a, &alen) < 0) {
		perror("listen");
		return 1;
	}
	cfg.port = ntohs(a.sin_port);
	pthread_create(&t, NULL, drain, &lfd);

	r = run(&sd, &cfg, 1);
	CHECK(r.bytes == PIECE && !r.refused && !r.interrupted && each_once(1, 1),
	      "one connection: its hooks once each, %llu bytes", (unsigned long long)r.bytes);
	r = run(&sd, &cfg, 3);
	CHECK(r.bytes == 6 * PIECE && !r.refused && each_once(3, 1),
	      "three connections: each one's hooks once, the bytes summed (%llu)",
	      (unsigned long long)r.bytes);
	CHECK(calls[1][PLANNED] == 1 && calls[3][PLANNED] == 1 && calls[1][PLAN] == 0,
	      "the planned bytes asked of each; no -d, no plan");
	refuse = 1;
	r = run(&sd, &cfg, 2);
	CHECK(r.refused && r.bytes == 0 && each_once(2, 0) &&
	      strcmp(sd.refusal, "made-up method: refused") == 0,
	      "refused on every connection: a refused result, each closed (%s)", sd.refusal);
	shutdown(lfd, SHUT_RDWR);
	close(lfd);
	pthread_join(t, NULL);
	return t_exit();
}
