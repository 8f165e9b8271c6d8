/*
 * A connection of a run and the work it does. The engine
 * (lib/zcc/engine.c) makes N >= 1 of them, each in a thread of its own:
 * it binds, connects, watches (-I, -T), meters (-c) and closes, and
 * reports their sum. What a connection does between connect and close is
 * a table of hooks, as lib/wire/tx.h's methods are: the engine calls them
 * only through conn.c and knows nothing of a work's insides. Streaming
 * the file set (lib/zcc/conn_files.c) is one such work.
 */
#ifndef ZC_ZCC_CONN_H
#define ZC_ZCC_CONN_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "zcc/send.h"
#include "wire/tcpinfo.h"
#include "wire/tx.h"

struct engine;
struct conn;

/*
 * The hooks of a work. Each runs in its connection's thread, every signal
 * blocked: a stop reaches it as its socket shut down. err is the one line
 * a failure is said in.
 */
struct conn_ops {
	const char *name;
	/* init - c's own state (c->work) for a run of loops; exits on no memory */
	void (*init)(struct conn *c, uint32_t loops);
	/*
	 * open - ready the work on c's new connection c->t.sock: 0, or -1
	 * with err; -2 with err when the kernel refused a method before a
	 * byte went (the engine judges a refusal over every connection).
	 */
	int (*open)(struct conn *c, char *err, size_t errlen);
	/* run - the whole work, counting into c->t: 0, or -1 with err */
	int (*run)(struct conn *c, char *err, size_t errlen);
	/*
	 * settle - after a whole run: see it delivered, and the peer's
	 * report into c->rx (c->rx_ok): 0, -1 cut short by a stop, -2 with err.
	 */
	int (*settle)(struct conn *c, char *err, size_t errlen);
	/* close - give back what open took: owed once open was called */
	void (*close)(struct conn *c);
	/* planned - the bytes c should have moved (after a whole run) */
	uint64_t (*planned)(const struct conn *c);
	/* plan - -d: the run of n connections' plan, one line (c: the first) */
	void (*plan)(const struct conn *c, unsigned n, int named);
	/* debug - -dd: c's own account on stderr, after what */
	void (*debug)(const struct conn *c, const char *what);
	/* free - what init made */
	void (*free)(struct conn *c);
	/* report - the run's lines, when the work has its own (NULL: sent:),
	 * and its own figures into r */
	void (*report)(const struct engine *e, struct send_result *r);
	/* connect - c's socket, its name into c->peer: -1 with err (NULL: TCP's) */
	int (*connect)(struct conn *c, char *err, size_t errlen);
	/* interval - -I's line over ns, when the work has its own (NULL: the rate);
	 * rep: -W's where lines of it. In the watcher's thread. */
	void (*interval)(const struct engine *e, uint64_t ns, const struct where_report *rep);
};

/* One connection of a run: its socket, counters and the work's state. */
struct conn {
	unsigned idx;		/* 1..N, as messages name it */
	int cpu;		/* -B list: its CPU; -1: as the process */
	struct engine *e;
	struct sender *sd;
	const struct conn_ops *ops;
	void *work;		/* the work's own (ops->init) */
	uint64_t end;		/* -t: when the work must end, now_ns() time */
	struct tx t;		/* t.sock: -1 until connected and after close */
	volatile sig_atomic_t *cancel;	/* set: a connect gives up */
	char peer[300];
	char err[512];
	int sending;		/* its work runs: the -T watch of it is on */
	int connected, opened, done, interrupted;
	int refused;		/* the method, by the kernel (sd->refusal_ok; err says) */
	int mptcp;		/* --mptcp: the kernel says it is MPTCP */
	struct mptcp_subflows subflows;	/* --mptcp: its connection's */
	int rc;			/* the run's, then the settling's */
	int errnum;		/* rc < 0: its errno */
	uint64_t t0, t_done, t_end;	/* working, work done, closed */
	struct tcp_figures tcp;
	int rx_ok;		/* rx holds the peer's report */
	struct rxreport rx;
	pthread_t thread;
};

/* Streaming the file set: zcc's work (lib/zcc/conn_files.c). */
extern const struct conn_ops conn_files;

/*
 * conn_thread - a connection's whole life, a thread's body: bind to its
 * CPU, connect, open, (the engine's span begins when it is the run's one
 * connection) run, settle, take TCP_INFO, close. The first failure of any
 * connection ends the run (the engine's failed).
 */
void *conn_thread(void *arg);

/* conn_subflows - --mptcp: a look at c's subflows; first: it is new. */
void conn_subflows(struct conn *c, int first);

#endif
