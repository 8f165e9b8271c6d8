/*
 * Exit statuses the programs share beyond 0, 1 (an error) and 2 (a usage
 * error): a command that could not be run (cyclesoak's and run_rr's), as a
 * POSIX shell says it. A stop signal's status is lib/app/stop_exit.h's.
 */
#ifndef ZC_APP_EXITS_H
#define ZC_APP_EXITS_H

#include <errno.h>

/* The command was found but cannot be run... */
#define EXIT_CANNOT_EXEC 126
/* ...or it was not found. */
#define EXIT_NOT_FOUND 127

/* exit_exec_failed - the status for an exec that failed with errno err. */
static inline int exit_exec_failed(int err)
{
	return err == ENOENT || err == ENOTDIR ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
}

#endif
