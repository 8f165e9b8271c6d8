/*
 * zcc - the client: stream a set of files to zcs, n times over (or for
 * about -t seconds), by one of the transmit methods of lib/wire/tx.h, then
 * report the rate and, with -c, what the transfer cost the machine's CPUs.
 *
 * The wire protocol is lib/wire/proto.h's: u32 n_loops, then per loop u32
 * n_files, then per file u32 length and the data. How each method makes
 * the header words ride with the data is the method's business
 * (lib/wire/tx_basic.c, tx_zc.c, tx_uring.c), never zcc's.
 *
 * The program reads as its usage does: the options into one struct of
 * settings, checked against each other at the door, then one verb per
 * mode: calibrate (-C), or send runs (a probe run first with -t; -R runs).
 */
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/session.h"
#include "app/stop.h"
#include "app/watch.h"
#include "base/clock.h"
#include "base/err.h"
#include "base/opt.h"
#include "base/optab.h"
#include "base/out.h"
#include "base/rate.h"
#include "base/show.h"
#include "base/stats.h"
#include "meter/calib.h"
#include "meter/cpu.h"
#include "meter/meter.h"
#include "meter/where.h"
#include "wire/net.h"
#include "wire/proto.h"
#include "wire/tcpinfo.h"
#include "wire/tx.h"

#define MAX_CHUNK (1 << 30)	/* -b: 1 GiB; more is no longer a "chunk" */
#define MAX_RUNS 10000		/* -R */
#define MAX_SECS 1e7		/* -t, -I, -T: about four months */
#define MAX_STREAMS 1024	/* -P */

/* Everything the command line says, set by parse_args only. */
struct settings {
	const char *host;
	unsigned port;
	uint32_t loops;			/* -n */
	double secs;			/* -t; 0: -n */
	double interval;		/* -I; 0: none */
	unsigned runs;			/* -R */
	double stall;			/* -T; 0: wait for ever */
	const char *method_name;	/* -M */
	const struct tx_method *method;	/* from -M, -S, -w */
	int copy_path, use_write;	/* -S, -w */
	size_t chunk;			/* -b */
	int cork;			/* -k */
	struct net_opts sockopts;	/* -i, -o, -D */
	int cpu;			/* -B of one CPU; -1: none or a list */
	int *cpus;			/* -B: the CPUs of the list */
	int n_cpus;
	unsigned streams;		/* -P */
	int debug;			/* -d */
	int json;			/* -J */
	int measure, calibrate;		/* -c, -C */
	int where;			/* -W */
	struct meter_cfg meter;		/* -N, -r or -L, -f */
	const char **names;		/* the files */
	int n_names;
};

static struct settings cfg = {
	.port = 2222, .loops = 1, .runs = 1, .stall = 60, .chunk = 65536, .cpu = -1,
	.streams = 1,
	.meter = { .calib_path = CALIB_DEFAULT_PATH },
};

/* Files to send: every loop sends the whole set once. */
struct file_set {
	struct tx_file *f;
	uint32_t n;
	uint64_t bytes;		/* one loop's data */
};

/* The files, opened once and sent every loop of every run. */
static struct file_set files;

/* A -t probe run is under way: it prints nothing. */
static int probing;

/* Exit as the stopping signal asks (lib/app/stop.h), the soakers gone first. */
static void __attribute__((noreturn)) exit_stopped(void)
{
	stop_exit(stop_signal);
}

/* What one run measured. */
struct result {
	uint64_t bytes, ns;
	uint64_t ns_closed;	/* from the first byte to the server's close */
	double rate;		/* kbytes/sec */
	int interrupted;
	uint64_t zc_sends, zc_copied;	/* zero-copy methods */
	struct tcp_figures tcp;	/* TCP_INFO at the end (-P: summed, rtt the mean) */
	int measured;		/* -c: the cpu figures below are set */
	double load, demand, own;
	int ncpus;
	const char *meter;	/* the meter's method */
};

/* ---- the cpu meter (-c) --------------------------------------------------- */

/* -c's meter while it runs (lib/app/session.h closes it at every exit). */
static struct meter *meter;

/*
 * -W: where the run's load went (printed after its cpu: line) and each -I
 * line's, over the interface the connection uses.
 */
static struct where *where;
static struct where_snap where_mark;
static struct where_report where_rep;
static char where_if[IF_NAMESIZE];

static void where_start(void)
{
	char err[512];

	where = where_open_meter(meter, err, sizeof(err));
	if (!where)
		error(1, 0, "%s", err);
	if (where_sampling_why(where))
		fprintf(stderr, "zcc: -W: kernel work not sampled: %s\n",
			where_sampling_why(where));
}

