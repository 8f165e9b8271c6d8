/*
 * A connection's work in stream mode (lib/zcc/conn.h): the whole protocol
 * stream of the file set by the method of -M, -n's loops of it or as many
 * as -t's deadline allows, then the wait for the server's close with its
 * report (--receiver-report).
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcc/send_internal.h"
#include "wire/proto.h"
#include "wire/tstamp_every.h"
#include "base/plural.h"

/* A connection's own part of a stream. */
struct files_work {
	struct file_set set;	/* its own entries: a method maps into them */
	uint32_t loops;
	struct deadline dl;	/* -t: its plan */
	struct rx_report_wait rp;	/* --receiver-report: the line awaited */
};

static struct files_work *work_of(const struct conn *c)
{
	return c->work;
}

/* Zeroed memory for n of size, or one line and exit 1. */
static void *zeroed(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		error(1, errno, "memory");
	return p;
}

static void files_init(struct conn *c, uint32_t loops)
{
	const struct file_set *files = &c->sd->files;
	struct files_work *fw = zeroed(1, sizeof(*fw));

	fw->loops = loops;
	fw->set = *files;
	fw->set.f = zeroed(files->n, sizeof(*files->f));
	memcpy(fw->set.f, files->f, files->n * sizeof(*files->f));
	c->work = fw;
}

static void files_free(struct conn *c)
{
	struct files_work *fw = work_of(c);

	free(fw->set.f);
	free(fw);
	c->work = NULL;
}

static int files_open(struct conn *c, char *err, size_t errlen)
{
	struct files_work *fw = work_of(c);
	const struct send_cfg *cfg = c->sd->cfg;

	/* --stamps: the bytes numbered from the first. */
	if (c->t.stamps && tstamp_enable_each(c->t.sock, err, errlen) < 0)
		return -1;
	if (tx_open(cfg->method, &c->t, fw->set.f, fw->set.n, err, errlen) < 0)
		return -2;
	if (cfg->secs > 0)
		fw->loops = deadline_arm(&fw->dl, &c->t, &fw->set, c->end);
	return 0;
}

static int files_run(struct conn *c, char *err, size_t errlen)
{
	struct files_work *fw = work_of(c);
	int rc = tx_send_stream(c->sd->cfg->method, &c->t, fw->set.f, fw->set.n, fw->loops,
				err, errlen);

	if (rc == 0 && c->t.stamps)
		tstamp_every_finish(c->t.stamps, c->t.sock, TSTAMP_DRAIN_MS);
	return rc;
}

static int files_settle(struct conn *c, char *err, size_t errlen)
{
	struct files_work *fw = work_of(c);
	int rc;

	rx_report_start(&fw->rp, c->sd->cfg->rx_report);
	rc = send_await_close(c->sd, &c->t, &fw->rp, c->mptcp ? &c->subflows : NULL,
			      err, errlen);
	if (rc == 0)	/* --receiver-report */
		c->rx_ok = rx_report_judge(&fw->rp, c->peer, c->t.bytes, &c->rx);
	return rc;
}

static void files_close(struct conn *c)
{
	struct files_work *fw = work_of(c);

	tx_close(c->sd->cfg->method, &c->t, fw->set.f, fw->set.n);
}

/* What the stream should have held: -n's loops, or as -t planned. */
static uint64_t files_planned(const struct conn *c)
{
	const struct files_work *fw = work_of(c);

	return c->sd->cfg->secs > 0 ? fw->dl.bytes :
	       proto_stream_bytes(fw->loops, fw->set.n, fw->set.bytes);
}

/*
 * -d: the plan. With -t, each connection's loops are known once it is
 * open: the line gives them when there is one connection.
 */
static void files_plan(const struct conn *c, unsigned n, int named)
{
	const struct send_cfg *cfg = c->sd->cfg;
	const struct file_set *f = &c->sd->files;
	const char *files = f->n != 1 ? "s" : "";
	uint32_t loops = work_of(c)->loops;
	char conns[32] = "", most[48] = "";

	if (named)
		snprintf(conns, sizeof(conns), "%u streams, ", n);
	if (cfg->secs > 0 && !named)
		snprintf(most, sizeof(most), ": at most %" PRIu32 " loops", loops);
	if (cfg->secs > 0)
		fprintf(stderr, "%s: %s%s, %" PRIu32 " file%s of %" PRIu64 " bytes in all, "
			"for %g s%s\n", program_invocation_short_name, conns,
			cfg->method->name, f->n, files, f->bytes, cfg->secs, most);
	else
		fprintf(stderr, "%s: %s%s, %" PRIu32 " file%s of %" PRIu64 " bytes in all, %"
			PRIu32 " loop%s, %" PRIu64 " bytes %s\n", program_invocation_short_name,
			conns, cfg->method->name, f->n, files, f->bytes, loops,
			plural_s(loops), proto_stream_bytes(loops, f->n, f->bytes),
			named ? "on each" : "on the connection");
}

/* -t -d: how the stream's loops were spent. */
static void debug_deadline(const char *what, const struct deadline *dl, uint32_t ceiling)
{
	fprintf(stderr, "%s: %s-t: %" PRIu64 " files in %" PRIu32 " loops, then %" PRIu32
		" loops of 0 files\n", program_invocation_short_name, what, dl->files,
		dl->loops, ceiling - dl->loops);
}

/* -t -dd: how the connection's loops were spent. */
static void files_debug(const struct conn *c, const char *what)
{
	const struct files_work *fw = work_of(c);

	if (c->sd->cfg->secs > 0)
		debug_deadline(what, &fw->dl, fw->loops);
}

const struct conn_ops conn_files = {
	.name = "stream",
	.init = files_init,
	.open = files_open,
	.run = files_run,
	.settle = files_settle,
	.close = files_close,
	.planned = files_planned,
	.plan = files_plan,
	.debug = files_debug,
	.free = files_free,
};
