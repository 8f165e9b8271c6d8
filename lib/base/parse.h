/*
 * Numbers as users write them: every count, byte size and time a program
 * takes passes one checked, ranged conversion. A refusal is a short reason
 * ("not a number"); naming the option it came with is the caller's.
 */
#ifndef ZC_PARSE_H
#define ZC_PARSE_H

/* The reason every parse_ gives for a value outside [min, max]. */
extern const char parse_out_of_range[];

/*
 * parse_num - convert s to a decimal integer in [min, max].
 * Leading/trailing space, signs where min >= 0, empty text and trailing
 * garbage are all refused. Returns 0, or -1 with *why set to a short reason.
 */
int parse_num(const char *s, long long min, long long max, long long *out,
	      const char **why);

/*
 * parse_size - parse_num for a byte count: digits with an optional K, M or
 * G (or k, m, g) for KiB, MiB, GiB (powers of 1024), e.g. "64K", "1m".
 * No fractions ("1.5K"), no "KB" or "KiB", no space; the product must fit
 * a long long and lie in [min, max], both in bytes.
 */
int parse_size(const char *s, long long min, long long max, long long *out,
	       const char **why);

/*
 * parse_secs - a number of seconds in [min, max]: digits, then at most one
 * '.' and more digits ("10", "0.5"). No sign, space, exponent, hex, "inf"
 * or "nan". Returns 0, or -1 with *why set to a short reason.
 */
int parse_secs(const char *s, double min, double max, double *out, const char **why);

/*
 * parse_time - a time in [min, max] seconds: parse_secs's number, then a
 * unit, ns, us, ms or s (none: seconds): "100us", "1.5ms", "2". Returns
 * 0 with the seconds in *out, or -1 with *why set to a short reason.
 */
int parse_time(const char *s, double min, double max, double *out, const char **why);

#endif
