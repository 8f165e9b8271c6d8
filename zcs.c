/*
 * zcs - the zc server. Accepts zcc connections, swallows each stream by one
 * receive method (lib/wire/rx.h) while checking it against its own headers, and
 * reports the receive rate: every period while data flows, and once when
 * the client closes. Each connection has its own child process; the parent
 * only accepts, reaps and, when told to stop, passes the signal on and
 * waits for its children's last lines.
 *
 * Read top to bottom: the settings and their check at the door, then the
 * verbs: serve one connection (receive, report), accept, stop.
 */
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/stop.h"
#include "app/watch.h"
#include "base/clock.h"
#include "base/opt.h"
#include "base/optab.h"
#include "base/out.h"
#include "base/rate.h"
#include "base/show.h"
#include "meter/calib.h"
#include "meter/cpu.h"
#include "meter/meter.h"
#include "meter/where.h"
#include "wire/net.h"
#include "wire/proto.h"
#include "wire/rx.h"

#define MAX_READ_SIZE	(64 << 20)
#define MAX_SECS	86400
/* "address port N", the longest IPv6 address and port */
#define PEER_LEN	80
/*
 * A child's exit status when it cannot go on for a reason that stops the
 * whole server (stdout failed, the meter died): it has said why, and the
 * parent gives up too.
 */
#define EXIT_GIVE_UP	3

/* Everything the options say, set by parse_opts and read everywhere else. */
struct settings {
	int one;			/* -1 */
	const char *addr;		/* -a */
	size_t read_size;		/* -b */
	int cpu;			/* -B, -1: any */
	int debug;			/* -d, repeatable */
	struct net_opts net;		/* -i, -o */
	unsigned port;			/* -p */
	double period;			/* -t */
	double stall_secs;		/* -T, 0: never */
	unsigned max_conns;		/* -m */
	const struct rx_method *method;	/* -M */
	int json;			/* -J */
	int measure;			/* -c */
	enum meter_method meter_method;	/* -r, -L */
	const char *calib_path;		/* -f */
	int ncpus;			/* -N, 0: the online CPUs */
	int where;			/* -W */
};

static struct settings cfg = {
	.read_size = 16384,
	.cpu = -1,
	.port = 2222,
	.period = 5,
	.stall_secs = 60,
	.max_conns = 256,
};

static volatile sig_atomic_t ticks;	/* SIGALRMs so far (child, or -1) */
static int wake_pipe[2] = { -1, -1 };	/* parent: wakes poll() from handlers */
static pid_t *kids;			/* parent: the live children, -m of them */
static unsigned *kid_slot;		/* parent: each child's slot of counts[] */
static unsigned live;
static struct meter *meter;		/* -c: opened by the parent */
static pid_t meter_owner;		/* the process that opened it */
static struct where *where_meter;	/* -W: opened by the parent */

/*
 * Every option, once: getopt_long's tables and the option lines of -h are
 * made from it, and man/zcs.1 is checked against -h.
 */
static const struct optab options[] = {
	{ 'p', "port", "PORT", "port to listen on (default 2222; 0: the kernel picks one)" },
	{ 'a', "address", "ADDR",
	  "listen on this address only (default: every IPv6 and IPv4 address; "
	  "IPv4 alone where the kernel has no IPv6)" },
	{ 'b', "read-size", "BYTES", "size of each read (default 16384)" },
	{ 'M', "method", "METHOD",
	  "receive method (default read; the methods below); header words are "
	  "always read normally, so every stream is checked against its headers" },
	{ 't', "period", "SECS",
	  "print the rate every SECS seconds, fractions allowed (default 5)" },
	{ 'T', "stall-timeout", "SECS",
	  "close a connection that moved less than 1 KiB in the last SECS seconds "
	  "(default 60; 0: never); time zcs itself was stopped does not count" },
	{ 'm', "max-conns", "MAX",
	  "serve at most MAX connections at once; one more is accepted and closed, "
	  "logged at most once a second (default 256)" },
	{ '1', "once", NULL, "serve one connection, then exit" },
	{ 'i', "recv-buffer", "BYTES",
	  "socket receive buffer size (default: the kernel's auto-tuning)" },
	{ 'o', "send-buffer", "BYTES", "socket send buffer size (default: the kernel's)" },
	{ 'B', "cpu", "CPU", "run on that CPU only" },
	{ 'd', "debug", NULL,
	  "debug output on stderr: connections, headers, zero-copy counts; rate "
	  "lines name the peer; -dd: every file" },
	{ 'c', "cpu-load", NULL,
	  "meter this machine's CPU load (cyclesoak's way): every rate and done "
	  "line gains \", load PCT% of NCPUS CPUs, USPERKB us/KB\" (CPU time of "
	  "the whole machine per KB received)" },
	{ 'W', "where", NULL,
	  "with -c: where the CPU went, after every line with the load: the load "
	  "by class (where:, also in us/KB), each CPU's load, softirq share and "
	  "NET_RX/NET_TX per second (cpus:), interrupts and the connection's "
	  "interface's packets per second (net:), kernel work by kind (kernel:; "
	  "root or perf_event_paranoid <= 0)" },
	{ 'r', "run-time", NULL, "with -c: the run-time method" },
	{ 'L', "loop-counts", NULL,
	  "with -c: the loop-count method (default: run time on a virtual "
	  "machine, loop counts on bare metal)" },
	{ 'f', "calibration-file", "FILE",
	  "with -c: the calibration file (default ./" CALIB_DEFAULT_PATH ")" },
	{ 'N', "cpus", "CPUS", "with -c: soakers for that many CPUs (default: the online CPUs)" },
	{ 'J', "json", NULL,
	  "JSON Lines on stdout instead of the text lines: one object per line "
	  "with \"program\", \"event\" (listening, rate, done, broken), \"time\"" },
	{ 'h', "help", NULL, "this help" },
	{ OPTAB_VERSION, "version", NULL, "print zcs and its version" },
	{ 0, NULL, NULL, NULL },
};

