/*
 * zcs - the zc server. Accepts zcc connections, swallows each stream by one
 * receive method (lib/wire/rx.h) while checking it against its own headers, and
 * reports the receive rate: every period while data flows, and once when
 * the client closes. Each connection has its own child process that
 * serves it (lib/zcs/serve.h); the parent accepts, reaps, prints the
 * total: line over them and, when told to stop, passes the signal on and
 * waits for its children's last lines (lib/zcs/serve_loop.h); it alone
 * samples the meter with -c (lib/zcs/serve_sampler.h).
 *
 * Read top to bottom: the settings and their check at the door, then the
 * verbs: open the meter, listen, serve forever or serve one.
 */
#include <errno.h>
#include <error.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/env_out.h"
#include "app/mptcp_out.h"
#include "app/opt.h"
#include "app/optab.h"
#include "app/out.h"
#include "zcs/serve_conns.h"
#include "zcs/serve_dgram.h"
#include "zcs/serve_loop.h"
#include "zcs/serve_rounds.h"
#include "zcs/serve_sampler.h"
#include "app/meter_session.h"
#include "app/stop_exit.h"
#include "base/cpu.h"
#include "base/safe_text.h"
#include "meter/calib_file.h"
#include "wire/net.h"
#include "wire/rr_proto.h"
#include "wire/rx.h"

#define MAX_READ_SIZE	(64 << 20)
#define MAX_SECS	86400

enum { OPT_PLOT = 300, OPT_MPTCP, OPT_CALL_TIMES, OPT_BUDGET,	/* long options only */
       OPT_PROTO, OPT_IP_PROTO, OPT_IFNAME, OPT_STAMPS };

/* Everything the options say, set by parse_args and read everywhere else. */
struct settings {
	const char *addr;		/* -a */
	int cpu;			/* -B, -1: any */
	struct net_opts net;		/* -i, -o, --mptcp */
	unsigned port;			/* -p */
	unsigned max_conns;		/* -m */
	int json;			/* -J */
	int measure;			/* -c */
	int where;			/* -W */
	struct meter_cfg meter;		/* -N, -r, -L, -f */
	const char *methods, *sizes;	/* -M, -b: a name or size, or comma lists */
	struct rx_variants variants;	/* -M x -b; two or more: compared */
	const char *plot;		/* --plot */
	struct serve_raw_cfg raw;	/* --proto, --ip-proto, --ifname */
	struct serve_dg raw_end;	/*   its socket, opened before listening */
	/* -1 (alone), -b, -d, -M, -t, -T; and the meter opened for -c, -W */
	struct serve_cfg conn;
};

static struct settings cfg = {
	.cpu = -1,
	.port = 2222,
	.max_conns = 256,
	.meter.dflt = METER_KERNEL,
	.conn = {
		.read_size = 16384,
		.period = 5,
		.stall_secs = 60,
		.budget_ns = UINT64_MAX,
	},
};

/*
 * Every option, once: getopt_long's tables and the option lines of -h are
 * made from it, and man/zcs.1 is checked against -h.
 */
