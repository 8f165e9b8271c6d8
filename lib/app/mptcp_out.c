/* mptcp_out.h: MPTCP's refusal, fall-back line and subflows, as printed. */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "app/env_out.h"
#include "app/mptcp_out.h"
#include "app/out.h"

void mptcp_asked(int asked)
{
	char err[256];

	env_mptcp_asked(asked);
	if (asked && mptcp_probe(err, sizeof(err)) < 0)
		error(1, 0, "--mptcp: %s", err);
}

static int same_subflow(const struct mptcp_subflow *a, const struct mptcp_subflow *b)
{
	return strcmp(a->local, b->local) == 0 && strcmp(a->remote, b->remote) == 0;
}

static int listed(const struct mptcp_subflow *s, const struct mptcp_subflow *list, int n)
{
	for (int i = 0; i < n; i++)
		if (same_subflow(s, &list[i]))
			return 1;
	return 0;
}

void mptcp_subflows_read(int fd, struct mptcp_subflows *l)
{
	struct mptcp_subflow now[MPTCP_SUBFLOWS_MAX];
	char err[256];
	int n = mptcp_subflows(fd, now, MPTCP_SUBFLOWS_MAX, err, sizeof(err));

	if (n < 0) {
		if (l->n >= 0)
			error(0, 0, "--mptcp: subflows: %s", err);
		l->n = -1;
		return;
	}
	for (int i = 0; i < l->n; i++)
		if (!listed(&l->sf[i], now, n) && !listed(&l->sf[i], l->gone, l->n_gone) &&
		    l->n_gone < MPTCP_SUBFLOWS_MAX)
			l->gone[l->n_gone++] = l->sf[i];
	memcpy(l->sf, now, sizeof(now[0]) * (size_t)n);
	l->n = n;
}

/* A subflow listed is "up", or "down" while its retransmissions go unanswered. */
static const char *state_of(const struct mptcp_subflow *s)
{
	return s->timeouts ? "down" : "up";
}

static void debug_one(const char *what, const struct mptcp_subflow *s, const char *state)
{
	fprintf(stderr, "%s: %ssubflow %s -> %s: %s, %" PRIu64 " bytes out, %" PRIu64
		" in, %" PRIu64 " retransmits, rtt %.3f ms", program_invocation_short_name,
		what, s->local, s->remote, state, s->bytes_sent, s->bytes_received,
		s->retransmits, (double)s->rtt_us / 1000);
	if (s->timeouts)
		fprintf(stderr, ", %u timeouts in a row", s->timeouts);
	fputc('\n', stderr);
}

void mptcp_debug(const char *what, const struct mptcp_subflows *l)
{
	for (int i = 0; i < l->n; i++)
		debug_one(what, &l->sf[i], state_of(&l->sf[i]));
	for (int i = 0; i < l->n_gone; i++)
		debug_one(what, &l->gone[i], "gone (closed during the run; its figures as last seen)");
}

static void json_one(const struct mptcp_subflow *s, const char *state)
{
	out_object(NULL);
	out_str("local", s->local);
	out_str("remote", s->remote);
	out_str("state", state);
	out_u64("bytes_sent", s->bytes_sent);
	out_u64("bytes_received", s->bytes_received);
	out_u64("retransmits", s->retransmits);
	out_u64("rtt_us", s->rtt_us);
	out_object_end();
}

void mptcp_json(const void *subflows)
{
	const struct mptcp_subflows *l = subflows;

	if (l->n < 0)
		return;
	out_array("subflows");
	for (int i = 0; i < l->n; i++)
		json_one(&l->sf[i], state_of(&l->sf[i]));
	for (int i = 0; i < l->n_gone; i++)
		json_one(&l->gone[i], "gone");
	out_array_end();
}
