/*
 * Reading the receiver's report in the wait for the server's close
 * (rxreport.h). The bound runs from the moment every byte sent had been
 * acknowledged (SIOCOUTQ reads 0): from then zcs has only to read what
 * its kernel holds, see the end and write the line.
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <linux/sockios.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "zcc/rxreport.h"
#include "app/out.h"
#include "base/clock.h"
#include "base/textfile.h"
#include "meter/meter.h"

#define LOOK_MS 100	/* how often the wait looks at delivery */

void rx_report_start(struct rx_report_wait *rp, int asked)
{
	rp->asked = asked;
	rp->reset = 0;
	rxreport_reader_init(&rp->rd, RX_REPORT_BOUND_NS);
}

int rx_report_timeout(struct rx_report_wait *rp, int sock, int timeout)
{
	uint64_t now = now_ns();
	int outq = -1, due;

	if (!rp->asked || rp->rd.state != RXR_WAITING)
		return timeout;
	if (!rp->rd.delivered_ns && ioctl(sock, SIOCOUTQ, &outq) == 0 && outq == 0)
		rxreport_delivered(&rp->rd, now);
	rxreport_tick(&rp->rd, now);
	due = rp->rd.delivered_ns ? rxreport_due_ms(&rp->rd, now) : LOOK_MS;
	if (due < 0)
		return timeout;
	return timeout < 0 || due < timeout ? due : timeout;
}

ssize_t rx_report_read(struct rx_report_wait *rp, int sock, char *buf, size_t len)
{
	ssize_t n = read(sock, buf, len);

	if (!rp->asked)
		return n;
	if (n > 0)
		rxreport_take(&rp->rd, buf, (size_t)n, now_ns());
	if (n < 0 && errno == ECONNRESET && rp->rd.have > 0) {
		rp->reset = 1;
		return 0;
	}
	return n;
}

/* Said once in the program's life, whichever stream finds it first. */
static int none_said;

int rx_report_judge(struct rx_report_wait *rp, const char *peer, uint64_t sent,
		    struct rxreport *out)
{
	const char *me = program_invocation_short_name;
	char why[256], detail[128];

	if (!rp->asked)
		return 0;
	if (rp->reset) {
		fprintf(stderr, "%s: %s: the receiver reset the connection once its "
			"report had begun (not a close): the figures are the sender's alone\n",
			me, peer);
		return 0;
	}
	switch (rp->rd.state) {
	case RXR_WAITING:
		if (rp->rd.have > 0)
			snprintf(why, sizeof(why), "it ended without a newline after %zu bytes",
				 rp->rd.have);
		else if (__atomic_exchange_n(&none_said, 1, __ATOMIC_RELAXED))
			return 0;
		else
			snprintf(why, sizeof(why), "the receiver sent no report (a zcs "
				 "without one, or the 2001 zcs)");
		break;
	case RXR_OVERSIZED:
		snprintf(why, sizeof(why), "the receiver's report is over %d bytes without "
			 "a newline", RXREPORT_MAX);
		break;
	case RXR_EXTRA:
		snprintf(why, sizeof(why), "the receiver sent more than its report's one line");
		break;
	case RXR_LATE:
		snprintf(why, sizeof(why), "the receiver's report is late: not whole %.0f s "
			 "after the data reached it", RX_REPORT_BOUND_NS / 1e9);
		break;
	default:
		if (rxreport_parse(rp->rd.line, rp->rd.have, out, detail, sizeof(detail)) < 0) {
			snprintf(why, sizeof(why), "the receiver's report is malformed: %s",
				 detail);
			break;
		}
		if (out->bytes != sent) {
			snprintf(why, sizeof(why), "the receiver's report counts %" PRIu64
				 " bytes, zcc sent %" PRIu64, out->bytes, sent);
			break;
		}
		return 1;
	}
	fprintf(stderr, "%s: %s: %s: the figures are the sender's alone\n", me, peer, why);
	return 0;
}

void rx_report_add(struct rxreport *sum, const struct rxreport *one, unsigned n)
{
	uint64_t bytes = sum->bytes + one->bytes;

	if (n == 0) {
		*sum = *one;
		return;
	}
	sum->own = bytes ? (sum->own * (double)sum->bytes + one->own * (double)one->bytes) /
		(double)bytes : 0;
	sum->metered &= one->metered;
	if (sum->metered) {	/* the streams overlap: one period, equal weights */
		sum->load = (sum->load * n + one->load) / (n + 1);
		sum->demand = (sum->demand * n + one->demand) / (n + 1);
	}
	sum->bytes = bytes;
	sum->rr &= one->rr;
	sum->transactions += one->transactions;
	sum->seconds = one->seconds > sum->seconds ? one->seconds : sum->seconds;
}

int rx_report_same(const struct rxreport *rx)
{
	char mine[64];

	return strcmp(rx->boot_id, "-") != 0 &&
		textfile_line("/proc/sys/kernel/random/boot_id", mine, sizeof(mine)) == 0 &&
		strcmp(mine, rx->boot_id) == 0;
}

void rx_report_line(const struct rxreport *rx)
{
	line_begin("receiver");
	line_str("method", rx->method, "receiver: %s");
	line_u64("read_bytes", rx->read_bytes, "/%" PRIu64);
	line_u64("bytes", rx->bytes, ", %" PRIu64 " bytes");
	line_num("seconds", rx->seconds, 3, " in %.3f s");
	line_num("own_us_per_kb", rx->own, 3, ", zcs itself %.3f us/KB");
	if (rx->metered) {
		line_num("load_pct", rx->load * 100, 1, ", load %.1f%%");
		line_int("ncpus", rx->ncpus, " of %lld CPUs");
		line_num("service_demand_us_per_kb", rx->demand, 3,
			 ", service demand %.3f us/KB");
	}
	if (rx->rr)
		line_u64("transactions", rx->transactions, ", %" PRIu64 " transactions");
	line_str("boot_id", rx->boot_id, NULL);
	line_bool("same_machine", rx_report_same(rx), " (this machine)");
	line_int("version", rx->version, NULL);
	line_end();
}

void rx_report_tran(const struct rxreport *rx)
{
	double own = rx->own * ((double)rx->bytes / 1024) / 1e6;

	if (rx->metered) {
		line_num("server_load_pct", rx->load * 100, 1, "; zcs: load %.1f%%");
		line_int("server_ncpus", rx->ncpus, " of %lld CPUs");
		line_num("server_us_per_tran", cpu_us_per_tran(rx->load * rx->ncpus * rx->seconds,
							       rx->transactions), 3, ", %.3f us/Tran");
	}
	line_num("server_own_us_per_tran", cpu_us_per_tran(own, rx->transactions), 3,
		 rx->metered ? ", zcs itself %.3f us/Tran" : NULL);
}
