/*
 * zcs's receive methods: a few hooks per method, listed in rx_list.c, as
 * lib/wire/tx.h is for zcc. zcs drives the stream check (lib/wire/proto.h);
 * header words are always read with read() into the buffer and fed to the
 * checker, so every method still checks the stream. Inside a file's data the
 * method takes the bytes its own way (copy, discard, splice, map) and the
 * checker is told how many came (proto_rx_skip).
 *
 * Hooks return as lib/ functions do: -1 with errno and a "what: why" in err.
 */
#ifndef ZC_RX_H
#define ZC_RX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "wire/proto.h"

/* One connection being received. */
struct rx {
	int fd;
	unsigned char *buf;	/* -b bytes, for read() and the header words */
	size_t bufsize;
	/* Zero-copy receive: bytes the kernel mapped, and bytes it copied. */
	uint64_t zc_mapped, zc_copied;
	void *priv;		/* the method's own state */
};

struct rx_method {
	const char *name;	/* as given to -M */
	const char *how;	/* one line for -h and -d */

	/* Per connection: check the kernel can do it, set up (a pipe, a
	 * mapping); fails naming the method and the reason. NULL: nothing. */
	int (*setup)(struct rx *r, char *err, size_t errlen);
	/*
	 * Take at most max (> 0) bytes of file data from the socket. Returns
	 * how many (> 0), 0 at end of stream, -1 on error (EINTR included:
	 * the caller decides). NULL: the data is read() like the headers.
	 */
	ssize_t (*take)(struct rx *r, size_t max, char *err, size_t errlen);
	void (*cleanup)(struct rx *r);
};

/* The methods, NULL-terminated; the first is the default (read). */
extern const struct rx_method *const rx_methods[];

/* rx_find - the method called name, or NULL. */
const struct rx_method *rx_find(const char *name);

/*
 * rx_open - ready connection r (its fd, buf and bufsize set) for method m:
 * the method's own set-up, when it has one. -1 with err naming the method
 * and why the kernel refuses it. rx_close undoes it (not the fd: the
 * caller's); it is called after a successful rx_open only.
 */
int rx_open(const struct rx_method *m, struct rx *r, char *err, size_t errlen);
void rx_close(const struct rx_method *m, struct rx *r);

/*
 * rx_step - receive once into the stream checker p by method m: inside file
 * data through m->take, else read() into r->buf and proto_rx_feed. Returns
 * the bytes received (> 0), 0 at end of stream, -1 on error (errno EINTR
 * included). A stream that holds more than it announced shows in p->state.
 */
ssize_t rx_step(const struct rx_method *m, struct rx *r, struct proto_rx *p,
		char *err, size_t errlen);

#endif