/* Made from options[] by parse_opts. */
static struct optab_parser parser;

static __attribute__((noreturn)) void usage(FILE *f, int status)
{
	int i;

	fprintf(f, "usage: zcs [-1cdhJLrW] [-a address] [-b read_size] [-B cpu] [-f file]\n"
		"           [-i input_bufsize] [-m max_conns] [-M method] [-N nr_cpus]\n"
		"           [-o output_bufsize] [-p port] [-t period] [-T secs]\n"
		"\nReceive zcc streams and print the receive rate (a kbyte is 1024 bytes).\n\n");
	optab_help(f, options);
	fprintf(f, "\nMethods (-M):\n");
	for (i = 0; rx_methods[i]; i++)
		fprintf(f, "  %-9s %s\n", rx_methods[i]->name, rx_methods[i]->how);
	fprintf(f, "\nLong options take their value as --opt=VALUE or --opt VALUE, and may\n"
		"be shortened to any unambiguous prefix.\n"
		"BYTES values (-b, -i, -o) take a K, M or G suffix (1024, 1024^2, 1024^3).\n\n"
		"Output: \"listening on port N\", then per connection \"RATE kbytes/sec\" every\n"
		"period and \"done: BYTES bytes in SECONDS s, RATE kbytes/sec\" at the end,\n"
		"marked \" (interrupted)\" when zcs was stopped first. A stream that ends early\n"
		"or holds more than its headers announced gets one line on stderr instead.\n\n"
		"Exit status: without -1 zcs runs until stopped; with -1, 0 for a whole,\n"
		"well-formed stream and 1 for a broken one. 1: a runtime error (cannot\n"
		"listen, a receive method the kernel refuses, stdout failed, with -c a\n"
		"soaker that died or was stopped, or another meter running); 2: a usage\n"
		"error; 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP (128 + the signal).\n");
	exit(status);
}

static const struct rx_method *method_or_usage(const char *name)
{
	const struct rx_method *m = rx_find(name);
	char list[128] = "", shown[SHOW_LEN];
	int i;

	if (m)
		return m;
	for (i = 0; rx_methods[i]; i++) {
		strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
		strncat(list, rx_methods[i]->name, sizeof(list) - strlen(list) - 1);
	}
	usage_error("-M: '%s': unknown method (one of %s)",
		    show(name, shown, sizeof(shown)), list);
}

/* What makes no sense together is refused before anything is done. */
static void check_settings(void)
{
	if (cfg.measure)
		return;
	if (cfg.meter_method != METER_DEFAULT)
		usage_error("-%c chooses how -c measures: give -c",
			    cfg.meter_method == METER_RUNTIME ? 'r' : 'L');
	if (cfg.calib_path)
		usage_error("-f names -c's calibration file: give -c");
	if (cfg.ncpus)
		usage_error("-N is the CPUs -c meters: give -c");
	if (cfg.where)
		usage_error("-W says where -c's load went: give -c");
}

