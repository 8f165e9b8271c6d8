#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "app/hist_out.h"
#include "app/mptcp_out.h"
#include "app/out.h"
#include "zcs/serve.h"
#include "zcs/serve_internal.h"
#include "zcs/serve_rr.h"
#include "zcs/serve_sampler.h"
#include "zcs/serve_total.h"
#include "zcs/serve_load.h"
#include "app/meter_session.h"
#include "app/others_out.h"
#include "app/stop_exit.h"
#include "app/watch.h"
#include "app/where_out.h"
#include "base/clock.h"
#include "base/rate.h"
#include "base/textfile.h"
#include "meter/meter.h"
#include "wire/net.h"
#include "wire/proto.h"
#include "wire/rxreport.h"

static volatile sig_atomic_t ticks;	/* SIGALRMs so far */

/*
 * -d: a connection's loop count; -dd: a line per loop, -ddd per file too
 * (thousands a second on a fast link: -d stays readable at any speed).
 */
static void debug_header(const struct proto_rx *p, enum proto_state what,
			 uint32_t value)
{
	const struct conn *c = p->arg;

	if (what == PROTO_N_LOOPS)
		fprintf(stderr, "zcs: %s: %u loops\n", c->peer, value);
	else if (what == PROTO_N_FILES && c->cfg->debug > 1)
		fprintf(stderr, "zcs: %s: loop %u of %u: %u files\n", c->peer,
			p->loop + 1, p->n_loops, value);
	else if (what != PROTO_N_FILES && c->cfg->debug > 2)
		fprintf(stderr, "zcs: %s: loop %u, file %u of %u: %u bytes\n", c->peer,
			p->loop + 1, p->file + 1, p->n_files, value);
}

void serve_give_up(const struct conn *c)
{
	if (c->cfg->alone)
		exit(1);
	_exit(SERVE_GIVE_UP);
}

/* stdout failed: the user sees nothing more (alone, the exit handler says so). */
static __attribute__((noreturn)) void stdout_failed(const struct conn *c, int err)
{
	if (!c->cfg->alone)
		error(0, err, "write to stdout");
	serve_give_up(c);
}

/*
 * sample - the load since the last line, over bytes received in it; whole:
 * over the whole connection instead (bytes are all of them). The reading
 * is the sampler's (lib/zcs/serve_sampler.h): no figure when zcs is gone.
 */
static struct serve_load sample(struct conn *c, uint64_t bytes, int whole)
{
	struct serve_load l = { 0 };

	if (!c->cfg->meter)
		return l;
	if (whole)
		c->last = c->first;
	l = serve_sampler_since(&c->last, &bytes);	/* every connection's bytes */
	if (l.valid && c->cfg->where)
		serve_where_read(c, l.load, bytes, whole);
	return l;
}

/* -c's figures, and -W's lines after the line (prefixed as it is). */
static void load_line(const struct conn *c, const struct serve_load *l)
{
	serve_load_line(l);
	if (l->valid && c->cfg->where)
		where_line_prefixed(c->where_rep, c->prefix);
}

static void line_done(const struct conn *c)
{
	if (line_end() < 0 || out_failed())
		stdout_failed(c, errno);
}

/* report_rate - the rate over the period that just ended: bytes in ns. */
static void report_rate(struct conn *c, uint64_t bytes, uint64_t ns)
{
	struct serve_load l = sample(c, bytes, 0);

	line_begin("rate");
	line_str("peer", c->peer, NULL);
	line_text("%s", c->prefix);
	line_u64("bytes", bytes, NULL);
	line_num("seconds", (double)ns / 1e9, 3, NULL);
	line_num("kbytes_per_sec", kbytes_per_sec(bytes, ns), 0, "%.0f kbytes/sec");
	load_line(c, &l);
	line_done(c);
}

/* --call-times: the time across each receive step of the connection. */
static void report_calls(struct conn *c)
{
	if (!c->rx.call_hist)
		return;
	line_begin("call_times");
	line_str("peer", c->peer, NULL);
	line_text("%s", c->prefix);
	hist_calls_pieces(c->cfg->method->name, c->rx.call_hist, c->cfg->budget_ns);
	line_done(c);
}

/* report_done - the whole connection's line. */
static void report_done(struct conn *c, int interrupted)
{
	uint64_t ns = c->end - c->start, bytes = c->p.bytes;
	struct serve_load l = sample(c, bytes, 1);
	int zc = c->rx.zc_mapped + c->rx.zc_copied > 0;
	const struct others_report *o = !l.valid ? NULL :
		others_span_read(c->others, l.ncpus, c->last.secs - c->first.secs);

	if (o)
		c->others_done = *o;

	c->done_load = l;
	line_begin("done");
	line_str("peer", c->peer, NULL);
	line_u64("bytes", bytes, "done: %" PRIu64 " bytes");
	line_num("seconds", (double)ns / 1e9, 3, " in %.3f s");
	line_num("kbytes_per_sec", kbytes_per_sec(bytes, ns), 0, ", %.0f kbytes/sec");
	load_line(c, &l);
	line_bool("interrupted", interrupted, " (interrupted)");
	line_str("method", c->cfg->method->name, NULL);
	if (c->mptcp)
		line_nested(mptcp_json, NULL, &c->subflows);
	if (zc) {
		line_u64("zc_mapped", c->rx.zc_mapped, NULL);
		line_u64("zc_copied", c->rx.zc_copied, NULL);
	}
	if (zc && !c->rx.zc_mapped)	/* no zero-copy figure: say so */
		line_text(" (zero-copy: nothing mapped, all %" PRIu64 " bytes copied)",
			  c->rx.zc_copied);
	others_line(o, "the service demand");
	line_done(c);
	report_calls(c);
	if (c->cfg->debug && zc)
		fprintf(stderr, "zcs: %s: zero-copy: %" PRIu64 " bytes mapped, %"
			PRIu64 " copied\n", c->peer, c->rx.zc_mapped, c->rx.zc_copied);
}

