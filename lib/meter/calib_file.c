/*
 * The calibration file: what calib_save writes is all calib_load accepts,
 * and it is never written over anything but a regular file.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/io.h"
#include "base/safe_text.h"
#include "meter/calib_file.h"
#include "base/plural.h"

/* What calib_save writes is under 100 bytes; a file this long is not ours. */
#define FILE_MAX 256
#define WRITTEN_BY "written-by zc cyclesoak"
#define SPREAD_MAX_HUNDREDTHS 999999	/* 9999.99% */
#define STR(x) #x
#define XSTR(x) STR(x)

/* What kind of file a mode says, for a refusal. */
static const char *kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFLNK: return "a symlink";
	case S_IFDIR: return "a directory";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFIFO: return "a FIFO";
	case S_IFSOCK: return "a socket";
	default: return "not a regular file";
	}
}

/* safe_text for a counted slice of a calibration file, which is ASCII: up
 * to len bytes of s, anything not printable as '?', "..." when cut. */
static const char *safe_slice(const char *s, size_t len, char *buf, size_t buflen)
{
	size_t i, n = 0;

	for (i = 0; i < len && n + 4 < buflen; i++) {
		if (s[i] >= ' ' && s[i] <= '~')
			buf[n++] = s[i];
		else
			buf[n++] = '?';
	}
	if (i < len) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

/*
 * digits - s[0..len) is a decimal number as printf's %d writes it: digits
 * only, no leading zero, at most max. -1 otherwise.
 */
static int digits(const char *s, size_t len, unsigned long long max,
		  unsigned long long *v)
{
	unsigned long long x = 0;
	size_t i;

	if (len == 0 || (s[0] == '0' && len > 1))
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (x > (max - (unsigned)(s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (unsigned)(s[i] - '0');
	}
	*v = x;
	return 0;
}

/* line is "WORD " then a number from digits() in min..max; -1 otherwise. */
static int keyed(const char *line, size_t len, const char *word,
		 unsigned long long min, unsigned long long max, unsigned long long *v)
{
	size_t w = strlen(word);

	if (len <= w || memcmp(line, word, w) != 0 || line[w] != ' ')
		return -1;
	if (digits(line + w + 1, len - w - 1, max, v) < 0 || *v < min)
		return -1;
	return 0;
}

/* "spread P.PP%" as calib_format writes it, into a fraction. */
static int spread_line(const char *line, size_t len, double *spread)
{
	unsigned long long whole, cents;
	const char *dot;

	if (len < 12 || memcmp(line, "spread ", 7) != 0 || line[len - 1] != '%')
		return -1;
	dot = memchr(line + 7, '.', len - 7);
	if (!dot || line + len - dot != 4 ||
	    digits(line + 7, (size_t)(dot - line - 7), SPREAD_MAX_HUNDREDTHS / 100, &whole) < 0 ||
	    dot[1] < '0' || dot[1] > '9' || dot[2] < '0' || dot[2] > '9')
		return -1;
	cents = (unsigned long long)(dot[1] - '0') * 10 + (unsigned long long)(dot[2] - '0');
	*spread = (double)(whole * 100 + cents) / 10000;
	return 0;
}

/*
 * A calibration file owned by another user (not root), or that group or
 * others may write, could hold any figure someone else chose, which the
 * caller would publish as measured. -1 with err filled when it is so.
 */
static int trusted(const char *path, const struct stat *st, char *err, size_t errlen)
{
	errno = EACCES;
	if (st->st_uid != geteuid() && st->st_uid != 0)
		return err_fill(err, errlen, 0, "%s: owned by uid %u, neither you nor "
				"root: not trusted as a calibration", path,
				(unsigned)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return err_fill(err, errlen, 0, "%s: writable by %s (mode %04o): not "
				"trusted as a calibration; chmod go-w it", path,
				st->st_mode & S_IWOTH ? "others" : "its group",
				(unsigned)(st->st_mode & 07777));
	return 0;
}

/*
 * read_small - the whole of path into buf (cap bytes); -1 with err filled
 * when it cannot be read, is not a trusted (above) regular file or fills
 * buf (longer than any file of ours). A symlink is not followed: it could
 * point root's run at a file the link's owner cannot read, and the refusal
 * would quote its first line. A device is not even opened (a tape rewinds);
 * O_NONBLOCK and O_NOFOLLOW keep a FIFO or a link swapped in after the
 * lstat from hanging or being followed, and fstat then sees it.
 */
static int read_small(const char *path, char *buf, size_t cap, size_t *len,
		      char *err, size_t errlen)
{
	struct stat st;
	ssize_t n;
	int fd, saved;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return err_fill(err, errlen, 0, "%s: no calibration file", path);
		return err_fill(err, errlen, errno, "%s", path);
	}
	errno = EINVAL;		/* for what follows unless a call says otherwise */
	if (S_ISLNK(st.st_mode))
		return err_fill(err, errlen, 0, "%s: a symlink: a calibration file is "
				"read only as a regular file, never through a link", path);
	if (!S_ISREG(st.st_mode))
		return err_fill(err, errlen, 0, "%s: %s, not a calibration file",
				path, kind(st.st_mode));
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno != ELOOP)
		return err_fill(err, errlen, errno, "%s", path);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		errno = EINVAL;
		return err_fill(err, errlen, 0, "%s: replaced by something else "
				"while being opened", path);
	}
	if (trusted(path, &st, err, errlen) < 0) {
		close(fd);
		errno = EACCES;
		return -1;
	}
	n = read_full(fd, buf, cap);
	if (n < 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return err_fill(err, errlen, saved, "%s", path);
	}
	*len = (size_t)n;
	close(fd);
	if (*len == cap) {
		errno = EBADMSG;
		return err_fill(err, errlen, 0, "%s: %zu bytes or more, longer than "
				"a calibration file", path, cap);
	}
	return 0;
}

/* Line lineno of a file, text[0..len) without its newline, into *c. */
static int parse_line(int lineno, const char *text, size_t len, struct calib *c,
		      const char **expected)
{
	unsigned long long v;

	switch (lineno) {
	case 1:
		*expected = "a whole number of loops/sec from 1000 to 10^15";
		if (digits(text, len, CALIB_RATE_MAX, &v) < 0 || v < CALIB_RATE_MIN)
			return -1;
		c->loops_per_sec = (double)v;
		return 0;
	case 2:
		*expected = "'ncpus N' with N from 1 to " XSTR(CPU_SETSIZE);
		if (keyed(text, len, "ncpus", 1, CPU_SETSIZE, &v) < 0)
			return -1;
		c->ncpus = (int)v;
		return 0;
	case 3:
		*expected = "'spread P.PP%'";
		return spread_line(text, len, &c->spread);
	case 4:
		*expected = "'" WRITTEN_BY "'";
		return len == strlen(WRITTEN_BY) && !memcmp(text, WRITTEN_BY, len) ? 0 : -1;
	default:
		*expected = "nothing: a calibration file ends at line 4";
		return -1;
	}
}

int calib_load(const char *path, struct calib *c, char *err, size_t errlen)
{
	char buf[FILE_MAX], seen[48];
	const char *p, *nl, *end, *expected;
	struct calib got = { 0 };
	size_t len = 0;
	int lineno = 0;

	if (read_small(path, buf, sizeof(buf), &len, err, errlen) < 0)
		return -1;
	if (len == 0) {
		err_fill(err, errlen, 0, "%s: empty", path);
		goto bad;
	}
	if (memchr(buf, '\0', len)) {
		err_fill(err, errlen, 0, "%s: holds a NUL byte, not a calibration "
			 "file", path);
		goto bad;
	}
	for (p = buf, end = buf + len; p < end; p = nl + 1) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			safe_slice(p, (size_t)(end - p), seen, sizeof(seen));
			err_fill(err, errlen, 0, "%s:%d: '%s' has no newline: cut short?",
				 path, lineno, seen);
			goto bad;
		}
		if (parse_line(lineno, p, (size_t)(nl - p), &got, &expected) < 0) {
			safe_slice(p, (size_t)(nl - p), seen, sizeof(seen));
			err_fill(err, errlen, 0, "%s:%d: '%s', expected %s", path,
				 lineno, seen, expected);
			goto bad;
		}
	}
	*c = got;
	return 0;
