#include <ctype.h>
#include <dirent.h>
#include <error.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "zcc/limits.h"
#include "base/plural.h"

/* "unlimited" or the number, for a message. */
static const char *shown_limit(rlim_t v, char *buf, size_t len)
{
	if (v == RLIM_INFINITY)
		return "unlimited";
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

/*
 * Tasks (threads) of the caller's real user now, from /proc/PID/status:
 * what RLIMIT_NPROC counts. 0 when /proc says nothing.
 */
static unsigned long user_tasks(void)
{
	char path[300], line[256];
	unsigned long n = 0, threads, uid;
	struct dirent *e;
	DIR *d = opendir("/proc");
	FILE *f;
	int mine;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		mine = 0;
		threads = 0;
		while (fgets(line, sizeof(line), f)) {
			if (strncmp(line, "Uid:", 4) == 0) {
				uid = strtoul(line + 4, NULL, 10);
				mine = uid == (unsigned long)getuid();
			} else if (strncmp(line, "Threads:", 8) == 0) {
				threads = strtoul(line + 8, NULL, 10);
				break;
			}
		}
		fclose(f);
		if (mine)
			n += threads;
	}
	closedir(d);
	return n;
}

static void check_files(unsigned long n_files, unsigned streams)
{
	unsigned long need = n_files + (unsigned long)streams * LIMITS_FDS_PER_STREAM +
			     LIMITS_FDS_SPARE;
	char a[32], b[32];
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || need <= rl.rlim_cur)
		return;
	error(1, 0, "%lu file%s and %u stream%s need about %lu open files (zcc keeps "
	      "every file open, and a socket and a pipe per stream); the limit is %s "
	      "(RLIMIT_NOFILE, hard limit %s): raise it with ulimit -n",
	      n_files, plural_s(n_files), streams, plural_s(streams), need,
	      shown_limit(rl.rlim_cur, a, sizeof(a)), shown_limit(rl.rlim_max, b, sizeof(b)));
}

static void check_threads(unsigned streams)
{
	struct rlimit rl;
	unsigned long have;
	char a[32];

	/* One stream is sent by the main thread. The kernel exempts root. */
	if (streams < 2 || geteuid() == 0 || getrlimit(RLIMIT_NPROC, &rl) < 0 ||
	    rl.rlim_cur == RLIM_INFINITY)
		return;
	have = user_tasks();
	if (have + streams + 1 <= rl.rlim_cur)	/* and the -I/-T watcher */
		return;
	error(1, 0, "%u streams need %u threads beside the %lu task%s this user runs "
	      "now; the limit is %s (RLIMIT_NPROC): raise it with ulimit -u",
	      streams, streams + 1, have, plural_s(have), shown_limit(rl.rlim_cur, a, sizeof(a)));
}

void limits_check(unsigned long n_files, unsigned streams)
{
	check_files(n_files, streams);
	check_threads(streams);
}
