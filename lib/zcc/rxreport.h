/*
 * zcc's side of the receiver's report (lib/wire/rxreport.h): with
 * --receiver-report, the wait for the server's close after the last byte
 * (send_await_close) reads the one line zcs writes, and the run's result
 * carries it. What went wrong with it is one line on stderr; the
 * transfer's own result and exit status stand.
 */
#ifndef ZC_ZCC_RXREPORT_H
#define ZC_ZCC_RXREPORT_H

#include <sys/types.h>

#include "wire/rxreport.h"

/* The line must be whole this long after the data reached the receiver. */
#define RX_REPORT_BOUND_NS 2000000000ull

/* One connection's report as it is awaited. */
struct rx_report_wait {
	int asked;			/* --receiver-report */
	int reset;			/* a reset came once the line had begun */
	struct rxreport_reader rd;
};

/* rx_report_start - before the wait; asked: the option was given. */
void rx_report_start(struct rx_report_wait *rp, int asked);

/* rx_report_timeout - poll()'s timeout in the wait (ms, -1: none), made
 * short enough to see the data delivered and the bound pass. */
int rx_report_timeout(struct rx_report_wait *rp, int sock, int timeout);

/*
 * rx_report_read - read() from sock into buf, as the wait does, feeding
 * the report; a reset once the line has begun is 0 (the end: zcs writes
 * only after a whole stream), said by rx_report_judge.
 */
ssize_t rx_report_read(struct rx_report_wait *rp, int sock, char *buf, size_t len);

/*
 * rx_report_judge - after the wait (sent: the bytes zcc sent): the report
 * into *out and 1; else 0, and what was wrong is one line on stderr
 * naming peer (no report at all: said once in the program's life).
 */
int rx_report_judge(struct rx_report_wait *rp, const char *peer, uint64_t sent,
		    struct rxreport *out);

/*
 * rx_report_add - one of -P's streams' reports into sum (its n-th, from
 * 0), as zcs's total: line sums connections that overlap: the bytes
 * added, the longest time, own CPU per KB over all the bytes; the load
 * and service demand (each already the machine's over every connection's
 * bytes in one period) their means.
 */
void rx_report_add(struct rxreport *sum, const struct rxreport *one, unsigned n);

/* rx_report_same - the report came from this machine's kernel (its boot id). */
int rx_report_same(const struct rxreport *rx);

/*
 * rx_report_line - the receiver: line (JSON: the receiver event):
 * "receiver: METHOD/SIZE, BYTES bytes in SECONDS s, zcs itself US us/KB",
 * then ", load PCT% of NCPUS CPUs, service demand US us/KB" when it
 * metered, " (this machine)" when it is zcc's own kernel.
 */
void rx_report_line(const struct rxreport *rx);

/*
 * rx_report_tran - a request/response report (rx->rr) in the cpu: line
 * being described: "; zcs: load PCT% of NCPUS CPUs, X us/Tran, zcs
 * itself Y us/Tran" when zcs metered (-c); zcs's own figure alone is in
 * the JSON only, as in zcs's answered: line. Keys server_*.
 */
void rx_report_tran(const struct rxreport *rx);

#endif
