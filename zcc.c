/*
 * zcc - the client: stream a set of files to zcs (lib/wire/proto.h), n
 * times over or for -t seconds, by a transmit method of lib/wire/tx.h, or
 * with --rr time requests and answers (lib/zcc/rr.h); report the rate and,
 * with -c, what it cost the machine's CPUs. The options go into one struct
 * of settings, checked at the door, then calibrate (-C) or the runs (-R)
 * by zcc's engine, lib/zcc (send.h).
 */
#include <errno.h>
#include <error.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zcc/baseline.h"
#include "zcc/compare.h"
#include "app/mptcp_out.h"
#include "zcc/fileset.h"
#include "zcc/opt_cpus.h"
#include "app/opt.h"
#include "app/optab.h"
#include "app/out.h"
#include "zcc/report.h"
#include "zcc/rr_args.h"
#include "zcc/run_record.h"
#include "zcc/send.h"
#include "app/meter_session.h"
#include "app/stop_exit.h"
#include "base/cpu.h"
#include "base/err.h"
#include "meter/calib_file.h"
#include "meter/meter.h"
#include "wire/net.h"
#include "wire/tx.h"

#define MAX_RUNS 10000		/* -R */
#define MAX_SECS 1e7		/* -t, -I, -T: about four months */
#define MAX_STREAMS 1024	/* -P */
#define DEFAULT_ROUNDS 5	/* -R with several variants */

enum { OPT_RATE = 300, OPT_PLOT, OPT_BASELINE, OPT_FILES_FROM, OPT_RX_REPORT,
       OPT_DECIDE, OPT_MPTCP };	/* long options only (and lib/zcc/rr_args.h's) */

/* Everything the command line says, set by parse_args only. */
struct settings {
	struct send_cfg send;		/* -s -p -M -b -k -i -o -D -I -T -P -B -d -t */
	uint32_t loops;			/* -n */
	unsigned runs;			/* -R */
	const char *method_name;	/* -M */
	const char *chunks;		/* -b; NULL: 64K */
	struct variants variants;	/* -M x -b */
	double rate;			/* --rate, bits/s; 0: none */
	const char *plot;		/* --plot */
	const char *decide;		/* --decide */
	int copy_path, use_write;	/* -S, -w */
	int cpu;			/* -B of one CPU; -1: none or a list */
	int json;			/* -J */
	int measure, calibrate;		/* -c, -C */
	int where;			/* -W */
	struct meter_cfg meter;		/* -N, -r or -L, -f */
	const char **names;		/* the files */
	int n_names;
	const char *baseline;		/* --baseline */
	const char *files_from;		/* --files-from */
	int compared;			/* -M or -b gave a list: a comparison */
	struct rr_cfg rr;		/* --rr, --response, --gap, --budget; -b -n */
};

static struct settings cfg = {
	.send = { .port = 2222, .stall = 60, .chunk = 65536, .streams = 1 },
	.loops = 1, .runs = 1, .cpu = -1,
	.meter = { .calib_path = CALIB_DEFAULT_PATH, .dflt = METER_KERNEL },
	.rr = { .budget_ns = UINT64_MAX },
};

