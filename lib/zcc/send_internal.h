/*
 * What the parts of a send share and a program never sees: a stream
 * (lib/zcc/stream.c) and the group of them that is a run
 * (lib/zcc/streams.c), the watcher of -I and -T (lib/zcc/send_watch.c),
 * the connection and meter steps (lib/zcc/send.c), the lines only they
 * print (lib/zcc/report.c).
 */
#ifndef ZC_ZCC_SEND_INTERNAL_H
#define ZC_ZCC_SEND_INTERNAL_H

#include <pthread.h>
#include <signal.h>

#include "zcc/deadline.h"
#include "zcc/send.h"
#include "app/watch.h"

struct group;

/* One stream of a run: its own connection, method state and files. */
struct stream {
	unsigned idx;		/* 1..N, as messages name it */
	int cpu;		/* -B list: its CPU; -1: as the process */
	struct group *g;
	struct tx t;		/* t.sock: -1 until connected and after close */
	volatile sig_atomic_t *cancel;	/* set: a connect gives up */
	struct file_set set;	/* its own entries: a method maps into them */
	char peer[300];
	char err[512];
	int sending;		/* the -T watch of the stream runs */
	uint32_t loops;
	struct deadline dl;	/* -t: its plan */
	int connected, opened, sent, interrupted;
	int refused;		/* the method, by the kernel (sd->refusal_ok; err says) */
	int mptcp;		/* -P --mptcp: the kernel says it is MPTCP */
	struct mptcp_look subflows;	/* -P --mptcp: its connection's */
	int rc;			/* the send's, then the wait for the close's */
	int errnum;		/* rc < 0: its errno */
	uint64_t t0, t_sent, t_end;	/* sending, sent, closed */
	struct tcp_figures tcp;
	struct rx_report rp;	/* --receiver-report: the line awaited */
	int rx_ok;		/* rx holds the receiver's report */
	struct rxreport rx;
	pthread_t thread;
};

/* The streams of one run. lock guards every t.sock against its close. */
struct group {
	struct sender *sd;
	struct stream *s;
	unsigned n;
	int stop;			/* a signal or a failure: the streams end */
	uint64_t end;			/* -t: every stream's deadline, now_ns() */
	/*
	 * -P: every stream's t.stop, never set: a stream thread has every
	 * signal blocked, so no send of its returns EINTR; the main thread
	 * ends them by shutting their sockets instead, and no flag is shared
	 * unlocked. One stream runs in the main thread: its t.stop is
	 * stop_signal.
	 */
	volatile sig_atomic_t never;
	volatile sig_atomic_t cancel;	/* -P: set with stop, a connect gives up */
	unsigned running;		/* threads not yet done */
	unsigned failed;		/* the first stream that failed, or 0 */
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* a stream is done or failed */
};

/*
 * stream_start - bind s's thread to its CPU, connect, open the method, and
 * with -t plan the loops; -1 when that failed (the failure or the stop
 * recorded). stream_send - the whole stream. stream_finish - the one place
 * a connection ends: wait for the server's close after a whole send, take
 * TCP_INFO, close; a failure ends the run (g->failed). stream_thread -
 * the three in a thread of -P.
 */
int stream_start(struct stream *s);
void stream_send(struct stream *s);
void stream_finish(struct stream *s);
void *stream_thread(void *arg);

/* The watcher: interval lines (-I) and the stall limit (-T), a thread. */
struct watcher {
	struct sender *sd;
	struct group *g;	/* the streams it watches */
	struct watch watch;	/* lib/app/watch.h: lines due; one stream's stall rule */
	struct watch *each;	/* -P with -T: one stall rule per stream */
	uint64_t *last;		/* -P -I -d: each stream's bytes at the last line */
	int running, done, stalled;
	unsigned stalled_idx;	/* the stream that stalled */
	uint64_t moved;		/* in the -T window, when it stalled */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
};

/*
 * watch_start - watch the streams of g in a thread of its own with every
 * signal blocked (they are the main thread's); nothing to do without -I
 * and -T. watch_stop - end it and free what it made.
 */
void watch_start(struct watcher *w, struct sender *sd, struct group *g);
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
 * *look; first: the connection is new (is it MPTCP, the kernel says:
 * *mptcp; no look otherwise). One stream's go to sd, -P's to each stream.
 */
void send_subflows(const struct sender *sd, int sock, int first, int *mptcp,
		   struct mptcp_look *look);

/*
 * send_await_close - everything is in the kernel's hands; see it
 * delivered. -T bounds the wait; with --receiver-report, rp gets what the
 * server writes; an MPTCP connection's subflows are looked at into look
 * (NULL: none) as the last bytes go. 0, -1 when *t->stop cut it short, -2
 * with err when the server failed (errno ETIME: -T ran out; the socket
 * then closes with a reset, lib/wire/net.h).
 */
int send_await_close(const struct sender *sd, struct tx *t, struct rx_report *rp,
		     struct mptcp_look *look, char *err, size_t errlen);

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

/* debug_deadline - -t -d: the files and loops a stream of ceiling loops
 * sent, after what on stderr. */
void debug_deadline(const char *what, const struct deadline *dl, uint32_t ceiling);

/* report_tcp - -d: TCP's own account, "tcp: ..." after what on stderr. */
void report_tcp(const char *what, const struct tcp_figures *tcp);

/* report_tcp_keys - TCP_INFO's keys of the line being described (-J only). */
void report_tcp_keys(const struct tcp_figures *tcp);

/* report_interval - an -I line of bytes over ns (-W: where lines of rep). */
void report_interval(uint64_t bytes, uint64_t ns, const struct tcp_figures *tcp,
		     const struct where_report *rep);

#endif