static void parse_opts(int argc, char **argv)
{
	char shown[SHOW_LEN];
	const char *why;
	int c;

	if (optab_build(&parser, options, "", &why) < 0)
		error(1, 0, "option table: %s", why);
	opt_common(argc, argv, &parser, usage);
	while ((c = opt_next(argc, argv, &parser)) != -1) {
		switch (c) {
		case '1':
			cfg.one = 1;
			break;
		case 'a':
			if (!*optarg)
				usage_error("-a '': an empty address");
			cfg.addr = optarg;
			break;
		case 'b':
			cfg.read_size = (size_t)opt_size(c, optarg, 1, MAX_READ_SIZE);
			break;
		case 'B':
			cfg.cpu = (int)opt_num(c, optarg, 0, cpu_max());
			break;
		case 'c':
			cfg.measure = 1;
			break;
		case 'W':
			cfg.where = 1;
			break;
		case 'd':
			cfg.debug++;
			break;
		case 'f':
			cfg.calib_path = optarg;
			break;
		case 'L':
		case 'r':
			if (meter_method_opt(c, &cfg.meter_method) < 0)
				usage_error(METER_OPPOSITE);
			break;
		case 'N':
			cfg.ncpus = (int)opt_num(c, optarg, 1, cpu_max() + 1);
			break;
		case 'h':
			usage(stdout, 0);
		case 'i':
			cfg.net.rcvbuf = (int)opt_size(c, optarg, 1, NET_BUF_MAX);
			break;
		case 'J':
			cfg.json = 1;
			break;
		case 'm':
			cfg.max_conns = (unsigned)opt_num(c, optarg, 1, 65536);
			break;
		case 'M':
			cfg.method = method_or_usage(optarg);
			break;
		case 'o':
			cfg.net.sndbuf = (int)opt_size(c, optarg, 1, NET_BUF_MAX);
			break;
		case 'p':
			cfg.port = (unsigned)opt_num(c, optarg, 0, 65535);
			break;
		case 't':
			cfg.period = opt_secs(c, optarg, 0.01, MAX_SECS);
			break;
		case 'T':
			cfg.stall_secs = opt_secs(c, optarg, 0, MAX_SECS);
			break;
		default:
			opt_refused(c);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s' (zcs -h for help)",
			    show(argv[optind], shown, sizeof(shown)));
	if (!cfg.method)
		cfg.method = rx_methods[0];
	check_settings();
}

/* --- signals ----------------------------------------------------------- */

static void wake(void)
{
	int saved = errno;
	char c = 0;

	if (wake_pipe[1] >= 0 && write(wake_pipe[1], &c, 1) < 0) {
		/* The pipe is full: poll() will wake anyway. */
	}
	errno = saved;
}

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

static void on_child(int sig)
{
	(void)sig;
	wake();
}

static void set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa = { .sa_handler = fn };

	/* No SA_RESTART: a blocked read() or poll() must return to the loop. */
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL) < 0)
		error(1, errno, "sigaction");
}

/* The stop signals (lib/app/stop.h): each wakes the poll loop. */
static void catch_stop_signals(void)
{
	stop_catch(wake);
}

/* --- the meter (-c) ------------------------------------------------------ */

/* The parent stops its soakers; a child only forgets its copy. */
static void close_meter(void)
{
	struct meter *m = meter;

	if (getpid() != meter_owner)
		return;
	meter = NULL;
	meter_close(m);
}

/*
 * -W: the parent loads the kernel's symbols once and says once why kernel
 * work is not sampled; each connection's process samples for itself.
 */
static void open_where(void)
{
	char err[512];

	where_meter = where_open_meter(meter, err, sizeof(err));
	if (!where_meter)
		error(1, 0, "%s", err);
	if (where_sampling_why(where_meter))
		fprintf(stderr, "zcs: -W: kernel work not sampled: %s\n",
			where_sampling_why(where_meter));
	where_pause(where_meter);
}

/* Soakers before -B, so that they do not inherit zcs's CPU. */
static void start_meter(void)
{
	struct meter_cfg mc = {
		.ncpus = cfg.ncpus,
		.method = cfg.meter_method,
		.calib_path = cfg.calib_path,
	};
	char err[512];

	if (!cfg.measure)
		return;
	meter = meter_open(&mc, err, sizeof(err));
	if (!meter)
		error(1, 0, "%s", err);
	meter_owner = getpid();
	atexit(close_meter);
	if (*meter_warning(meter))
		fprintf(stderr, "zcs: warning: %s\n", meter_warning(meter));
	if (cfg.debug)
		fprintf(stderr, "zcs: meter: %s, %d CPUs\n", meter_why(meter),
			meter_ncpus(meter));
	if (cfg.where)
		open_where();
}

/* The meter has no figure to give (a soaker died or was stopped). */
static __attribute__((noreturn)) void meter_failed(const char *err)
{
	error(0, 0, "%s", err);
	if (getpid() == meter_owner)
		exit(1);
	_exit(EXIT_GIVE_UP);
}

/* Die of the signal that stopped us, as if we had never caught it. */
static __attribute__((noreturn)) void die_of(int sig)
{
	close_meter();
	stop_exit(sig);
}

/* SIGALRM every tick_ns: a blocked read returns, and the watcher looks. */
static void start_ticker(uint64_t tick_ns)
{
	struct itimerval it = {
		.it_interval = { .tv_sec = (time_t)(tick_ns / 1000000000u),
				 .tv_usec = (suseconds_t)(tick_ns % 1000000000u / 1000) },
	};

	it.it_value = it.it_interval;
	set_handler(SIGALRM, on_alarm);
	if (setitimer(ITIMER_REAL, &it, NULL) < 0)
		error(1, errno, "setitimer");
}

static void stop_ticker(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
}

/* --- the total over all connections ------------------------------------ */

/*
 * Each child counts the bytes of its connection into a slot of one shared
 * map, a cache line each so that children on other CPUs do not fight over
 * it; the parent reads them every period for the total: line. A slot is
 * active from the accept until its stream has ended (before the close
 * that lets a client connect again), so connections one after another
 * (zcc's -t probes and its run) are never taken for several at once.
 */
struct count_slot {
	uint64_t bytes;
	uint32_t active;
} __attribute__((aligned(64)));	/* a cache line each: children write their own */