static struct sender sender = { .cfg = &cfg.send };	/* files, -c's meter */
static struct baseline earlier;	/* --baseline: read before this run starts */

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
	  "send for SECS seconds instead (each run of -R, each variant of a round; with -P all streams "
	  "together): the stream announces a ceiling of loops, sizes each loop "
	  "to the time left, and at the deadline ends with loops of 0 files, so "
	  "the run lasts SECS within about one file's send time" },
	{ 'M', "method", "METHOD",
	  "how to send (default sendfile; the methods below); a comma list "
	  "(sendfile,send) makes a variant of each, compared in rounds (-R)" },
	{ 'S', "copy", NULL, "= -M send: pread() each chunk into a buffer, then send() it" },
	{ 'w', "write", NULL, "with -S: write() instead of send() (= -M write)" },
	{ 'b', "chunk-size", "BYTES",
	  "chunk size of all methods but sendfile, 1 to 1G (default 64K); a comma "
	  "list (256,4K,64K) makes a variant of each size, compared in rounds (-R)" },
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
	{ 'I', "interval", "SECS", "print the rate so far as 'RATE kbytes/sec' every SECS "
	  "(0.5 is fine); with --rr the interval's transactions/sec and percentiles" },
	{ 'R', "repeat", "N",
	  "repeat the whole run N times (1..10000), a connection each, then print\n"
	  "  summary: N runs, median RATE kbytes/sec\n"
	  "           (min RATE, max RATE)\n"
	  "With several variants (-M or -b lists): N rounds (default 5), each "
	  "running every variant once, on a fresh connection, the order rotated; "
	  "then a table per variant: median rate (and load and service demand "
	  "with -c), zcc's own us/KB, and its ratio to the first variant on "
	  "service demand (-c) or zcc's own us/KB: the median of the rounds' "
	  "ratios, its distribution-free interval, the rounds that agree, and "
	  "cheaper, dearer, or ~ when the interval holds 1 or covers under 90% "
	  "(fewer than 5 rounds). -t is each "
	  "variant's time in a round" },
	{ 'T', "stall-timeout", "SECS",
	  "give up (exit 1) when connecting takes SECS, when the server takes "
	  "less than 1 KiB in the last SECS, or has not closed SECS after the last "
	  "byte (default 60; 0: wait for ever); time zcc itself was stopped does "
	  "not count" },
	{ 'c', "cpu-load", NULL,
	  "measure the system's CPU load during the transfer (by default the "
	  "kernel's idle time of the CPUs zcc may use, -K; -r or -L: cyclesoak's "
	  "soakers) and print a method line and a second line\n"
	  "  cpu: load PCT% of NCPUS CPUs,\n"
	  "       service demand USPERKB us/KB,\n"
	  "       zcc itself USPERKB us/KB\n"
	  "(service demand: the whole machine's CPU time per KB sent; zcc itself: "
	  "its own; an others: line: other processes over 3% of it); -d: the meter" },
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
	{ 'K', "kernel-time", NULL, "with -c: the kernel's idle time, no soakers (the default)" },
	{ 'C', "calibrate", NULL,
	  "calibrate the loop counts on an idle machine, exactly as cyclesoak -C "
	  "(a noisy machine is refused, the old file kept)" },
	{ 'f', "calibration-file", "FILE",
	  "the calibration file of -c and -C (default ./" CALIB_DEFAULT_PATH ")" },
	{ 'N', "cpus", "CPUS", "CPUs for -c and -C (default: the online CPUs)" },
	{ OPT_RATE, "rate", "RATE",
	  "pace every connection with SO_MAX_PACING_RATE so the run moves RATE "
	  "bits/s in all (K, M, G: 1000, 1000^2, 1000^3; split evenly over -P), "
	  "so variants compare at one throughput; a run more than 5% short of "
	  "RATE is named on one line" },
	{ OPT_PLOT, "plot", "FILE",
	  "with several variants: write the comparison as an SVG chart to FILE "
	  "(per variant the deciding figure's median and interval; against the "
	  "size on a log axis for a -b list); with --rr: the latency distribution" },
	{ OPT_FILES_FROM, "files-from", "FILE",
	  "also send the files named in FILE, one a line (- for standard input), "
	  "after those given as arguments: for sets larger than a command line "
	  "holds. zcc keeps every file open: it raises its open-file limit to the "
	  "hard one, and refuses, before connecting, a set (or -P) beyond it" },
	{ OPT_RX_REPORT, "receiver-report", NULL,
	  "after the last byte, read the line zcs writes back with its own figures "
	  "(see zcs(1)) and print them: \"receiver: METHOD/SIZE, BYTES bytes in "
	  "SECONDS s, zcs itself US us/KB\" (and with zcs -c its load and service "
	  "demand; \"(this machine)\" when both ends are one kernel). The bytes on "
	  "the wire do not change; no report, or a bad one, is one line on stderr" },
	{ OPT_DECIDE, "decide", "FIGURE",
	  "with several variants and --receiver-report: the figure that decides, "
	  "sender (the default: its service demand with -c, else zcc's own us/KB), "
	  "receiver (its service demand when zcs -c, else zcs's own us/KB) or path "
	  "(both ends' service demand added; not when both are one machine); with "
	  "--rr: p50, p90, p99 (the default), p99.9 or us/Tran (-c), lower is better" },
	{ OPT_MPTCP, "mptcp", NULL,
	  "Multipath TCP (IPPROTO_MPTCP): a fall-back to TCP is one line, from the "
	  "kernel; -d and -J show each subflow; net.mptcp.enabled 0 is exit 1" },
	RR_OPTAB,	/* --rr, --response, --gap, --budget: lib/zcc/rr_args.h */
	{ 'J', "json", NULL,
	  "JSON Lines on stdout instead of the text lines: one object per line with "
	  "\"program\", \"event\" (sent, cpu, interval, summary, ...), \"time\"" },
	{ OPT_BASELINE, "baseline", "FILE",
	  "compare this run with an earlier one saved with -J (one run a file; "
	  "- for standard input): the keys of the environment and settings that "
	  "differ (changed: mtu 1500 -> 9000), then per variant a table of the "
	  "baseline's rounds and this run's, unpaired, with cheaper, dearer or ~" },
	{ 'h', "help", NULL, "this help" },
	{ OPTAB_VERSION, "version", NULL, "print zcc and its version" },
	{ 0, NULL, NULL, NULL },
};

