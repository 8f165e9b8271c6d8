#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/err.h"
#include "base/stop.h"
#include "meter/lock.h"
#include "meter/proc.h"

/* The lock's path: ZC_METER_LOCK (the manuals' ENVIRONMENT) for the tests,
 * which hold locks of their own. */
static const char *lock_path(void)
{
	const char *p = getenv("ZC_METER_LOCK");

	return p && *p ? p : METER_LOCK_PATH;
}

/* A meter runs soakers: children at nice 19. */
static int runs_soakers(pid_t pid)
{
	struct proc_task kids[64];
	int n = proc_children(pid, kids, 64), i;

	for (i = 0; i < n && i < 64; i++)
		if (kids[i].nice == 19 && kids[i].state != 'Z')
			return 1;
	return 0;
}

/*
 * Is the holder pid a meter? It may have taken the lock a moment ago and
 * not yet started its soakers: a second's grace. Unknown (0: another PID
 * namespace) counts as a meter, as does a stop signal meanwhile.
 */
static int is_meter(pid_t pid)
{
	uint64_t give_up = now_ns() + 1000000000u;

	if (pid <= 0)
		return 1;
	do {
		if (runs_soakers(pid))
			return 1;
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return 0;
		if (stop_wait_until(now_ns() + 50000000u) < 0)
			return 1;
	} while (now_ns() < give_up);
	return 0;
}

/*
 * The PID holding a POSIX write lock on the file st describes, from
 * /proc/locks ("1: POSIX  ADVISORY  WRITE 1234 08:01:5678 0 EOF"); 0: none.
 */
static pid_t lock_holder(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256], *save = NULL, *w[6], *end;
	unsigned long maj, min;
	unsigned long long ino;
	long pid;
	pid_t found = 0;
	int n;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		for (n = 0, w[0] = strtok_r(line, " \n", &save); n < 5 && w[n];)
			w[++n] = strtok_r(NULL, " \n", &save);
		if (n < 5 || strcmp(w[1], "POSIX") != 0 || strcmp(w[3], "WRITE") != 0)
			continue;
		pid = strtol(w[4], &end, 10);
		maj = strtoul(w[5], &end, 16);
		if (*end != ':')
			continue;
		min = strtoul(end + 1, &end, 16);
		if (*end != ':')
			continue;
		ino = strtoull(end + 1, &end, 10);
		if (major(st->st_dev) == maj && minor(st->st_dev) == min &&
		    st->st_ino == ino && pid > 0)
			found = (pid_t)pid;
	}
	fclose(f);
	return found;
}

/*
 * Open the lock file without following a symlink or blocking on a FIFO.
 * An existing file is opened as it is (with fs.protected_regular an
 * O_CREAT open of another user's file in /tmp fails even when its mode
 * allows it); a missing one is created mode 0666 whatever the umask, so the
 * next user's meter can lock it too.
 */
static int open_lock_file(const char *path, char *err, size_t errlen)
{
	const int flags = O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	struct stat st;
	int fd, tries;

	for (tries = 0; tries < 5; tries++) {
		fd = open(path, flags);
		if (fd < 0 && errno == ENOENT) {
			fd = open(path, flags | O_CREAT | O_EXCL, 0666);
			if (fd >= 0 && fchmod(fd, 0666) < 0) {
				/* another user locks it only if the mode allows */
			}
			if (fd < 0 && errno == EEXIST)
				continue;	/* made by someone else just now */
		}
		if (fd < 0 && errno == EACCES)
			return -2;	/* another user's file: see meter_lock_take */
		if (fd < 0)
			return err_fill(err, errlen, errno, "meter lock %s%s", path,
					errno == ELOOP ? " (a symlink: refused)" : "");
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			close(fd);
			return err_fill(err, errlen, 0, "meter lock %s: not a regular "
					"file: refused", path);
		}
		return fd;
	}
	return err_fill(err, errlen, EEXIST, "meter lock %s", path);
}

/* A descriptor of the lock file that locks nothing (O_PATH: no permission
 * needed), for a meter that goes on without the lock. */
static int open_unlocked(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return err_fill(err, errlen, errno, "meter lock %s", path);
	return fd;
}

/* The meter's answer when pid, a meter, holds the lock. */
static int refused(pid_t pid, const char *path, char *err, size_t errlen)
{
	if (pid > 0)
		err_fill(err, errlen, 0, "another meter is running (PID %d): two "
			 "would read each other's soakers as load", (int)pid);
	else
		err_fill(err, errlen, 0, "another meter is running (%s): two "
			 "would read each other's soakers as load", path);
	errno = EBUSY;
	return -1;
}

int meter_lock_take(char *err, size_t errlen)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	const char *path = lock_path();
	int fd = open_lock_file(path, err, errlen);
	struct stat st;
	pid_t holder;

	if (fd == -2) {
		/* Another user's file we may not open: honour it only if a
		 * meter holds it; go on without it otherwise. */
		holder = stat(path, &st) == 0 ? lock_holder(&st) : 0;
		if (holder && is_meter(holder))
			return refused(holder, path, err, errlen);
		/* Something to close when the meter ends: it holds nothing. */
		return open_unlocked(path, err, errlen);
	}
	if (fd < 0)
		return -1;
	for (int tries = 0; tries < 3; tries++) {
		fl.l_type = F_WRLCK;
		if (fcntl(fd, F_SETLK, &fl) == 0)
			return fd;
		if (errno != EAGAIN && errno != EACCES) {
			err_fill(err, errlen, errno, "meter lock %s", path);
			close(fd);
			return -1;
		}
		if (fcntl(fd, F_GETLK, &fl) < 0 || fl.l_type != F_UNLCK)
			break;	/* still held; let go of just now: try again */
	}
	holder = fl.l_type != F_UNLCK ? fl.l_pid : 0;
	if (is_meter(holder)) {
		close(fd);
		return refused(holder, path, err, errlen);
	}
	return fd;	/* held by no meter: ignored */
}

void meter_lock_drop(int fd)
{
	if (fd >= 0)
		close(fd);
}
