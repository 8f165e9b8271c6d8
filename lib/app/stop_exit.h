/*
 * Stopping: what every program does when asked to stop (SIGINT, SIGTERM,
 * SIGHUP), decided once for all four. The flag and the waits it ends are
 * every layer's (lib/base/stop.h, included here); this is what a stop
 * means for the process.
 *
 * When the program has said what it measured, stop_exit ends it the way
 * the signal asks: its clean-up run, then the default action, so the
 * parent sees death by that signal (a shell shows 128 + the signal: 130
 * for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
 */
#ifndef ZC_APP_STOP_EXIT_H
#define ZC_APP_STOP_EXIT_H

#include "base/stop.h"

/*
 * stop_cleanup - fn runs at exit and before stop_exit raises the signal
 * (it must be safe to run twice: the second finds nothing to do).
 */
void stop_cleanup(void (*fn)(void));

/* stop_exit - run the clean-up, flush stdout, die of sig. */
void stop_exit(int sig) __attribute__((noreturn));

#endif
