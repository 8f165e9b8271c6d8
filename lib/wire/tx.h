/*
 * zcc's transmit methods: one small set of hooks per method, in the manner
 * of fio's I/O engines. zcc picks a method by name and drives the wire
 * protocol (lib/wire/proto.h); a method only moves one file's bytes to the
 * socket its own way. Adding a method is one file and one entry in the
 * list, tx_list.c.
 *
 * Every hook returns 0, or -1 with errno set and a "what: why" text in err
 * (the text names the file for a file's fault, the peer for the socket's).
 * None prints or exits. A send cut short by a signal while *t->stop is set
 * returns -1 with errno EINTR: zcc reports what was sent so far.
 */
#ifndef ZC_TX_H
#define ZC_TX_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "base/clock.h"
#include "base/hist.h"

/* One file to send, opened once by zcc and sent every loop. */
struct tx_file {
	const char *name;
	int fd;
	uint32_t size;
	void *map;		/* a method's view of it (mmap), set by open_file */
};

struct tstamp_every;

/* The state of one connection's sending, shared by zcc and the method. */
struct tx {
	int sock;
	const char *peer;	/* "HOST port N", for messages */
	size_t chunk;		/* bytes per send for chunked methods */
	volatile sig_atomic_t *stop;	/* set by zcc's signal handlers */

	/*
	 * Header words waiting to go out. A method sends them before the
	 * file's first data byte, with that data where it can (never as a
	 * segment of their own when data follows), and sets hdr_len to 0.
	 */
	unsigned char *hdr;
	size_t hdr_len;

	/* Bytes on the connection so far, header words included; updated
	 * with tx_account() and read by zcc's interval reporter thread. */
	uint64_t bytes;

	/* System calls that handed data to the socket (an io_uring
	 * submission is one), for where.h's bytes per call. */
	uint64_t calls;

	/* Zero-copy methods: completions the kernel reported, and how many of
	 * them it had to copy after all (loopback, another namespace). */
	uint64_t zc_sends, zc_copied;

	/*
	 * --call-times: the time across each system call that moved data
	 * (an io_uring submission and its wait), from tx_call_begin just
	 * before it to tx_account or tx_count_call after it, into call_hist;
	 * NULL: not timed (two clock reads a call when timed, none when not).
	 */
	struct hist *call_hist;
	uint64_t call_t0;

	/* --stamps: one send in so many stamped (wire/tstamp_every.h); NULL: none. */
	struct tstamp_every *stamps;

	void *priv;		/* the method's own state */

	/*
	 * NULL: every loop sends every file. Else asked as each loop begins
	 * (loops_left counts it) how many files it sends: 0 or more, taken in
	 * turn round the set from where the loop before stopped. A time limit
	 * ends a stream at its deadline so, the stream still whole.
	 */
	uint32_t (*loop_files)(struct tx *t, uint32_t loops_left);
	void *loop_arg;		/* loop_files's own */
};

#define TX_CHUNKED 1u		/* chunk is the size of each send */
/* Hands the socket the file's pages, no completion to say whether the
 * kernel copied them after all (sendfile, splice: MPTCP's send path does). */
#define TX_PAGES 2u

struct tx_method {
	const char *name;	/* as the user names the method */
	const char *how;	/* one line for the help and debug text */
	unsigned flags;

	/* Before connecting: ask the kernel whether it will do it for chunks
	 * of chunk bytes (io_uring allowed, the pages it pins within the
	 * limit), else fail naming itself and the kernel's reason. NULL: it
	 * always will. */
	int (*usable)(size_t chunk, char *err, size_t errlen);
	/* Check the kernel can do it and set up (a ring, a pipe); a method the
	 * kernel lacks or refuses fails here, naming itself and the reason. */
	int (*setup)(struct tx *t, char *err, size_t errlen);
	/* Once per file before the first loop (map it); NULL: nothing to do. */
	int (*open_file)(struct tx *t, struct tx_file *f, char *err, size_t errlen);
	/* Send the whole file (and the pending header words). */
	int (*send_file)(struct tx *t, const struct tx_file *f, char *err, size_t errlen);
	/* After the last file: wait until everything in flight is done (io_uring
	 * completions, MSG_ZEROCOPY notifications). NULL: nothing to wait for. */
	int (*finish)(struct tx *t, char *err, size_t errlen);
	/* Free what setup and open_file made. Safe after a failure anywhere. */
	void (*cleanup)(struct tx *t, struct tx_file *files, uint32_t n_files);
};

/* The methods, NULL-terminated; the first is the default (sendfile). */
extern const struct tx_method *const tx_methods[];

/* tx_find - the method called name, or NULL. */
const struct tx_method *tx_find(const char *name);

/* tx_account_bytes - n more bytes are on the connection. */
static inline void tx_account_bytes(struct tx *t, uint64_t n)
{
	__atomic_store_n(&t->bytes, t->bytes + n, __ATOMIC_RELAXED);
}

/* tx_call_begin - a system call that may move data is about to be made. */
static inline void tx_call_begin(struct tx *t)
{
	if (t->call_hist)
		t->call_t0 = now_ns();
}

/* tx_count_call - one more system call moved data (an io_uring submission). */
static inline void tx_count_call(struct tx *t)
{
	__atomic_store_n(&t->calls, t->calls + 1, __ATOMIC_RELAXED);
	if (t->call_hist && t->call_t0) {
		hist_record(t->call_hist, now_ns() - t->call_t0);
		t->call_t0 = 0;
	}
}

/* tx_account - one system call put n more bytes on the connection. */
static inline void tx_account(struct tx *t, uint64_t n)
{
	tx_account_bytes(t, n);
	tx_count_call(t);
}

/*
 * tx_usable - 0 when the kernel will do m for chunks of chunk bytes,
 * asked before any connection is opened; else -1 with err naming m and
 * the kernel's reason (the sysctl, a seccomp filter, the limit to raise).
 */
int tx_usable(const struct tx_method *m, size_t chunk, char *err, size_t errlen);

/*
 * tx_open - ready t, connected, for sending files by m: the method's setup,
 * then its open_file for each file. -1 with err (a method the kernel
 * refuses names itself). tx_close - free what tx_open made, also after it
 * failed; the socket stays the caller's. A program calls a method's hooks
 * only through these and tx_send_stream.
 */
int tx_open(const struct tx_method *m, struct tx *t, struct tx_file *files,
	    uint32_t n_files, char *err, size_t errlen);
void tx_close(const struct tx_method *m, struct tx *t, struct tx_file *files,
	      uint32_t n_files);

/* tx_flush_words - send the pending header words on their own (the end of
 * the stream, or a run of empty files). */
int tx_flush_words(struct tx *t, char *err, size_t errlen);

/*
 * tx_send_stream - the whole protocol stream on t by method m: n_loops,
 * then per loop n_files (or what t->loop_files says) and per file its
 * length and data, the header words going out with the data that follows
 * them. t->hdr is set here. -1 with
 * err filled (EINTR: *t->stop was set; t->bytes says how far it got).
 * Between tx_open and tx_close.
 */
int tx_send_stream(const struct tx_method *m, struct tx *t,
		   const struct tx_file *files, uint32_t n_files, uint32_t n_loops,
		   char *err, size_t errlen);

#endif
