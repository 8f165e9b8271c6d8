#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/textfile.h"

void textfile_tidy(char *s)
{
	char *w = s;
	const char *r = s;

	while (*r == ' ' || *r == '\t')
		r++;
	for (; *r && *r != '\n'; r++) {
		int blank = *r == ' ' || *r == '\t';

		if (blank && w > s && w[-1] == ' ')
			continue;
		if (blank)
			*w++ = ' ';
		else
			*w++ = *r;
	}
	while (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

int textfile_line(const char *path, char *buf, size_t len)
{
	FILE *f;
	int ok, failed, e;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	buf[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return -1;
	errno = 0;
	ok = fgets(buf, (int)len, f) != NULL;
	e = errno;
	failed = ferror(f);
	fclose(f);
	if (ok)
		textfile_tidy(buf);
	else
		buf[0] = '\0';
	if (!buf[0]) {
		errno = failed && e ? e : ENODATA;
		return -1;
	}
	return 0;
}

long long textfile_num(const char *path)
{
	char buf[32], *end;
	long long v;

	if (textfile_line(path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	v = strtoll(buf, &end, 10);
	return errno || end == buf || *end || v < 0 ? -1 : v;
}
