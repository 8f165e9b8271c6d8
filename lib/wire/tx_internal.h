/*
 * What the transmit methods share among themselves (tx*.c here); zcc and the
 * tests see only lib/wire/tx.h. Each helper fills err as every hook does.
 */
#ifndef ZC_TX_INTERNAL_H
#define ZC_TX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "wire/tx.h"

/* Header words pending at most (a long run of empty files is flushed on the
 * way); a chunked method keeps this much room in front of its buffer. */
#define TX_WORDS_MAX 4096

/*
 * The most one system call moves (sendfile, splice, send, a uring request):
 * a file of any size then shows progress as it goes, so a stall limit
 * never takes a moving transfer for a stall and interval lines add up. A
 * larger chunk is sent in calls of this size (tx_open caps t->chunk).
 */
#define TX_PIECE_MAX (4u << 20)

/* The methods behind tx_methods[] (tx_sendfile.c, tx_basic.c, tx_zc.c,
 * tx_uring.c). */
extern const struct tx_method tx_sendfile, tx_send, tx_write, tx_mmap, tx_splice;
extern const struct tx_method tx_zerocopy, tx_uring, tx_uring_zc;

/* The smaller of a file's bytes left and a call's size. */
static inline size_t tx_min_size(uint64_t a, size_t b)
{
	return a < b ? (size_t)a : b;
}

/*
 * tx_put - send or write() all len bytes of buf to t->sock, counting them
 * in t->bytes. A signal retries unless *t->stop is set (then EINTR). what
 * names the call for the message ("send", "write").
 */
int tx_put(struct tx *t, const void *buf, size_t len, int flags, int use_write,
	   const char *what, char *err, size_t errlen);

/* tx_stopped - *t->stop is set: -1 with errno EINTR and "interrupted". */
int tx_stopped(struct tx *t, char *err, size_t errlen);

/*
 * tx_fail - a failed call what (errno says why): the peer's fault (the
 * message names it) or the file's (the message names the file), or an
 * interruption when *t->stop is set.
 */
int tx_fail(struct tx *t, const struct tx_file *f, const char *what,
	    char *err, size_t errlen);

/* tx_map_open - map f read-only into f->map (an empty file maps nothing):
 * the open_file of every method that sends from a mapping. */
int tx_map_open(struct tx *t, struct tx_file *f, char *err, size_t errlen);

/* tx_map_close - unmap what tx_map_open mapped; safe on files never mapped. */
void tx_map_close(struct tx_file *files, uint32_t n_files);

/* tx_shrank - f ended at byte at, before its announced size. */
int tx_shrank(const struct tx_file *f, uint64_t at, char *err, size_t errlen);

#endif
