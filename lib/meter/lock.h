/*
 * The one-meter lock. Two meters on one machine would each read the other's
 * soakers as load, so a meter holds a POSIX record lock on a fixed file for
 * its life. The file is shared by every network namespace (they share the
 * file system); the lock is not inherited by fork (soakers never hold it)
 * and the kernel drops it when its holder dies, so a crashed meter leaves
 * nothing that blocks the next.
 *
 * The file is in /tmp, where any user can open and lock it, so a lock is
 * honoured only when its holder is a meter: a process with soakers (children
 * at nice 19), which would spoil our figures as ours would spoil its. A
 * holder that runs none within a second of our look (a meter starts its
 * soakers just after taking the lock) is not a meter, and is ignored, as is
 * a file we may not open that no meter holds: a user cannot block another's
 * meter, root's included, by holding the file. Between users it works as on
 * one account: the second real meter refuses, naming the first.
 */
#ifndef ZC_LOCK_H
#define ZC_LOCK_H

#include <stddef.h>

/* The lock file; the environment variable ZC_METER_LOCK names another
 * (the tests hold locks of their own there). */
#define METER_LOCK_PATH "/tmp/zc-meter.lock"

/*
 * meter_lock_take - take the lock; returns a file descriptor, to be closed
 * (meter_lock_drop) when the meter ends (without the lock when the holder
 * is no meter, see above). -1 with err filled when another meter holds it
 * ("another meter is running (PID 1234): ...") or the file cannot be used
 * (not a regular file, a symlink).
 */
int meter_lock_take(char *err, size_t errlen);

/* Drop the lock; only close(), so a signal handler may call it. */
void meter_lock_drop(int fd);

#endif
