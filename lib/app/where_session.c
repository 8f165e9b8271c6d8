#include <errno.h>
#include <error.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/where_out.h"
#include "app/where_session.h"
#include "wire/mptcp.h"

struct where_session {
	struct where *where;
	char ifname[IF_NAMESIZE];	/* "": every interface that moved */
};

struct where_span {
	struct where_session *ws;
	struct where_snap *start, *now;	/* now: the next read's, swapped in */
	struct where_report rep;
};

/* Zeroed memory for -W, or one line and exit 1. */
static void *zeroed(size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		error(1, errno, "-W: memory for its snapshots");
	return p;
}

struct where_session *where_session_open(struct meter *m, int debug, unsigned flags)
{
	struct where_session *ws = zeroed(sizeof(*ws));
	char err[512];

	ws->where = where_open_meter(m, err, sizeof(err));
	if (!ws->where)
		error(1, 0, "%s", err);
	if (flags & WHERE_SESSION_EVERY_NETNS)
		where_every_netns(ws->where);
	where_show_other(debug);
	if (where_sampling_why(ws->where))
		fprintf(stderr, "%s: -W: kernel work not sampled: %s\n",
			program_invocation_short_name, where_sampling_why(ws->where));
	if (flags & WHERE_SESSION_PAUSED)
		where_pause(ws->where);
	return ws;
}

void where_session_resume(struct where_session *ws)
{
	where_resume(ws->where);
}

void where_session_socket(struct where_session *ws, int sock)
{
	char err[512];

	/* An MPTCP connection's subflows may take any interface, and join
	 * after this: every interface that moves counts. */
	if (sock < 0 || mptcp_active(sock) == 1 ||
	    where_ifname(sock, ws->ifname, sizeof(ws->ifname), err, sizeof(err)) < 0)
		ws->ifname[0] = '\0';
}

void where_session_close(struct where_session *ws)
{
	if (!ws)
		return;
	where_close(ws->where);
	free(ws);
}

struct where_span *where_span_new(struct where_session *ws)
{
	struct where_span *s = zeroed(sizeof(*s));

	s->start = zeroed(sizeof(*s->start));
	s->now = zeroed(sizeof(*s->now));
	s->ws = ws;
	return s;
}

void where_span_free(struct where_span *s)
{
	if (!s)
		return;
	free(s->start);
	free(s->now);
	free(s);
}

int where_span_start(struct where_span *s, char *err, size_t errlen)
{
	return where_take(s->ws->where, s->start, err, errlen);
}

void where_span_start_as(struct where_span *to, const struct where_span *from)
{
	memcpy(to->start, from->start, sizeof(*to->start));
}

const struct where_report *where_span_read(struct where_span *s, double load,
					   uint64_t bytes, uint64_t calls, char *err,
					   size_t errlen)
{
	struct where_snap *then = s->start;

	if (where_take(s->ws->where, s->now, err, errlen) < 0)
		return NULL;
	where_compute(then, s->now, load, bytes, s->ws->ifname, &s->rep);
	where_calls(&s->rep, bytes, calls);
	s->start = s->now;
	s->now = then;
	return &s->rep;
}

const struct where_report *where_span_report(const struct where_span *s)
{
	return &s->rep;
}
