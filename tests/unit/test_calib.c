/*
 * lib/meter/calib_file.c: the calibration file (written whole, read back only when it
 * is what we write, never written over anything but a regular file) and
 * the judgement of a calibration attempt.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "meter/calib_file.h"
#include "unit/t.h"

static char dir[] = "/tmp/zc-calib-XXXXXX";

static void put_n(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
		perror(path);
}

static void put(const char *path, const char *text)
{
	put_n(path, text, strlen(text));
}

/* The first len bytes of text with newlines and the unprintable shown. */
static const char *shown_n(const char *text, size_t len)
{
	static char buf[96];
	size_t i, n = 0;

	for (i = 0; i < len && n < sizeof(buf) - 8; i++) {
		if (text[i] == '\n')
			n += (size_t)sprintf(buf + n, "\\n");
		else if (text[i] < ' ' || text[i] > '~')
			n += (size_t)sprintf(buf + n, "\\x%02x", (unsigned char)text[i]);
		else
			buf[n++] = text[i];
	}
	snprintf(buf + n, sizeof(buf) - n, "%s", i < len ? "..." : "");
	return buf;
}

static const char *shown(const char *text)
{
	return shown_n(text, strlen(text));
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
	char err[256] = "", text[256] = "";
	FILE *f;
	size_t n = 0;
	int rc;

	rc = calib_save(path, &in, err, sizeof(err));
	CHECK(rc == 0, "save %s", err);
	rc = calib_load(path, &out, err, sizeof(err));
	CHECK(rc == 0, "load it back %s", err);
	CHECK(out.loops_per_sec == 123456789.0 && out.ncpus == 3 && out.spread == 0.012,
	      "round trip keeps rate, ncpus and spread (%.1f, %d, %g)",
	      out.loops_per_sec, out.ncpus, out.spread);
	f = fopen(path, "r");
	if (f) {
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
	}
	text[n] = '\0';
	CHECK(strcmp(text, "123456789\nncpus 3\nspread 1.20%\nwritten-by zc cyclesoak\n") == 0,
	      "the file: the bare number first, as the 2001 program reads it ('%s')",
	      shown(text));
	CHECK(count_files() == 1, "no temporary file left beside it");
	out.ncpus = 0;
	rc = calib_for(path, 2, &out, NULL, 0, err, sizeof(err));
	CHECK(rc == -1 && errno == ERANGE && out.ncpus == 3 &&
	      strstr(err, "calibrated with 3 CPUs, this run has 2") && !strstr(err, " -"),
	      "another CPU count: ERANGE, the file's count in c, no option named: %s", err);
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

static void loads(const char *path, const char *text, double rate, int ncpus,
		  double spread)
{
	struct calib c = { 0 };
	char err[256] = "";
	int rc;

	put(path, text);
	rc = calib_load(path, &c, err, sizeof(err));
	CHECK(rc == 0 && c.loops_per_sec == rate && c.ncpus == ncpus && c.spread == spread,
	      "accepts '%s' as %.1f loops/sec, ncpus %d, spread %g %s", shown(text),
	      c.loops_per_sec, c.ncpus, c.spread, err);
}

/* calib_load refuses the file with one line naming it; c is untouched. */
static void refused_n(const char *path, const char *text, size_t len)
{
	struct calib c = { .loops_per_sec = 42, .ncpus = 42, .spread = 42 };
	char err[256] = "";
	int rc;

	put_n(path, text, len);
	rc = calib_load(path, &c, err, sizeof(err));
	CHECK(rc == -1 && errno == EBADMSG && strstr(err, path) && !strchr(err, '\n') &&
	      c.loops_per_sec == 42 && c.ncpus == 42 && c.spread == 42,
	      "refuses '%s': %s", shown_n(text, len), err);
}

static void refuses(const char *path, const char *text)
{
	refused_n(path, text, strlen(text));
}

#define FULL "5000000\nncpus 2\nspread 0.42%\nwritten-by zc cyclesoak\n"

static void test_formats(const char *path)
{
	static const char *const bad[] = {
		"", "\n", "\n5000000\n", "abc\n", "-5000000\n", "+5000000\n",
		"0\n", "999\n", "1000000000000001\n", "99999999999999999999999\n",
		"1e-300\n", "1e6\n", "0x10\n", "010\n", "5000000.5\n", "5000000.\n",
		" 5000000\n", "5000000 \n", "5000000\r\n", "5000000 loops\n",
		"1e999\n", "nan\n", "inf\n", "5000000", "5000000\n5000000\n",
		"5000000\n\n", "5000000\nncpus 0\n", "5000000\nncpus 1025\n",
		"5000000\nncpus 99999999999999999999\n", "5000000\nncpus two\n",
		"5000000\nncpus -1\n", "5000000\nncpus 02\n", "5000000\nncpus  2\n",
		"5000000\nncpus 2", "5000000\nNCPUS 2\n", "5000000\nfuture-key x\n",
		"5000000\nncpus 2\nspread 1e5%\n", "5000000\nncpus 2\nspread 1.5%\n",
		"5000000\nncpus 2\nspread -1.00%\n", "5000000\nncpus 2\nspread 0.42\n",
		"5000000\nncpus 2\nspread 10000.00%\n", "5000000\nncpus 2\nspread 01.00%\n",
		"5000000\nncpus 2\nspread 0.42%\nwritten-by someone\n",
		/* NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one file each */
		FULL "\n", FULL "5000000\n", FULL "written-by zc cyclesoak\n",
	};
	char big[4096], err[256] = "", missing[300];
	struct calib c;
	size_t i;
	int rc;

	loads(path, "5000000\n", 5000000, 0, 0);	/* the 2001 program's file */
	loads(path, "1000\n", 1000, 0, 0);
	loads(path, "1000000000000000\n", 1e15, 0, 0);
	loads(path, "5000000\nncpus 4\n", 5000000, 4, 0);	/* by hand */
	loads(path, "5000000\nncpus 1024\nspread 0.42%\n", 5000000, 1024, 0.0042);
	loads(path, FULL, 5000000, 2, 0.0042);
	loads(path, "5000000\nncpus 2\nspread 9999.99%\nwritten-by zc cyclesoak\n",
	      5000000, 2, 99.9999);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refuses(path, bad[i]);
	refused_n(path, "5000\0000\n", 6);
	refused_n(path, "5000000\nncpus 2\0\n", 16);
	memset(big, '1', sizeof(big));
	big[300] = '\n';
	refused_n(path, big, 301);		/* one huge line */
	refused_n(path, big, sizeof(big));	/* a huge file */
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	rc = calib_load(missing, &c, err, sizeof(err));
	CHECK(rc == -1 && errno == ENOENT && strstr(err, "no calibration file") &&
	      !strstr(err, " -"),
	      "a missing file (ENOENT) says so, naming no option: %s", err);
	rc = calib_load("/dev/zero", &c, err, sizeof(err));
	CHECK(rc == -1 && errno == EINVAL && strstr(err, "a character device"),
	      "a device is not read: %s", err);
	rc = calib_load(dir, &c, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, dir), "a directory is not read: %s", err);
}

