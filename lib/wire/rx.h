/*
 * zcs's receive methods: a few hooks per method, listed in rx_list.c, as
 * lib/wire/tx.h is for zcc. zcs drives the stream check (lib/wire/proto.h);
 * every header word reaches the checker (proto_rx_feed), so every method
 * still checks the stream. File data the method takes its own way (copy,
 * discard, splice, map) and tells the checker how many bytes came
 * (proto_rx_skip). Where the kernel lets it, a method takes the header
 * words in the same system call as the data around them, so that they cost
 * no call of their own.
 *
 * Hooks return as lib/ functions do: -1 with errno and a "what: why" in err.
 */
#ifndef ZC_RX_H
#define ZC_RX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/hist.h"
#include "wire/proto.h"

/* One connection being received. */
struct rx {
	int fd;
	unsigned char *buf;	/* bufsize bytes, and RX_PLACE_MAX more (rx_buffer) */
	size_t bufsize;
	/* Zero-copy receive: bytes the kernel mapped, and bytes it copied. */
	uint64_t zc_mapped, zc_copied;
	uint64_t calls;		/* receive steps that took data */
	struct hist *call_hist;	/* --call-times: each such step's time; NULL: none */
	int lowat;		/* SO_RCVLOWAT in force: 1 the kernel's, 0 never again */
	int full;		/* the last read filled the buffer */
	size_t last;		/* what the last read took (0: none yet) */
	void *priv;		/* the method's own state */
};

struct rx_method {
	const char *name;	/* as the user names the method */
	const char *how;	/* one line for the help and debug text */

	/* Before any connection: does the kernel know the method at all?
	 * Fails naming the method and the reason. NULL: every kernel does. */
	int (*probe)(char *err, size_t errlen);
	/* Per connection: check the kernel can do it, set up (a pipe, a
	 * mapping); fails naming the method and the reason. NULL: nothing. */
	int (*setup)(struct rx *r, char *err, size_t errlen);
	/*
	 * Receive once, whatever p's state, and account for every byte in p:
	 * proto_rx_skip for file data taken unseen, rx_feed for bytes in
	 * memory (header words, and any data that came with them). Returns the
	 * bytes taken from the socket (> 0), 0 at end of stream, -1 on error
	 * (EINTR included: the caller decides). NULL: read() a whole buffer
	 * at a time and feed it, as in 2001.
	 */
	ssize_t (*take)(struct rx *r, struct proto_rx *p, char *err, size_t errlen);
	void (*cleanup)(struct rx *r);
	/* Before any connection: what the kernel will give of reads of
	 * bufsize bytes, when less than asked, into note ("" else). NULL:
	 * all of it. */
	void (*advise)(size_t bufsize, char *note, size_t len);
};

/* The methods, NULL-terminated; the first is the default (read). */
extern const struct rx_method *const rx_methods[];

/* rx_find - the method called name, or NULL. */
const struct rx_method *rx_find(const char *name);

/*
 * rx_probe - 0 when the kernel knows method m (its probe hook, where it
 * has one); -1 with err naming the method and why not.
 */
int rx_probe(const struct rx_method *m, char *err, size_t errlen);

/*
 * rx_open - ready connection r (its fd, buf and bufsize set) for method m:
 * the method's own set-up, when it has one. -1 with err naming the method
 * and why the kernel refuses it. rx_close undoes it (not the fd: the
 * caller's); it is called after a successful rx_open only.
 */
int rx_open(const struct rx_method *m, struct rx *r, char *err, size_t errlen);
void rx_close(const struct rx_method *m, struct rx *r);

/*
 * rx_advise - note "" or, asked of the kernel before any connection, why
 * m's reads of bufsize bytes will be smaller ("splice: a pipe holds at
 * most N bytes here (fs.pipe-max-size): each splice moves at most that"),
 * for the program to say.
 */
void rx_advise(const struct rx_method *m, size_t bufsize, char *note, size_t len);

/*
 * rx_buffer - a read buffer of size bytes that starts a page: the kernel's
 * copy to user memory runs slower to an address off a 64-byte line, and
 * malloc puts a buffer of 128 KiB or more 16 bytes past a page (its own
 * header). RX_PLACE_MAX bytes more follow, for the read method's placing
 * (rx_place). NULL with errno when memory is short; free() frees it.
 */
#define RX_PLACE_MAX 64
unsigned char *rx_buffer(size_t size);

/*
 * rx_place - where in the buffer (0 to RX_PLACE_MAX - 1 bytes in) the read
 * method's next read goes, expecting it to take about expect bytes, given
 * what p has seen: so that the file the read mostly holds lands at its own
 * offset within a 64-byte line, as a file sent from the page cache comes.
 */
size_t rx_place(const struct proto_rx *p, size_t expect);

/*
 * rx_step - receive once into the stream checker p by method m: through
 * m->take, or read() into r->buf and proto_rx_feed. Returns
 * the bytes received (> 0), 0 at end of stream, -1 on error (errno EINTR
 * included). A stream that holds more than it announced shows in p->state.
 * With r->call_hist, a step that took data has its time recorded there:
 * the method's calls for that piece (read()'s one, or a non-blocking
 * recv() and then read(); splice's two; zero-copy's getsockopt and recv).
 */
ssize_t rx_step(const struct rx_method *m, struct rx *r, struct proto_rx *p,
		char *err, size_t errlen);

/*
 * rx_words - header bytes certain to come next, before any file data: the
 * rest of the word being gathered and the words that must follow it (the
 * loop count, a file count and a length at the start; a file count and a
 * length between loops; a length between files). Inside file data, the
 * words certain to follow its last byte. 0 after the end. Reading no more
 * than this never copies a data byte.
 */
size_t rx_words(const struct proto_rx *p);

/*
 * rx_feed - feed n bytes at b (received, or mapped) to p; returns how many
 * of them were file data, for a method's own counts.
 */
size_t rx_feed(struct proto_rx *p, const unsigned char *b, size_t n);

/*
 * rx_read_feed - read() at most want bytes (0: a whole buffer; never more
 * than one) into r->buf and feed them. Returns as rx_step.
 */
ssize_t rx_read_feed(struct rx *r, struct proto_rx *p, size_t want, char *err,
		     size_t errlen);

/*
 * rx_mark - the wake-up mark (SO_RCVLOWAT) after a call that asked for
 * asked bytes and got got: one that got all it asked, or a buffer's worth,
 * found the data waiting and raises the mark to two buffers (2 x
 * r->bufsize) of 64 KiB or more, one smaller (rx.c has why); one that came
 * back short puts it back to the kernel's 1 byte. For the methods that
 * read (read) or drop (discard) what is queued.
 */
void rx_mark(struct rx *r, size_t got, size_t asked);

#endif
