/*
 * What a zcc run needs of the process's limits, checked before it
 * connects: an open file per file of the set (zcc keeps every one open for
 * every loop), a socket and at most a pipe per stream of -P, and a thread
 * per stream. A run beyond a limit would fail mid-way, whichever stream
 * lost the race; it is refused at the door instead, in one line naming the
 * limit, what the run needs and the ulimit that raises it.
 */
#ifndef ZC_ZCC_LIMITS_H
#define ZC_ZCC_LIMITS_H

/* Descriptors a stream may hold: its socket and a method's pipe. */
#define LIMITS_FDS_PER_STREAM 3
/* Descriptors beside the files and streams: stdio, the meter's, -W's. */
#define LIMITS_FDS_SPARE 32

/*
 * limits_check - raise the soft open-file limit to the hard one, then
 * refuse (one line, exit 1) n_files files and streams streams beyond it,
 * or streams threads beyond the caller's RLIMIT_NPROC (the user's other
 * tasks counted; not for a caller the kernel exempts).
 */
void limits_check(unsigned long n_files, unsigned streams);

#endif
