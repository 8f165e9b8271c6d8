/*
 * zcs's connection processes: one child per connection, at most -m at
 * once, each counting into its slot of the total (lib/zcs/serve_total.h). The
 * parent forks, reaps by PID (with -c the meter's soakers are its children
 * too), refuses what is over the limit in at most one line a second, and
 * when told to stop passes the signal on and waits for the last lines.
 * Only the parent calls these.
 */
#ifndef ZC_ZCS_SERVE_CONNS_H
#define ZC_ZCS_SERVE_CONNS_H

#include <sys/types.h>

/* "address port N", the longest IPv6 address and port */
#define CONN_PEER_LEN 80

/* serve_conns_open - a table for max connections (their total's slots opened
 * already); ended (or NULL) is told of each child reaped. A failure is
 * one line and exit 1. */
void serve_conns_open(unsigned max, void (*ended)(pid_t pid));
void serve_conns_close(void);

/* serve_conns_live - how many children serve now. */
unsigned serve_conns_live(void);

/*
 * serve_conns_spawn - fork a child for a new connection from peer, or refuse it
 * when -m are served already (-1, errno EBUSY, the line said). In the
 * child: it dies with the parent, the parent's tables are gone, in_child
 * has run (the parent's descriptors closed) and the parent's signals are
 * taken again; it returns 0. In the parent: the pid, or -1 (fork failed).
 */
pid_t serve_conns_spawn(const char *peer, void (*in_child)(void));

/* serve_conns_reap - reap the children that ended. Returns 1 if one gave up
 * (lib/zcs/serve.h SERVE_GIVE_UP), so the server must too. */
int serve_conns_reap(void);

/* serve_conns_refused_due_ms - poll()'s timeout for a refusal line not yet
 * shown: -1 none (a due one is shown now). */
int serve_conns_refused_due_ms(void);

/* serve_conns_stop - pass sig to every child and wait for them all, answering
 * their requests for the meter's readings (lib/zcs/serve_sampler.h) meanwhile. */
void serve_conns_stop(int sig);

#endif
