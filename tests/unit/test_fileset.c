/* lib/zcc/fileset.c: the files opened once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zcc/fileset.h"
#include "t.h"

/* Write text into a new file called name; 0, or -1. */
static int write_file(const char *name, const char *text)
{
	FILE *fp = fopen(name, "w");

	if (!fp)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

/* Two files and a directory: the directory is skipped, the files kept. */
static void open_set(void)
{
	char dir[] = "/tmp/zc-fileset.XXXXXX", a[64], b[64];
	const char *names[3];
	struct file_set set = { 0 };

	if (!mkdtemp(dir)) {
		CHECK(0, "a temporary directory");
		return;
	}
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	if (write_file(a, "hello") < 0 || write_file(b, "") < 0) {
		CHECK(0, "two files in %s", dir);
		return;
	}
	names[0] = a;
	names[1] = dir;
	names[2] = b;
	fileset_open(&set, names, 3, 0);
	CHECK(set.n == 2 && set.bytes == 5, "two files of 5 and 0 bytes, the directory "
	      "skipped (%u files, %llu bytes)", set.n, (unsigned long long)set.bytes);
	CHECK(set.n == 2 && set.f[0].size == 5 && set.f[1].size == 0 && set.f[0].fd >= 0,
	      "each file open once, with its size");
	for (uint32_t i = 0; i < set.n; i++)
		close(set.f[i].fd);
	free(set.f);
	unlink(a);
	unlink(b);
	rmdir(dir);
}

int main(void)
{
	open_set();
	return t_exit();
}
