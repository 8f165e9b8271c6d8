/* cyclesoak's -W (cs_where.h): a session and its one span. */
#include <errno.h>
#include <error.h>
#include <stdlib.h>

#include "app/where_out.h"
#include "app/where_session.h"
#include "cyclesoak/cs_where.h"

struct cs_where {
	struct where_session *ws;
	struct where_span *span;
};

struct cs_where *cs_where_open(struct meter *m, int debug, unsigned flags)
{
	struct cs_where *w = calloc(1, sizeof(*w));

	if (!w)
		error(1, errno, "memory");
	w->ws = where_session_open(m, debug, flags);
	w->span = where_span_new(w->ws);
	return w;
}

void cs_where_start(struct cs_where *w)
{
	char err[512];

	if (w && where_span_start(w->span, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
}

void cs_where_read(struct cs_where *w, double load)
{
	char err[512];

	if (w && !where_span_read(w->span, load, 0, 0, err, sizeof(err)))
		error(1, 0, "%s", err);
}

void cs_where_line(const struct cs_where *w)
{
	if (w)
		where_line(where_span_report(w->span));
}

void cs_where_close(struct cs_where *w)
{
	if (!w)
		return;
	where_span_free(w->span);
	where_session_close(w->ws);
	free(w);
}