static const struct optab options[] = {
	{ 'p', "port", "PORT", "port to listen on (default 2222; 0: the kernel picks one)" },
	{ 'a', "address", "ADDR",
	  "listen on this address only (default: every IPv6 and IPv4 address; "
	  "IPv4 alone where the kernel has no IPv6)" },
	{ 'b', "read-size", "BYTES",
	  "size of each read (default 16384); a comma list compares them" },
	{ 'M', "method", "METHOD",
	  "receive method (default read; the methods below); every header word "
	  "reaches the stream check (taken with the data where the kernel lets "
	  "it), so every stream is checked against its headers. A comma list "
	  "(with -b's, every combination) compares them: each sender's run (one "
	  "connection, or those of one zcc -P: from one host within a second) is "
	  "served with the next variant, the order rotated from round to round; "
	  "after every round a table of each variant's median rate, load, service "
	  "demand and zcs's own us/KB, and each one's ratio to the first on the "
	  "deciding figure (service demand with -c, zcs's own us/KB without): "
	  "the median of the rounds' ratios, a distribution-free interval, the "
	  "rounds that agree, and cheaper, dearer or ~ (~ until 5 rounds: an "
	  "interval covering under 90% gives no verdict word)" },
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
	  "lines and -W's lines name the peer; -dd: every loop, -ddd: every file" },
	{ 'c', "cpu-load", NULL,
	  "meter this machine's CPU load (cyclesoak's way): every rate and done "
	  "line gains \", load PCT% of NCPUS CPUs, USPERKB us/KB\" (CPU time of "
	  "the whole machine per KB received); other processes over 3% of the "
	  "machine: an others: line after the done line names them" },
	{ 'W', "where", NULL,
	  "with -c: where the CPU went, after every line with the load: the load "
	  "by class (where:, also in us/KB), each CPU's load, softirq share and "
	  "NET_RX/NET_TX per second (cpus:), interrupts and the connection's "
	  "interface's packets per second (net:), kernel work by kind (kernel:; "
	  "root or perf_event_paranoid <= 0)" },
	{ 'r', "run-time", NULL, "with -c: the run-time method" },
	{ 'L', "loop-counts", NULL,
	  "with -c: the loop-count method" },
	{ 'K', "kernel-time", NULL,
	  "with -c: the kernel's idle time, no soakers (the default)" },
	{ 'f', "calibration-file", "FILE",
	  "with -c: the calibration file (default ./" CALIB_DEFAULT_PATH ")" },
	{ 'N', "cpus", "CPUS", "with -c: soakers for that many CPUs (default: the online CPUs)" },
	{ OPT_PLOT, "plot", "FILE",
	  "with a -M or -b list: after every round, the comparison as an SVG "
	  "chart in FILE" },
	{ 'J', "json", NULL,
	  "JSON Lines on stdout instead of the text lines: one object per line "
	  "with \"program\", \"event\" (listening, rate, done, broken, round, "
	  "compare), \"time\"" },
	{ OPT_MPTCP, "mptcp", NULL,
	  "Multipath TCP: listen with IPPROTO_MPTCP (plain TCP senders are served "
	  "too); -d shows each connection's subflows. A kernel that allows no "
	  "MPTCP here (net.mptcp.enabled) is one line, exit 1" },
	{ OPT_CALL_TIMES, "call-times", NULL, "time each receive step (the method's calls "
	  "for one piece): after each done line, their distribution (call-times:); "
	  "request/response over TCP: the requests' receive calls and the answers' sends" },
	{ OPT_BUDGET, "budget", "TIME", "with --call-times: count the steps over TIME" },
	{ OPT_STAMPS, "stamps", NULL, "request/response over TCP: the kernel's stamps "
	  "(SO_TIMESTAMPING) of each answer and request, a stages: line after each answered: "
	  "line (zcs's side: its answers' way out, the requests' wake-ups)" },
	{ OPT_PROTO, "proto", "PROTO", "ip (raw IP) or packet (raw Ethernet, with --ifname): "
	  "zcc --rr --proto's requests answered on that protocol too, beside TCP and UDP; "
	  "packets not of a run served are counted as foreign (a line at the end). Needs "
	  "CAP_NET_RAW" },
	{ OPT_IP_PROTO, "ip-proto", "N", "with --proto ip: the IP protocol number (default 253)" },
	{ OPT_IFNAME, "ifname", "IF", "with --proto packet: the interface to answer on" },
	{ 'h', "help", NULL, "this help" },
	{ OPTAB_VERSION, "version", NULL, "print zcs and its version" },
	{ 0, NULL, NULL, NULL },
};

/* Made from options[] by parse_args. */
static struct optab_parser parser;