/*
 * report_broken - a stream that did not end whole, for -J readers: a
 * "broken" event with why ("truncated", "excess", "error", "stalled"), the
 * bytes and where (the text is the caller's line on stderr).
 */
static void report_broken(struct conn *c, const char *why, const char *detail)
{
	char where[160];

	proto_rx_describe(&c->p, where, sizeof(where));
	line_begin("broken");
	line_str("peer", c->peer, NULL);
	line_str("why", why, NULL);
	line_u64("bytes", c->p.bytes, NULL);
	line_str("where", where, NULL);
	if (detail)
		line_str("error", detail, NULL);
	line_done(c);
}

/*
 * on_ticks - a tick came: a rate line when a period ended (one, even if
 * periods piled up after a SIGSTOP), and the -T rule. Returns -1 when the
 * connection must be closed.
 */
static int on_ticks(struct conn *c)
{
	struct watch_news n;
	char why[128];

	c->tick_seen = (unsigned)ticks;
	watch_look(&c->watch, now_ns(), c->p.bytes, &n);
	if (n.line)
		report_rate(c, n.line_bytes, n.line_ns);
	if (!n.stalled)
		return 0;
	report_broken(c, "stalled", NULL);
	error(0, 0, "%s: stalled: %s, closed after %" PRIu64 " bytes", c->peer,
	      watch_stall_text(why, sizeof(why), n.moved, c->cfg->stall_secs), c->p.bytes);
	return -1;
}

/* receive - take the stream until it ends one way or another. */
static enum end receive(struct conn *c)
{
	char err[256], where[160];
	ssize_t n;

	for (;;) {
		n = rx_step(c->cfg->method, &c->rx, &c->p, err, sizeof(err));
		serve_total_count(c->p.bytes);
		if (n == 0)
			return END_EOF;
		if (n < 0 && errno != EINTR) {
			proto_rx_describe(&c->p, where, sizeof(where));
			error(0, 0, "%s: receive failed after %" PRIu64 " bytes (%s): %s",
			      c->peer, c->p.bytes, where, err);
			report_broken(c, "error", err);
			return END_ERROR;
		}
		if (c->p.state == PROTO_EXCESS)
			return END_EXCESS;
		if (stop_signal)
			return END_STOP;
		/* The rest runs a few times a second, not per read. */
		if ((unsigned)ticks != c->tick_seen && on_ticks(c) < 0)
			return END_STALL;
	}
}

/* verdict - the connection's last word. 0: a whole, well-formed stream. */
static int verdict(struct conn *c, enum end how)
{
	char where[160];

	proto_rx_describe(&c->p, where, sizeof(where));
	switch (how) {
	case END_EXCESS:
		error(0, 0, "%s: excess data: %s; %" PRIu64 " bytes received", c->peer,
		      where, c->p.bytes);
		report_broken(c, "excess", NULL);
		return 1;
	case END_EOF:
		if (!proto_rx_complete(&c->p)) {
			error(0, 0, "%s: truncated: %s; %" PRIu64 " bytes received",
			      c->peer, where, c->p.bytes);
			report_broken(c, "truncated", NULL);
			return 1;
		}
		report_done(c, 0);
		return 0;
	case END_STOP:
		report_done(c, 1);
		return 1;
	case END_STALL:		/* given up: its close resets, nothing left queued */
		net_reset_on_close(c->rx.fd);
		return 1;
	default:
		return 1;	/* said already */
	}
}

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

/* SIGALRM every tick_ns (0: none): a blocked read returns, and the watcher looks. */
static void ticker(uint64_t tick_ns)
{
	struct itimerval it = {
		.it_interval = { .tv_sec = (time_t)(tick_ns / 1000000000u),
				 .tv_usec = (suseconds_t)(tick_ns % 1000000000u / 1000) },
	};

	/* A blocked read() must return to the loop. */
	if (tick_ns)
		serve_catch(SIGALRM, on_alarm);
	it.it_value = it.it_interval;
	if (setitimer(ITIMER_REAL, &it, NULL) < 0 && tick_ns)
		error(1, errno, "setitimer");
}

/*
 * The receiver's report (lib/wire/rxreport.h), after a whole stream: a
 * sender that asked reads it; any other closes and the write fails, or
 * lands in a closed socket: either way, nothing to say.
 */