/* At the meter's mark: the socket's interface, and the counters now. */
static void where_mark_now(int sock)
{
	char err[512];

	if (!where)
		return;
	if (where_ifname(sock, where_if, sizeof(where_if), err, sizeof(err)) < 0)
		where_if[0] = '\0';	/* then every interface that moved */
	if (where_take(where, &where_mark, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
}

/* From the mark to now, into rep. */
static void where_read(const struct where_snap *mark, double load, uint64_t bytes,
		       struct where_report *rep)
{
	static struct where_snap now;
	char err[512];

	if (where_take(where, &now, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	where_compute(mark, &now, load, bytes, where_if, rep);
}

static void meter_start(void)
{
	/* Before -B, so that the soakers do not inherit the binding. */
	meter = app_meter_open(&cfg.meter, cfg.debug);
	if (cfg.where)
		where_start();
}

static void meter_mark_now(void)
{
	char err[512];

	if (meter && meter_mark(meter, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
}

static double cpu_secs_self(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * The load since meter_mark_now, into r; -1 with err when the meter has
 * no figure to give (a soaker died or was stopped).
 */
static int meter_read(struct result *r, double own_secs, char *err, size_t errlen)
{
	struct meter_reading mr;

	if (!meter)
		return 0;
	if (meter_sample(meter, &mr, err, errlen) < 0)
		return -1;
	r->measured = 1;
	r->ncpus = mr.ncpus;
	r->load = mr.load;
	r->meter = meter_method_name(meter_method(meter));
	r->demand = service_demand_us_per_kb(mr.load, mr.ncpus, mr.secs, r->bytes);
	r->own = cpu_us_per_kb(own_secs, r->bytes);
	if (where)
		where_read(&where_mark, mr.load, r->bytes, &where_rep);
	return 0;
}

/* Lines of -C, as cyclesoak -C prints them. */
/* -C: the same calibration, file, lines and refusal as cyclesoak -C. */
static int calibrate(void)
{
	return app_calibrate(&cfg.meter, 0);
}

/* ---- the command line ------------------------------------------------------ */

/*
 * Every option, once: getopt_long's tables and the option lines of -h are
 * made from it, and man/zcc.1 is checked against -h.
 */
static const struct optab options[] = {
	{ 's', "server", "HOST",
	  "server: a name, an IPv4 or IPv6 address; 0 is this machine (required)" },
	{ 'p', "port", "PORT", "TCP port, 1..65535 (default 2222)" },
	{ 'n', "loops", "N", "send the whole file set N times, 1..4294967295 (default 1)" },
	{ 't', "time", "SECS",
	  "send for about SECS seconds instead: a probe run times a loop (one loop, "
	  "or a 64 MiB sample of a bigger one; again, longer, when too short to "
	  "time), then the real run announces as many loops as fill SECS. Each "
	  "probe is a connection of its own: the server sees one or more short "
	  "streams before the real one" },
	{ 'M', "method", "METHOD", "how to send (default sendfile; the methods below)" },
	{ 'S', "copy", NULL, "= -M send: pread() each chunk into a buffer, then send() it" },
	{ 'w', "write", NULL, "with -S: write() instead of send() (= -M write)" },
	{ 'b', "chunk-size", "BYTES",
	  "chunk size of all methods but sendfile, 1 to 1G (default 64K)" },
	{ 'k', "cork", NULL, "set TCP_CORK on the connection (checked)" },
	{ 'i', "recv-buffer", "BYTES",
	  "SO_RCVBUF, the socket receive buffer, 1 to 1G (default the kernel's)" },
	{ 'o', "send-buffer", "BYTES",
	  "SO_SNDBUF, the socket send buffer, 1 to 1G (default the kernel's); a "
	  "kernel value smaller than asked is an error" },
	{ 'B', "cpu", "CPUS",
	  "bind zcc to that CPU (0 to the last CPU); with -P a list such as 0,2,4-7 "
	  "that the streams are spread over, round robin" },
	{ 'D', "so-debug", NULL, "set SO_DEBUG on the socket" },
	{ 'd', "debug", NULL, "debug output on stderr; repeat for more" },
	{ 'I', "interval", "SECS",
	  "print the rate so far as 'RATE kbytes/sec' every SECS (0.5 is fine)" },
	{ 'R', "repeat", "N",
	  "repeat the whole run N times (1..10000), a connection each, then print\n"
	  "  summary: N runs, median RATE kbytes/sec\n"
	  "           (min RATE, max RATE)" },
	{ 'T', "stall-timeout", "SECS",
	  "give up (exit 1) when connecting takes SECS, when the server takes "
	  "less than 1 KiB in the last SECS, or has not closed SECS after the last "
	  "byte (default 60; 0: wait for ever); time zcc itself was stopped does "
	  "not count" },
	{ 'c', "cpu-load", NULL,
	  "measure the system's CPU load during the transfer (cyclesoak's meter: "
	  "run time on a virtual machine, loop counts against a calibration on "
	  "bare metal) and print a second line\n"
	  "  cpu: load PCT% of NCPUS CPUs,\n"
	  "       service demand USPERKB us/KB,\n"
	  "       zcc itself USPERKB us/KB\n"
	  "(service demand: CPU time of the whole machine per KB sent; zcc itself: "
	  "zcc's own user + system time per KB); -d names the meter" },
	{ 'W', "where", NULL,
	  "with -c: where the CPU went, after the cpu: line and every -I line: the "
	  "load by class (where:, also in us/KB), each CPU's load, softirq share "
	  "and NET_RX/NET_TX per second (cpus:), interrupts and the connection's "
	  "interface's packets per second (net:), kernel work by kind (kernel:; "
	  "root or perf_event_paranoid <= 0)" },
	{ 'P', "streams", "N",
	  "N streams at once (1..1024, default 1), each its own connection and "
	  "thread, each the whole stream of the file set; the sent: line is their "
	  "sum, seconds from the first connect to the last close (-d: a line per "
	  "stream and the slowest/fastest ratio). A stream that fails ends the "
	  "run: one line names it, the others are closed" },
	{ 'r', "run-time", NULL, "with -c: the run-time meter, whatever the machine" },
	{ 'L', "loop-counts", NULL, "with -c: the loop-count meter, whatever the machine" },
	{ 'C', "calibrate", NULL,
	  "calibrate the loop counts on an idle machine, exactly as cyclesoak -C "
	  "(a noisy machine is refused, the old file kept)" },
	{ 'f', "calibration-file", "FILE",
	  "the calibration file of -c and -C (default ./" CALIB_DEFAULT_PATH ")" },
	{ 'N', "cpus", "CPUS", "CPUs for -c and -C (default: the online CPUs)" },
	{ 'J', "json", NULL,
	  "JSON Lines on stdout instead of the text lines: one object per line with "
	  "\"program\", \"event\" (sent, cpu, interval, summary, ...), \"time\"" },
	{ 'h', "help", NULL, "this help" },
	{ OPTAB_VERSION, "version", NULL, "print zcc and its version" },
	{ 0, NULL, NULL, NULL },
};

/* Made from options[] by main. */
static struct optab_parser parser;

static void usage(FILE *f, int status)
{
	fprintf(f,
"usage: zcc [-cCdDhJkLrSWw] [-b size] [-B cpu] [-f file] [-i size] [-I secs]\n"
"           [-M method] [-n n_loops | -t secs] [-N nr_cpus] [-o size] [-p port]\n"
"           [-P streams] [-R runs] [-T secs] -s server file...\n"
"\n"
"Send the files to zcs on server, n_loops times over, and print\n"
"  sent: BYTES bytes in SECONDS s, RATE kbytes/sec\n"
"BYTES counts every byte on the connection, header words included;\n"
"a kbyte is 1024 bytes.\n"
"\n");
	optab_help(f, options);
	fprintf(f, "\nMethods (-M):\n");
	for (int i = 0; tx_methods[i]; i++)
		fprintf(f, "  %-9s %s\n", tx_methods[i]->name, tx_methods[i]->how);
	fprintf(f,
"\n"
"Long options take their value as --opt=VALUE or --opt VALUE, and may be\n"
"shortened to any unambiguous prefix.\n"
"BYTES values (-b, -i, -o) take a K, M or G suffix (1024, 1024^2, 1024^3).\n"
"Options may follow the file names. Files that cannot be opened or are not\n"
"regular files are skipped with a warning; files of 4 GiB or more cannot be\n"
"described by the protocol and are refused before connecting.\n"
"Ctrl-C or SIGTERM mid-run prints the sent: line of what was sent so far,\n"
"marked (interrupted).\n"
"\n"
"Exit status: 0 sent; 1 runtime failure (no file left to send, a file too\n"
"big or shrinking, cannot resolve or connect, the server vanished, stalled\n"
"or did not close within -T, a method the kernel refuses, a read error;\n"
"with -P, any one stream's failure, named in one line);\n"
"2 usage error; 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP (128 + the signal).\n");
	exit(status);
}

/* One CPU number of -B, 0 to the last CPU; -1 when it is none. */
static long cpu_number(const char *s, char **end)
{
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, end, 10);
	return errno || v > cpu_max() ? -1 : v;
}

/* -B: one CPU, or a list of CPUs and ranges ("0,2,4-7") for -P. */
static void parse_cpus(const char *arg)
{
	char shown[SHOW_LEN], *end;
	const char *p = arg;
	long a, b;

	free(cfg.cpus);
	cfg.cpus = NULL;
	cfg.n_cpus = 0;
	for (;;) {
		a = b = cpu_number(p, &end);
		if (a >= 0 && *end == '-')
			b = cpu_number(end + 1, &end);
		if (a < 0 || b < a || (*end && *end != ','))
			usage_error("-B: '%s': want a CPU or a list such as 0,2,4-7 "
				    "(CPUs 0 to %d)", show(arg, shown, sizeof(shown)), cpu_max());
		cfg.cpus = realloc(cfg.cpus, (size_t)(cfg.n_cpus + b - a + 1) * sizeof(int));
		if (!cfg.cpus)
			error(1, errno, "memory");
		for (long c = a; c <= b; c++)
			cfg.cpus[cfg.n_cpus++] = (int)c;
		if (!*end)
			break;
		p = end + 1;
	}
	cfg.cpu = cfg.n_cpus == 1 ? cfg.cpus[0] : -1;
}

/*
 * A leading '-' in the option string makes getopt_long hand over file names
 * in place, so options may follow them even when POSIXLY_CORRECT is set.
 */
static void parse_args(int argc, char **argv)
{
	const char *why;
	int opt;

	if (optab_build(&parser, options, "-", &why) < 0)
		error(1, 0, "option table: %s", why);
	opt_common(argc, argv, &parser, usage);
	cfg.names = calloc((size_t)argc, sizeof(*cfg.names));
	if (!cfg.names)
		error(1, errno, "memory");
	while ((opt = opt_next(argc, argv, &parser)) != -1) {
		switch (opt) {
		case 1: cfg.names[cfg.n_names++] = optarg; break;
		case 's': cfg.host = optarg; break;
		case 'p': cfg.port = (unsigned)opt_num(opt, optarg, 1, 65535); break;
		case 'n': cfg.loops = (uint32_t)opt_num(opt, optarg, 1, UINT32_MAX); break;
		case 't': cfg.secs = opt_secs(opt, optarg, 0.001, MAX_SECS); break;
		case 'I': cfg.interval = opt_secs(opt, optarg, 0.01, MAX_SECS); break;
		case 'R': cfg.runs = (unsigned)opt_num(opt, optarg, 1, MAX_RUNS); break;
		case 'T': cfg.stall = opt_secs(opt, optarg, 0, MAX_SECS); break;
		case 'M': cfg.method_name = optarg; break;
		case 'S': cfg.copy_path = 1; break;
		case 'w': cfg.use_write = 1; break;
		case 'b': cfg.chunk = (size_t)opt_size(opt, optarg, 1, MAX_CHUNK); break;
		case 'k': cfg.cork = 1; break;
		case 'i': cfg.sockopts.rcvbuf = (int)opt_size(opt, optarg, 1, NET_BUF_MAX); break;
		case 'o': cfg.sockopts.sndbuf = (int)opt_size(opt, optarg, 1, NET_BUF_MAX); break;
		case 'B': parse_cpus(optarg); break;
		case 'P': cfg.streams = (unsigned)opt_num(opt, optarg, 1, MAX_STREAMS); break;
		case 'D': cfg.sockopts.debug = 1; break;
		case 'd': cfg.debug++; break;
		case 'J': cfg.json = 1; break;
		case 'c': cfg.measure = 1; break;
		case 'W': cfg.where = 1; break;
		case 'C': cfg.calibrate = 1; break;
		case 'f': cfg.meter.calib_path = optarg; break;
		case 'r':
		case 'L':
			if (meter_method_opt(opt, &cfg.meter.method) < 0)
				usage_error(METER_OPPOSITE);
			break;
		case 'N': cfg.meter.ncpus = (int)opt_num(opt, optarg, 1, cpu_max() + 1); break;
		case 'h': usage(stdout, 0); break;
		default: opt_refused(opt);
		}
	}
	while (optind < argc)	/* after "--" */
		cfg.names[cfg.n_names++] = argv[optind++];
}

/* The method from -M, -S and -w. */
static void pick_method(void)
{
	const char *implied = cfg.use_write ? "write" : "send";

	if (cfg.use_write && !cfg.copy_path)
		usage_error("-w needs -S (write() replaces send() in -S mode)");
	if (!cfg.method_name) {
		cfg.method = cfg.copy_path ? tx_find(implied) : tx_methods[0];
		return;
	}
	cfg.method = tx_find(cfg.method_name);
	if (!cfg.method) {
		char names[256] = "", shown[SHOW_LEN];

		for (int i = 0; tx_methods[i]; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", tx_methods[i]->name);
		usage_error("-M: '%s': unknown method (%s)",
			    show(cfg.method_name, shown, sizeof(shown)), names);
	}
	if (cfg.copy_path && strcmp(cfg.method->name, implied) != 0)
		usage_error("-S%s means -M %s, not -M %s", cfg.use_write ? " -w" : "",
			    implied, cfg.method->name);
}

/* What makes no sense together is refused before anything is done. */
static void check_args(void)
{
	if (cfg.calibrate && cfg.meter.method != METER_DEFAULT)
		usage_error("-C calibrates the loop counts; -r and -L choose how -c measures");
	if (cfg.calibrate && cfg.measure)
		usage_error("-C calibrates and exits; -c measures a transfer");
	if (!cfg.measure && cfg.where)
		usage_error("-W says where -c's load went: give -c");
	if (cfg.calibrate) {
		/* -C only calibrates: a transfer's option would mean nothing. */
		for (const char *o = "sSnptIRMwbkioBDTP"; *o; o++)
			if (optab_given(&parser, *o))
				usage_error("-C calibrates and exits: -%c is for a transfer", *o);
		if (cfg.n_names)
			usage_error("-C calibrates and exits: it sends no files");
		return;
	}
	for (const char *o = "fN"; *o; o++)
		if (!cfg.measure && optab_given(&parser, *o))
			usage_error("-%c is for the meter: give -c (or -C)", *o);
	if (!cfg.measure && cfg.meter.method != METER_DEFAULT)
		usage_error("-%c chooses how -c measures: give -c",
			    cfg.meter.method == METER_RUNTIME ? 'r' : 'L');
	if (!cfg.host)
		usage_error("-s HOST is required (-h for help)");
	if (!*cfg.host)
		usage_error("-s '': an empty host name");
	pick_method();
	if (optab_given(&parser, 'b') && !(cfg.method->flags & TX_CHUNKED))
		usage_error("-b: the %s method sends whole files, not chunks", cfg.method->name);
	if (optab_given(&parser, 'n') && cfg.secs > 0)
		usage_error("-n and -t: give a number of loops or a time, not both");
	if (cfg.n_names == 0)
		usage_error("no files given (-h for help)");
	if (cfg.n_cpus > 1 && cfg.streams == 1)
		usage_error("-B: a list of CPUs is for the streams of -P");
	cfg.sockopts.connect_secs = cfg.stall;	/* -T bounds connecting too */
}

/* ---- the files ----------------------------------------------------------- */

/* Open one file; 0 when it was skipped with a warning. */
static int open_one(const char *name, struct tx_file *f)
{
	struct stat st;
	char shown[SHOW_LEN];
	/* O_NONBLOCK: a FIFO must not hang the open; cleared below. */
	int fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE)
			error(1, errno, "%s", show(name, shown, sizeof(shown)));
		error(0, errno, "skipping %s", show(name, shown, sizeof(shown)));
		return 0;
	}
	if (fstat(fd, &st) < 0) {
		error(0, errno, "skipping %s", show(name, shown, sizeof(shown)));
		close(fd);
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		error(0, 0, "skipping %s: not a regular file",
		      show(name, shown, sizeof(shown)));
		close(fd);
		return 0;
	}
	if (st.st_size > (off_t)UINT32_MAX)
		error(1, 0, "%s: %lld bytes: a file of 4 GiB or more cannot be "
		      "sent (the protocol's length word has 32 bits)",
		      show(name, shown, sizeof(shown)), (long long)st.st_size);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*f = (struct tx_file){ .name = name, .fd = fd, .size = (uint32_t)st.st_size };
	if (cfg.debug > 1)
		fprintf(stderr, "zcc: %s: %" PRIu32 " bytes\n",
			show(name, shown, sizeof(shown)), f->size);
	return 1;
}

/* Open every file once; each fd is reused by every loop. */
static void open_files(void)
{
	struct rlimit rl;

	files.f = calloc((size_t)cfg.n_names + 1, sizeof(*files.f));
	if (!files.f)
		error(1, errno, "memory");
	/* Every file stays open for all loops, and -P wants sockets (and a
	 * method's pipes) per stream: allow as many as the hard limit. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max &&
	    rl.rlim_cur < (rlim_t)cfg.n_names + 16 + 4 * (rlim_t)cfg.streams) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (int i = 0; i < cfg.n_names; i++) {
		if (open_one(cfg.names[i], &files.f[files.n])) {
			files.bytes += files.f[files.n].size;
			files.n++;
		}
	}
	if (files.n == 0)
		error(1, 0, "no files to send");
}

/* ---- signals ------------------------------------------------------------- */

/*
 * Ctrl-C, SIGTERM and SIGHUP cut the run short (lib/app/stop.h: no SA_RESTART,
 * so a blocked send returns), unless ignored when zcc started (nohup).
 */
static void catch_signals(void)
{
	stop_catch(NULL);
}

/* ---- the streams of -P ---------------------------------------------------- */

struct group;

/* One stream of -P: its own connection, thread, method state and files. */
struct stream {
	unsigned idx;		/* 1..N, as messages name it */
	int cpu;		/* -B list: its CPU; -1: as the process */
	struct group *g;
	struct tx t;		/* t.sock: -1 until connected and after close */
	struct file_set set;	/* its own entries: a method maps into them */
	char peer[300];
	char err[512];
	int sending;		/* the -T watch of the stream runs */
	uint32_t loops;
	int connected, interrupted;
	uint64_t t0, t_end;	/* connected, closed */
	struct tcp_figures tcp;
	pthread_t thread;
};

/* The streams of one run. lock guards every t.sock against its close. */
struct group {
	struct stream *s;
	unsigned n;
	int stop;			/* a signal or a failure: the streams end */
	/*
	 * Every stream's t.stop, never set: a stream thread has every signal
	 * blocked, so no send of its returns EINTR; the main thread ends them
	 * by shutting their sockets instead, and no flag is shared unlocked.
	 */
	volatile sig_atomic_t never;
	unsigned running;		/* threads not yet done */
	unsigned failed;		/* the first stream that failed, or 0 */
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* a stream is done or failed */
};

/* ---- the watcher: interval lines (-I) and the stall limit (-T) ---------- */

struct watcher {
	struct tx *t;		/* one stream, */
	struct group *g;	/* or the streams of -P */
	struct watch watch;	/* lib/app/watch.h: lines due, the stall rule */
	struct watch *each;	/* -P with -T: one stall rule per stream */
	uint64_t *last;		/* -P -I -d: each stream's bytes at the last line */
	int running, done, stalled;
	unsigned stalled_idx;	/* -P: the stream that stalled */
	uint64_t moved;		/* in the -T window, when it stalled */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
};

/* Bytes on the watched connections so far. */
static uint64_t watched_bytes(const struct watcher *w)
{
	uint64_t sum = 0;

	if (!w->g)
		return __atomic_load_n(&w->t->bytes, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < w->g->n; i++)
		sum += __atomic_load_n(&w->g->s[i].t.bytes, __ATOMIC_RELAXED);
	return sum;
}

/* TCP_INFO of the open watched connections, summed (rtt: the mean). */
static void watched_tcp(const struct watcher *w, struct tcp_figures *sum)
{
	struct tcp_figures one;
	unsigned n = 0;

	*sum = (struct tcp_figures){ 0 };
	if (!w->g) {
		tcpinfo_read(w->t->sock, sum);
		return;
	}
	pthread_mutex_lock(&w->g->lock);
	for (unsigned i = 0; i < w->g->n; i++) {
		if (w->g->s[i].t.sock >= 0 && tcpinfo_read(w->g->s[i].t.sock, &one) == 0) {
			tcpinfo_add(sum, &one);
			n++;
		}
	}
	pthread_mutex_unlock(&w->g->lock);
	tcpinfo_mean(sum, n);
}

/* An -I line; with -W, where: lines from *mark (then moved to now). */
static void print_interval(const struct watcher *w, uint64_t bytes, uint64_t ns,
			   struct where_snap *mark)
{
	static struct where_snap now;
	static struct where_report rep;
	struct tcp_figures tcp;

	/* No meter reading covers an interval: no unattributed share. */
	if (where && mark && where_take(where, &now, NULL, 0) == 0) {
		where_compute(mark, &now, NAN, bytes, where_if, &rep);
		*mark = now;
	}
	if (out_json()) {
		watched_tcp(w, &tcp);
		out_begin("interval");
		out_num("seconds", (double)ns / 1e9, 3);
		out_u64("bytes", bytes);
		out_num("kbytes_per_sec", kbytes_per_sec(bytes, ns), 0);
		if (where && mark)
			where_json(&rep);
		out_u64("retransmits", tcp.retransmits);
		out_u64("rtt_us", tcp.rtt_us);
		out_u64("cwnd_bytes", tcp.cwnd_bytes);
		out_end();
	} else {
		out_text("%.0f kbytes/sec\n", kbytes_per_sec(bytes, ns));
		if (where && mark)
			where_print(&rep);
		fflush(stdout);
	}
}

/* -P -I -d: each stream's rate over the interval just printed. */
static void debug_interval(struct watcher *w, uint64_t ns)
{
	uint64_t b;

	for (unsigned i = 0; i < w->g->n; i++) {
		b = __atomic_load_n(&w->g->s[i].t.bytes, __ATOMIC_RELAXED);
		fprintf(stderr, "zcc: stream %u: %.0f kbytes/sec\n", w->g->s[i].idx,
			kbytes_per_sec(b - w->last[i], ns));
		w->last[i] = b;
	}
}

/*
 * -P with -T: each stream that is sending has a stall rule of its own (a
 * straggler must not hide behind the others' bytes). The first that
 * stalls is shut down, which fails it and so ends the run. Returns 1 then.
 */
static int look_each(struct watcher *w, uint64_t now)
{
	struct watch_news news;
	struct stream *s;

	for (unsigned i = 0; i < w->g->n; i++) {
		s = &w->g->s[i];
		if (!__atomic_load_n(&s->sending, __ATOMIC_ACQUIRE))
			continue;
		if (w->each[i].slot_ns == 0)	/* its first look */
			watch_init(&w->each[i], 0, cfg.stall, now,
				   __atomic_load_n(&s->t.bytes, __ATOMIC_RELAXED));
		watch_look(&w->each[i], now, __atomic_load_n(&s->t.bytes, __ATOMIC_RELAXED),
			   &news);
		if (!news.stalled)
			continue;
		w->stalled = 1;
		w->stalled_idx = s->idx;
		w->moved = news.moved;
		pthread_mutex_lock(&w->g->lock);
		if (s->t.sock >= 0)
			shutdown(s->t.sock, SHUT_RDWR);	/* the send returns */
		pthread_mutex_unlock(&w->g->lock);
		return 1;
	}
	return 0;
}

/* The watcher thread: it sleeps until a look is due, so the send loop
 * never pays for -I or -T. */
static void *watch_run(void *arg)
{
	struct watcher *w = arg;
	static struct where_snap mark;
	struct watch_news news;
	struct timespec ts;
	uint64_t due, now;

	if (where && w->watch.line_ns > 0)
		where_take(where, &mark, NULL, 0);

	pthread_mutex_lock(&w->lock);
	while (!w->done) {
		now = now_ns();
		watch_look(&w->watch, now, watched_bytes(w), &news);
		if (news.line)
			print_interval(w, news.line_bytes, news.line_ns, &mark);
		if (news.line && w->last)
			debug_interval(w, news.line_ns);
		if (news.stalled) {
			w->stalled = 1;
			w->moved = news.moved;
			shutdown(w->t->sock, SHUT_RDWR);	/* the send returns */
			break;
		}
		if (w->each && look_each(w, now))
			break;
		due = watch_due(&w->watch);
		if (w->each && now + 100000000u < due)
			due = now + 100000000u;	/* the streams' rules: 0.1 s is enough */
		ts.tv_sec = (time_t)(due / 1000000000u);
		ts.tv_nsec = (long)(due % 1000000000u);
		pthread_cond_timedwait(&w->wake, &w->lock, &ts);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/*
 * Start the watcher of t, or of the streams of g, with every signal
 * blocked: they are the main thread's.
 */
static void watch_start(struct watcher *w, struct tx *t, struct group *g)
{
	double interval = probing ? 0 : cfg.interval;
	pthread_condattr_t ca;
	sigset_t all, old;
	int e;

	*w = (struct watcher){ .t = t, .g = g };
	if (interval == 0 && cfg.stall == 0)
		return;
	/* One stream: one rule for lines and stall; -P: lines of the sum. */
	watch_init(&w->watch, interval, g ? 0 : cfg.stall, now_ns(), 0);
	if (g && cfg.stall > 0) {
		w->each = calloc(g->n, sizeof(*w->each));
		if (!w->each)
			error(1, errno, "memory");
	}
	if (g && interval > 0 && cfg.debug) {
		w->last = calloc(g->n, sizeof(*w->last));
		if (!w->last)
			error(1, errno, "memory");
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->wake, &ca);
	pthread_condattr_destroy(&ca);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	e = pthread_create(&w->thread, NULL, watch_run, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e)
		error(1, e, "a thread for -I / -T");
	w->running = 1;
}

static void watch_stop(struct watcher *w)
{
	if (!w->running)
		return;
	pthread_mutex_lock(&w->lock);
	w->done = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w->each);
	free(w->last);
	w->each = NULL;
	w->last = NULL;
}

/* ---- what zcc prints ------------------------------------------------------- */

static void print_sent(const struct result *r)
{
	char line[200];

	if (!out_json()) {
		format_rate_line(line, sizeof(line), "sent", r->bytes, r->ns);
		out_text("%s%s\n", line, r->interrupted ? " (interrupted)" : "");
		return;
	}
	out_begin("sent");
	out_u64("bytes", r->bytes);
	out_num("seconds", (double)r->ns / 1e9, 3);
	out_num("kbytes_per_sec", kbytes_per_sec(r->bytes, r->ns), 0);
	out_str("method", cfg.method->name);
	out_bool("interrupted", r->interrupted);
	out_num("own_us_per_kb", r->own, 3);
	if (cfg.streams > 1)
		out_int("streams", (int)cfg.streams);
	if (r->zc_sends) {
		out_u64("zc_sends", r->zc_sends);
		out_u64("zc_copied", r->zc_copied);
	}
	out_u64("retransmits", r->tcp.retransmits);
	out_u64("rtt_us", r->tcp.rtt_us);
	out_u64("cwnd_bytes", r->tcp.cwnd_bytes);
	out_end();
}

/* -d: TCP's own account, "tcp: ..." after what on stderr. */
static void print_tcp(const char *what, const struct tcp_figures *tcp)
{
	fprintf(stderr, "zcc: %stcp: %" PRIu64 " retransmits, rtt %.3f ms, cwnd %" PRIu64
		" KB\n", what, tcp->retransmits, (double)tcp->rtt_us / 1000,
		tcp->cwnd_bytes / 1024);
}

static void print_cpu(const struct result *r)
{
	if (!out_json()) {
		out_text("cpu: load %.1f%% of %d CPUs, service demand %.3f us/KB, "
			 "zcc itself %.3f us/KB\n", r->load * 100, r->ncpus, r->demand,
			 r->own);
		if (where)
			where_print(&where_rep);
		return;
	}
	out_begin("cpu");
	out_num("load_pct", r->load * 100, 1);
	out_int("ncpus", r->ncpus);
	out_num("service_demand_us_per_kb", r->demand, 3);
	out_num("own_us_per_kb", r->own, 3);
	out_str("meter", r->meter);
	if (where)
		where_json(&where_rep);
	out_end();
}

static void print_result(const struct result *r)
{
	print_sent(r);
	if (r->measured)
		print_cpu(r);
	if (out_failed())
		exit(1);	/* the at-exit check says why */
	if (r->zc_sends && cfg.debug)
		fprintf(stderr, "zcc: zero-copy: %" PRIu64 " sends, %" PRIu64
			" copied by the kernel\n", r->zc_sends, r->zc_copied);
	if (cfg.debug && !probing)
		print_tcp("", &r->tcp);
	if (r->measured && !r->interrupted && r->ns < 1000000000u)
		error(0, 0, "warning: a transfer of %.3f s is too short for "
		      "a steady load figure: raise -n or -t", (double)r->ns / 1e9);
}

/* The figures of a run that the summary takes the median, least and most of. */
enum figure { FIG_RATE, FIG_LOAD, FIG_DEMAND };

static double figure_of(const struct result *r, enum figure f)
{
	switch (f) {
	case FIG_LOAD:
		return r->load;
	case FIG_DEMAND:
		return r->demand;
	case FIG_RATE:
	default:
		return r->rate;
	}
}

/* The median, least and most of one figure of every run. */
static void summarise_one(const struct result *rs, unsigned n, enum figure f,
			  double scale, struct stats_sum *sum)
{
	double *v = calloc(n, sizeof(*v));

	if (!v)
		error(1, errno, "memory");
	for (unsigned i = 0; i < n; i++)
		v[i] = figure_of(&rs[i], f) * scale;
	stats_summarise(v, n, sum);
	free(v);
}

static void summary_json(unsigned n, const struct stats_sum *rate,
			 const struct stats_sum *load, const struct stats_sum *demand)
{
	out_begin("summary");
	out_int("runs", n);
	out_num("kbytes_per_sec_median", rate->median, 0);
	out_num("kbytes_per_sec_min", rate->min, 0);
	out_num("kbytes_per_sec_max", rate->max, 0);
	if (load) {
		out_num("load_pct_median", load->median, 1);
		out_num("load_pct_min", load->min, 1);
		out_num("load_pct_max", load->max, 1);
		out_num("service_demand_us_per_kb_median", demand->median, 3);
		out_num("service_demand_us_per_kb_min", demand->min, 3);
		out_num("service_demand_us_per_kb_max", demand->max, 3);
	}
	out_end();
}

static void summarise(const struct result *rs, unsigned n)
{
	struct stats_sum rate, load, demand;
	int cpu = rs[0].measured;

	summarise_one(rs, n, FIG_RATE, 1, &rate);
	if (cpu) {
		summarise_one(rs, n, FIG_LOAD, 100, &load);
		summarise_one(rs, n, FIG_DEMAND, 1, &demand);
	}
	if (out_json()) {
		summary_json(n, &rate, cpu ? &load : NULL, &demand);
	} else {
		out_text("summary: %u runs, median %.0f kbytes/sec (min %.0f, max %.0f)\n",
			 n, rate.median, rate.min, rate.max);
		if (cpu)
			out_text("summary cpu: load median %.1f%% (min %.1f, max %.1f), "
				 "service demand median %.3f us/KB (min %.3f, max %.3f)\n",
				 load.median, load.min, load.max, demand.median,
				 demand.min, demand.max);
	}
	if (out_failed())
		exit(1);
}

/* ---- one run ---------------------------------------------------------------- */

/* A connection to the server, set up as the options ask; -1 with err. */
static int connect_to(char *peer, size_t peerlen, char *err, size_t errlen)
{
	int sock = net_connect(cfg.host, cfg.port, &cfg.sockopts, err, errlen);

	if (sock < 0)
		return -1;
	if (cfg.cork && net_set_cork(sock, err, errlen) < 0) {
		close(sock);
		return -1;
	}
	snprintf(peer, peerlen, "%s port %u", cfg.host, cfg.port);
	if (cfg.debug) {
		int sndbuf = 0;
		socklen_t len = sizeof(sndbuf);
		char name[160];

		net_peer_name(sock, name, sizeof(name));
		getsockopt(sock, SOL_SOCKET, SO_SNDBUF, &sndbuf, &len);
		fprintf(stderr, "zcc: connected to %s, SO_SNDBUF %d\n", name, sndbuf);
	}
	return sock;
}

static int connect_server(char *peer, size_t peerlen)
{
	char err[256];
	int sock = connect_to(peer, peerlen, err, sizeof(err));

	if (sock < 0) {
		if (stop_signal)
			exit_stopped();
		error(1, 0, "%s", err);
	}
	return sock;
}

/*
 * Everything is in the kernel's hands; see it delivered. A zcs closes once
 * it has read our end of stream; a reset here means it died holding data.
 * -T bounds the wait. Returns 0, -1 when *t->stop cut it short, -2 with
 * err when the server failed.
 */
static int await_close(struct tx *t, char *err, size_t errlen)
{
	const char *peer = t->peer;
	int sock = t->sock;
	struct pollfd p = { .fd = sock, .events = POLLIN };
	uint64_t deadline = now_ns() + (uint64_t)(cfg.stall * 1e9);
	int64_t left;
	char buf[512];
	ssize_t n = 1;

	if (shutdown(sock, SHUT_WR) < 0) {
		if (*t->stop)
			return -1;
		err_fill(err, errlen, errno, "%s: shutdown", peer);
		return -2;
	}
	while (n != 0) {
		left = (int64_t)(deadline - now_ns()) / 1000000;
		if (cfg.stall > 0 && left <= 0) {
			snprintf(err, errlen, "%s: has not closed the connection %g s after "
				 "the last byte (-T)", peer, cfg.stall);
			return -2;
		}
		if (poll(&p, 1, cfg.stall > 0 ? (int)(left < 1000 ? left + 1 : 1000) : -1) < 0 ||
		    !(p.revents & (POLLIN | POLLHUP | POLLERR)))
			n = 1;
		else
			n = read(sock, buf, sizeof(buf));
		if (*t->stop)
			return -1;
		if (n < 0 && errno != EINTR) {
			err_fill(err, errlen, errno, "waiting for %s to close", peer);
			return -2;
		}
	}
	return 0;
}

static void setup_method(struct tx *t, const struct file_set *set)
{
	char err[256];

	if (tx_open(cfg.method, t, set->f, set->n, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
}

/* Send the whole stream of loops of set once on a fresh connection. */
static struct result run_once(const struct file_set *set, uint32_t loops)
{
	struct tx t = { .chunk = cfg.chunk, .stop = &stop_signal };
	struct result r = { 0 };
	struct watcher w;
	char err[256], peer[300], merr[512];
	uint64_t t0;
	double own0;
	int rc, mrc;

	t.sock = connect_server(peer, sizeof(peer));
	t.peer = peer;
	setup_method(&t, set);
	if (cfg.debug)
		fprintf(stderr, "zcc: %s, %" PRIu32 " file%s of %" PRIu64 " bytes in all, %"
			PRIu32 " loop%s, %" PRIu64 " bytes on the connection\n",
			cfg.method->name, set->n, set->n == 1 ? "" : "s", set->bytes, loops,
			loops == 1 ? "" : "s", proto_stream_bytes(loops, set->n, set->bytes));
	meter_mark_now();
	where_mark_now(t.sock);
	own0 = cpu_secs_self();
	watch_start(&w, &t, NULL);
	t0 = now_ns();
	rc = tx_send_stream(cfg.method, &t, set->f, set->n, loops, err, sizeof(err));
	r.ns = now_ns() - t0;
	watch_stop(&w);
	r.bytes = t.bytes;
	r.rate = kbytes_per_sec(r.bytes, r.ns);
	r.zc_sends = t.zc_sends;
	r.zc_copied = t.zc_copied;
	r.own = cpu_us_per_kb(cpu_secs_self() - own0, r.bytes);
	mrc = meter_read(&r, cpu_secs_self() - own0, merr, sizeof(merr));
	tx_close(cfg.method, &t, set->f, set->n);
	if (rc < 0 && w.stalled && w.moved == 0)
		error(1, 0, "%s: took no data for %g s (-T)", peer, cfg.stall);
	if (rc < 0 && w.stalled)
		error(1, 0, "%s: took only %" PRIu64 " bytes in the last %g s (under 1 KiB, -T)",
		      peer, w.moved, cfg.stall);
	if (rc < 0 && !stop_signal)
		error(1, 0, "%s", err);
	if (rc == 0) {
		rc = await_close(&t, err, sizeof(err));
		if (rc == -2)
			error(1, 0, "%s", err);
	}
	r.interrupted = rc < 0;
	r.ns_closed = now_ns() - t0;
	tcpinfo_read(t.sock, &r.tcp);
	close(t.sock);
	if (mrc < 0) {		/* no cpu figure from this run */
		print_result(&r);
		error(1, 0, "%s", merr);
	}
	if (!r.interrupted && r.bytes != proto_stream_bytes(loops, set->n, set->bytes))
		error(1, 0, "internal error: sent %" PRIu64 " bytes, the protocol says %"
		      PRIu64, r.bytes, proto_stream_bytes(loops, set->n, set->bytes));
	return r;
}

/* ---- -P: the streams of one run -------------------------------------------- */

/*
 * Stream s failed with err: the first failure ends the run, and stops the
 * others (the main thread shuts their sockets). A failure after the stop
 * is only the stop seen from inside.
 */
static void stream_fail(struct stream *s, const char *err)
{
	struct group *g = s->g;

	pthread_mutex_lock(&g->lock);
	if (!g->stop) {
		g->stop = 1;
		g->failed = s->idx;
		snprintf(s->err, sizeof(s->err), "%s", err);
		pthread_cond_signal(&g->wake);
	} else {
		s->interrupted = 1;
	}
	pthread_mutex_unlock(&g->lock);
}

/* The run is being stopped: what failed now only felt the stop. */
static int stream_stopped(struct group *g)
{
	int stop;

	pthread_mutex_lock(&g->lock);
	stop = g->stop;
	pthread_mutex_unlock(&g->lock);
	return stop;
}

/* Bind the calling thread to cpu; -1 with err. */
static int bind_thread(int cpu, char *err, size_t errlen)
{
	cpu_set_t set;
	int e;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (e)
		return err_fill(err, errlen, e, "bind to CPU %d", cpu);
	return 0;
}

/* One stream's thread: connect, send the whole stream, see it closed. */
static void *stream_run(void *arg)
{
	struct stream *s = arg;
	struct group *g = s->g;
	char err[512];
	int sock, rc;

	if (s->cpu >= 0 && bind_thread(s->cpu, err, sizeof(err)) < 0) {
		stream_fail(s, err);
		goto done;
	}
	sock = connect_to(s->peer, sizeof(s->peer), err, sizeof(err));
	if (sock < 0) {
		stream_fail(s, err);
		goto done;
	}
	pthread_mutex_lock(&g->lock);
	s->t.sock = sock;
	s->t.peer = s->peer;
	s->connected = 1;
	if (g->stop)		/* stopped while connecting: no send to wake */
		shutdown(sock, SHUT_RDWR);
	pthread_mutex_unlock(&g->lock);
	rc = tx_open(cfg.method, &s->t, s->set.f, s->set.n, err, sizeof(err));
	s->t0 = now_ns();
	if (rc < 0 && stream_stopped(g))
		s->interrupted = 1;
	if (rc == 0) {
		__atomic_store_n(&s->sending, 1, __ATOMIC_RELEASE);
		rc = tx_send_stream(cfg.method, &s->t, s->set.f, s->set.n, s->loops, err,
				    sizeof(err));
		__atomic_store_n(&s->sending, 0, __ATOMIC_RELEASE);
	}
	if (rc == 0)
		rc = await_close(&s->t, err, sizeof(err));
	if (rc < 0 && stream_stopped(g))
		s->interrupted = 1;
	if (rc < 0 && !s->interrupted)
		stream_fail(s, err);
	tcpinfo_read(sock, &s->tcp);
	s->t_end = now_ns();
	tx_close(cfg.method, &s->t, s->set.f, s->set.n);
	pthread_mutex_lock(&g->lock);
	s->t.sock = -1;
	pthread_mutex_unlock(&g->lock);
	close(sock);
done:
	pthread_mutex_lock(&g->lock);
	g->running--;
	pthread_cond_signal(&g->wake);
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

/* One stream's rate, kbytes/sec, over its own time. */
static double stream_rate(const struct stream *s)
{
	return kbytes_per_sec(s->t.bytes, s->t_end - s->t0);
}

/* -d: a line per stream, and how far apart the slowest and fastest are. */
static void debug_streams(const struct group *g)
{
	const struct stream *s, *slow = &g->s[0], *fast = &g->s[0];
	char what[32];

	for (unsigned i = 0; i < g->n; i++) {
		s = &g->s[i];
		fprintf(stderr, "zcc: stream %u: %" PRIu64 " bytes in %.3f s, %.0f kbytes/sec%s\n",
			s->idx, s->t.bytes, (double)(s->t_end - s->t0) / 1e9, stream_rate(s),
			s->interrupted ? " (interrupted)" : "");
		if (stream_rate(s) < stream_rate(slow))
			slow = s;
		if (stream_rate(s) > stream_rate(fast))
			fast = s;
		if (cfg.debug > 1) {
			snprintf(what, sizeof(what), "stream %u: ", s->idx);
			print_tcp(what, &s->tcp);
		}
	}
	fprintf(stderr, "zcc: streams: slowest/fastest %.3f (stream %u, stream %u)\n",
		stream_rate(fast) > 0 ? stream_rate(slow) / stream_rate(fast) : 0,
		slow->idx, fast->idx);
}

/* -J: one stream event per stream. */
static void print_streams(const struct group *g)
{
	const struct stream *s;

	for (unsigned i = 0; i < g->n; i++) {
		s = &g->s[i];
		out_begin("stream");
		out_int("stream", (int)s->idx);
		out_u64("bytes", s->t.bytes);
		out_num("seconds", (double)(s->t_end - s->t0) / 1e9, 3);
		out_num("kbytes_per_sec", stream_rate(s), 0);
		out_bool("interrupted", s->interrupted);
		out_u64("retransmits", s->tcp.retransmits);
		out_u64("rtt_us", s->tcp.rtt_us);
		out_u64("cwnd_bytes", s->tcp.cwnd_bytes);
		out_end();
	}
}

/* Shut every open connection of g: a send blocked in a stream returns. */
static void shut_streams(struct group *g)
{
	for (unsigned i = 0; i < g->n; i++)
		if (g->s[i].t.sock >= 0)
			shutdown(g->s[i].t.sock, SHUT_RDWR);
}

/* Free what run_group made for g. */
static void group_free(struct group *g)
{
	for (unsigned i = 0; i < g->n; i++)
		free(g->s[i].set.f);
	free(g->s);
	pthread_cond_destroy(&g->wake);
	pthread_mutex_destroy(&g->lock);
}

/* The stream that failed, said in one line; exits 1. */
static void __attribute__((noreturn)) group_failed(const struct group *g,
						   const struct watcher *w)
{
	const struct stream *s = &g->s[g->failed - 1];

	if (w->stalled && w->stalled_idx == s->idx && w->moved == 0)
		error(1, 0, "stream %u: %s: took no data for %g s (-T)", s->idx, s->peer,
		      cfg.stall);
	if (w->stalled && w->stalled_idx == s->idx)
		error(1, 0, "stream %u: %s: took only %" PRIu64 " bytes in the last %g s "
		      "(under 1 KiB, -T)", s->idx, s->peer, w->moved, cfg.stall);
	error(1, 0, "stream %u: %s", s->idx, s->err);
	exit(1);
}

/*
 * -P: the streams at once, each in a thread of its own with every signal
 * blocked; the main thread waits for them, and on a signal or a failure
 * sets the stop flag their loops read and shuts their sockets. The result
 * is the sum: every stream's bytes, from the first connect to the last
 * close.
 */
static struct result run_group(uint32_t loops)
{
	struct group g = { .n = cfg.streams };
	struct result r = { 0 };
	struct watcher w;
	pthread_condattr_t ca;
	pthread_attr_t ta;
	sigset_t all, old;
	struct timespec ts;
	char merr[512];
	uint64_t first = UINT64_MAX, last = 0;
	unsigned started = 0, shut = 0, n_tcp = 0;
	double own0;
	int mrc, e = 0;

	g.s = calloc(g.n, sizeof(*g.s));
	if (!g.s)
		error(1, errno, "memory");
	pthread_mutex_init(&g.lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g.wake, &ca);
	pthread_condattr_destroy(&ca);
	for (unsigned i = 0; i < g.n; i++) {
		struct stream *s = &g.s[i];

		s->idx = i + 1;
		s->g = &g;
		s->loops = loops;
		s->cpu = cfg.n_cpus > 1 ? cfg.cpus[i % (unsigned)cfg.n_cpus] : -1;
		s->t = (struct tx){ .sock = -1, .chunk = cfg.chunk, .stop = &g.never };
		s->set = files;
		s->set.f = calloc(files.n, sizeof(*files.f));
		if (!s->set.f)
			error(1, errno, "memory");
		memcpy(s->set.f, files.f, files.n * sizeof(*files.f));
	}
	if (cfg.debug)
		fprintf(stderr, "zcc: %u streams, %s, %" PRIu32 " file%s of %" PRIu64
			" bytes in all, %" PRIu32 " loop%s, %" PRIu64 " bytes on each\n",
			g.n, cfg.method->name, files.n, files.n == 1 ? "" : "s", files.bytes,
			loops, loops == 1 ? "" : "s",
			proto_stream_bytes(loops, files.n, files.bytes));
	meter_mark_now();
	own0 = cpu_secs_self();
	watch_start(&w, NULL, &g);

	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, 1 << 20);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_mutex_lock(&g.lock);
	for (; started < g.n; started++) {
		e = pthread_create(&g.s[started].thread, &ta, stream_run, &g.s[started]);
		if (e)
			break;
		g.running++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&ta);
	if (e)
		g.stop = 1;
	while (g.running > 0) {
		if (stop_signal)
			g.stop = 1;
		if (g.stop && !shut) {
			shut_streams(&g);
			shut = 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 50000000;		/* a signal is seen within 50 ms */
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&g.wake, &g.lock, &ts);
	}
	pthread_mutex_unlock(&g.lock);
	for (unsigned i = 0; i < started; i++)
		pthread_join(g.s[i].thread, NULL);
	watch_stop(&w);
	if (e)
		error(1, e, "a thread for stream %u", started + 1);

	for (unsigned i = 0; i < g.n; i++) {
		struct stream *s = &g.s[i];

		if (!s->connected)
			continue;
		r.bytes += s->t.bytes;
		r.zc_sends += s->t.zc_sends;
		r.zc_copied += s->t.zc_copied;
		first = s->t0 < first ? s->t0 : first;
		last = s->t_end > last ? s->t_end : last;
		if (s->tcp.cwnd_bytes || s->tcp.rtt_us) {
			tcpinfo_add(&r.tcp, &s->tcp);
			n_tcp++;
		}
	}
	tcpinfo_mean(&r.tcp, n_tcp);
	if (g.failed)
		group_failed(&g, &w);
	r.ns = last > first ? last - first : 0;
	r.ns_closed = r.ns;
	r.rate = kbytes_per_sec(r.bytes, r.ns);
	r.interrupted = stop_signal != 0;
	mrc = meter_read(&r, cpu_secs_self() - own0, merr, sizeof(merr));
	if (mrc < 0) {
		print_result(&r);
		error(1, 0, "%s", merr);
	}
	print_result(&r);
	if (out_json())
		print_streams(&g);
	if (cfg.debug)
		debug_streams(&g);
	if (!r.interrupted && r.bytes != g.n * proto_stream_bytes(loops, files.n, files.bytes))
		error(1, 0, "internal error: sent %" PRIu64 " bytes, the protocol says %u x %"
		      PRIu64, r.bytes, g.n, proto_stream_bytes(loops, files.n, files.bytes));
	group_free(&g);
	return r;
}

/*
 * About budget bytes of one loop of files, into probe (room for files.n
 * entries): every s-th file from the first, then every s-th from the
 * second and so on, so that the sample holds the loop's mix of small and
 * big files wherever they stand (the first half of /usr/lib's sorted
 * names sent 13% slower per byte than the second); the file it ends in is
 * cut short. NULL when a whole loop is no more than budget.
 */
static const struct file_set *loop_sample(uint64_t budget, struct file_set *probe)
{
	uint64_t left = budget, s = files.bytes / (budget ? budget : 1) + 1;
	uint32_t stride = s < files.n ? (uint32_t)s : files.n, start, i, n = 0;

	if (budget >= files.bytes)
		return NULL;
	probe->bytes = 0;
	for (start = 0; start < stride && left > 0; start++) {
		for (i = start; i < files.n && left > 0; i += stride) {
			probe->f[n] = files.f[i];
			probe->f[n].map = NULL;
			if (probe->f[n].size > left)
				probe->f[n].size = (uint32_t)left;
			left -= probe->f[n].size;
			probe->bytes += probe->f[n].size;
			n++;
		}
	}
	probe->n = n;
	return probe;
}

/*
 * -t: time a probe run, then the loops that fill cfg.secs. A probe is timed
 * to the server's close, so what only went into the socket buffers is not
 * taken for sent. It sends at first one loop, or a 64 MiB sample of it
 * when a loop is bigger (the server cannot tell); one too short to time well
 * (connecting and closing weigh in it) is run again, each a stream of its
 * own, scaled up until one lasts about a tenth of -t (0.2 to 1 s). The loop
 * time is the probe's time scaled by bytes.
 */
static uint32_t loops_for_secs(void)
{
	struct file_set probe_set = { .f = calloc(files.n, sizeof(*files.f)) };
	double target = cfg.secs / 10, secs, per_loop, want, budget = 64 << 20;
	const double loop_bytes = (double)proto_stream_bytes(1, files.n, files.bytes) - 4;
	const struct file_set *set;
	uint32_t k = 1;
	struct result r;

	if (!probe_set.f)
		error(1, errno, "memory");
	target = target < 0.2 ? 0.2 : target > 1 ? 1 : target;
	for (int tries = 0;; tries++) {
		set = loop_sample((uint64_t)budget, &probe_set);
		r = run_once(set ? set : &files, k);
		if (r.interrupted) {
			probing = 0;	/* what the probe sent is not lost */
			print_result(&r);
			exit_stopped();
		}
		secs = (double)r.ns_closed / 1e9;
		per_loop = secs * loop_bytes / (double)(r.bytes - 4);
		if (cfg.debug > 1)
			fprintf(stderr, "zcc: probe %d: %" PRIu64 " bytes in %.3f s (sent in %.3f s)\n",
				tries + 1, r.bytes, secs, (double)r.ns / 1e9);
		if (secs >= target * 0.75 || tries == 4 || k == UINT32_MAX)
			break;
		want = target / (secs > 1e-6 ? secs : 1e-6);	/* how much longer */
		if (set)
			budget = (double)set->bytes * want;
		else
			k = k * want > UINT32_MAX ? UINT32_MAX : (uint32_t)(k * want) + 1;
	}
	free(probe_set.f);
	/*
	 * Whole loops only: when one loop is a good part of SECS, a loop less
	 * than the fraction asks for cuts the run short by most of a loop, and
	 * a rate that moves by a quarter between the probe and the run (seen
	 * on a virtual machine) on top of that ran -t 5 for 3.1 s. So the count
	 * rounds up from three quarters of a loop: at most 3/4 loop long.
	 */
	want = cfg.secs / (per_loop > 1e-12 ? per_loop : 1e-12) - 0.25;
	k = want < 1 ? 1 : want >= UINT32_MAX ? UINT32_MAX : (uint32_t)want;
	if (k < want && k < UINT32_MAX)
		k++;
	if (cfg.debug)
		fprintf(stderr, "zcc: probe: %" PRIu64 " bytes in %.3f s; %" PRIu32
			" loops fill %g s\n", r.bytes, secs, k, cfg.secs);
	return k;
}

/* ---- the verbs ------------------------------------------------------------- */

static int send_runs(void)
{
	struct result *rs = calloc(cfg.runs, sizeof(*rs));
	uint32_t loops = cfg.loops;
	unsigned i;

	if (!rs)
		error(1, errno, "memory");
	open_files();
	if (cfg.measure)
		meter_start();
	if (cfg.cpu >= 0 && cpu_bind(cfg.cpu) < 0)
		error(1, errno, "bind to CPU %d", cfg.cpu);
	if (cfg.secs > 0) {
		probing = 1;
		loops = loops_for_secs();
		probing = 0;
	}
	for (i = 0; i < cfg.runs && !stop_signal; i++) {
		if (cfg.streams > 1) {
			rs[i] = run_group(loops);	/* it prints its own lines */
		} else {
			rs[i] = run_once(&files, loops);
			print_result(&rs[i]);
		}
		if (rs[i].interrupted)
			break;
	}
	/* i runs ended whole; stopped during -R, they are summarised still. */
	if (cfg.runs > 1 && i > 0)
		summarise(rs, i);
	if (stop_signal)
		exit_stopped();
	free(rs);
	return 0;
}

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	check_args();
	out_init("zcc", cfg.json);
	catch_signals();
	if (cfg.calibrate)
		return calibrate();
	return send_runs();
}
