/*
 * The transmit methods that copy or map: send and write (the 2001 copy
 * path), mmap and splice (sendfile, the default, is tx_sendfile.c). How
 * each sends the header words waiting in front of a file's data (never
 * as a segment of their own):
 *   send, write  copied in front of the first chunk in the one buffer;
 *   mmap         the first sendmsg() has two iovecs, the words and the chunk;
 *   splice       written into the pipe, the file's data put in behind
 *                them, and the pipe spliced to the socket: one operation
 *                on the socket carries the words and the data.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/err.h"
#include "base/textfile.h"
#include "wire/tx_host.h"
#include "wire/tx_internal.h"

/* ---- send, write: pread() into a buffer, the words in front ---------- */

static int buffer_setup(struct tx *t, char *err, size_t errlen)
{
	void *p;
	int e = posix_memalign(&p, TX_WORDS_MAX, TX_WORDS_MAX + t->chunk);

	if (e) {
		errno = e;
		return err_fill(err, errlen, e, "a buffer of %zu bytes", t->chunk);
	}
	t->priv = p;
	return 0;
}

static void buffer_cleanup(struct tx *t, struct tx_file *files, uint32_t n)
{
	(void)files;
	(void)n;
	free(t->priv);
	t->priv = NULL;
}

static int copy_file(struct tx *t, const struct tx_file *f, int use_write,
		     char *err, size_t errlen)
{
	unsigned char *data = (unsigned char *)t->priv + TX_WORDS_MAX;
	uint64_t off = 0;
	ssize_t n;

	while (off < f->size) {
		n = pread(f->fd, data, tx_min_size(f->size - off, t->chunk), (off_t)off);
		if (n < 0 && errno == EINTR && !*t->stop)
			continue;
		if (n < 0)
			return tx_fail(t, f, "pread", err, errlen);
		if (n == 0)
			return tx_shrank(f, off, err, errlen);
		off += (uint64_t)n;
		memcpy(data - t->hdr_len, t->hdr, t->hdr_len);
		if (tx_put(t, data - t->hdr_len, t->hdr_len + (size_t)n, 0, use_write,
			   use_write ? "write" : "send", err, errlen) < 0)
			return -1;
		t->hdr_len = 0;
	}
	return 0;
}

static int send_file(struct tx *t, const struct tx_file *f, char *err, size_t errlen)
{
	return copy_file(t, f, 0, err, errlen);
}

static int write_file(struct tx *t, const struct tx_file *f, char *err, size_t errlen)
{
	return copy_file(t, f, 1, err, errlen);
}

/* ---- mmap: send() from the mapping ------------------------------------ */

int tx_map_open(struct tx *t, struct tx_file *f, char *err, size_t errlen)
{
	void *p;

	(void)t;
	f->map = NULL;
	if (f->size == 0)
		return 0;
	p = mmap(NULL, f->size, PROT_READ, MAP_SHARED, f->fd, 0);
	if (p == MAP_FAILED)
		return err_fill(err, errlen, errno, "mmap %s", f->name);
	f->map = p;
	return 0;
}

void tx_map_close(struct tx_file *files, uint32_t n_files)
{
	for (uint32_t i = 0; files && i < n_files; i++) {
		if (files[i].map)
			munmap(files[i].map, files[i].size);
		files[i].map = NULL;
	}
}

static void mmap_cleanup(struct tx *t, struct tx_file *files, uint32_t n)
{
	(void)t;
	tx_map_close(files, n);
}

/* A send from beyond the file's end faults: the file shrank under us. */
static int mmap_fault(struct tx *t, const struct tx_file *f, uint64_t off,
		      char *err, size_t errlen)
{
	struct stat st;

	if (errno == EFAULT && fstat(f->fd, &st) == 0 && (uint64_t)st.st_size < f->size)
		return tx_shrank(f, off, err, errlen);	/* the offset reached */
	return tx_fail(t, f, "send", err, errlen);
}