/*
 * Only a trusted regular file is read: never through a symlink (whose
 * target's first line the refusal would quote), nor a file owned by
 * another user than the caller and root, nor one group or others may
 * write. Each refusal is one line naming the file and why.
 */
static void test_load_trust(const char *path)
{
	char link[320], secret[320], err[512];
	struct calib c;
	int rc;

	put(path, "5000000\nncpus 2\n");
	CHECK(chmod(path, 0644) == 0, "chmod 0644");
	snprintf(link, sizeof(link), "%s/link", dir);
	CHECK(symlink(path, link) == 0, "make a symlink to a good file");
	rc = calib_load(link, &c, err, sizeof(err));
	CHECK(rc == -1 && errno == EINVAL && strstr(err, link) && strstr(err, "a symlink") &&
	      !strchr(err, '\n'), "a symlink to a good file is not followed: %s", err);
	unlink(link);
	snprintf(secret, sizeof(secret), "%s/secret", dir);
	put(secret, "secret line\n");
	CHECK(chmod(secret, 0600) == 0 && symlink(secret, link) == 0,
	      "a symlink to a file that is not a calibration");
	rc = calib_load(link, &c, err, sizeof(err));
	CHECK(rc == -1 && strstr(err, "a symlink") && !strstr(err, "secret line"),
	      "its target's line is not quoted: %s", err);
	unlink(link);
	unlink(secret);

	CHECK(chmod(path, 0664) == 0, "chmod 0664");
	rc = calib_load(path, &c, err, sizeof(err));
	CHECK(rc == -1 && errno == EACCES && strstr(err, path) && strstr(err, "its group") &&
	      strstr(err, "0664"), "a group-writable file is refused: %s", err);
	CHECK(chmod(path, 0646) == 0, "chmod 0646");
	rc = calib_load(path, &c, err, sizeof(err));
	CHECK(rc == -1 && errno == EACCES && strstr(err, "others") && strstr(err, "0646"),
	      "a world-writable file is refused: %s", err);
	CHECK(chmod(path, 0644) == 0, "chmod 0644 again");
	rc = calib_load(path, &c, err, sizeof(err));
	CHECK(rc == 0, "mode 0644, owned by the caller: read (%s)", rc ? err : "");
	if (geteuid() != 0) {
		printf("skip - a file owned by another user: not root, cannot chown\n");
		return;
	}
	CHECK(chown(path, 1, 1) == 0, "chown to uid 1 (daemon)");
	rc = calib_load(path, &c, err, sizeof(err));
	CHECK(rc == -1 && errno == EACCES && strstr(err, path) && strstr(err, "uid 1"),
	      "as root, a file owned by uid 1 is refused: %s", err);
	CHECK(chown(path, 0, 0) == 0, "chown back to root");
}

