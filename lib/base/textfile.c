#include <errno.h>
#include <stdio.h>
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