static struct optab_parser parser;	/* made from options[] by parse_args */

static void usage(FILE *f, int status)
{
	fprintf(f,
"usage: zcc [-cCdDhJkKLrSWw] [-b size] [-B cpu] [-f file] [-i size] [-I secs]\n"
"           [-M method] [-n n_loops | -t secs] [-N nr_cpus] [-o size] [-p port]\n"
"           [-P streams] [-R runs] [-T secs] [--rate RATE] [--plot FILE]\n"
"           [--baseline FILE] [--receiver-report] [--decide FIGURE]\n"
"           [--mptcp] [--call-times [--budget time]] -s server file...\n"
"       zcc --rr [-b sizes] [--response size] [--gap times] [--budget time] ...\n"
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
"or did not close within -T, a method the kernel refuses (in a -M list it\n"
"is left out with a line, asked before connecting), a read error;\n"
"with -P, any one stream's failure, named in one line);\n"
"2 usage error; 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP (128 + the signal).\n");
	exit(status);
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
		case 's': cfg.send.host = optarg; break;
		case 'p': cfg.send.port = (unsigned)opt_num(opt, optarg, 1, 65535); break;
		case 'n': cfg.loops = (uint32_t)opt_num(opt, optarg, 1, UINT32_MAX); break;
		case 't': cfg.send.secs = opt_secs(opt, optarg, 0.001, MAX_SECS); break;
		case 'I': cfg.send.interval = opt_secs(opt, optarg, 0.01, MAX_SECS); break;
		case 'R': cfg.runs = (unsigned)opt_num(opt, optarg, 1, MAX_RUNS); break;
		case 'T': cfg.send.stall = opt_secs(opt, optarg, 0, MAX_SECS); break;
		case 'M': cfg.method_name = optarg; break;
		case 'S': cfg.copy_path = 1; break;
		case 'w': cfg.use_write = 1; break;
		case 'b': cfg.chunks = optarg; break;
		case OPT_RATE: cfg.rate = compare_rate("--rate", optarg); break;
		case OPT_PLOT: cfg.plot = cfg.rr.plot = optarg; break;
		case 'k': cfg.send.cork = 1; break;
		case 'i': cfg.send.sockopts.rcvbuf = (int)opt_size(opt, optarg, 1, NET_BUF_MAX); break;
		case 'o': cfg.send.sockopts.sndbuf = (int)opt_size(opt, optarg, 1, NET_BUF_MAX); break;
		case 'B':	/* one CPU, or a list for -P */
			cfg.send.n_cpus = opt_cpus(opt, optarg, &cfg.send.cpus);
			cfg.cpu = cfg.send.n_cpus == 1 ? cfg.send.cpus[0] : -1;
			break;
		case 'P': cfg.send.streams = (unsigned)opt_num(opt, optarg, 1, MAX_STREAMS); break;
		case 'D': cfg.send.sockopts.debug = 1; break;
		case 'd': cfg.send.debug++; break;
		case 'J': cfg.json = 1; break;
		case OPT_FILES_FROM: cfg.files_from = optarg; break;
		case OPT_RX_REPORT: cfg.send.rx_report = 1; break;
		case OPT_DECIDE: cfg.decide = optarg; break;
		case 'c': cfg.measure = 1; break;
		case 'W': cfg.where = 1; break;
		case 'C': cfg.calibrate = 1; break;
		case 'f': cfg.meter.calib_path = optarg; break;
		case 'r': case 'L': case 'K':
			if (app_method_opt(opt, &cfg.meter.method) < 0)
				usage_error(APP_METHOD_OPPOSITE);
			break;
		case 'N': cfg.meter.ncpus = (int)opt_num(opt, optarg, 1, cpu_max() + 1); break;
		case OPT_BASELINE: cfg.baseline = optarg; break;
		case OPT_MPTCP: cfg.send.sockopts.mptcp = 1; break;
		case 'h': usage(stdout, 0); break;
		default: rr_opt(opt, optarg, &cfg.rr);	/* else refused */
		}
	}
	while (optind < argc)	/* after "--" */
		cfg.names[cfg.n_names++] = argv[optind++];
}