static int mmap_file(struct tx *t, const struct tx_file *f, char *err, size_t errlen)
{
	const unsigned char *map = f->map;
	struct iovec iov[2];
	struct msghdr msg = { .msg_iov = iov };
	uint64_t off = 0;
	size_t len, words;
	ssize_t n;

	while (off < f->size) {
		if (*t->stop)
			return tx_stopped(t, err, errlen);
		len = tx_min_size(f->size - off, t->chunk);
		iov[0] = (struct iovec){ t->hdr, t->hdr_len };
		iov[1] = (struct iovec){ (void *)(map + off), len };
		msg.msg_iov = t->hdr_len ? iov : iov + 1;
		msg.msg_iovlen = t->hdr_len ? 2 : 1;
		tx_call_begin(t);
		n = sendmsg(t->sock, &msg, 0);
		if (n < 0 && errno == EINTR && !*t->stop)
			continue;
		if (n < 0)
			return mmap_fault(t, f, off, err, errlen);
		tx_account(t, (uint64_t)n);
		words = (size_t)n < t->hdr_len ? (size_t)n : t->hdr_len;
		memmove(t->hdr, t->hdr + words, t->hdr_len - words);
		t->hdr_len -= words;
		off += (uint64_t)n - words;
	}
	return 0;
}

/* ---- splice: file -> pipe -> socket ------------------------------------ */

/* The pipe of splice: the words go in first and leave with the data. */
struct tx_pipe {
	int rd, wr;
};

static struct tx_pipe *pipe_open(char *err, size_t errlen, const char *name)
{
	struct tx_pipe *p = malloc(sizeof(*p));
	int fds[2];

	if (!p) {
		err_fill(err, errlen, errno, "%s: memory", name);
		return NULL;
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		err_fill(err, errlen, errno, "%s: pipe", name);
		free(p);
		return NULL;
	}
	p->rd = fds[0];
	p->wr = fds[1];
	return p;
}

static void pipe_cleanup(struct tx *t, struct tx_file *files, uint32_t n)
{
	struct tx_pipe *p = t->priv;

	(void)files;
	(void)n;
	if (!p)
		return;
	close(p->rd);
	close(p->wr);
	free(p);
	t->priv = NULL;
}

/* Move len bytes from the pipe to the socket; more: data follows at once. */
static int pipe_out(struct tx *t, struct tx_pipe *p, size_t len, int more,
		    char *err, size_t errlen)
{
	ssize_t n;

	while (len > 0) {
		/* A signal that cut a splice short returns the bytes it moved,
		 * not EINTR: the flag is all that says so. */
		if (*t->stop)
			return tx_stopped(t, err, errlen);
		tx_call_begin(t);
		n = splice(p->rd, NULL, t->sock, NULL, len,
			   SPLICE_F_MOVE | (more ? SPLICE_F_MORE : 0));
		if (n < 0 && errno == EINTR && !*t->stop)
			continue;
		if (n <= 0)
			return tx_fail(t, NULL, "splice", err, errlen);
		tx_account(t, (uint64_t)n);
		len -= (size_t)n;
	}
	return 0;
}

/* Put the pending words into the pipe (a copy: vmsplice() would lend the
 * socket our buffer's page, which the next file's words overwrite). */
static int pipe_words(struct tx *t, struct tx_pipe *p, char *err, size_t errlen)
{
	const unsigned char *w = t->hdr;
	size_t left = t->hdr_len;
	ssize_t n;

	while (left > 0) {
		n = write(p->wr, w, left);
		if (n < 0 && errno == EINTR && !*t->stop)
			continue;
		if (n <= 0)
			return tx_fail(t, NULL, "write to a pipe", err, errlen);
		w += n;
		left -= (size_t)n;
	}
	return 0;
}

/*
 * Size p for chunks of chunk bytes: a chunk must fit the pipe (the kernel
 * rounds the size up to pages), and should fit beside a page of words, or
 * a file's first chunk is cut in two.
 */