bad:
	errno = EBADMSG;
	return -1;
}

int calib_for(const char *path, int ncpus, struct calib *c, char *warn,
	      size_t warnlen, char *err, size_t errlen)
{
	char safe[SAFE_LEN];

	if (warn && warnlen)
		warn[0] = '\0';
	if (calib_load(path, c, err, errlen) < 0)
		return -1;
	if (c->ncpus && c->ncpus != ncpus) {
		err_fill(err, errlen, 0, "%s was calibrated with %d CPU%s, this run "
			 "has %d", path, c->ncpus, plural_s(c->ncpus), ncpus);
		errno = ERANGE;
		return -1;
	}
	if (!c->ncpus && warn && warnlen)
		snprintf(warn, warnlen, "%s does not say how many CPUs it was "
			 "calibrated with; assuming %d", safe_text(path, safe, sizeof(safe)),
			 ncpus);
	return 0;
}

int calib_format(const struct calib *c, char *text, size_t len, char *err, size_t errlen)
{
	double cents = c->spread * 10000;
	unsigned long long rate;
	int n;

	/* Rounded to the nearest whole number, the rate must be in range. */
	if (!(c->loops_per_sec >= CALIB_RATE_MIN - 0.5 &&
	      c->loops_per_sec < CALIB_RATE_MAX + 0.5))
		return err_fill(err, errlen, 0, "a rate of %g loops/sec is out of "
				"range (1000 to 10^15)", c->loops_per_sec);
	rate = (unsigned long long)(c->loops_per_sec + 0.5);
	if (c->ncpus < 1 || c->ncpus > CPU_SETSIZE)
		return err_fill(err, errlen, 0, "%d CPUs is out of range (1 to %d)",
				c->ncpus, CPU_SETSIZE);
	if (!(cents >= 0 && cents < SPREAD_MAX_HUNDREDTHS + 0.5))
		return err_fill(err, errlen, 0, "a spread of %g%% is out of range "
				"(0 to 9999.99%%)", c->spread * 100);
	n = (int)(cents + 0.5);
	n = snprintf(text, len, "%llu\nncpus %d\nspread %d.%02d%%\n" WRITTEN_BY "\n",
		     rate, c->ncpus, n / 100, n % 100);
	if (n < 0 || (size_t)n >= len)
		return err_fill(err, errlen, 0, "calibration text too long");
	return n;
}

