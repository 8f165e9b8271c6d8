/*
 * lib/wire/proto.c under seeded random fuzz: well-formed streams, mutations of
 * them and plain noise, each fed to proto_rx in random pieces. The receiver
 * must accept exactly the streams that a separate, deliberately naive
 * checker below calls well formed, flag excess exactly when it sees excess,
 * and count every byte.
 *
 * The seed is fixed (printed; ZC_FUZZ_SEED=N tries another) so a failure
 * can be replayed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/proto.h"
#include "tools/rng.h"
#include "unit/t.h"

#define STREAMS		200000
#define MAX_STREAM	1024

enum verdict { WHOLE, SHORT, EXCESS, CONFUSED };

static const char *verdict_name(enum verdict v)
{
	static const char *const name[] = { "whole", "short", "excess", "confused" };

	return (unsigned)v <= CONFUSED ? name[v] : "?";
}

/* The reference: walk the grammar over the whole buffer, nothing clever. */
static int ref_word(const unsigned char *s, size_t len, size_t *at, uint32_t *v)
{
	if (len - *at < 4)
		return 0;
	*v = ((uint32_t)s[*at] << 24) | ((uint32_t)s[*at + 1] << 16) |
	     ((uint32_t)s[*at + 2] << 8) | s[*at + 3];
	*at += 4;
	return 1;
}

static enum verdict reference(const unsigned char *s, size_t len)
{
	uint32_t loops, files, length, i, j;
	size_t at = 0;

	if (!ref_word(s, len, &at, &loops))
		return SHORT;
	for (i = 0; i < loops; i++) {
		if (!ref_word(s, len, &at, &files))
			return SHORT;
		for (j = 0; j < files; j++) {
			if (!ref_word(s, len, &at, &length))
				return SHORT;
			if (len - at < length)
				return SHORT;
			at += length;
		}
	}
	return at == len ? WHOLE : EXCESS;
}

static void put_word(unsigned char *s, size_t *len, uint32_t v)
{
	s[(*len)++] = (unsigned char)(v >> 24);
	s[(*len)++] = (unsigned char)(v >> 16);
	s[(*len)++] = (unsigned char)(v >> 8);
	s[(*len)++] = (unsigned char)v;
}

/* A random well-formed stream; fits MAX_STREAM by construction. */
static size_t well_formed(unsigned char *s)
{
	uint32_t loops = below(4), files, length, i, j, k;
	size_t len = 0;

	put_word(s, &len, loops);
	for (i = 0; i < loops; i++) {
		files = below(5);
		put_word(s, &len, files);
		for (j = 0; j < files; j++) {
			length = below(4) ? below(40) : 0;
			put_word(s, &len, length);
			for (k = 0; k < length; k++)
				s[len++] = (unsigned char)rnd();
		}
	}
	return len;
}

/* Noise that is mostly small numbers, so that it is sometimes well formed. */
static size_t noise(unsigned char *s)
{
	size_t len = below(64), i;

	for (i = 0; i < len; i++)
		s[i] = below(4) ? 0 : (unsigned char)below(4);
	return len;
}

static size_t mutate(unsigned char *s, size_t len)
{
	size_t at, n, i;

	switch (below(6)) {
	case 0:		/* cut anywhere */
		return below((uint32_t)len + 1);
	case 1:		/* append a few bytes */
		n = 1 + below(8);
		for (i = 0; i < n; i++)
			s[len++] = (unsigned char)rnd();
		return len;
	case 2:		/* change one byte */
		if (len)
			s[below((uint32_t)len)] = (unsigned char)rnd();
		return len;
	case 3:		/* insert one byte */
		at = below((uint32_t)len + 1);
		memmove(s + at + 1, s + at, len - at);
		s[at] = (unsigned char)rnd();
		return len + 1;
	case 4:		/* delete one byte */
		if (!len)
			return 0;
		at = below((uint32_t)len);
		memmove(s + at, s + at + 1, len - at - 1);
		return len - 1;
	default:	/* a small number in place of any aligned word */
		if (len >= 4) {
			at = (size_t)below((uint32_t)len / 4) * 4;
			n = 0;
			put_word(s + at, &n, below(6));
		}
		return len;
	}
}

/* Feed s to a receiver in random pieces; what does it make of it? */
static enum verdict receiver(const unsigned char *s, size_t len, uint64_t *bytes)
{
	struct proto_rx rx;
	size_t at = 0, n;
	int excess = 0;

	proto_rx_init(&rx);
	while (at < len) {
		n = below(3) ? 1 + below((uint32_t)(len - at)) : 1;
		if (proto_rx_feed(&rx, s + at, n) < 0)
			excess = 1;
		at += n;
	}
	*bytes = rx.bytes;
	if (excess != (rx.state == PROTO_EXCESS))
		return CONFUSED;	/* feed's answer and state disagree */
	if (excess)
		return EXCESS;
	return proto_rx_complete(&rx) ? WHOLE : SHORT;
}

int main(void)
{
	static unsigned char s[MAX_STREAM + 64];
	const char *env = getenv("ZC_FUZZ_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 10) : 20011114;
	unsigned long seen[CONFUSED] = { 0, 0, 0 }, wrong = 0, ref_wrong = 0, i;
	enum verdict want, got;
	uint64_t bytes;
	size_t len;

	printf("# seed %llu (ZC_FUZZ_SEED to change), %d streams\n",
	       (unsigned long long)seed, STREAMS);
	rng_seed(seed, 0);
	for (i = 0; i < STREAMS; i++) {
		switch (i % 4) {
		case 0:
			len = well_formed(s);
			/* The reference must agree with the generator. */
			if (reference(s, len) != WHOLE)
				ref_wrong++;
			break;
		case 1:
		case 2:
			len = mutate(s, well_formed(s));
			break;
		default:
			len = noise(s);
			break;
		}
		want = reference(s, len);
		got = receiver(s, len, &bytes);
		seen[want]++;
		if (got != want || bytes != len) {
			if (wrong++ < 5)
				printf("# stream %lu (%zu bytes): reference %s, proto_rx %s, "
				       "%llu bytes counted\n", i, len, verdict_name(want),
				       verdict_name(got), (unsigned long long)bytes);
		}
	}
	CHECK(ref_wrong == 0, "the reference accepts every generated well-formed stream "
	      "(%lu refused)", ref_wrong);
	CHECK(wrong == 0, "%d random streams: proto_rx agrees with the reference on each "
	      "(%lu disagree)", STREAMS, wrong);
	CHECK(seen[WHOLE] > STREAMS / 10 && seen[SHORT] > STREAMS / 10 &&
	      seen[EXCESS] > STREAMS / 20,
	      "the streams cover every verdict: %lu whole, %lu short, %lu excess",
	      seen[WHOLE], seen[SHORT], seen[EXCESS]);
	return t_exit();
}
