/*
 * What lib/zcc/conn_rr.c and its UDP part, lib/zcc/conn_rr_udp.c, share:
 * a connection's request/response state.
 */
#ifndef ZC_ZCC_RR_INTERNAL_H
#define ZC_ZCC_RR_INTERNAL_H

#include "base/pace.h"
#include "wire/raw.h"
#include "wire/rr_proto.h"
#include "wire/rr_seq.h"
#include "wire/rr_uring.h"
#include "zcc/rr.h"
#include "zcc/rxreport.h"
#include "zcc/send_internal.h"

/*
 * RR_BLOCK N: a build for the bench alone (tests/bench/rr.sh compiles it
 * with -DRR_BLOCK=N in a directory of its own). Its TCP closed loop runs
 * blocks of N transactions in turn clocked (as always) and bare (the same
 * calls, no clock read, nothing recorded) and says on standard error how
 * long each kind took: the clocks' and histogram's cost, the two kinds
 * milliseconds apart, so the machine's drift falls on both alike. 0 (the
 * shipped build): every transaction clocked.
 */
#ifndef RR_BLOCK
#define RR_BLOCK 0
#endif

/*
 * RR_BLOCK's ledger (lib/zcc/conn_rr_io.c): rr_block_bare - whether
 * transaction seq is a bare block's; rr_block_end - seq done (last: the
 * run's last), a block's time and count to its kind when it ends;
 * rr_blocks_say - the line on standard error.
 */
struct rr_blocks {
	uint64_t t0, ns[2], n[2];	/* [1]: bare */
};
#if RR_BLOCK
int rr_block_bare(uint64_t seq);
void rr_block_end(struct rr_blocks *b, uint64_t seq, int last);
void rr_blocks_say(const struct rr_blocks *b);
#else
static inline int rr_block_bare(uint64_t seq) { (void)seq; return 0; }
static inline void rr_block_end(struct rr_blocks *b, uint64_t seq, int last)
{
	(void)b, (void)seq, (void)last;
}
static inline void rr_blocks_say(const struct rr_blocks *b) { (void)b; }
#endif

#define RR_RING 4096		/* bare open loop: requests in flight at most */
#define RR_UDP_LOST_MS 500	/* UDP: an answer not in by then is lost */

/* The datagram protocol of a connection (lib/zcc/rr_dgram.c). */
struct rr_dgram {
	int proto;			/* RR_UDP, RR_IP or RR_PACKET */
	struct raw_sock raw;		/* RR_IP, RR_PACKET: the socket (fd: c->t.sock) */
	struct raw_peer to;		/* RR_PACKET: the server's MAC */
};

struct rr_work {
	struct rr_hello h;
	int timed;
	int udp;			/* --proto udp, ip or packet */
	struct rr_dgram dg;		/*   which one */
	unsigned char *req, *resp;	/* resp: one byte more than an answer */
	struct rr_figures f;
	struct rr_seq seq;		/* UDP: the answers' numbers */
	struct pace pace;		/* --gap */
	uint64_t ring_due[RR_RING], ring_tx[RR_RING];	/* bare --gap */
	int done_sending;		/* --gap: the reader takes the rest */
	int read_rc;			/* --gap: the reader's end */
	char read_err[256];
	int one_way;			/* the answers' one-way times are recorded */
	struct hist *ival;		/* -I: this interval's round trips, under */
	pthread_mutex_t ival_lock;	/*   this lock (the watcher reads and resets it) */
	struct rr_log_buf *log;		/* --log: rows not yet written */
	struct rx_report_wait rp;	/* RR_ASK_REPORT: the far end's report */
	struct rr_uring *tx_ring;	/* -M uring: the sender's (closed loop: both ways) */
	struct rr_uring *rx_ring;	/*   and an open loop's reader's */
	struct rr_probe *probe;		/* --call-times, --stamps (zcc/rr_stamps.h); NULL: none */
};

struct rr_work *rr_work_of(const struct conn *c);

/*
 * The bytes' ways (lib/zcc/conn_rr_io.c). rr_rings_open - -M uring: the
 * connection's rings (an open loop's reader's too); a refusal -2 with
 * err. rr_rings_close - them gone. rr_send_bytes - a request's bytes by
 * -M's method: 0, or -1 with errno. rr_ring_read - an answer's bytes by
 * ring, as rr_read. Each call timed with --call-times.
 */
struct rr_uring;
int rr_rings_open(struct conn *c, char *err, size_t errlen);
void rr_rings_close(struct rr_work *w);
int rr_send_bytes(struct conn *c, struct rr_work *w);
int rr_ring_read(struct rr_work *w, struct rr_uring *ring, size_t *got);

/*
 * The times of each answer (lib/zcc/rr_times.c). rr_times_init - w's
 * -I histogram and --log buffer, as the settings ask; rr_times_free -
 * them. rr_clocks_take - what the ack a says of the server's clock,
 * beside ours: whether w records one-way times. rr_record - the answer
 * m (its request's stamps: echoed, or from the ring when bare) of flow,
 * arrived at now (monotonic, just read by the caller; 0: read here, as
 * one-way times always do, with the realtime clock): its round trips (open: from due and from send; closed:
 * from send), its one-way times, -I's and --log's.
 */
