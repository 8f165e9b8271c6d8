/*
 * What the parts of a send share and a program never sees: a connection
 * (lib/zcc/conn.h) and the engine that runs N >= 1 of them
 * (lib/zcc/engine.c), the watcher of -I and -T (lib/zcc/send_watch.c),
 * the connection and meter steps (lib/zcc/send.c), the lines only they
 * print (lib/zcc/report.c).
 */
#ifndef ZC_ZCC_SEND_INTERNAL_H
#define ZC_ZCC_SEND_INTERNAL_H

#include <pthread.h>
#include <signal.h>

#include "zcc/conn.h"
#include "zcc/deadline.h"
#include "zcc/send.h"
#include "app/watch.h"

/*
 * The connections of one run. lock guards every t.sock against its close.
 * One connection's figures cover its work alone (the meter, the watch and
 * the seconds begin once it is open and end when its work is done: its
 * thread calls engine_span_begin and _end); N's span from before the
 * first connect to the last close.
 */
struct engine {
	struct sender *sd;
	const struct conn_ops *ops;
	struct conn *c;
	unsigned n;
	int span_each;			/* the one connection spans the figures */
	int named;			/* several: messages name the connection */
	int stop;			/* a signal or a failure: the connections end */
	uint64_t end;			/* -t: every connection's deadline, now_ns() */
	/*
	 * Every connection's t.stop, never set: a connection's thread has
	 * every signal blocked, so no system call of its returns EINTR; the
	 * main thread ends them by shutting their sockets instead, and no
	 * flag is shared unlocked.
	 */
	volatile sig_atomic_t stop_never;
	volatile sig_atomic_t cancel;	/* set with stop: a connect gives up */
	unsigned running;		/* threads not yet done */
	unsigned failed;		/* the first connection that failed, or 0 */
	struct watcher *w;
	double own0;			/* this process's CPU time at the span's start */
	int mrc;			/* the meter's reading: -1 when it had none (merr) */
	struct send_result *r;
	char merr[512];
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* a connection is done or failed */
};

/*
 * engine_span_begin - the span of the figures begins: the env record,
 * -d's plan, the meter's mark, the watch (sock: the one connection's, -1:
 * none yet). engine_span_end - it ends: the watch stopped, the meter read.
 */
void engine_span_begin(struct engine *e, int sock);
void engine_span_end(struct engine *e);

/*
 * engine_send - send_run with the work of ops on each connection: a run
 * of loops (or -t's time), its lines printed, a failure one line and exit
 * 1; the work's planned bytes must be what it sent.
 */
struct send_result engine_send(struct sender *sd, const struct conn_ops *ops, uint32_t loops);

/* engine_fail - c failed with err: the first failure ends the run. */
void engine_fail(struct conn *c, const char *err);

/* The watcher: interval lines (-I) and the stall limit (-T), a thread. */
struct watcher {
	struct sender *sd;
	struct engine *e;	/* the connections it watches */
	struct watch watch;	/* lib/app/watch.h: the lines of their sum */
	struct watch *each;	/* -T: one stall rule per connection */
	uint64_t *last;		/* -P -I -d: each one's bytes at the last line */
	int running, done, stalled;
	unsigned stalled_idx;	/* the connection that stalled */
	uint64_t moved;		/* in the -T window, when it stalled */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
};

/*
 * watch_start - watch the connections of e in a thread of its own with every
 * signal blocked (they are the main thread's); nothing to do without -I
 * and -T. watch_stop - end it and free what it made.
 */
void watch_start(struct watcher *w, struct sender *sd, struct engine *e);
void watch_stop(struct watcher *w);

/*
 * send_connect - a connection to the server, set up as the options ask,
 * its name into peer; -1 with err (EINTR: a signal came, or *cancel was
 * set).
 */
int send_connect(const struct sender *sd, volatile sig_atomic_t *cancel, char *peer,
		 size_t peerlen, char *err, size_t errlen);

/*
 * send_subflows - --mptcp: a look at the subflows of connection sock into
 * *sf; first: the connection is new (is it MPTCP, the kernel says:
 * *mptcp; no look otherwise).
 */
void send_subflows(const struct sender *sd, int sock, int first, int *mptcp,
		   struct mptcp_subflows *sf);

/*
 * send_await_close - everything is in the kernel's hands; see it
 * delivered. -T bounds the wait; rp (started by the caller,
 * rx_report_start) gets what the server writes when a report is asked; an MPTCP connection's subflows are looked at into sf
 * (NULL: none) as the last bytes go. 0, -1 when *t->stop cut it short, -2
 * with err when the server failed.
 */
int send_await_close(const struct sender *sd, struct tx *t, struct rx_report_wait *rp,
		     struct mptcp_subflows *sf, char *err, size_t errlen);

/*
 * send_mark - the meter's mark, now: a run's figures start here; with -W
 * also where's counters, and the interface of sock (-1: none yet, every
 * interface counts).
 */
void send_mark(struct sender *sd, int sock);

/* This process's CPU time so far, seconds. */
double send_cpu_secs(void);

/*
 * send_meter_read - the load since send_mark, into r (nothing without a
 * meter); -1 with err when the meter has no figure to give.
 */
int send_meter_read(struct sender *sd, struct send_result *r, double own_secs,
		    char *err, size_t errlen);

/*
 * report_conns - several connections: -J's stream event for each (no
 * text line), and with -d a line for each and how far apart the slowest
 * and fastest are.
 */
void report_conns(const struct engine *e);

/* report_tcp - -d: TCP's own account, "tcp: ..." after what on stderr. */
void report_tcp(const char *what, const struct tcp_figures *tcp);

/* report_tcp_keys - TCP_INFO's keys of the line being described (-J only). */
void report_tcp_keys(const struct tcp_figures *tcp);

/* report_interval - an -I line of bytes over ns (-W: where lines of rep). */
void report_interval(uint64_t bytes, uint64_t ns, const struct tcp_figures *tcp,
		     const struct where_report *rep);

#endif
