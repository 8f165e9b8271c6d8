/* lib/calib.c: the calibration file, written whole and read back strictly. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "calib.h"
#include "t.h"

static char dir[] = "/tmp/zc-calib-XXXXXX";

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		perror(path);
}

/* The text with its newlines shown, for a check's one line. */
static const char *oneline(const char *text)
{
	static char buf[128];
	size_t i, n = 0;

	for (i = 0; text[i] && n < sizeof(buf) - 3; i++) {
		if (text[i] == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else {
			buf[n++] = text[i];
		}
	}
	buf[n] = '\0';
	return buf;
}

static int count_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void test_round_trip(const char *path)
{
	struct calib in = { .loops_per_sec = 123456789.4, .ncpus = 3, .spread = 0.012 };
	struct calib out = { 0 };
	char err[256] = "", line[64] = "";
	FILE *f;

	int rc;

	rc = calib_save(path, &in, err, sizeof(err));
	CHECK(rc == 0, "save %s", err);
	rc = calib_load(path, &out, err, sizeof(err));
	CHECK(rc == 0, "load it back %s", err);
	CHECK(out.loops_per_sec == 123456789.0 && out.ncpus == 3,
	      "round trip keeps rate and ncpus (%.1f, %d)", out.loops_per_sec, out.ncpus);
	f = fopen(path, "r");
	CHECK(f && fgets(line, sizeof(line), f) && strcmp(line, "123456789\n") == 0,
	      "first line is the bare number, as the 2001 program reads it ('%s')",
	      oneline(line));
	if (f)
		fclose(f);
	CHECK(count_files() == 1, "no temporary file left beside it");
}

/* A failed write must leave the old file as it was, and no debris. */
static void test_whole_or_nothing(const char *path)
{
	struct calib old = { 0 }, big = { .loops_per_sec = 987654321, .ncpus = 2 };
	struct rlimit small = { 10, RLIM_INFINITY }, saved_lim;
	char err[256] = "", nodir[300];
	int rc;

	calib_load(path, &old, err, sizeof(err));
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &saved_lim);
	small.rlim_max = saved_lim.rlim_max;
	setrlimit(RLIMIT_FSIZE, &small);	/* the write will stop at 10 bytes */
	rc = calib_save(path, &big, err, sizeof(err));
	setrlimit(RLIMIT_FSIZE, &saved_lim);
	CHECK(rc == -1 && *err, "a write cut short fails: %s", err);
	rc = calib_load(path, &big, err, sizeof(err));
	CHECK(rc == 0 && big.loops_per_sec == old.loops_per_sec,
	      "the old file is intact (%.0f)", big.loops_per_sec);
	CHECK(count_files() == 1, "and the temporary file is gone");

	snprintf(nodir, sizeof(nodir), "%s/no/such/dir", dir);
	rc = calib_save(nodir, &old, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "no/such"),
	      "an unwritable place fails with its name: %s", err);
}

static void loads(const char *path, const char *text, double rate, int ncpus)
{
	struct calib c = { 0 };
	char err[256] = "";

	int rc;

	put(path, text);
	rc = calib_load(path, &c, err, sizeof(err));
	CHECK(rc == 0 && c.loops_per_sec == rate && c.ncpus == ncpus,
	      "accepts '%s' as %.1f loops/sec, ncpus %d %s", oneline(text),
	      c.loops_per_sec, c.ncpus, err);
}

static void refuses(const char *path, const char *text)
{
	struct calib c;
	char err[256] = "";

	int rc;

	put(path, text);
	rc = calib_load(path, &c, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, path), "refuses '%s': %s", oneline(text), err);
}

static void test_formats(const char *path)
{
	struct calib c;
	char err[256] = "", missing[300];
	int rc;

	loads(path, "5000000\n", 5000000, 0);		/* the 2001 program's file */
	loads(path, "5000000", 5000000, 0);
	loads(path, "5000000.5\nncpus 4\n", 5000000.5, 4);
	loads(path, "5000000\nncpus 2\nfuture-key some value\n\n", 5000000, 2);
	refuses(path, "");
	refuses(path, "\n5000000\n");
	refuses(path, "abc\n");
	refuses(path, "-5000000\n");
	refuses(path, "0\n");
	refuses(path, "5000000 loops\n");
	refuses(path, "1e999\n");
	refuses(path, "nan\n");
	refuses(path, "5000000\nncpus 0\n");
	refuses(path, "5000000\nncpus two\n");
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	rc = calib_load(missing, &c, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "cyclesoak -C"),
	      "a missing file says to run cyclesoak -C: %s", err);
}

int main(void)
{
	char path[300];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/counts_per_sec", dir);
	test_round_trip(path);
	test_whole_or_nothing(path);
	test_formats(path);
	unlink(path);
	rmdir(dir);
	return t_exit();
}
