#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "app/stop_exit.h"

static void (*cleanup_fn)(void);

void stop_cleanup(void (*fn)(void))
{
	cleanup_fn = fn;
	atexit(fn);
}

void stop_exit(int sig)
{
	sigset_t one;

	if (cleanup_fn)
		cleanup_fn();
	fflush(stdout);
	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	/* Not reached: the default action of a stop signal ends the process. */
	_exit(128 + sig);	// cppcheck-suppress unreachableCode
}