/* -C: a transfer's option would mean nothing. */
static void check_calibrate(void)
{
	for (const char *o = "sSnptIRMwbkioBDTP"; *o; o++)
		if (optab_given(&parser, *o))
			usage_error("-C calibrates and exits: -%c is for a transfer", *o);
	if (cfg.rate > 0 || cfg.plot || cfg.send.sockopts.mptcp || cfg.baseline || cfg.rr.on)
		usage_error("-C calibrates and exits: --%s is for a transfer", cfg.rate > 0 ? "rate" :
			    cfg.plot ? "plot" : cfg.baseline ? "baseline" : cfg.rr.on ? "rr" : "mptcp");
	if (cfg.n_names || cfg.files_from)
		usage_error("-C calibrates and exits: it sends no files");
	rr_check_unused(&cfg.rr);
}

/* What makes no sense together is refused before anything is done (only
 * -M's and -b's lists are made, into cfg.variants: their count is checked). */
static void check_args(void)
{
	if (cfg.calibrate && cfg.meter.method != METER_DEFAULT)
		usage_error("-C calibrates the loop counts; -r, -L and -K choose how -c measures");
	if (cfg.calibrate && cfg.measure)
		usage_error("-C calibrates and exits; -c measures a transfer");
	if (!cfg.measure && cfg.where)
		usage_error("-W says where -c's load went: give -c");
	if (cfg.calibrate) {
		check_calibrate();
		return;
	}
	for (const char *o = "fN"; *o; o++)
		if (!cfg.measure && optab_given(&parser, *o))
			usage_error("-%c is for the meter: give -c (or -C)", *o);
	if (!cfg.measure && cfg.meter.method != METER_DEFAULT)
		usage_error("-%c chooses how -c measures: give -c", app_method_letter(cfg.meter.method));
	if (!cfg.send.host)
		usage_error("-s HOST is required (-h for help)");
	if (!*cfg.send.host)
		usage_error("-s '': an empty host name");
	if (cfg.rr.on)	/* request/response: lib/zcc/rr_args.c */
		rr_check_args(&parser, options, &(struct rr_given){ cfg.n_names, cfg.method_name,
			cfg.chunks, cfg.loops, (const int[]){ 'S', 'w', 'k', OPT_RATE, OPT_RX_REPORT,
			OPT_FILES_FROM, 0 }, cfg.send.sockopts.mptcp, cfg.baseline != NULL },
			&cfg.rr, &cfg.send, &cfg.variants);
	else
		rr_check_unused(&cfg.rr);
	if (!cfg.rr.on)
		compare_methods(&cfg.variants, cfg.method_name, cfg.chunks, cfg.copy_path,
				cfg.use_write);
	if (cfg.variants.n > 1)	/* --plot: the comparison's chart, not each run's */
		cfg.rr.plot = NULL;
	if (cfg.plot && cfg.variants.n < 2 && !cfg.rr.on)
		usage_error("--plot draws a comparison: give -M or -b a list of variants");
	if (cfg.decide)
		compare_decide_check(cfg.decide, cfg.variants.n, cfg.rr.on, cfg.measure,
				     cfg.send.rx_report);
	if (cfg.plot && !*cfg.plot)
		usage_error("--plot '': an empty file name");
	if (optab_given(&parser, 'n') && cfg.send.secs > 0)
		usage_error("-n and -t: give a number of loops or a time, not both");
	if (cfg.baseline && cfg.files_from && !strcmp(cfg.baseline, "-") &&
	    !strcmp(cfg.files_from, "-"))
		usage_error("--baseline - and --files-from -: one standard input for one of them");
	if (!cfg.files_from && cfg.n_names == 0 && !cfg.rr.on)
		usage_error("no files given (-h for help)");
	if (cfg.send.n_cpus > 1 && cfg.send.streams == 1)
		usage_error("-B: a list of CPUs is for the streams of -P");
}

