/*
 * What every transmit method and zcc share: the method lookup, its
 * lifecycle (open, close) around the stream, the header words' flush, the
 * full send, the one way to name a failure.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/err.h"
#include "wire/proto.h"
#include "wire/tstamp_every.h"
#include "wire/tx_internal.h"

const struct tx_method *tx_find(const char *name)
{
	for (int i = 0; tx_methods[i]; i++)
		if (strcmp(tx_methods[i]->name, name) == 0)
			return tx_methods[i];
	return NULL;
}

int tx_usable(const struct tx_method *m, size_t chunk, char *err, size_t errlen)
{
	return m->usable ? m->usable(chunk > TX_PIECE_MAX ? TX_PIECE_MAX : chunk, err,
				     errlen) : 0;
}

int tx_open(const struct tx_method *m, struct tx *t, struct tx_file *files,
	    uint32_t n_files, char *err, size_t errlen)
{
	if (t->chunk > TX_PIECE_MAX)
		t->chunk = TX_PIECE_MAX;
	if (m->setup && m->setup(t, err, errlen) < 0)
		return -1;
	for (uint32_t i = 0; m->open_file && i < n_files; i++)
		if (m->open_file(t, &files[i], err, errlen) < 0)
			return -1;
	return 0;
}

void tx_close(const struct tx_method *m, struct tx *t, struct tx_file *files,
	      uint32_t n_files)
{
	if (m->cleanup)
		m->cleanup(t, files, n_files);
}

int tx_stopped(struct tx *t, char *err, size_t errlen)
{
	(void)t;
	errno = EINTR;
	return err_fill(err, errlen, 0, "interrupted");
}

/* A socket error is the server's doing; anything else is the file's. */
static int peer_gone(int e)
{
	return e == EPIPE || e == ECONNRESET || e == ECONNABORTED ||
	       e == ETIMEDOUT || e == ENOTCONN || e == EHOSTUNREACH ||
	       e == ENETUNREACH || e == ENETDOWN || e == EHOSTDOWN;
}

int tx_fail(struct tx *t, const struct tx_file *f, const char *what,
	    char *err, size_t errlen)
{
	int e = errno;

	if (e == EINTR && t->stop && *t->stop)
		return tx_stopped(t, err, errlen);
	if (!f || peer_gone(e))
		err_fill(err, errlen, e, "%s to %s", what, t->peer);
	else
		err_fill(err, errlen, e, "%s", f->name);
	errno = e;
	return -1;
}

int tx_shrank(const struct tx_file *f, uint64_t at, char *err, size_t errlen)
{
	err_fill(err, errlen, 0, "%s: file shrank while being sent (%llu of %lu bytes)",
		 f->name, (unsigned long long)at, (unsigned long)f->size);
	errno = ENODATA;
	return -1;
}

int tx_put(struct tx *t, const void *buf, size_t len, int flags, int use_write,
	   const char *what, char *err, size_t errlen)
{
	const char *p = buf;
	ssize_t n;

	while (len > 0) {
		if (t->stop && *t->stop)
			return tx_stopped(t, err, errlen);
		tx_call_begin(t);
		n = use_write ? write(t->sock, p, len) :
		    t->stamps ? tstamp_every_send(t->stamps, t->sock, p, len, flags) :
		    send(t->sock, p, len, flags);
		if (n < 0) {
			if (errno == EINTR && !(t->stop && *t->stop))
				continue;
			return tx_fail(t, NULL, what, err, errlen);
		}
		tx_account(t, (uint64_t)n);
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * With MSG_MORE: the words are the end of the stream (the close that
 * follows pushes them out with the FIN) or a run of empty files that the
 * next data joins.
 */
int tx_flush_words(struct tx *t, char *err, size_t errlen)
{
	int rc = 0;

	if (t->hdr_len)
		rc = tx_put(t, t->hdr, t->hdr_len, MSG_MORE, 0, "send", err, errlen);
	if (rc == 0)
		t->hdr_len = 0;
	return rc;
}

/*
 * Queue one header word; a full queue goes out first (a long run of
 * empty files).
 */
static int put_word(struct tx *t, uint32_t v, char *err, size_t errlen)
{
	if (t->hdr_len + PROTO_WORD > TX_WORDS_MAX &&
	    tx_flush_words(t, err, errlen) < 0)
		return -1;
	proto_put_u32(t->hdr + t->hdr_len, v);
	t->hdr_len += PROTO_WORD;
	return 0;
}

int tx_send_stream(const struct tx_method *m, struct tx *t,
		   const struct tx_file *files, uint32_t n_files, uint32_t n_loops,
		   char *err, size_t errlen)
{
	unsigned char words[TX_WORDS_MAX];
	uint32_t next = 0, in_loop;
	int rc = 0;

	t->hdr = words;
	t->hdr_len = 0;
	if (put_word(t, n_loops, err, errlen) < 0)
		goto out;
	for (uint32_t loop = 0; loop < n_loops; loop++) {
		in_loop = t->loop_files ? t->loop_files(t, n_loops - loop) : n_files;
		if (put_word(t, in_loop, err, errlen) < 0)
			goto out;
		for (uint32_t j = 0; j < in_loop; j++) {
			const struct tx_file *f = &files[next];

			next = next + 1 < n_files ? next + 1 : 0;
			if (t->stop && *t->stop) {
				tx_stopped(t, err, errlen);
				goto out;
			}
			if (put_word(t, f->size, err, errlen) < 0 ||
			    (f->size && m->send_file(t, f, err, errlen) < 0))
				goto out;
		}
	}
	if (tx_flush_words(t, err, errlen) == 0 &&
	    (!m->finish || m->finish(t, err, errlen) == 0))
		rc = 1;
out:
	t->hdr = NULL;
	t->hdr_len = 0;
	return rc ? 0 : -1;
}
