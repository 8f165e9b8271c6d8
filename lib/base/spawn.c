#include <spawn.h>
#include <stdio.h>
#include <unistd.h>

#include "base/spawn.h"

int spawn_command(pid_t *pid, char *const argv[], const sigset_t *mask)
{
	posix_spawnattr_t attr;
	sigset_t dfl;
	int rc;

	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, mask);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	fflush(NULL);
	rc = posix_spawnp(pid, argv[0], NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	return rc;
}
