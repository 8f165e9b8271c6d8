/*
 * The zc wire protocol, the one place it is written down in code.
 * All integers are 32-bit unsigned, big-endian:
 *
 *     u32 n_loops
 *     n_loops times: u32 n_files, then n_files times: u32 length, data
 *
 * then the client closes. The server never sends anything.
 */
#ifndef ZC_PROTO_H
#define ZC_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define PROTO_WORD 4		/* bytes in every header word */

static inline void proto_put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static inline uint32_t proto_get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/*
 * proto_stream_bytes - every byte of a whole run, header words included:
 * 4 + n_loops * (4 + 4 * n_files) + n_loops * file_bytes, where file_bytes
 * is the sum of the file lengths. Both ends count this way.
 */
uint64_t proto_stream_bytes(uint32_t n_loops, uint32_t n_files, uint64_t file_bytes);

/* Where a receiver is in the stream. */
enum proto_state {
	PROTO_N_LOOPS,		/* reading the first word */
	PROTO_N_FILES,		/* reading a loop's file count */
	PROTO_LENGTH,		/* reading a file's length */
	PROTO_DATA,		/* inside a file's data */
	PROTO_END,		/* everything announced has arrived */
	PROTO_EXCESS,		/* bytes arrived after the end */
};

struct proto_rx;

/*
 * Called once per header word as it completes, with the state the word was
 * read in (PROTO_N_LOOPS, PROTO_N_FILES or PROTO_LENGTH) and its value; rx's
 * loop and file still say where it sits. For the server's debug output.
 */
typedef void proto_header_fn(const struct proto_rx *rx, enum proto_state what,
			     uint32_t value);

/* The receiver: a byte-at-a-time correct, bulk-fast stream checker. */
struct proto_rx {
	enum proto_state state;
	unsigned char word[PROTO_WORD];	/* a header word being gathered */
	unsigned word_have;
	uint32_t n_loops, loop;		/* announced loops, current (0-based) */
	uint32_t n_files, file;		/* files in this loop, current */
	uint32_t length;		/* current file's announced length */
	uint32_t data_left;		/* of the current file */
	uint64_t bytes;			/* everything fed so far */
	uint64_t excess;		/* of those, bytes beyond the end */
	proto_header_fn *on_header;	/* NULL, or set by the caller after init */
	void *arg;			/* the caller's, for on_header */
};

/* proto_rx_init - a receiver waiting for the first byte of a stream. */
void proto_rx_init(struct proto_rx *rx);

/*
 * proto_rx_feed - account for len received bytes. Returns 0 while the stream
 * is well formed so far, -1 once it holds more than its headers announced
 * (state PROTO_EXCESS; stays so).
 */
int proto_rx_feed(struct proto_rx *rx, const unsigned char *buf, size_t len);

/*
 * proto_rx_skip - account for n bytes of file data that arrived without
 * being looked at (a receive method that discards, splices or maps them).
 * Only inside a file's data: n must not exceed rx->data_left, which says
 * how many data bytes the current file still has to come (0 outside data).
 */
void proto_rx_skip(struct proto_rx *rx, uint32_t n);

/* proto_rx_complete - at EOF: was the stream whole and well formed? */
static inline int proto_rx_complete(const struct proto_rx *rx)
{
	return rx->state == PROTO_END;
}

/*
 * proto_rx_describe - one line saying where the stream stands, for the
 * server's error message: "ended in file 3 of 63, loop 2 of 20, 1000 of
 * 350000 bytes", "ended inside the length word of file 1 of 2, loop 1 of 1
 * (3 of 4 bytes)", "12 bytes beyond the end". Numbers count from 1.
 */
void proto_rx_describe(const struct proto_rx *rx, char *buf, size_t len);

#endif
