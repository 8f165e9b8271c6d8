/*
 * The one-meter lock. Two meters on one machine would each read the other's
 * soakers as load, so a meter holds a POSIX record lock on a fixed file for
 * its life. The file is shared by every network namespace (they share the
 * file system); the lock is not inherited by fork (soakers never hold it)
 * and the kernel drops it when its holder dies, so a crashed meter leaves
 * nothing that blocks the next.
 */
#ifndef ZC_LOCK_H
#define ZC_LOCK_H

#include <stddef.h>

#define METER_LOCK_PATH "/tmp/zc-meter.lock"

/*
 * meter_lock_take - take the lock; returns its file descriptor, to be
 * closed (meter_lock_drop) when the meter ends. -1 with err filled when
 * another meter holds it ("another meter is running (PID 1234): ...") or the
 * file cannot be used (not a regular file, a symlink, unwritable).
 */
int meter_lock_take(char *err, size_t errlen);

/* Drop the lock; only close(), so a signal handler may call it. */
void meter_lock_drop(int fd);

#endif