static void send_report(const struct conn *c, double own_secs)
{
	struct rxreport r = { .read_bytes = c->cfg->read_size, .bytes = c->p.bytes,
			      .seconds = (double)(c->end - c->start) / 1e9,
			      .own = cpu_us_per_kb(own_secs, c->p.bytes) };
	char line[RXREPORT_MAX];
	int n;

	snprintf(r.method, sizeof(r.method), "%s", c->cfg->method->name);
	if (textfile_line("/proc/sys/kernel/random/boot_id", r.boot_id, sizeof(r.boot_id)) < 0)
		r.boot_id[0] = '\0';
	if (c->done_load.valid) {
		r.metered = 1;
		r.load = c->done_load.load;
		r.ncpus = (unsigned)c->done_load.ncpus;
		r.demand = c->done_load.demand;
	}
	n = rxreport_format(line, sizeof(line), &r);
	if (n > 0 && send(c->rx.fd, line, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		/* The sender did not wait for it. */
	}
}

/* What the connection moved and cost (c->last: the done line's reading). */
static void result_of(const struct conn *c, int rc, double cpu0, struct serve_result *res)
{
	if (!res)
		return;
	*res = (struct serve_result){ .bytes = c->p.bytes, .start_ns = c->start,
		.end_ns = c->end, .own_secs = cpu_self_secs() - cpu0, .whole = rc == 0,
		.metered = c->cfg->meter != NULL && c->first.secs < c->last.secs,
		.first = c->first, .last = c->last, .others = c->others_done };
}

/* -c: the ledger's mark, and other processes' CPU from now on. */
static void meter_start(struct conn *c)
{
	if (!c->cfg->meter || serve_sampler_read(&c->first) != 0)
		return;
	c->last = c->first;
	c->others = others_span_new(c->cfg->meter);
	others_span_start(c->others);
}

/* c, for connection fd from peer read into buf: -d's words, MPTCP or not. */
static void conn_init(struct conn *c, const struct serve_cfg *sc, int fd, const char *peer,
		      unsigned char *buf)
{
	c->cfg = sc;
	c->peer = peer;
	if (sc->debug)
		snprintf(c->prefix, sizeof(c->prefix), "%s: ", peer);
	c->rx.fd = fd;
	c->rx.buf = buf;
	c->rx.bufsize = sc->read_size;
	proto_rx_init(&c->p);
	if (sc->debug) {
		c->p.on_header = debug_header;
		c->p.arg = c;
		fprintf(stderr, "zcs: %s: connected\n", peer);
	}
	c->mptcp = sc->mptcp && mptcp_active(fd) == 1;
	if (sc->debug && sc->mptcp)
		fprintf(stderr, "zcs: %s: %s\n", peer, c->mptcp ? "MPTCP" :
			"plain TCP (the kernel's TCP_IS_MPTCP is not 1)");
}

int serve(const struct serve_cfg *sc, int fd, const char *peer, unsigned char *buf,
	  struct serve_result *res)
{
	double cpu0 = cpu_self_secs();
	struct conn conn = { 0 }, *c = &conn;
	char err[256];
	enum end how;
	int rc;

	if (serve_rr_sniff(sc, fd))	/* a request/response client */
		return serve_rr(sc, fd, peer, res);
	conn_init(c, sc, fd, peer, buf);
	if (sc->call_times && (c->rx.call_hist = malloc(sizeof(*c->rx.call_hist))))
		hist_init(c->rx.call_hist, sc->budget_ns);
	else if (sc->call_times)
		error(1, errno, "memory");
	if (rx_open(sc->method, &c->rx, err, sizeof(err)) < 0) {
		/* The kernel refuses the method: it will refuse every connection
		 * of this kind, but an MPTCP listener's plain TCP ones may pass. */
		error(0, 0, "%s: %s%s", peer, err, c->mptcp ? " (an MPTCP connection;"
		      " plain TCP senders are still served)" : "");
		if (!sc->alone && !c->mptcp)
			_exit(SERVE_GIVE_UP);
		free(c->rx.call_hist);
		close(fd);
		return 1;
	}
	meter_start(c);
	serve_where_start(c);
	c->start = now_ns();
	watch_init(&c->watch, sc->period, sc->stall_secs, c->start, 0);
	ticks = 0;
	ticker(watch_tick_ns(&c->watch));
	how = receive(c);
	if (c->mptcp)
		mptcp_subflows_read(fd, &c->subflows);
	c->end = now_ns();
	serve_total_ended();	/* the stream ended: the client may connect again */
	rc = verdict(c, how);
	if (rc == 0)
		send_report(c, cpu_self_secs() - cpu0);
	result_of(c, rc, cpu0, res);
	ticker(0);
	rx_close(sc->method, &c->rx);
	free(c->rx.call_hist);
	serve_where_end(c);
	others_span_free(c->others);
	close(fd);
	if (sc->debug && c->mptcp)
		mptcp_debug(c->prefix, &c->subflows);
	if (sc->debug)
		fprintf(stderr, "zcs: %s: closed\n", peer);
	return rc;
}