static int pipe_for(struct tx_pipe *p, size_t chunk, char *err, size_t errlen)
{
	long max;

	if (fcntl(p->wr, F_GETPIPE_SZ) < (long)(chunk + TX_WORDS_MAX))
		fcntl(p->wr, F_SETPIPE_SZ, (int)(chunk + TX_WORDS_MAX));
	if (fcntl(p->wr, F_GETPIPE_SZ) >= (long)chunk ||
	    fcntl(p->wr, F_SETPIPE_SZ, (int)chunk) >= 0)
		return 0;
	max = (long)textfile_num("/proc/sys/fs/pipe-max-size");
	return err_fill(err, errlen, errno, "splice: a pipe for a chunk of %zu bytes "
			"(fs.pipe-max-size is %ld: raise it, or run with "
			"CAP_SYS_RESOURCE)", chunk, max);
}

static int splice_setup(struct tx *t, char *err, size_t errlen)
{
	struct tx_pipe *p = pipe_open(err, errlen, "splice");

	if (!p)
		return -1;
	t->priv = p;
	return pipe_for(p, t->chunk, err, errlen);
}

/* Before connecting: a pipe of the size the chunks need. */
static int splice_usable(size_t chunk, char *err, size_t errlen)
{
	struct tx t = { .priv = pipe_open(err, errlen, "splice") };
	int rc;

	if (!t.priv)
		return -1;
	rc = pipe_for(t.priv, chunk, err, errlen);
	pipe_cleanup(&t, NULL, 0);
	return rc;
}

static int splice_file(struct tx *t, const struct tx_file *f, char *err, size_t errlen)
{
	struct tx_pipe *p = t->priv;
	loff_t off = 0;
	size_t held;
	ssize_t n;

	while ((uint64_t)off < f->size) {
		if (*t->stop)
			return tx_stopped(t, err, errlen);
		held = t->hdr_len;
		if (held && pipe_words(t, p, err, errlen) < 0)
			return -1;
		t->hdr_len = 0;
		/* The kernel takes no more than the pipe's free pages. */
		do {
			n = splice(f->fd, &off, p->wr, NULL,
				   tx_min_size(f->size - (uint64_t)off, t->chunk), SPLICE_F_MOVE);
		} while (n < 0 && errno == EINTR && !*t->stop);
		if (n < 0)
			return tx_fail(t, f, "splice", err, errlen);
		if (n == 0)
			return tx_shrank(f, (uint64_t)off, err, errlen);
		if (pipe_out(t, p, held + (size_t)n, (uint64_t)off < f->size, err, errlen) < 0)
			return -1;
	}
	return 0;
}

const struct tx_method tx_send = {
	.name = "send",
	.how = "pread() each chunk into a buffer, then send() (2 copies)",
	.flags = TX_CHUNKED,
	.setup = buffer_setup,
	.send_file = send_file,
	.cleanup = buffer_cleanup,
};

const struct tx_method tx_write = {
	.name = "write",
	.how = "pread() each chunk into a buffer, then write() (2 copies)",
	.flags = TX_CHUNKED,
	.setup = buffer_setup,
	.send_file = write_file,
	.cleanup = buffer_cleanup,
};

const struct tx_method tx_mmap = {
	.name = "mmap",
	.how = "send() each chunk from an mmap() of the file (1 copy)",
	.flags = TX_CHUNKED,
	.open_file = tx_map_open,
	.send_file = mmap_file,
	.cleanup = mmap_cleanup,
};

const struct tx_method tx_splice = {
	.name = "splice",
	.how = "splice() each chunk, file to a pipe to the socket (no copy)",
	.flags = TX_CHUNKED | TX_PAGES,
	.usable = splice_usable,
	.setup = splice_setup,
	.send_file = splice_file,
	.cleanup = pipe_cleanup,
};