static struct count_slot *counts;	/* shared: -m slots */
static uint64_t *count_seen;		/* parent: each slot's bytes at the last look */
static unsigned char *slot_used;	/* parent: a live child has it */
static struct count_slot *my_count;	/* child: its slot */

static struct {
	uint64_t start, next;		/* the period began, the next is due */
	uint64_t bytes;			/* this period, of children reaped in it */
	unsigned movers;		/* those of them that moved data in it */
	int overlap;			/* two connections were active at once */
} period;

static void counts_open(void)
{
	counts = mmap(NULL, cfg.max_conns * sizeof(*counts), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counts == MAP_FAILED)
		error(1, errno, "map the byte counters of %u connections", cfg.max_conns);
	count_seen = calloc(cfg.max_conns, sizeof(*count_seen));
	slot_used = calloc(cfg.max_conns, 1);
	kid_slot = calloc(cfg.max_conns, sizeof(*kid_slot));
	if (!count_seen || !slot_used || !kid_slot)
		error(1, errno, "allocate the child table");
	period.start = now_ns();
	period.next = period.start + (uint64_t)(cfg.period * 1e9);
}

/* How many live children have not yet ended their streams. */
static unsigned active_slots(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < cfg.max_conns; i++)
		if (slot_used[i] && __atomic_load_n(&counts[i].active, __ATOMIC_RELAXED))
			n++;
	return n;
}

/* A free slot for a new child, its counter at 0. */
static unsigned slot_take(void)
{
	unsigned i = 0;

	while (slot_used[i])
		i++;		/* live < max_conns: there is one */
	if (active_slots() > 0)
		period.overlap = 1;
	slot_used[i] = 1;
	__atomic_store_n(&counts[i].bytes, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&counts[i].active, 1, __ATOMIC_RELAXED);
	count_seen[i] = 0;
	return i;
}

/* A child of slot i is gone: what it moved since the last look counts. */
static void slot_free(unsigned i)
{
	uint64_t now = __atomic_load_n(&counts[i].bytes, __ATOMIC_RELAXED);

	if (now > count_seen[i]) {
		period.bytes += now - count_seen[i];
		period.movers++;
	}
	slot_used[i] = 0;
}

/*
 * The period ended: when more than one connection moved data in it, one
 * line of their sum, with -c the whole machine's load over it.
 */
static void report_total(uint64_t now)
{
	uint64_t bytes = period.bytes, ns = now - period.start, b;
	unsigned movers = period.movers;
	int overlap = period.overlap;
	struct meter_reading mr;
	char err[512], load[96] = "";
	int rc, valid = 0;
	double demand = 0;

	for (unsigned i = 0; i < cfg.max_conns; i++) {
		if (!slot_used[i])
			continue;
		b = __atomic_load_n(&counts[i].bytes, __ATOMIC_RELAXED);
		if (b > count_seen[i]) {
			bytes += b - count_seen[i];
			movers++;
		}
		count_seen[i] = b;
	}
	if (meter && meter_sample(meter, &mr, err, sizeof(err)) == 0) {
		valid = 1;	/* since the last sample: this period's tick, or idle */
		demand = service_demand_us_per_kb(mr.load, mr.ncpus, mr.secs, bytes);
	} else if (meter && !live) {
		meter_failed(err);
	}
	/* A broken meter while children serve: they say so (each samples it
	 * every period) and end zcs; a line from here too would be a second. */
	period.start = now;
	period.bytes = 0;
	period.movers = 0;
	period.overlap = active_slots() > 1;	/* still at once in the next */
	if (movers < 2 || !overlap)
		return;
	if (out_json()) {
		out_begin("total");
		out_u64("bytes", bytes);
		out_num("seconds", (double)ns / 1e9, 3);
		out_num("kbytes_per_sec", kbytes_per_sec(bytes, ns), 0);
		out_int("connections", (int)movers);
		if (valid) {
			out_num("load_pct", mr.load * 100, 1);
			out_int("ncpus", mr.ncpus);
			out_num("service_demand_us_per_kb", demand, 3);
		}
		rc = out_end();
	} else {
		if (valid)
			snprintf(load, sizeof(load), ", load %.1f%% of %d CPUs, %.3f us/KB",
				 mr.load * 100, mr.ncpus, demand);
		rc = out_text("total: %.0f kbytes/sec over %u connections%s\n",
			      kbytes_per_sec(bytes, ns), movers, load);
	}
	if (rc < 0 || out_failed())
		error(1, errno, "write to stdout");
}

/* The parent's period tick: a total when one is due. */
static void check_total(void)
{
	uint64_t now = now_ns(), step = (uint64_t)(cfg.period * 1e9);

	if (now < period.next)
		return;
	report_total(now);
	period.next += step;
	if (period.next <= now)	/* stopped, or starved: start again from now */
		period.next = now + step;
}

/* --- serve one connection ---------------------------------------------- */

/* One connection being served. */
struct conn {
	const char *peer;
	struct rx rx;
	struct proto_rx p;
	uint64_t start;
	unsigned tick_seen;
	struct watch watch;	/* lib/app/watch.h: -t lines and the -T rule */
	struct meter_span span;		/* -c: the whole connection's load */
};

