#include <errno.h>
#include <error.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/where_out.h"
#include "app/wsession.h"

struct wsession {
	struct where *where;
	char ifname[IF_NAMESIZE];	/* "": every interface that moved */
};

struct wspan {
	struct wsession *ws;
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

struct wsession *wsession_open(struct meter *m, int debug, unsigned flags)
{
	struct wsession *ws = zeroed(sizeof(*ws));
	char err[512];

	ws->where = where_open_meter(m, err, sizeof(err));
	if (!ws->where)
		error(1, 0, "%s", err);
	if (flags & WSESSION_EVERY_NETNS)
		where_every_netns(ws->where);
	where_show_other(debug);
	if (where_sampling_why(ws->where))
		fprintf(stderr, "%s: -W: kernel work not sampled: %s\n",
			program_invocation_short_name, where_sampling_why(ws->where));
	if (flags & WSESSION_PAUSED)
		where_pause(ws->where);
	return ws;
}

void wsession_resume(struct wsession *ws)
{
	where_resume(ws->where);
}

void wsession_socket(struct wsession *ws, int sock)
{
	char err[512];

	if (sock < 0 || where_ifname(sock, ws->ifname, sizeof(ws->ifname), err,
				     sizeof(err)) < 0)
		ws->ifname[0] = '\0';
}

void wsession_close(struct wsession *ws)
{
	if (!ws)
		return;
	where_close(ws->where);
	free(ws);
}

struct wspan *wspan_new(struct wsession *ws)
{
	struct wspan *s = zeroed(sizeof(*s));

	s->start = zeroed(sizeof(*s->start));
	s->now = zeroed(sizeof(*s->now));
	s->ws = ws;
	return s;
}

void wspan_free(struct wspan *s)
{
	if (!s)
		return;
	free(s->start);
	free(s->now);
	free(s);
}

int wspan_start(struct wspan *s, char *err, size_t errlen)
{
	return where_take(s->ws->where, s->start, err, errlen);
}

void wspan_start_as(struct wspan *to, const struct wspan *from)
{
	memcpy(to->start, from->start, sizeof(*to->start));
}

const struct where_report *wspan_read(struct wspan *s, double load, uint64_t bytes,
				      uint64_t calls, char *err, size_t errlen)
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

const struct where_report *wspan_report(const struct wspan *s)
{
	return &s->rep;
}
