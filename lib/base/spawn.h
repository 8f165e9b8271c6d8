/* Starting a command as a measuring program runs it (cyclesoak -- cmd). */
#ifndef ZC_BASE_SPAWN_H
#define ZC_BASE_SPAWN_H

#include <signal.h>
#include <sys/types.h>

/*
 * spawn_command - run argv (argv[0] looked up in PATH) with signal mask
 * mask and SIGPIPE at its default, whatever ours are; stdio is flushed
 * first. 0 with *pid, or the errno why not.
 */
int spawn_command(pid_t *pid, char *const argv[], const sigset_t *mask);

#endif
