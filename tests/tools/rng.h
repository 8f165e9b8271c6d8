/*
 * The fuzz tools' randomness: xorshift64*, our own, so that a seed gives
 * the same sequence on every libc and a finding replays anywhere.
 */
#ifndef ZC_TESTS_RNG_H
#define ZC_TESTS_RNG_H

#include <stdint.h>

static uint64_t rng;

/* rng_seed - start the sequence for seed and stream number n (a case). */
static inline void rng_seed(uint64_t seed, uint64_t n)
{
	/* splitmix64 of the pair: every n its own independent sequence */
	uint64_t z = seed * 0x9e3779b97f4a7c15ull + n * 0xbf58476d1ce4e5b9ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	rng = (z ^ (z >> 31)) | 1;
}

static inline uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 2685821657736338717ull) >> 32);
}

/* below - 0..n-1 (0 when n is 0). */
static inline uint32_t below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

#endif
