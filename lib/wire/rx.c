/*
 * The receive side's lookup, a connection's set-up and clean-up, and its
 * one step: header words through read() and the stream checker, file data
 * through the method's take hook.
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

/*
 * How much to read() outside file data. The read method reads whole
 * buffers, headers and data alike, as in 2001. Any other method reads no
 * further than the header word being gathered, so that no data byte is
 * copied behind its back; at the end it reads a whole buffer, to see
 * excess bytes at once.
 */
static size_t header_read_size(const struct rx_method *m, const struct rx *r,
			       const struct proto_rx *p)
{
	size_t word = PROTO_WORD - p->word_have;

	if (!m->take || p->state >= PROTO_END || word > r->bufsize)
		return r->bufsize;
	return word;
}

ssize_t rx_step(const struct rx_method *m, struct rx *r, struct proto_rx *p,
		char *err, size_t errlen)
{
	size_t want;
	ssize_t n;

	if (m->take && p->state == PROTO_DATA) {
		n = m->take(r, p->data_left, err, errlen);
		if (n > 0)
			proto_rx_skip(p, (uint32_t)n);
		return n;
	}
	want = header_read_size(m, r, p);
	n = read(r->fd, r->buf, want);
	if (n < 0)
		return err_fill(err, errlen, errno, "read");
	if (n > 0)
		proto_rx_feed(p, r->buf, (size_t)n);
	return n;
}
