/*
 * The first line of a file of /proc or /sys (a sysctl, a governor, a
 * cgroup's cpu.max, /proc/stat's total, a process's stat line), tidied, or
 * a sign that there is none: the one such reader, for every layer.
 */
#ifndef ZC_TEXTFILE_H
#define ZC_TEXTFILE_H

#include <stddef.h>

/*
 * textfile_line - the first line of path into buf, its runs of spaces and
 * tabs made one space, its ends trimmed; -1 with errno when it cannot be
 * read, and -1 with errno ENODATA when it is empty (buf is "" then).
 */
int textfile_line(const char *path, char *buf, size_t len);

/*
 * textfile_num - the whole number of path's first line (a sysctl such as
 * net.core.optmem_max), 0 or more; -1 when it cannot be read or is not
 * one such number alone.
 */
long long textfile_num(const char *path);

/* textfile_tidy - what textfile_line does to a line, in place. */
void textfile_tidy(char *s);

#endif
