/*
 * plural_s - "s" after a count that is not one, for the lines that say
 * "1 round" and "3 rounds" from one format.
 */
#ifndef ZC_PLURAL_H
#define ZC_PLURAL_H

static inline const char *plural_s(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

#endif
