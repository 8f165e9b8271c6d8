/*
 * The receive side's lookup, a connection's set-up and clean-up, its one
 * step, and the helpers the methods share to keep the stream checker's
 * count exact.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "wire/rx.h"

const struct rx_method *rx_find(const char *name)
{
	int i;

	for (i = 0; rx_methods[i]; i++)
		if (strcmp(rx_methods[i]->name, name) == 0)
			return rx_methods[i];
	return NULL;
}

int rx_open(const struct rx_method *m, struct rx *r, char *err, size_t errlen)
{
	r->zc_mapped = r->zc_copied = 0;
	r->priv = NULL;
	return m->setup ? m->setup(r, err, errlen) : 0;
}

void rx_close(const struct rx_method *m, struct rx *r)
{
	if (m->cleanup)
		m->cleanup(r);
}

size_t rx_words(const struct proto_rx *p)
{
	switch (p->state) {
	case PROTO_N_LOOPS:
		return (size_t)3 * PROTO_WORD - p->word_have;
	case PROTO_N_FILES:
		return (size_t)2 * PROTO_WORD - p->word_have;
	case PROTO_LENGTH:
		return PROTO_WORD - p->word_have;
	case PROTO_DATA:
		if (p->file + 1 < p->n_files)
			return PROTO_WORD;
		if (p->loop + 1 < p->n_loops)
			return (size_t)2 * PROTO_WORD;
		return 0;
	default:
		return 0;
	}
}

size_t rx_feed(struct proto_rx *p, const unsigned char *b, size_t n)
{
	size_t data = 0, k;

	/* In pieces that each stay in one state, so that the data among
	 * them is counted; the checker itself walks them in bulk. */
	while (n) {
		if (p->state == PROTO_DATA) {
			k = n < p->data_left ? n : p->data_left;
			data += k;
		} else if (p->state >= PROTO_END) {
			k = n;
		} else {
			k = PROTO_WORD - p->word_have;
			if (k > n)
				k = n;
		}
		proto_rx_feed(p, b, k);
		b += k;
		n -= k;
	}
	return data;
}

ssize_t rx_read_feed(struct rx *r, struct proto_rx *p, size_t want, char *err,
		     size_t errlen)
{
	ssize_t n;

	if (!want || want > r->bufsize)
		want = r->bufsize;
	n = read(r->fd, r->buf, want);
	if (n < 0)
		return err_fill(err, errlen, errno, "read");
	if (n > 0)
		proto_rx_feed(p, r->buf, (size_t)n);
	return n;
}

ssize_t rx_step(const struct rx_method *m, struct rx *r, struct proto_rx *p,
		char *err, size_t errlen)
{
	ssize_t n;

	if (m->take)
		n = m->take(r, p, err, errlen);
	else	/* the read method reads whole buffers, headers and data alike */
		n = rx_read_feed(r, p, 0, err, errlen);
	if (n > 0)
		__atomic_store_n(&r->calls, r->calls + 1, __ATOMIC_RELAXED);
	return n;
}
