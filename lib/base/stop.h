/*
 * The stop flag: which stop signal (SIGINT, SIGTERM, SIGHUP) came, and a
 * wait that ends when one does. Every layer needs it: the meter's waits
 * (calibration samples, settling, the lock) end on a stop as the programs'
 * do. What a stop means for the process (its clean-up, its exit status)
 * is the program layer's: lib/app/stop_exit.h.
 *
 * The handler only records the signal in stop_signal (and pokes the
 * program's wake-up, if it gave one). A signal that was ignored when the
 * program started (nohup) stays ignored. Every wait that can last goes
 * through stop_wait_until, which cannot miss a signal that came before it
 * began.
 */
#ifndef ZC_BASE_STOP_H
#define ZC_BASE_STOP_H

#include <signal.h>
#include <stdint.h>

/* The stop signal that came (SIGINT, SIGTERM, SIGHUP), or 0. */
extern volatile sig_atomic_t stop_signal;

/*
 * stop_catch - catch the stop signals that were not ignored at start,
 * without SA_RESTART (a blocked read, send or poll returns EINTR); wake,
 * when not NULL, is called from the handler (async-signal-safe only: a
 * write to a pipe).
 */
void stop_catch(void (*wake)(void));

/* stop_signals - the stop signals stop_catch caught, into *set. */
void stop_signals(sigset_t *set);

/*
 * stop_wait_until - sleep to a now_ns() deadline; 0 then, or -1 with errno
 * EINTR as soon as a stop signal has come, also one that came before the
 * call. Another caught signal (SIGCHLD, SIGALRM) does not end the wait.
 */
int stop_wait_until(uint64_t deadline_ns);

/*
 * signal_wait_until - take the next signal of set (blocked by the caller)
 * before a now_ns() deadline: the signal, or 0 when the deadline came
 * first.
 */
int signal_wait_until(const sigset_t *set, uint64_t deadline_ns);

/*
 * signal_interrupts - fn handles sig, with mask (NULL: none) blocked while
 * it runs, and without SA_RESTART: a blocked read, send or poll returns
 * EINTR, so the caller's loop sees the signal. sigaction's return.
 */
int signal_interrupts(int sig, void (*fn)(int), const sigset_t *mask);

#endif
