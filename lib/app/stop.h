/*
 * Stopping: what every program does when asked to stop (SIGINT, SIGTERM,
 * SIGHUP), decided once for all four.
 *
 * The handler only records the signal in stop_signal (and pokes the
 * program's wake-up, if it gave one). A signal that was ignored when the
 * program started (nohup) stays ignored. Every wait that can last
 * (calibration samples, the meter's settling, a sleep between samples) goes
 * through stop_wait_until, which cannot miss a signal that came before it
 * began. When the program has said what it measured, stop_exit ends it the
 * way the signal asks: its clean-up run, then the default action, so the
 * parent sees death by that signal (a shell shows 128 + the signal: 130
 * for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
 */
#ifndef ZC_STOP_H
#define ZC_STOP_H

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
 * stop_cleanup - fn runs at exit and before stop_exit raises the signal
 * (it must be safe to run twice: the second finds nothing to do).
 */
void stop_cleanup(void (*fn)(void));

/* stop_exit - run the clean-up, flush stdout, die of sig. */
void stop_exit(int sig) __attribute__((noreturn));

#endif