/* -c's figures for one line; valid 0 without -c. */
struct load {
	int valid;
	double load;
	int ncpus;
	double demand;
};

/* How a connection's receiving ended. */
enum end { END_EOF, END_EXCESS, END_ERROR, END_STALL, END_STOP };

static void debug_header(const struct proto_rx *p, enum proto_state what,
			 uint32_t value)
{
	const char *peer = p->arg;

	if (what == PROTO_N_LOOPS)
		fprintf(stderr, "zcs: %s: %u loops\n", peer, value);
	else if (what == PROTO_N_FILES)
		fprintf(stderr, "zcs: %s: loop %u of %u: %u files\n", peer,
			p->loop + 1, p->n_loops, value);
	else if (cfg.debug > 1)
		fprintf(stderr, "zcs: %s: loop %u, file %u of %u: %u bytes\n", peer,
			p->loop + 1, p->file + 1, p->n_files, value);
}

/*
 * stdout failed: the user sees nothing more. With -1 the exit handler says
 * so; a connection's child says so itself and tells the parent, which
 * gives up too.
 */
static __attribute__((noreturn)) void stdout_failed(int err)
{
	if (cfg.one)
		exit(1);
	error(0, err, "write to stdout");
	_exit(EXIT_GIVE_UP);
}

/*
 * -W in a connection's process: where the load went since the connection
 * began and since its last line, on the interface its socket uses.
 */
static struct where_snap where_conn_mark, where_line_mark;
static struct where_report where_rep;
static char where_if[IF_NAMESIZE];

static void where_conn_start(int fd)
{
	char err[512];

	if (!where_meter)
		return;
	where_resume(where_meter);
	if (where_ifname(fd, where_if, sizeof(where_if), err, sizeof(err)) < 0)
		where_if[0] = '\0';	/* then every interface that moved */
	if (where_take(where_meter, &where_conn_mark, err, sizeof(err)) < 0)
		meter_failed(err);
	where_line_mark = where_conn_mark;
}

static void where_conn_read(double load, uint64_t bytes, int whole)
{
	static struct where_snap now;
	char err[512];

	if (where_take(where_meter, &now, err, sizeof(err)) < 0)
		meter_failed(err);
	where_compute(whole ? &where_conn_mark : &where_line_mark, &now, load, bytes,
		      where_if, &where_rep);
	where_line_mark = now;
}

/*
 * conn_sample - the load since the last sample, over bytes received in it;
 * whole: over the whole connection instead (bytes are all of them).
 */
static struct load conn_sample(struct conn *c, uint64_t bytes, int whole)
{
	struct meter_reading mr;
	struct load l = { 0 };
	char err[512];

	if (!meter)
		return l;
	if (meter_sample(meter, &mr, err, sizeof(err)) < 0)
		meter_failed(err);
	meter_span_add(&c->span, &mr);
	l.valid = 1;
	l.ncpus = mr.ncpus;
	l.load = mr.load;
	if (whole && c->span.secs > 0) {
		l.load = meter_span_load(&c->span);
		mr.secs = c->span.secs;
	}
	l.demand = service_demand_us_per_kb(l.load, l.ncpus, mr.secs, bytes);
	if (where_meter)
		where_conn_read(l.load, bytes, whole);
	return l;
}

/*
 * The figures of a rate or done line over bytes in ns: the JSON fields
 * (out_begin done), or the text of -c's load in txt.
 */
static void figures(const char *event, const char *peer, uint64_t bytes, uint64_t ns,
		    const struct load *l, char *txt, size_t len)
{
	*txt = '\0';
	if (l->valid && !out_json())
		snprintf(txt, len, ", load %.1f%% of %d CPUs, %.3f us/KB",
			 l->load * 100, l->ncpus, l->demand);
	if (!out_json())
		return;
	out_begin(event);
	out_str("peer", peer);
	out_u64("bytes", bytes);
	out_num("seconds", (double)ns / 1e9, 3);
	out_num("kbytes_per_sec", kbytes_per_sec(bytes, ns), 0);
	if (l->valid) {
		out_num("load_pct", l->load * 100, 1);
		out_int("ncpus", l->ncpus);
		out_num("service_demand_us_per_kb", l->demand, 3);
		if (where_meter)
			where_json(&where_rep);
	}
}

/* report_rate - the rate over the period that just ended: bytes in ns. */
static void report_rate(struct conn *c, uint64_t bytes, uint64_t ns)
{
	struct load l = conn_sample(c, bytes, 0);
	char load[96];
	int rc;

	figures("rate", c->peer, bytes, ns, &l, load, sizeof(load));
	if (out_json())
		rc = out_end();
	else
		rc = out_text("%s%s%.0f kbytes/sec%s\n", cfg.debug ? c->peer : "",
			      cfg.debug ? ": " : "", kbytes_per_sec(bytes, ns), load);
	if (l.valid && where_meter && !out_json())
		where_print(&where_rep);
	if (rc < 0 || out_failed())
		stdout_failed(errno);
}

