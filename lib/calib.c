#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calib.h"
#include "err.h"
#include "net.h"
#include "opt.h"

/* The first line: a positive number and nothing else. */
static int parse_rate(const char *line, double *rate)
{
	char *end;
	double v;

	if (*line < '0' || *line > '9')
		return -1;
	errno = 0;
	v = strtod(line, &end);
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	if (errno || *end || !isfinite(v) || v <= 0)
		return -1;
	*rate = v;
	return 0;
}

int calib_load(const char *path, struct calib *c, char *err, size_t errlen)
{
	char line[256], key[32];
	FILE *f;
	long long n;
	const char *why;
	int lineno = 1;

	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			err_fill(err, errlen, 0, "%s: no calibration file: run "
			     "cyclesoak -C (or zcc -C) on an idle machine first", path);
		else
			err_fill(err, errlen, errno, "%s", path);
		return -1;
	}
	memset(c, 0, sizeof(*c));
	if (!fgets(line, sizeof(line), f) || parse_rate(line, &c->loops_per_sec) < 0) {
		err_fill(err, errlen, 0, "%s: malformed: the first line must be the "
		     "calibrated loops/sec (run cyclesoak -C again)", path);
		goto bad;
	}
	while (fgets(line, sizeof(line), f)) {
		char value[64];

		lineno++;
		if (sscanf(line, "%31s %63s", key, value) != 2)
			continue;	/* blank or from a later version */
		if (strcmp(key, "ncpus") == 0) {
			if (parse_num(value, 1, CPU_SETSIZE, &n, &why) < 0) {
				err_fill(err, errlen, 0, "%s:%d: ncpus '%s': %s",
				     path, lineno, value, why);
				goto bad;
			}
			c->ncpus = (int)n;
		}
	}
	if (ferror(f)) {
		err_fill(err, errlen, errno, "%s", path);
		goto bad;
	}
	fclose(f);
	return 0;
bad:
	fclose(f);
	errno = EINVAL;
	return -1;
}

int calib_for(const char *path, int ncpus, struct calib *c, char *warn,
	      size_t warnlen, char *err, size_t errlen)
{
	if (warn && warnlen)
		warn[0] = '\0';
	if (calib_load(path, c, err, errlen) < 0)
		return -1;
	if (c->ncpus && c->ncpus != ncpus)
		return err_fill(err, errlen, 0, "%s was calibrated with %d CPUs, this "
				"run has %d: run with -N %d, or calibrate again with "
				"-C -N %d", path, c->ncpus, ncpus, c->ncpus, ncpus);
	if (!c->ncpus && warn && warnlen)
		snprintf(warn, warnlen, "%s does not say how many CPUs it was "
			 "calibrated with; assuming %d", path, ncpus);
	return 0;
}

/* Make the rename itself durable; best effort, the data is already safe. */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *parent;
	int fd;

	if (!slash)
		parent = strdup(".");
	else
		parent = strndup(path, slash == path ? 1 : (size_t)(slash - path));
	if (!parent)
		return;
	fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(parent);
}

int calib_save(const char *path, const struct calib *c, char *err, size_t errlen)
{
	char *tmp, text[256];
	int fd, len, saved;

	if (!(c->loops_per_sec > 0) || !isfinite(c->loops_per_sec)) {
		err_fill(err, errlen, 0, "%s: refusing to save a rate of %g", path,
		     c->loops_per_sec);
		errno = EINVAL;
		return -1;
	}
	len = snprintf(text, sizeof(text), "%.0f\nncpus %d\nspread %.2f%%\n"
		       "written-by zc cyclesoak\n", c->loops_per_sec, c->ncpus,
		       c->spread * 100);
	/* Same directory as path, so rename() cannot cross file systems. */
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		err_fill(err, errlen, errno, "%s", path);
		return -1;
	}
	fd = mkstemp(tmp);
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
	if (close(fd) < 0) {
		fd = -1;
		err_fill(err, errlen, errno, "%s: write %s", path, tmp);
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		err_fill(err, errlen, errno, "%s: rename %s", path, tmp);
		goto fail;
	}
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