/* *exists: path is a regular file (1) or missing (0); -1 when it is anything else. */
static int target(const char *path, int *exists, char *err, size_t errlen)
{
	struct stat st;

	*exists = lstat(path, &st) == 0;
	if (!*exists)
		return errno == ENOENT ? 0 : err_fill(err, errlen, errno, "%s", path);
	if (!S_ISREG(st.st_mode)) {
		errno = EEXIST;
		return err_fill(err, errlen, 0, "%s: %s, not a regular file: refusing "
				"to replace it", path, kind(st.st_mode));
	}
	return 0;
}

/* The directory path's file goes in (strdup'ed; NULL: no memory). */
static char *parent_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

int calib_check_path(const char *path, char *err, size_t errlen)
{
	char *parent;
	int exists, rc = 0;

	if (target(path, &exists, err, errlen) < 0)
		return -1;
	/* Before a calibration's seconds of work: can the file be written? */
	parent = parent_of(path);
	if (parent && access(parent, W_OK | X_OK) < 0)
		rc = err_fill(err, errlen, errno, "%s: cannot write in %s", path, parent);
	free(parent);
	return rc;
}

/* Make the rename itself durable; best effort, the data is already safe. */
static void sync_dir(const char *path)
{
	char *parent = parent_of(path);
	int fd;

	if (!parent)
		return;
	fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(parent);
}

/*
 * replace - rename tmp to path, but only over a regular file or a missing
 * name. What path is gets checked just before the rename; a missing name is
 * taken with RENAME_NOREPLACE, so whatever appears there meanwhile is seen
 * and checked in turn. (A regular file swapped for something else between
 * the lstat and the rename is the one window left.)
 */
static int replace(const char *tmp, const char *path, char *err, size_t errlen)
{
	int tries, exists;

	for (tries = 0; tries < 3; tries++) {
		if (target(path, &exists, err, errlen) < 0)
			return -1;
		if (exists)
			return rename(tmp, path) == 0 ? 0 :
				err_fill(err, errlen, errno, "%s: rename %s", path, tmp);
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno == EINVAL || errno == ENOSYS)		/* file system cannot */
			return rename(tmp, path) == 0 ? 0 :
				err_fill(err, errlen, errno, "%s: rename %s", path, tmp);
		if (errno != EEXIST)
			return err_fill(err, errlen, errno, "%s: rename %s", path, tmp);
	}
	return err_fill(err, errlen, 0, "%s: appears and vanishes while being "
			"replaced; left as it is", path);
}

int calib_save(const char *path, const struct calib *c, char *err, size_t errlen)
{
	char *tmp, text[FILE_MAX], why[128];
	int fd, len, saved;

	len = calib_format(c, text, sizeof(text), why, sizeof(why));
	if (len < 0) {
		err_fill(err, errlen, 0, "%s: refusing to save: %s", path, why);
		errno = EINVAL;
		return -1;
	}
	if (calib_check_path(path, err, errlen) < 0)
		return -1;
	/* Same directory as path, so rename() cannot cross file systems. */
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return err_fill(err, errlen, errno, "%s", path);
	/* O_EXCL (mkostemp's own): a name that exists, symlink or not, is never opened. */
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err_fill(err, errlen, errno, "%s: create temporary file", path);
		free(tmp);
		return -1;
	}
	if (fchmod(fd, 0644) < 0 || write_full(fd, text, (size_t)len) < 0 ||
	    fsync(fd) < 0) {
		err_fill(err, errlen, errno, "%s: write %s", path, tmp);
		goto fail;
	}
	saved = close(fd);
	fd = -1;
	if (saved < 0) {
		err_fill(err, errlen, errno, "%s: write %s", path, tmp);
		goto fail;
	}
	if (replace(tmp, path, err, errlen) < 0)
		goto fail;
	free(tmp);
	sync_dir(path);
	return 0;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = saved;
	return -1;
}