/* A FIFO with no writer must be refused, not waited on. */
static void test_load_fifo(void)
{
	char fifo[300], err[256] = "";
	struct calib c;
	pid_t pid;
	int status = -1, rc;

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	if (mkfifo(fifo, 0600) < 0) {
		printf("skip - load a FIFO: mkfifo: %s\n", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		alarm(5);
		_exit(calib_load(fifo, &c, err, sizeof(err)) == -1 &&
		      strstr(err, "a FIFO") ? 0 : 1);
	}
	rc = waitpid(pid, &status, 0);
	CHECK(rc == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "a FIFO without a writer is refused at once (status %#x)", status);
	unlink(fifo);
}

/* What lstat and readlink say about a path, to see that nothing changed. */
struct seen {
	int exists;
	struct stat st;
	char link[300];
};

static void look(const char *path, struct seen *s)
{
	memset(s, 0, sizeof(*s));
	s->exists = lstat(path, &s->st) == 0;
	if (s->exists && S_ISLNK(s->st.st_mode) &&
	    readlink(path, s->link, sizeof(s->link) - 1) < 0)
		s->link[0] = '\0';
}

static int same(const struct seen *a, const struct seen *b)
{
	return a->exists == b->exists && a->st.st_dev == b->st.st_dev &&
	       a->st.st_ino == b->st.st_ino && a->st.st_mode == b->st.st_mode &&
	       a->st.st_rdev == b->st.st_rdev && a->st.st_size == b->st.st_size &&
	       strcmp(a->link, b->link) == 0;
}

/* calib_check_path and calib_save refuse path, which stays as it was. */
static void save_refused(const char *what, const char *path, const char *kind,
			 const char *also)
{
	struct calib c = { .loops_per_sec = 5000000, .ncpus = 2 };
	struct seen before, after, also_before, also_after;
	char err[256] = "", err2[256] = "";
	int files = count_files(), rc, rc2;

	look(path, &before);
	look(also ? also : path, &also_before);
	rc = calib_check_path(path, err, sizeof(err));
	rc2 = calib_save(path, &c, err2, sizeof(err2));
	look(path, &after);
	look(also ? also : path, &also_after);
	CHECK(rc == -1 && rc2 == -1 && strstr(err2, kind) && strstr(err2, path) &&
	      strcmp(err, err2) == 0, "%s: refused: %s", what, err2);
	CHECK(before.exists && same(&before, &after) && same(&also_before, &also_after),
	      "%s: left as it was (inode %lu, device %u:%u%s%s)", what,
	      (unsigned long)after.st.st_ino, major(after.st.st_rdev),
	      minor(after.st.st_rdev), *after.link ? ", link to " : "", after.link);
	CHECK(count_files() == files, "%s: no temporary file left", what);
}

static void test_save_targets(void)
{
	char p[6][300], target[300], err[256];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct calib c = { .loops_per_sec = 5000000, .ncpus = 2 };
	int fd, i, rc, saved;

	for (i = 0; i < 6; i++)
		snprintf(p[i], sizeof(p[i]), "%s/t%d", dir, i);
	snprintf(target, sizeof(target), "%s/regular", dir);
	put(target, "1234567\nncpus 2\n");
	CHECK(mkfifo(p[0], 0600) == 0, "make a FIFO");
	save_refused("a FIFO", p[0], "a FIFO", NULL);
	CHECK(symlink(target, p[1]) == 0, "make a symlink");
	save_refused("a symlink to a regular file", p[1], "a symlink", target);
	CHECK(symlink("no-such-file", p[2]) == 0, "make a dangling symlink");
	save_refused("a dangling symlink", p[2], "a symlink", NULL);
	CHECK(mkdir(p[3], 0700) == 0, "make a directory");
	save_refused("a directory", p[3], "a directory", NULL);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(strlen(p[4]) < sizeof(sa.sun_path), "socket path fits");
	memcpy(sa.sun_path, p[4], strlen(p[4]) + 1 < sizeof(sa.sun_path) ?
	       strlen(p[4]) + 1 : sizeof(sa.sun_path) - 1);
	CHECK(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0,
	      "make a socket");
	save_refused("a socket", p[4], "a socket", NULL);
	if (fd >= 0)
		close(fd);
	/*
	 * A device node of our own: /dev/null itself only where this process
	 * cannot write /dev, so that a broken calib_save cannot replace it.
	 */
	rc = mknod(p[5], S_IFCHR | 0600, makedev(1, 3));
	saved = errno;
	if (rc == 0)
		save_refused("a device node (1:3, as /dev/null)", p[5],
			     "a character device", NULL);
	else if (access("/dev", W_OK) < 0)
		save_refused("/dev/null, unwritable /dev", "/dev/null",
			     "a character device", NULL);
	else
		printf("skip - a device node: mknod: %s\n", strerror(saved));
	CHECK(calib_check_path(target, err, sizeof(err)) == 0 &&
	      calib_save(target, &c, err, sizeof(err)) == 0,
	      "a regular file is replaced %s", err);
	for (i = 0; i < 6; i++)
		if (unlink(p[i]) < 0)
			rmdir(p[i]);
	unlink(target);
	CHECK(calib_check_path(target, err, sizeof(err)) == 0 &&
	      calib_save(target, &c, err, sizeof(err)) == 0 &&
	      calib_load(target, &c, err, sizeof(err)) == 0,
	      "a missing name is created %s", err);
	unlink(target);
}

/* calib_format: the range of each field, and rounding to what is written. */
static void test_format(void)
{
	static const struct { struct calib c; const char *first; } cases[] = {
		{ { 999.4, 1, 0 }, NULL },
		{ { 999.5, 1, 0 }, "1000\n" },
		{ { 1e15, 1, 0 }, "1000000000000000\n" },
		{ { 1e15 + 1, 1, 0 }, NULL },
		{ { -5, 1, 0 }, NULL },
		{ { NAN, 1, 0 }, NULL },
		{ { INFINITY, 1, 0 }, NULL },
		{ { 5e6, 0, 0 }, NULL },
		{ { 5e6, 1025, 0 }, NULL },
		{ { 5e6, 1024, 99.9999 }, "5000000\nncpus 1024\nspread 9999.99%\n" },
		{ { 5e6, 2, 100 }, NULL },
		{ { 5e6, 2, -0.001 }, NULL },
		{ { 5e6, 2, NAN }, NULL },
		{ { 5e6, 2, 0.000049 }, "5000000\nncpus 2\nspread 0.00%\n" },
	};
	char text[256], err[256];
	size_t i;
	int n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		n = calib_format(&cases[i].c, text, sizeof(text), err, sizeof(err));
		if (!cases[i].first)
			CHECK(n == -1 && *err, "format refuses %g loops/sec, %d CPUs, "
			      "spread %g: %s", cases[i].c.loops_per_sec, cases[i].c.ncpus,
			      cases[i].c.spread, err);
		else
			CHECK(n > 0 && strncmp(text, cases[i].first, strlen(cases[i].first)) == 0,
			      "format writes %g loops/sec, %d CPUs, spread %g as '%s'",
			      cases[i].c.loops_per_sec, cases[i].c.ncpus, cases[i].c.spread,
			      shown(n > 0 ? text : err));
	}
}

