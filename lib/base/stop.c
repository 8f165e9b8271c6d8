#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <time.h>

#include "base/clock.h"
#include "base/stop.h"

volatile sig_atomic_t stop_signal;

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define N_STOP (sizeof(stop_sigs) / sizeof(stop_sigs[0]))

static sigset_t caught;
static void (*wake_fn)(void);

static void on_stop(int sig)
{
	stop_signal = sig;
	if (wake_fn)
		wake_fn();
}

int signal_interrupts(int sig, void (*fn)(int), const sigset_t *mask)
{
	struct sigaction sa = { .sa_handler = fn };

	if (mask)
		sa.sa_mask = *mask;
	else
		sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

void stop_catch(void (*wake)(void))
{
	struct sigaction old;
	size_t i;

	wake_fn = wake;
	sigemptyset(&caught);
	for (i = 0; i < N_STOP; i++)
		if (sigaction(stop_sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaddset(&caught, stop_sigs[i]);
	/* One stop signal at a time: the handler is never nested. */
	for (i = 0; i < N_STOP; i++)
		if (sigismember(&caught, stop_sigs[i]))
			signal_interrupts(stop_sigs[i], on_stop, &caught);
}

void stop_signals(sigset_t *set)
{
	*set = caught;
}

/*
 * The stop signals are blocked while stop_signal is looked at, and ppoll()
 * unblocks them only for the sleep itself, atomically: a signal that comes
 * between the look and the sleep is delivered inside ppoll, which returns.
 */
int stop_wait_until(uint64_t deadline_ns)
{
	sigset_t old, during;
	struct timespec ts;
	uint64_t now;
	int rc = 0, saved;

	pthread_sigmask(SIG_BLOCK, &caught, &old);
	during = old;
	for (size_t i = 0; i < N_STOP; i++)
		if (sigismember(&caught, stop_sigs[i]))
			sigdelset(&during, stop_sigs[i]);
	while (!stop_signal && (now = now_ns()) < deadline_ns) {
		ts = ns_timespec(deadline_ns - now);
		if (ppoll(NULL, 0, &ts, &during) < 0 && errno != EINTR) {
			rc = -1;
			break;
		}
	}
	saved = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (stop_signal) {
		errno = EINTR;
		return -1;
	}
	errno = saved;
	return rc;
}

int signal_wait_until(const sigset_t *set, uint64_t deadline_ns)
{
	uint64_t now = now_ns();
	struct timespec ts = ns_timespec(deadline_ns > now ? deadline_ns - now : 0);
	int sig = sigtimedwait(set, NULL, &ts);

	return sig > 0 ? sig : 0;
}