/* report_done - the whole connection's line. */
static void report_done(struct conn *c, int interrupted)
{
	uint64_t ns = now_ns() - c->start;
	struct load l = conn_sample(c, c->p.bytes, 1);
	int zc = c->rx.zc_mapped + c->rx.zc_copied > 0, rc;
	char line[160], load[96];

	figures("done", c->peer, c->p.bytes, ns, &l, load, sizeof(load));
	if (out_json()) {
		out_bool("interrupted", interrupted);
		out_str("method", cfg.method->name);
		if (zc) {
			out_u64("zc_mapped", c->rx.zc_mapped);
			out_u64("zc_copied", c->rx.zc_copied);
		}
		rc = out_end();
	} else {
		format_rate_line(line, sizeof(line), "done", c->p.bytes, ns);
		rc = out_text("%s%s%s\n", line, load, interrupted ? " (interrupted)" : "");
		if (l.valid && where_meter)
			where_print(&where_rep);
	}
	if (rc < 0 || out_failed())
		stdout_failed(errno);
	if (cfg.debug && zc)
		fprintf(stderr, "zcs: %s: zero-copy: %" PRIu64 " bytes mapped, %"
			PRIu64 " copied\n", c->peer, c->rx.zc_mapped, c->rx.zc_copied);
}

/*
 * report_broken - a stream that did not end whole, for -J readers too: the same
 * line on stderr as always, and a "broken" event on stdout with why
 * ("truncated", "excess", "error", "stalled"), the bytes and where.
 */
static void report_broken(struct conn *c, const char *why, const char *detail)
{
	char where[160];

	if (!out_json())
		return;
	proto_rx_describe(&c->p, where, sizeof(where));
	out_begin("broken");
	out_str("peer", c->peer);
	out_str("why", why);
	out_u64("bytes", c->p.bytes);
	out_str("where", where);
	if (detail)
		out_str("error", detail);
	if (out_end() < 0 || out_failed())
		stdout_failed(errno);
}

/*
 * on_ticks - a tick came: a rate line when a period ended (one, even if
 * periods piled up after a SIGSTOP), and the -T rule. Returns -1 when the
 * connection must be closed.
 */
static int on_ticks(struct conn *c)
{
	struct watch_news n;

	c->tick_seen = (unsigned)ticks;
	watch_look(&c->watch, now_ns(), c->p.bytes, &n);
	if (n.line)
		report_rate(c, n.line_bytes, n.line_ns);
	if (!n.stalled)
		return 0;
	report_broken(c, "stalled", NULL);
	if (n.moved == 0)
		error(0, 0, "%s: idle timeout: nothing received for %g s, closed after %"
		      PRIu64 " bytes", c->peer, cfg.stall_secs, c->p.bytes);
	else
		error(0, 0, "%s: slow timeout: only %" PRIu64 " bytes in the last %g s "
		      "(under 1 KiB), closed after %" PRIu64 " bytes", c->peer, n.moved,
		      cfg.stall_secs, c->p.bytes);
	return -1;
}

/* receive - take the stream until it ends one way or another. */
static enum end receive(struct conn *c)
{
	char err[256], where[160];
	ssize_t n;

	for (;;) {
		n = rx_step(cfg.method, &c->rx, &c->p, err, sizeof(err));
		if (my_count)
			__atomic_store_n(&my_count->bytes, c->p.bytes, __ATOMIC_RELAXED);
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
	default:
		return 1;	/* said already */
	}
}

/*
 * serve - receive one stream from fd (peer, for messages) and report.
 * Returns 0 when it was complete and well formed, 1 otherwise.
 */
static int serve(int fd, const char *peer, unsigned char *buf)
{
	struct conn c = { .peer = peer };
	char err[256];
	enum end how;
	int rc = 1;

	c.rx.fd = fd;
	c.rx.buf = buf;
	c.rx.bufsize = cfg.read_size;
	proto_rx_init(&c.p);
	if (cfg.debug) {
		c.p.on_header = debug_header;
		c.p.arg = (void *)peer;
		fprintf(stderr, "zcs: %s: connected\n", peer);
	}
	if (rx_open(cfg.method, &c.rx, err, sizeof(err)) < 0) {
		/* The kernel refuses the method: it will refuse every connection. */
		error(0, 0, "%s: %s", peer, err);
		if (!cfg.one)
			_exit(EXIT_GIVE_UP);
		close(fd);
		return 1;
	}
	if (meter && meter_mark(meter, err, sizeof(err)) < 0)
		meter_failed(err);
	where_conn_start(fd);
	c.start = now_ns();
	watch_init(&c.watch, cfg.period, cfg.stall_secs, c.start, 0);
	ticks = 0;
	start_ticker(watch_tick_ns(&c.watch));
	how = receive(&c);
	if (my_count)	/* the stream ended: the client may connect again */
		__atomic_store_n(&my_count->active, 0, __ATOMIC_RELAXED);
	rc = verdict(&c, how);
	stop_ticker();
	rx_close(cfg.method, &c.rx);
	close(fd);
	if (cfg.debug)
		fprintf(stderr, "zcs: %s: closed\n", peer);
	return rc;
}

/* --- accept ------------------------------------------------------------- */