static unsigned long long rnd_state = 88172645463325252ull;

static unsigned rnd(unsigned n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (unsigned)(rnd_state % n);
}

static const char alphabet[] = "0123456789\n\n .%-+exnpcusadwitrbyz\t\r";

/* Mostly a character a calibration file might hold, sometimes any byte. */
static char rnd_char(unsigned any_in)
{
	if (rnd(any_in))
		return alphabet[rnd(sizeof(alphabet) - 1)];
	return (char)(unsigned char)rnd(256);
}

/* A file: random bytes, or a good one with a few bytes changed, added or cut. */
static size_t random_file(char *buf, size_t cap)
{
	char good[256];
	struct calib c = { 0 };
	size_t len, i, k;

	if (rnd(2)) {
		len = rnd((unsigned)cap);
		for (i = 0; i < len; i++)
			buf[i] = rnd_char(4);
		return len;
	}
	c.loops_per_sec = (double)(CALIB_RATE_MIN + rnd(2000000000u));
	c.ncpus = 1 + (int)rnd(CPU_SETSIZE);
	c.spread = rnd(100000) / 1e4;
	len = (size_t)calib_format(&c, good, sizeof(good), NULL, 0);
	memcpy(buf, good, len);
	for (k = rnd(3); k > 0; k--) {
		i = rnd((unsigned)len + 1);
		switch (rnd(3)) {
		case 0:				/* change a byte */
			if (i < len)
				buf[i] = rnd_char(2);
			break;
		case 1:				/* add one */
			if (len < cap) {
				memmove(buf + i + 1, buf + i, len - i);
				buf[i] = rnd_char(8);
				len++;
			}
			break;
		default:			/* cut the rest */
			len = i;
		}
	}
	return len;
}

