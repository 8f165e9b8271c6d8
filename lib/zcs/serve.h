/*
 * zcs's verb for one connection: receive its stream by a method
 * (lib/wire/rx.h) while checking it against its own headers, and report:
 * a rate line every period while data flows, the done line when the
 * client closes, or a broken stream's line on stderr (and its "broken"
 * event with -J). With -c each line carries the machine's load over what
 * it covers, with -W where it went.
 */
#ifndef ZC_ZCS_SERVE_H
#define ZC_ZCS_SERVE_H

#include <stddef.h>
#include <stdint.h>

#include "app/where_session.h"
#include "meter/meter.h"
#include "meter/others.h"
#include "wire/rx.h"
#include "zcs/serve_sampler.h"

/*
 * The exit status of a connection's process that cannot go on for a reason
 * that stops the whole server (stdout failed, the meter died, the kernel
 * refuses the method): it has said why, and the parent gives up too.
 */
#define SERVE_GIVE_UP 3

struct serve_cfg {
	const struct rx_method *method;	/* -M */
	size_t read_size;		/* -b: buf's size */
	double period;			/* -t */
	double stall_secs;		/* -T, 0: never */
	int debug;			/* -d: the peer on rate lines, -dd every file */
	int alone;			/* -1: served in zcs's only process */
	int mptcp;			/* --mptcp: the listener is MPTCP's */
	struct meter *meter;		/* -c, or NULL; sampled by lib/zcs/serve_sampler.h */
	struct where_session *where;		/* -W, or NULL */
	int call_times;			/* --call-times */
	uint64_t budget_ns;		/* --budget; UINT64_MAX: none */
	int stamps;			/* --stamps: request/response over TCP */
	struct serve_dg *raw;		/* --proto ip or packet: its end (serve_dgram.h); NULL */
};

/* What one connection moved and cost, for the comparison and the report. */
struct serve_result {
	uint64_t bytes;			/* counted, header words included */
	uint64_t start_ns, end_ns;	/* the stream's first and last moment (now_ns) */
	double own_secs;		/* this process's CPU time receiving it */
	int whole;			/* a complete, well-formed stream */
	int metered;			/* -c: first and last hold the ledger */
	struct serve_sampler_mark first, last;	/* the meter's ledger at start and end */
	struct others_report others;	/* -c: other processes over the same */
};

/*
 * serve - receive one stream from fd (peer: its name for lines) into buf
 * and report it; fd is closed; res (or NULL) gets what it moved and
 * cost. Returns 0 when it was complete and well formed, 1 otherwise.
 * Unless alone, a failure that stops the server ends the process with
 * SERVE_GIVE_UP; alone it is exit 1. A stop signal ends
 * the receiving, the done line says "(interrupted)", and the caller dies
 * of the signal.
 */
int serve(const struct serve_cfg *sc, int fd, const char *peer, unsigned char *buf,
	  struct serve_result *res);

/*
 * serve_catch - fn handles sig (SIGCHLD, SIGALRM) without SA_RESTART, so
 * that a blocked read or poll returns to the loop that looks
 * (signal_interrupts). A failure is one line and exit 1.
 */
void serve_catch(int sig, void (*fn)(int));

#endif
