/*
 * -W for one connection of zcs: where the load went since it began and
 * since its last line (lib/zcs/serve_internal.h).
 */
#include <error.h>

#include "zcs/serve_internal.h"
#include "app/where_out.h"

/* -W has no figure to give (its /proc or perf reads failed). */
static __attribute__((noreturn)) void where_failed(const struct conn *c, const char *err)
{
	error(0, 0, "%s", err);
	serve_give_up(c);
}

/* -W: where the load went since the connection began and since its last line. */
void serve_where_start(struct conn *c)
{
	struct where_session *ws = c->cfg->where;
	char err[512];

	if (!ws)
		return;
	where_session_resume(ws);
	where_session_socket(ws, c->rx.fd);
	c->whole = where_span_new(ws);
	c->since = where_span_new(ws);
	if (where_span_start(c->whole, err, sizeof(err)) < 0)
		where_failed(c, err);
	where_span_start_as(c->since, c->whole);
	c->where_calls = c->rx.calls;
}

void serve_where_read(struct conn *c, double load, uint64_t bytes, int whole)
{
	char err[512];

	c->where_rep = where_span_read(whole ? c->whole : c->since, load, bytes,
				  whole ? c->rx.calls : c->rx.calls - c->where_calls,
				  err, sizeof(err));
	if (!c->where_rep)
		where_failed(c, err);
	if (whole)
		where_span_start_as(c->since, c->whole);
	c->where_calls = c->rx.calls;
}

void serve_where_end(struct conn *c)
{
	where_span_free(c->whole);
	where_span_free(c->since);
}