void rr_times_init(struct rr_work *w, const struct send_cfg *sc);
void rr_times_free(struct rr_work *w);
void rr_clocks_take(struct rr_work *w, const struct rr_ack *a);
void rr_record(struct rr_work *w, const struct rr_msg *m, int open, uint64_t now);

/*
 * rr_clocks_of - what one-way times two ends allow: their boot ids (one,
 * and known: one clock), whether messages are stamped (timed), whether
 * --clocks-synced was given, and each end's clock error (UINT32_MAX:
 * unsynchronised). rr_clock_step_us - the step no figure is finer than:
 * the larger error rounded up to 1, 2 or 5 times a power of ten (0: no
 * error, no step). rr_clock_round - v to that step; NAN when it rounds
 * to nothing (below the clock error).
 */
enum rr_clocks rr_clocks_of(const unsigned char ours[RR_BOOT_ID],
			    const unsigned char theirs[RR_BOOT_ID], int timed, int synced,
			    uint32_t err_here_us, uint32_t err_there_us);
double rr_clock_step_us(uint32_t err_a_us, uint32_t err_b_us);
double rr_clock_round(double v_us, double step_us);

/*
 * rr_clock_pair - CLOCK_MONOTONIC and CLOCK_REALTIME now, read within
 * RR_PAIR_NS of each other (RR_PAIR_TRIES at most), so that a thread
 * preempted between them is not taken for a clock that stepped.
 */
#define RR_PAIR_NS 1000
#define RR_PAIR_TRIES 8
void rr_clock_pair(uint64_t *mono, uint64_t *real);

/*
 * --log's rows (lib/zcc/rr_log.c; the file: lib/zcc/rr.h). rr_log_row -
 * a row into *buf (made on the first), which goes to the file when full;
 * rr_log_flush - buf's rows into the file now; rr_log_free - flushed,
 * then freed. rr_log_format - a row into buf (RR_LOG_ROW_MAX bytes at
 * most): its length. rr_log_header - the first line, naming the columns.
 */
#define RR_LOG_ROW_MAX 200
struct rr_log_buf;
extern const char rr_log_header[];
void rr_log_row(struct rr_log_buf **buf, uint32_t flow, const struct rr_msg *m,
		uint64_t arrival, const struct rr_times *t);
void rr_log_flush(struct rr_log_buf *buf);
void rr_log_free(struct rr_log_buf *buf);
size_t rr_log_format(char *buf, uint32_t flow, const struct rr_msg *m, uint64_t arrival,
		     const struct rr_times *t);

/*
 * rr_send_request - request seq of c, due at due, out now: 0, or -1 with
 * err. tx: the monotonic time the caller has just read for its sending
 * (closed loop: the time its last answer came), which it keeps for the
 * answer (bare messages: the ring is not written); 0: read here, and
 * kept in the ring for a bare message's answer.
 */
int rr_send_request(struct conn *c, uint64_t seq, uint64_t due, uint64_t tx, char *err,
		    size_t errlen);

/*
 * The UDP side (lib/zcc/conn_rr_udp.c): the connected socket (-1 with
 * err), the hello (resent until an ack comes, RR_ACK_WAIT_MS at most),
 * closed loop (an answer not in within RR_UDP_LOST_MS is lost: the next
 * request goes), and open loop's reader thread.
 */
int rr_udp_connect(struct conn *c, char *err, size_t errlen);
int rr_udp_open(struct conn *c, char *err, size_t errlen);
int rr_udp_closed(struct conn *c, char *err, size_t errlen);
void *rr_udp_reader(void *arg);

/*
 * The datagram protocols (lib/zcc/rr_dgram.c). rr_dgram_connect - c's
 * socket for --proto udp, ip or packet (the server's IPv4 address, for
 * packet its MAC from the neighbour table on the route's interface or
 * --ifname), a request above the path's MTU refused: -1 with err.
 * rr_dgram_send - one message: 0, or -1 with errno. rr_dgram_recv - one
 * message into buf (a longer one: more than len, as MSG_TRUNC says); 0:
 * the socket shut by a stop (a raw one: the run cancelled, which fails
 * rr_dgram_send too, ESHUTDOWN); RR_DG_NONE: a packet socket's own
 * frame, or one cut short of its header; -1 with errno.
 */
#define RR_DG_NONE (-2)
int rr_dgram_connect(struct conn *c, char *err, size_t errlen);
int rr_dgram_send(const struct conn *c, const void *buf, size_t len);
struct rr_io_ctl;
ssize_t rr_dgram_recv(const struct conn *c, void *buf, size_t len, struct rr_io_ctl *ctl);

/*
 * The far end's report (lib/zcc/rr_far.c). rr_far_asks - whether c's
 * hello asks for it: -c. rr_far_settle - TCP: after the last answer, the
 * client's side shut, the report read into c->rx (c->rx_ok) until the
 * server closes: a settle hook's result. rr_far_udp - UDP: the bye sent
 * and the report taken into c->rx (c->rx_ok); none, or a wrong one, is
 * one line (once a run) and the figures are zcc's alone: 0.
 */
int rr_far_asks(const struct conn *c);
int rr_far_settle(struct conn *c, char *err, size_t errlen);
int rr_far_udp(struct conn *c);

#endif