/* A transfer's settings from the checked options: --files-from read, what the
 * kernel refuses left out, the baseline loaded (one that cannot compare: refused). */
static void prepare_args(void)
{
	if (cfg.variants.n > 1 && !optab_given(&parser, 'R'))
		cfg.runs = DEFAULT_ROUNDS;
	if (cfg.files_from)
		fileset_names_from(cfg.files_from, &cfg.names, &cfg.n_names);
	cfg.send.sockopts.connect_secs = cfg.send.stall;	/* -T bounds connecting too */
	cfg.send.sockopts.connect_limit = "-T";
	cfg.send.sockopts.pacing = (uint64_t)(cfg.rate / 8 / cfg.send.streams);
	rr_stream_settings(&cfg.rr, cfg.method_name, &cfg.send);	/* --call-times, --stamps */
	cfg.compared = cfg.variants.n > 1;
	compare_usable(&cfg.variants);	/* what the kernel refuses: left out */
	cfg.send.method = cfg.variants.v[0].method;
	cfg.send.chunk = cfg.variants.v[0].chunk;
	if (cfg.baseline)
		baseline_load_variants(&earlier, cfg.baseline, &cfg.variants);
}

/* ---- the verbs ------------------------------------------------------------- */

/* The runs (-R), each of the loops of -n or the time of -t, then -R's summary. */
static int send_runs(void)
{
	struct send_result *rs = calloc(cfg.runs, sizeof(*rs));
	unsigned i;

	if (!rs)
		error(1, errno, "memory");
	mptcp_asked(cfg.send.sockopts.mptcp);	/* before any file is opened */
	rr_cfg_set(&cfg.rr);
	send_open(&sender, cfg.rr.on ? NULL : cfg.names, cfg.n_names, cfg.measure ? &cfg.meter : NULL,
		  cfg.where, cfg.cpu);
	run_record_arm(&cfg.variants, &cfg.send, cfg.loops, cfg.rate, cfg.runs, &sender.files);
	if (cfg.compared) {
		free(rs);
		struct compare_cfg cc = { .rounds = cfg.runs, .loops = cfg.loops, .rate = cfg.rate,
			.plot = cfg.plot, .base = cfg.baseline ? &earlier : NULL };

		compare_decide_set(&cc, cfg.decide, cfg.rr.on ? &cfg.rr : NULL, cfg.measure);
		return compare_run(&sender, &cfg.send, &cfg.variants, &cc);
	}
	for (i = 0; i < cfg.runs && !stop_signal; i++) {
		rs[i] = cfg.rr.on ? rr_send_run(&sender) : send_run(&sender, cfg.loops);
		if (rs[i].interrupted)
			break;
		compare_rate_short(NULL, &rs[i], cfg.rate);
	}
	/* i runs ended whole; stopped during -R, they are summarised still. */
	if (cfg.runs > 1 && i > 0)
		cfg.rr.on ? rr_summary(rs, i) : report_summary(rs, i);
	if (cfg.baseline && i > 0)
		baseline_report_runs(&earlier, &cfg.variants.v[0], rs, i);
	if (stop_signal)
		stop_exit(stop_signal);
	free(rs);
	return 0;
}

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	check_args();
	if (!cfg.calibrate)
		prepare_args();
	out_init("zcc", cfg.json);
	stop_catch(NULL);	/* Ctrl-C, SIGTERM, SIGHUP: a blocked send returns */
	if (cfg.calibrate)	/* the calibration, file, lines and refusal of cyclesoak -C */
		return app_calibrate(&cfg.meter, 0);
	return send_runs();
}
