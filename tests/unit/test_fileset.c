/* lib/app/fileset.c: the files opened once, and a -t probe's sample of a loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/fileset.h"
#include "t.h"

/* Ten files of 100 bytes, named f0..f9. */
static void sample(void)
{
	static const char *names[10] = { "f0", "f1", "f2", "f3", "f4",
					 "f5", "f6", "f7", "f8", "f9" };
	struct tx_file f[10], room[10] = { { 0 } };
	struct file_set all = { .f = f, .n = 10, .bytes = 1000 };
	struct file_set probe = { .f = room };
	const struct file_set *got;

	for (int i = 0; i < 10; i++)
		f[i] = (struct tx_file){ .name = names[i], .fd = i, .size = 100 };
	CHECK(!fileset_sample(&all, 1000, &probe), "a budget of the whole loop: no sample");
	CHECK(!fileset_sample(&all, 5000, &probe), "a budget above the loop: no sample");
	got = fileset_sample(&all, 250, &probe);
	CHECK(got == &probe && probe.bytes == 250, "250 of 1000 bytes: a sample of 250 (%llu)",
	      got ? (unsigned long long)probe.bytes : 0ull);
	CHECK(probe.n == 3 && strcmp(room[0].name, "f0") == 0 &&
	      strcmp(room[1].name, "f5") == 0 && strcmp(room[2].name, "f1") == 0,
	      "every 5th file from the first, then from the second: f0 f5 f1");
	CHECK(room[0].size == 100 && room[1].size == 100 && room[2].size == 50,
	      "the last file of the sample is cut short (100 100 50)");
	CHECK(f[1].size == 100, "the loop's own entries are left alone");
	got = fileset_sample(&all, 999, &probe);
	CHECK(got && probe.n == 10 && probe.bytes == 999 && room[9].size == 99,
	      "999 bytes: every file, the last cut by one");
}

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
	fileset_open(&set, names, 3, 1, 0);
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
	sample();
	open_set();
	return t_exit();
}