/*
 * Random files: none may crash calib_load, and each one it accepts must be
 * what calib_save writes for the values read, cut after a whole line.
 */
static void test_fuzz(const char *path)
{
	char buf[300], text[256], err[256];
	struct calib c, f;
	int i, accepted = 0, wrong = 0, n;
	size_t len;

	for (i = 0; i < 3000; i++) {
		len = random_file(buf, sizeof(buf));
		put_n(path, buf, len);
		if (calib_load(path, &c, err, sizeof(err)) < 0)
			continue;
		accepted++;
		f = c;
		if (!f.ncpus)
			f.ncpus = 1;	/* the 2001 form: only the first line is compared */
		n = calib_format(&f, text, sizeof(text), err, sizeof(err));
		if (n < 0 || len == 0 || len > (size_t)n || memcmp(buf, text, len) != 0 ||
		    buf[len - 1] != '\n' || (c.ncpus == 0 && memchr(buf, '\n', len) != buf + len - 1)) {
			if (wrong++ < 5)
				printf("# accepted '%s'\n", shown_n(buf, len));
		}
	}
	CHECK(wrong == 0, "fuzz: 3000 random files, %d accepted, each exactly what "
	      "calib_save writes (%d others)", accepted, wrong);
}

static void judged(const char *what, const double *s, int n, double others,
		   double median, double spread)
{
	struct calib c = { .ncpus = 7 };
	char err[128] = "";
	int rc = calib_judge(s, n, others, &c, err, sizeof(err));

	CHECK(rc == 0 && c.loops_per_sec == median && c.ncpus == 7 &&
	      c.spread > spread - 1e-12 && c.spread < spread + 1e-12,
	      "judge accepts %s: median %.1f, spread %.4f %s", what,
	      c.loops_per_sec, c.spread, err);
}