/*
 * accept_peer - accept a connection and name its peer from accept()'s own
 * address: a client that resets at once has no peer left to ask for.
 */
static int accept_peer(int listen_fd, char *peer, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	int fd;

	fd = accept4(listen_fd, (struct sockaddr *)&ss, &sslen, SOCK_CLOEXEC);
	if (fd >= 0)
		net_addr_name((struct sockaddr *)&ss, sslen, peer, len);
	return fd;
}

/* Block or unblock the signals whose handlers only the parent may run. */
static void mask_parent_signals(int how)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(how, &set, NULL);
}

/*
 * The child's life: serve, then exit; stopped by a signal (passed on by
 * the parent, or the parent's death), print the done line and die of it.
 */
static __attribute__((noreturn)) void child(int fd, const char *peer, int listen_fd,
					    unsigned char *buf, pid_t parent, unsigned slot)
{
	int rc;

	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(1);
	signal(SIGCHLD, SIG_DFL);
	close(listen_fd);
	close(wake_pipe[0]);
	close(wake_pipe[1]);
	wake_pipe[0] = wake_pipe[1] = -1;
	free(kids);
	kids = NULL;
	free(kid_slot);
	free(count_seen);
	free(slot_used);
	kid_slot = NULL;
	count_seen = NULL;
	slot_used = NULL;
	my_count = &counts[slot];
	mask_parent_signals(SIG_UNBLOCK);
	rc = serve(fd, peer, buf);
	if (stop_signal)
		die_of(stop_signal);
	exit(rc);
}

/* Fork a child for connection fd; it dies with the parent. */
static pid_t spawn(int fd, const char *peer, int listen_fd, unsigned char *buf,
		   unsigned slot)
{
	pid_t parent = getpid(), pid;

	fflush(stdout);
	mask_parent_signals(SIG_BLOCK);
	pid = fork();
	if (pid == 0)
		child(fd, peer, listen_fd, buf, parent, slot);
	mask_parent_signals(SIG_UNBLOCK);
	return pid;
}

/* Reap the children that ended. Returns 1 if one found stdout broken. */
static int reap(void)
{
	int status, broken = 0;
	unsigned i = 0;

	/* By PID: with -c the meter's soakers are children too, and its own. */
	while (i < live) {
		if (waitpid(kids[i], &status, WNOHANG) != kids[i]) {
			i++;
			continue;
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_GIVE_UP)
			broken = 1;
		slot_free(kid_slot[i]);
		live--;
		kids[i] = kids[live];
		kid_slot[i] = kid_slot[live];
	}
	return broken;
}

/*
 * The "refused" lines of a flood: at most one a second. A line names the
 * latest peer refused and counts the refusals not shown since the line
 * before; once the flood stops, the last of them is shown the same way.
 */
static struct {
	uint64_t last_ns;	/* when the last line went out */
	unsigned unshown;	/* refused since, not shown */
	char peer[PEER_LEN];	/* the latest of those */
} refusals;

static void refused_line(const char *peer, unsigned others)
{
	if (others)
		error(0, 0, "%s: refused: already serving %u connections (-m %u); "
		      "%u more refused since the last such line", peer, live,
		      cfg.max_conns, others);
	else
		error(0, 0, "%s: refused: already serving %u connections (-m %u)",
		      peer, live, cfg.max_conns);
	refusals.last_ns = now_ns();
	refusals.unshown = 0;
}

static void refused(const char *peer)
{
	if (refusals.last_ns && now_ns() - refusals.last_ns < 1000000000u) {
		refusals.unshown++;
		snprintf(refusals.peer, sizeof(refusals.peer), "%s", peer);
		return;
	}
	refused_line(peer, refusals.unshown);
}

/* poll()'s timeout: -1, or until the refusals not shown are due a line. */
static int refused_timeout(void)
{
	uint64_t now = now_ns(), due = refusals.last_ns + 1000000000u;

	if (!refusals.unshown)
		return -1;
	if (now >= due) {
		refused_line(refusals.peer, refusals.unshown - 1);
		return -1;
	}
	return (int)((due - now) / 1000000u) + 1;
}

static void accept_one(int listen_fd, unsigned char *buf)
{
	char peer[PEER_LEN];
	struct timespec pause = { 0, 100000000L };	/* 0.1 s */
	unsigned slot;
	pid_t pid;
	int fd;

	fd = accept_peer(listen_fd, peer, sizeof(peer));
	if (fd < 0) {
		if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED)
			return;
		/* Out of descriptors or memory: say so, and do not spin. */
		error(0, errno, "accept");
		nanosleep(&pause, NULL);
		return;
	}
	reap();		/* a child may have ended since we last looked */
	if (live >= cfg.max_conns) {
		refused(peer);
		close(fd);
		return;
	}
	slot = slot_take();
	pid = spawn(fd, peer, listen_fd, buf, slot);
	if (pid < 0) {
		error(0, errno, "%s: fork", peer);
		slot_used[slot] = 0;
	} else {
		kid_slot[live] = slot;
		kids[live++] = pid;
	}
	close(fd);
}

