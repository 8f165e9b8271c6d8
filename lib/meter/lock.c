#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "meter/lock.h"

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

int meter_lock_take(char *err, size_t errlen)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = open_lock_file(METER_LOCK_PATH, err, errlen);

	if (fd < 0)
		return -1;
	if (fcntl(fd, F_SETLK, &fl) == 0)
		return fd;
	if (errno != EAGAIN && errno != EACCES) {
		err_fill(err, errlen, errno, "meter lock %s", METER_LOCK_PATH);
		close(fd);
		return -1;
	}
	fl.l_type = F_WRLCK;
	if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK && fl.l_pid > 0)
		err_fill(err, errlen, 0, "another meter is running (PID %d): two "
			 "would read each other's soakers as load", (int)fl.l_pid);
	else
		err_fill(err, errlen, 0, "another meter is running (%s): two "
			 "would read each other's soakers as load", METER_LOCK_PATH);
	close(fd);
	errno = EBUSY;
	return -1;
}

void meter_lock_drop(int fd)
{
	if (fd >= 0)
		close(fd);
}
