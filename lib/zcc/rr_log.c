/*
 * zcc --rr --log FILE: every answer's times, one CSV row each, behind a
 * header naming the columns and their units. Each connection gathers its
 * rows in a buffer of its own and hands it to the file whole (stdio locks
 * the stream for each write), so memory stays bounded whatever the
 * number of messages. The file is new: one that exists is never
 * replaced (a log is a record of a run; another run's is not ours to lose).
 */
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/opt.h"
#include "zcc/rr_internal.h"

#define RR_LOG_BUF 65536

const char rr_log_header[] = "flow,seq,due_mono_ns,send_mono_ns,arrival_mono_ns,"
	"rtt_from_due_ns,rtt_from_send_ns,out_ns,back_ns\n";

struct rr_log_buf {
	size_t used;
	char b[RR_LOG_BUF];
};

static FILE *log_file;
static const char *log_path;

/* v in decimal at p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		*p++ = tmp[--n];
	return p;
}

size_t rr_log_format(char *buf, uint32_t flow, const struct rr_msg *m, uint64_t arrival,
		     const struct rr_times *t)
{
	const uint64_t col[] = { flow, m->seq, m->due_mono, m->tx_mono, arrival, t->from_due,
				 t->from_send };
	char *p = buf;

	for (size_t i = 0; i < sizeof(col) / sizeof(col[0]); i++) {
		p = put_u64(p, col[i]);
		*p++ = ',';
	}
	if (t->one_way) {
		p = put_u64(p, t->out);
		*p++ = ',';
		p = put_u64(p, t->back);
	} else {
		*p++ = ',';
	}
	*p++ = '\n';
	return (size_t)(p - buf);
}

void rr_log_check(const char *path)
{
	struct stat st;

	if (!*path)
		usage_error("--log '': an empty file name");
	if (lstat(path, &st) == 0)
		usage_error("--log %s: the file exists; zcc never replaces one (remove it or name "
			    "another)", path);
}

void rr_log_open(const char *path)
{
	int fd;

	if (log_file)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0 && errno == EEXIST)
		usage_error("--log %s: the file exists; zcc never replaces one (remove it or name "
			    "another)", path);
	if (fd < 0 || !(log_file = fdopen(fd, "w")))
		error(1, errno, "--log %s", path);
	log_path = path;
	fputs(rr_log_header, log_file);
}

/* A connection's buffer, empty. */
static struct rr_log_buf *buf_new(void)
{
	struct rr_log_buf *b = malloc(sizeof(*b));

	if (!b)
		error(1, errno, "memory");
	else
		b->used = 0;
	return b;
}

void rr_log_row(struct rr_log_buf **buf, uint32_t flow, const struct rr_msg *m,
		uint64_t arrival, const struct rr_times *t)
{
	struct rr_log_buf *b = *buf ? *buf : (*buf = buf_new());

	if (b->used > RR_LOG_BUF - RR_LOG_ROW_MAX)
		rr_log_flush(b);
	b->used += rr_log_format(b->b + b->used, flow, m, arrival, t);
}

void rr_log_flush(struct rr_log_buf *buf)
{
	if (!buf || !buf->used)
		return;
	fwrite(buf->b, 1, buf->used, log_file);	/* an error stays in ferror */
	buf->used = 0;
}

void rr_log_free(struct rr_log_buf *buf)
{
	rr_log_flush(buf);
	free(buf);
}

void rr_log_sync(void)
{
	if (log_file && (fflush(log_file) != 0 || ferror(log_file)))
		error(1, errno, "--log %s: write", log_path);
}
