/*
 * zcs's server: connections accepted on a listening socket and served
 * (lib/zcs/serve.h), each in a child process of its own (lib/zcs/serve_conns.h),
 * or with -1 the first one in zcs's only process. The parent sleeps in
 * poll() on the listening socket, the meter's requests (lib/zcs/serve_sampler.h)
 * and a self-pipe that the stop signals and SIGCHLD write to; it reaps,
 * prints the total: line (lib/zcs/serve_total.h) and, told to stop, passes the
 * signal on, waits for its children's last lines and dies of it.
 */
#ifndef ZC_ZCS_SERVE_LOOP_H
#define ZC_ZCS_SERVE_LOOP_H

#include "zcs/serve.h"

/*
 * serve_forever - accept on listen_fd until a stop signal, at most
 * max_conns served at once; buf (sc->read_size bytes, freed here) is
 * each child's. A child that gave up (SERVE_GIVE_UP) ends the server:
 * exit 1. Never returns.
 */
void serve_forever(const struct serve_cfg *sc, int listen_fd, unsigned max_conns,
		   unsigned char *buf) __attribute__((noreturn));

/*
 * serve_one - -1: accept one connection and serve it here (buf freed
 * here). serve's return; a stop signal ends the program by it.
 */
int serve_one(const struct serve_cfg *sc, int listen_fd, unsigned char *buf);

#endif