static __attribute__((noreturn)) void usage(FILE *f, int status)
{
	int i;

	fprintf(f, "usage: zcs [-1cdhJKLrW] [-a address] [-b read_size] [-B cpu] [-f file]\n"
		"           [-i input_bufsize] [-m max_conns] [-M method] [-N nr_cpus]\n"
		"           [-o output_bufsize] [-p port] [-t period] [-T secs] [--plot FILE]\n"
		"           [--mptcp] [--call-times [--budget time]] [--stamps]\n"
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

/*
 * -M and -b into variants: one is zcs's method and read size, two or more
 * a comparison (never of one connection, -1).
 */
static void check_variants(void)
{
	struct rx_variants *vs = &cfg.variants;
	char note[256];

	serve_rounds_variants(vs, cfg.methods, cfg.sizes, cfg.conn.read_size, MAX_READ_SIZE);
	for (unsigned i = 0; i < vs->n; i++) {
		rx_advise(vs->v[i].method, vs->v[i].read_size, note, sizeof(note));
		if (note[0])	/* smaller reads than asked: said, never silent */
			error(0, 0, "warning: %s", note);
	}
	cfg.conn.method = vs->v[0].method;
	cfg.conn.read_size = vs->v[0].read_size;
	if (vs->n == 1) {
		if (cfg.plot)
			usage_error("--plot draws a comparison: give -M or -b a list");
		return;
	}
	if (cfg.conn.alone)
		usage_error("-1 serves one connection: a -M or -b list compares many");
	if (cfg.plot && !*cfg.plot)
		usage_error("--plot '': an empty file name");
	for (unsigned i = 0; i < vs->n; i++)	/* buf holds the largest read */
		if (vs->v[i].read_size > cfg.conn.read_size)
			cfg.conn.read_size = vs->v[i].read_size;
}

/* What makes no sense together is refused before anything is done. */
static void check_args(void)
{
	check_variants();
	if (cfg.conn.budget_ns != UINT64_MAX && !cfg.conn.call_times)
		usage_error("--budget counts the receive steps over a time: give --call-times");
	if (cfg.measure)
		return;
	if (cfg.meter.method != METER_DEFAULT)
		usage_error("-%c chooses how -c measures: give -c", app_method_letter(cfg.meter.method));
	if (cfg.meter.calib_path)
		usage_error("-f names -c's calibration file: give -c");
	if (cfg.meter.ncpus)
		usage_error("-N is the CPUs -c meters: give -c");
	if (cfg.where)
		usage_error("-W says where -c's load went: give -c");
}

/* --proto's name: ip or packet (TCP and UDP are always served). */
static int raw_proto_arg(const char *arg)
{
	char shown[SAFE_LEN];

	if (!strcmp(arg, "ip") || !strcmp(arg, "packet"))
		return arg[0] == 'i' ? RR_IP : RR_PACKET;
	usage_error("--proto '%s': ip or packet (tcp and udp are served without it)",
		    safe_text(arg, shown, sizeof(shown)));
}

/* --proto's companions, and its end opened (CAP_NET_RAW: one line, exit 1). */
static void open_raw(void)
{
	char err[256];

	if (cfg.raw.ip_proto && cfg.raw.proto != RR_IP)
		usage_error("--ip-proto is for --proto ip");
	if (!cfg.raw.ifname != (cfg.raw.proto != RR_PACKET))
		usage_error(cfg.raw.ifname ? "--ifname is for --proto packet" :
			    "--proto packet: give the interface, --ifname IF");
	if (cfg.raw.proto && cfg.conn.alone)
		usage_error("--proto %s with -1: the raw protocol is served beside TCP, by the "
			    "server that stays", cfg.raw.proto == RR_IP ? "ip" : "packet");
	if (!cfg.raw.proto)
		return;
	if (serve_dg_raw(&cfg.raw_end, &cfg.raw, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	cfg.conn.raw = &cfg.raw_end;
}

static void parse_args(int argc, char **argv)
{
	char shown[SAFE_LEN];
	const char *why;
	int c;

	if (optab_build(&parser, options, "", &why) < 0)
		error(1, 0, "option table: %s", why);
	opt_common(argc, argv, &parser, usage);
	while ((c = opt_next(argc, argv, &parser)) != -1) {
		switch (c) {
		case '1': cfg.conn.alone = 1; break;
		case 'a':
			if (!*optarg)
				usage_error("-a '': an empty address");
			cfg.addr = optarg;
			break;
		case 'b': cfg.sizes = optarg; break;
		case 'B': cfg.cpu = (int)opt_num(c, optarg, 0, cpu_max()); break;
		case 'c': cfg.measure = 1; break;
		case 'W': cfg.where = 1; break;
		case 'd': cfg.conn.debug++; break;
		case 'f': cfg.meter.calib_path = optarg; break;
		case 'L':
		case 'r':
		case 'K':
			if (app_method_opt(c, &cfg.meter.method) < 0)
				usage_error(APP_METHOD_OPPOSITE);
			break;
		case 'N': cfg.meter.ncpus = (int)opt_num(c, optarg, 1, cpu_max() + 1); break;
		case 'h': usage(stdout, 0);
		case 'i': cfg.net.rcvbuf = (int)opt_size(c, optarg, 1, NET_BUF_MAX); break;
		case 'J': cfg.json = 1; break;
		case 'm': cfg.max_conns = (unsigned)opt_num(c, optarg, 1, 65536); break;
		case 'M': cfg.methods = optarg; break;
		case 'o': cfg.net.sndbuf = (int)opt_size(c, optarg, 1, NET_BUF_MAX); break;
		case 'p': cfg.port = (unsigned)opt_num(c, optarg, 0, 65535); break;
		case OPT_PLOT: cfg.plot = optarg; break;
		case 't': cfg.conn.period = opt_secs(c, optarg, 0.01, MAX_SECS); break;
		case 'T': cfg.conn.stall_secs = opt_secs(c, optarg, 0, MAX_SECS); break;
		case OPT_MPTCP: cfg.net.mptcp = cfg.conn.mptcp = 1; break;
		case OPT_CALL_TIMES: cfg.conn.call_times = 1; break;
		case OPT_STAMPS: cfg.conn.stamps = 1; break;
		case OPT_BUDGET:
			cfg.conn.budget_ns = (uint64_t)(opt_time(c, optarg, 1e-9, 1e6) * 1e9 + 0.5);
			break;
		case OPT_PROTO: cfg.raw.proto = raw_proto_arg(optarg); break;
		case OPT_IP_PROTO: cfg.raw.ip_proto = opt_ip_proto(c, optarg); break;
		case OPT_IFNAME: cfg.raw.ifname = optarg; break;
		default: opt_refused(c);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s' (zcs -h for help)",
			    safe_text(argv[optind], shown, sizeof(shown)));
}

/* --- the meter (-c) ------------------------------------------------------ */

/* The meter failed (its sampler said why): the children's lines cannot be
 * whole, so every connection's process is killed. */
static void kill_connections(void)
{
	serve_conns_stop(SIGKILL);
}

/*
 * Soakers before -B, so that they do not inherit zcs's CPU; this process
 * alone samples them (lib/zcs/serve_sampler.h). With -W it loads the kernel's
 * symbols once and says once why kernel work is not sampled; each
 * connection's process takes its own -W snapshots.
 */
static void open_meter(void)
{
	if (!cfg.measure)
		return;
	cfg.conn.meter = app_meter_start(&cfg.meter, cfg.conn.debug);
	serve_sampler_open(cfg.conn.meter, cfg.conn.alone ? NULL : kill_connections);
	if (cfg.where)
		cfg.conn.where = where_session_open(cfg.conn.meter, cfg.conn.debug,
					       WHERE_SESSION_PAUSED);
}

/* The listening socket where -a and -p say, and its line: "listening on port N". */
static int listen_here(void)
{
	char err[256], shown[SAFE_LEN];
	unsigned port;
	int fd;

	fd = net_listen(cfg.addr, cfg.port, &cfg.net, &port, err, sizeof(err));
	if (fd < 0)
		error(1, 0, "listen on %s port %u: %s",
		      cfg.addr ? safe_text(cfg.addr, shown, sizeof(shown)) : "*",
		      cfg.port, err);
	env_print(ENV_NET, -1, cfg.conn.debug);
	line_begin("listening");
	line_int("port", port, "listening on port %lld");
	if (line_end() < 0 || out_failed())
		exit(1);	/* out_check_at_exit says why */
	return fd;
}

int main(int argc, char **argv)
{
	unsigned char *buf;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* One write per line, so that children logging at once do not interleave. */
	setvbuf(stderr, NULL, _IOLBF, 0);
	parse_args(argc, argv);
	check_args();
	open_raw();	/* before the meter: a refusal leaves nothing running */
	mptcp_asked(cfg.net.mptcp);	/* before the meter starts or a socket listens */
	out_init("zcs", cfg.json);
	signal(SIGPIPE, SIG_IGN);
	stop_catch(NULL);	/* Ctrl-C, SIGTERM, SIGHUP: a blocked accept returns */
	open_meter();
	if (cfg.cpu >= 0 && cpu_bind(cfg.cpu) < 0)
		error(1, errno, "run on CPU %d", cfg.cpu);
	buf = rx_buffer(cfg.conn.read_size);
	if (!buf)
		error(1, errno, "allocate a %zu byte read buffer", cfg.conn.read_size);
	fd = listen_here();
	if (cfg.variants.n > 1)
		serve_rounds_open(&cfg.variants, cfg.plot);
	if (cfg.conn.alone)
		return serve_one(&cfg.conn, fd, buf);
	serve_forever(&cfg.conn, fd, cfg.max_conns, buf);
}