static void misjudged(const char *what, const double *s, int n, double others,
		      const char *why)
{
	struct calib c = { .loops_per_sec = 42, .ncpus = 7, .spread = 42 };
	char err[128] = "";
	int rc = calib_judge(s, n, others, &c, err, sizeof(err));

	CHECK(rc == -1 && strcmp(err, why) == 0 && c.loops_per_sec == 42 &&
	      c.spread == 42 && c.ncpus == 7, "judge refuses %s: '%s'", what, err);
}

static void test_judge(void)
{
	const double odd[] = { 1e8, 1.01e8, 0.995e8, 1.02e8, 1.005e8 };
	const double even[] = { 1.01e8, 1e8, 1.02e8, 0.99e8 };
	const double in[] = { 1e8, 0.971e8, 1e8 };
	const double out[] = { 1e8, 0.969e8, 1e8 };
	const double wild[] = { 1e8, 1.123e8, 1e8 };
	const double dead[] = { 0, 0, 5e7 };
	const double slow[] = { 900, 900 };
	const double nan1[] = { 1e8, NAN };
	const double neg[] = { 1e8, -1 };
	double many[CALIB_SAMPLES_MAX + 1];
	int i;

	for (i = 0; i <= CALIB_SAMPLES_MAX; i++)
		many[i] = 1e8;
	judged("an odd count (the middle one)", odd, 5, 0, 1.005e8, 0.025 / 1.005);
	judged("an even count (the middle two's mean)", even, 4, 0, 1.005e8, 0.03 / 1.005);
	judged("one sample", odd, 1, 0, 1e8, 0);
	judged("a spread of 2.9%", in, 3, 0.01, 1e8, 0.029);
	misjudged("a spread of 3.1%", out, 3, 0.01, "samples spread 3.10% (limit 3%)");
	misjudged("a spread of 12.3%", wild, 3, 0, "samples spread 12.3% (limit 3%)");
	judged("others at 3% (the limit)", odd, 5, 0.03, 1.005e8, 0.025 / 1.005);
	judged("others unknown (negative)", odd, 5, -1, 1.005e8, 0.025 / 1.005);
	misjudged("others at 3.1%", odd, 5, 0.031,
		  "other work used 3.10% of the CPUs (limit 3%)");
	misjudged("others at 75%", odd, 5, 0.75,
		  "other work used 75.0% of the CPUs (limit 3%)");
	misjudged("both", wild, 3, 0.075, "other work used 7.50% of the CPUs "
		  "(limit 3%), samples spread 12.3% (limit 3%)");
	misjudged("soakers that got no CPU", dead, 3, 0, "soakers did not count");
	misjudged("a median below 1000", slow, 2, 0,
		  "900 loops/sec is out of range (1000 to 10^15)");
	misjudged("a sample that is not a number", nan1, 2, 0,
		  "sample 2 is nan loops/sec, not a rate");
	misjudged("a negative sample", neg, 2, 0, "sample 2 is -1 loops/sec, not a rate");
	misjudged("no samples", odd, 0, 0, "0 samples: 1 to 100 can be judged");
	misjudged("too many", many, CALIB_SAMPLES_MAX + 1, 0,
		  "101 samples: 1 to 100 can be judged");
}

static void test_refused(void)
{
	char err[200];
	int rc;

	rc = calib_refused(err, sizeof(err), CALIB_ATTEMPTS,
			   "samples spread 12.3% (limit 3%)", "counts_per_sec");
	CHECK(rc == -1 && strcmp(err, "calibration refused after 3 tries: samples "
				 "spread 12.3% (limit 3%); counts_per_sec unchanged") == 0,
	      "the refusal's one line: %s", err);
	calib_refused(err, sizeof(err), 1, "soakers did not count", "f");
	CHECK(strcmp(err, "calibration refused after 1 try: soakers did not count; "
		     "f unchanged") == 0, "one try is a try: %s", err);
}

int main(void)
{
	char path[300];

	umask(022);	/* the files put() writes: not group-writable (test_load_trust) */
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/counts_per_sec", dir);
	test_round_trip(path);
	test_whole_or_nothing(path);
	test_formats(path);
	test_load_fifo();
	test_load_trust(path);
	test_save_targets();
	test_format();
	test_fuzz(path);
	test_judge();
	test_refused();
	unlink(path);
	rmdir(dir);
	return t_exit();
}