/*
 * With -c and no connection, the parent watches the soakers itself, once
 * a period: a dead one ends zcs even while nobody is being served.
 */
static uint64_t meter_checked_ns;

static void check_meter(void)
{
	struct meter_reading mr;
	char err[512];
	uint64_t now = now_ns();

	if (!meter || live || now - meter_checked_ns < (uint64_t)(cfg.period * 1e9))
		return;
	meter_checked_ns = now;
	if (meter_sample(meter, &mr, err, sizeof(err)) < 0)
		meter_failed(err);
}

/* poll()'s timeout: for the refusals not shown, the meter's check and,
 * while children serve, the total's period. */
static int poll_timeout(void)
{
	int ms = refused_timeout(), due;
	uint64_t now = now_ns();

	if (meter && (ms < 0 || ms > (int)(cfg.period * 1000)))
		ms = (int)(cfg.period * 1000);
	if (live || period.movers) {
		due = period.next > now ? (int)((period.next - now) / 1000000u) + 1 : 0;
		if (ms < 0 || ms > due)
			ms = due;
	}
	return ms;
}

/* --- stop --------------------------------------------------------------- */

/* Pass sig to every child and wait for them all: their last lines go out. */
static void stop_children(int sig)
{
	unsigned i;
	pid_t pid;

	for (i = 0; i < live; i++)
		kill(kids[i], sig);
	while (live) {
		pid = waitpid(kids[live - 1], NULL, 0);
		if (pid > 0 || errno != EINTR)
			live--;
	}
}

/* Accept until told to stop; then stop the children and die the same way. */
static __attribute__((noreturn)) void serve_forever(int listen_fd, unsigned char *buf)
{
	struct pollfd pfd[2] = {
		{ .fd = listen_fd, .events = POLLIN },
		{ .fd = -1, .events = POLLIN },
	};
	char drain[64];
	int broken = 0;

	kids = calloc(cfg.max_conns, sizeof(*kids));
	if (!kids)
		error(1, errno, "allocate the child table");
	counts_open();
	if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		error(1, errno, "pipe");
	pfd[1].fd = wake_pipe[0];
	if (fcntl(listen_fd, F_SETFL, O_NONBLOCK) < 0)
		error(1, errno, "set the listening socket non-blocking");
	set_handler(SIGCHLD, on_child);

	while (!stop_signal && !broken) {
		if (poll(pfd, 2, poll_timeout()) < 0) {
			if (errno != EINTR)
				error(1, errno, "poll");
			pfd[0].revents = 0;
		}
		while (read(wake_pipe[0], drain, sizeof(drain)) > 0)
			;
		broken = reap();
		if (!broken)
			check_meter();
		if (!broken && !stop_signal)
			check_total();
		if (!stop_signal && !broken && (pfd[0].revents & POLLIN))
			accept_one(listen_fd, buf);
	}
	close(listen_fd);
	/* Giving up: the others' lines could not be whole (no stdout, no meter). */
	stop_children(broken ? SIGKILL : stop_signal);
	free(kids);
	free(kid_slot);
	free(count_seen);
	free(slot_used);
	free(buf);
	if (broken)
		exit(1);	/* the child said why */
	die_of(stop_signal);
}

/* -1: serve the first connection in this process. */
static int serve_one(int listen_fd, unsigned char *buf)
{
	char peer[PEER_LEN];
	int fd, rc;

	do
		fd = accept_peer(listen_fd, peer, sizeof(peer));
	while (fd < 0 && errno == EINTR && !stop_signal);
	if (stop_signal)
		die_of(stop_signal);
	if (fd < 0)
		error(1, errno, "accept");
	close(listen_fd);
	rc = serve(fd, peer, buf);
	free(buf);
	if (stop_signal)
		die_of(stop_signal);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned char *buf;
	char err[256], shown[SHOW_LEN];
	unsigned port;
	int listen_fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* One write per line, so that children logging at once do not interleave. */
	setvbuf(stderr, NULL, _IOLBF, 0);
	parse_opts(argc, argv);
	out_init("zcs", cfg.json);
	signal(SIGPIPE, SIG_IGN);
	catch_stop_signals();
	start_meter();
	if (cfg.cpu >= 0 && cpu_bind(cfg.cpu) < 0)
		error(1, errno, "run on CPU %d", cfg.cpu);
	buf = malloc(cfg.read_size);
	if (!buf)
		error(1, errno, "allocate a %zu byte read buffer", cfg.read_size);
	listen_fd = net_listen(cfg.addr, cfg.port, &cfg.net, &port, err, sizeof(err));
	if (listen_fd < 0)
		error(1, 0, "listen on %s port %u: %s",
		      cfg.addr ? show(cfg.addr, shown, sizeof(shown)) : "*",
		      cfg.port, err);
	if (out_json()) {
		out_begin("listening");
		out_int("port", port);
		out_end();
	} else {
		out_text("listening on port %u\n", port);
	}
	if (out_failed())
		exit(1);	/* out_check_at_exit says why */
	if (cfg.one)
		return serve_one(listen_fd, buf);
	serve_forever(listen_fd, buf);
}
