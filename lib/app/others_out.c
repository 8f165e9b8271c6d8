#include <errno.h>
#include <error.h>
#include <stdlib.h>
#include <unistd.h>

#include "app/others_out.h"
#include "app/out.h"

#define SOAKERS_MAX 256

struct others_span {
	const struct meter *m;
	struct others_skip skip;
	int pids[SOAKERS_MAX + 1];
	struct others_snap *start;
	struct others_report last;
};

struct others_span *others_span_new(const struct meter *m)
{
	struct others_span *s = calloc(1, sizeof(*s));

	if (!s) {
		error(0, errno, "memory");
		exit(1);
	}
	s->m = m;
	others_netdevs(&s->skip);
	s->skip.pids = s->pids;
	return s;
}

void others_span_free(struct others_span *s)
{
	if (!s)
		return;
	others_free(s->start);
	free(s);
}

/* A snapshot of /proc; NULL when it cannot be read (no figure then). */
static struct others_snap *snap(void)
{
	char err[256];

	return others_take("/proc", err, sizeof(err));
}

void others_span_start(struct others_span *s)
{
	if (!s)
		return;
	others_free(s->start);
	s->start = snap();
}

const struct others_report *others_span_read(struct others_span *s, double cpus,
					     double secs)
{
	struct others_snap *end;

	if (!s)
		return NULL;
	end = snap();
	/* Asked now: a connection's process of zcs is not the meter's opener. */
	s->pids[0] = (int)getpid();
	s->skip.npids = 1 + meter_soakers(s->m, s->pids + 1, SOAKERS_MAX);
	others_compute(s->start, end, &s->skip, cpus, secs, sysconf(_SC_CLK_TCK), &s->last);
	others_free(s->start);
	s->start = end;
	return &s->last;
}

void others_json(const void *arg)
{
	const struct others_report *r = arg;

	out_array("others");
	for (int i = 0; i < r->n; i++) {
		out_object(NULL);
		out_str("name", r->top[i].name);
		out_num("pct", r->top[i].pct, 1);
		out_object_end();
	}
	out_array_end();
}

void others_line(const struct others_report *r, const char *figure)
{
	char text[512];

	if (!r || !r->valid)
		return;
	line_num("others_pct", r->pct, 1, NULL);
	line_nested(others_json, NULL, r);
	if (others_over(r))
		line_text("\n%s", others_text(r, figure, text, sizeof(text)));
}
