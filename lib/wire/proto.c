#include <stdio.h>
#include <string.h>

#include "wire/proto.h"

uint64_t proto_stream_bytes(uint32_t n_loops, uint32_t n_files, uint64_t file_bytes)
{
	return PROTO_WORD + (uint64_t)n_loops * (PROTO_WORD + (uint64_t)PROTO_WORD * n_files)
	       + (uint64_t)n_loops * file_bytes;
}

void proto_rx_init(struct proto_rx *rx)
{
	memset(rx, 0, sizeof(*rx));
	rx->state = PROTO_N_LOOPS;
}

/* The current loop is over: on to the next one, or the stream is whole. */
static void end_loop(struct proto_rx *rx)
{
	rx->loop++;
	rx->state = rx->loop < rx->n_loops ? PROTO_N_FILES : PROTO_END;
}

/* The current file is over. */
static void end_file(struct proto_rx *rx)
{
	rx->file++;
	if (rx->file < rx->n_files)
		rx->state = PROTO_LENGTH;
	else
		end_loop(rx);
}

/* A whole header word has arrived; zero counts and lengths are legal. */
static void take_word(struct proto_rx *rx, uint32_t v)
{
	if (rx->on_header)
		rx->on_header(rx, rx->state, v);
	switch (rx->state) {
	case PROTO_N_LOOPS:
		rx->n_loops = v;
		rx->loop = 0;
		rx->state = v ? PROTO_N_FILES : PROTO_END;
		break;
	case PROTO_N_FILES:
		rx->n_files = v;
		rx->file = 0;
		if (v)
			rx->state = PROTO_LENGTH;
		else
			end_loop(rx);
		break;
	case PROTO_LENGTH:
		rx->length = v;
		rx->data_left = v;
		if (v)
			rx->state = PROTO_DATA;
		else
			end_file(rx);
		break;
	default:
		break;
	}
}

int proto_rx_feed(struct proto_rx *rx, const unsigned char *buf, size_t len)
{
	const unsigned char *p = buf, *end = buf + len;
	size_t n;

	rx->bytes += len;
	while (p < end) {
		if (rx->state == PROTO_DATA) {
			/* The bulk path: one subtraction per read. */
			n = (size_t)(end - p);
			if (n > rx->data_left)
				n = rx->data_left;
			rx->data_left -= (uint32_t)n;
			p += n;
			if (!rx->data_left)
				end_file(rx);
		} else if (rx->state >= PROTO_END) {
			rx->state = PROTO_EXCESS;
			rx->excess += (uint64_t)(end - p);
			break;
		} else {
			n = PROTO_WORD - rx->word_have;
			if (n > (size_t)(end - p))
				n = (size_t)(end - p);
			memcpy(rx->word + rx->word_have, p, n);
			rx->word_have += (unsigned)n;
			p += n;
			if (rx->word_have == PROTO_WORD) {
				rx->word_have = 0;
				take_word(rx, proto_get_u32(rx->word));
			}
		}
	}
	return rx->state == PROTO_EXCESS ? -1 : 0;
}

void proto_rx_skip(struct proto_rx *rx, uint32_t n)
{
	if (rx->state != PROTO_DATA || n > rx->data_left)
		return;		/* a caller's bug; the byte counts will show it */
	rx->bytes += n;
	rx->data_left -= n;
	if (!rx->data_left)
		end_file(rx);
}

static const char *word_name(enum proto_state s)
{
	switch (s) {
	case PROTO_N_LOOPS:
		return "loop count";
	case PROTO_N_FILES:
		return "file count";
	default:
		return "length";
	}
}

void proto_rx_describe(const struct proto_rx *rx, char *buf, size_t len)
{
	char where[96];

	switch (rx->state) {
	case PROTO_END:
		snprintf(buf, len, "complete");
		return;
	case PROTO_EXCESS:
		snprintf(buf, len, "%llu bytes beyond the end",
			 (unsigned long long)rx->excess);
		return;
	case PROTO_N_LOOPS:
		if (!rx->word_have) {
			snprintf(buf, len, "ended before the first header word");
			return;
		}
		where[0] = '\0';
		break;
	case PROTO_N_FILES:
		snprintf(where, sizeof(where), " of loop %u of %u",
			 rx->loop + 1, rx->n_loops);
		break;
	case PROTO_LENGTH:
	case PROTO_DATA:
		snprintf(where, sizeof(where), " of file %u of %u, loop %u of %u",
			 rx->file + 1, rx->n_files, rx->loop + 1, rx->n_loops);
		break;
	}
	if (rx->state == PROTO_DATA)
		snprintf(buf, len, "ended in file %u of %u, loop %u of %u, %u of %u bytes",
			 rx->file + 1, rx->n_files, rx->loop + 1, rx->n_loops,
			 rx->length - rx->data_left, rx->length);
	else if (rx->word_have)
		snprintf(buf, len, "ended inside the %s word%s (%u of %d bytes)",
			 word_name(rx->state), where, rx->word_have, PROTO_WORD);
	else
		snprintf(buf, len, "ended before the %s word%s",
			 word_name(rx->state), where);
}
