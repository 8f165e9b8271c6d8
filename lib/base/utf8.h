/* UTF-8 as RFC 3629 has it: what JSON text must be. */
#ifndef ZC_UTF8_H
#define ZC_UTF8_H

#include <stddef.h>

/*
 * utf8_len - how many of the left bytes at s make one well-formed UTF-8
 * character (1 to 4); 0 when they do not: a stray continuation byte, an
 * overlong form, a UTF-16 surrogate, beyond U+10FFFF, or cut short.
 */
size_t utf8_len(const unsigned char *s, size_t left);

#endif
