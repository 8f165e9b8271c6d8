/* Reading and writing exactly N bytes, through short transfers and EINTR. */
#ifndef ZC_IO_H
#define ZC_IO_H

#include <stddef.h>
#include <sys/types.h>

/*
 * read_full - read exactly len bytes unless EOF comes first; retries EINTR
 * and short reads. Returns the bytes read (less than len only at EOF) or -1.
 */
ssize_t read_full(int fd, void *buf, size_t len);

/* write_full - write all len bytes, retrying EINTR and short writes. 0 or -1. */
int write_full(int fd, const void *buf, size_t len);

#endif
