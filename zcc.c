/*
 * zcc - the client: stream a set of files to zcs, n times over, with
 * sendfile() (the default) or with pread() + send() / write() (-S, -S -w),
 * then report the rate and, with -c, what the transfer cost the machine's
 * CPUs (the cyclesoak method).
 *
 * The wire protocol is lib/proto.h's: u32 n_loops, then per loop u32
 * n_files, then per file u32 length and the data. Header words never go out
 * on their own when data follows: in -S mode they sit in front of the
 * file's first chunk in the one buffer; in sendfile mode they are sent just
 * before the data and Nagle's algorithm holds that small segment while data
 * is in flight, so it leaves with the file's first bytes. (MSG_MORE on that
 * send was tried: with 128 KiB files it cost 5-20% of the throughput, 8 of
 * 8 alternating runs against zcs -b 131072 on loopback.)
 */
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "cpu.h"
#include "net.h"
#include "opt.h"
#include "proto.h"
#include "soak.h"

#define MAX_CHUNK (1 << 30)	/* -b: 1 GiB; more is no longer a "chunk" */
#define MAX_SOCKBUF (0x7fffffff / 2)	/* -i/-o: the kernel doubles it */

/* Header words wait here until data follows; in -S mode they are copied
 * into the HDR_ROOM bytes in front of the chunk buffer. */
#define HDR_ROOM 4096

static const char *cfg_host;
static unsigned cfg_port = 2222;
static uint32_t cfg_loops = 1;
static int cfg_read_send;	/* -S */
static int cfg_write;		/* -w */
static size_t cfg_chunk = 65536;
static int cfg_cork;
static struct net_opts cfg_sockopts;
static int cfg_cpu = -1;
static int cfg_debug;
static int cfg_measure;		/* -c */
static int cfg_calibrate;	/* -C */
static int cfg_ncpus;		/* -N; 0: the online CPUs */

struct file {
	const char *name;
	int fd;
	uint32_t size;
};

static struct file *files;
static uint32_t n_files;
static uint64_t file_bytes;	/* one loop's data */

static int sock = -1;
static uint64_t bytes_sent;
static unsigned char *chunk;	/* -S: HDR_ROOM bytes, then cfg_chunk bytes */
static unsigned char hdr[HDR_ROOM];
static size_t hdr_len;

/*
 * -c's soakers while they run. Ctrl-C, kill and every error exit take them
 * down first, so none outlives zcc even for a moment; only SIGKILL leaves
 * them to PR_SET_PDEATHSIG.
 */
static struct soak *volatile soakers;

static void stop_soakers(void)
{
	struct soak *s = soakers;

	soakers = NULL;
	soak_stop(s);
}

static void stop_soakers_and_die(int sig)
{
	struct soak *s = soakers;

	/* kill() and waitpid() only: a send() may have been cut short. */
	if (s)
		soak_kill(s);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void start_soakers(int ncpus)
{
	char err[256];

	/* Before -B, so that the soakers do not inherit the binding. */
	soakers = soak_start(ncpus, 0, err, sizeof(err));
	if (!soakers)
		error(1, 0, "%s", err);
	atexit(stop_soakers);
	soak_on_stop_signals(stop_soakers_and_die);
	for (int k = 0; cfg_debug && k < soak_count(soakers); k++)
		fprintf(stderr, "zcc: soaker %d: pid %d\n", k, soak_pid(soakers, k));
}

static void usage(FILE *f, int status)
{
	fprintf(f,
"usage: zcc [-cCdDhkSw] [-b buffer_size] [-B cpu] [-i input_bufsize]\n"
"           [-o output_bufsize] [-n n_loops] [-N nr_cpus] [-p port] -s server file...\n"
"\n"
"Send the files to zcs on server, n_loops times over, and print\n"
"  sent: BYTES bytes in SECONDS s, RATE kbytes/sec\n"
"BYTES counts every byte on the connection, header words included.\n"
"\n"
"  -s HOST   server: a name, an IPv4 or IPv6 address; 0 is this machine (required)\n"
"  -p PORT   TCP port, 1..65535 (default 2222)\n"
"  -n N      send the whole file set N times, 1..4294967295 (default 1)\n"
"  -S        no sendfile(): pread() each chunk into a buffer, then send() it\n"
"  -w        with -S: write() to the socket instead of send()\n"
"  -b BYTES  chunk size for -S, 1..%d (default 65536)\n"
"  -k        set TCP_CORK on the connection (checked)\n"
"  -i BYTES  socket receive buffer (SO_RCVBUF), 1..%d; default: the kernel's\n"
"  -o BYTES  socket send buffer (SO_SNDBUF), 1..%d; default: the kernel's\n"
"            (a kernel value smaller than asked is an error)\n"
"  -B CPU    bind zcc to that CPU, 0..%d\n"
"  -D        set SO_DEBUG on the socket\n"
"  -d        debug output on stderr; repeat for more\n"
"  -c        measure the system's CPU load during the transfer (cyclesoak\n"
"            method, needs ./" CALIB_DEFAULT_PATH ") and print a second line\n"
"              cpu: load PCT%% of NCPUS CPUs, service demand USPERKB us/KB\n"
"            (service demand: CPU time of the whole machine per KB sent)\n"
"  -C        calibrate on an idle machine, exactly as cyclesoak -C, then exit\n"
"  -N CPUS   CPUs for -c and -C, 1..%d (default: the online CPUs)\n"
"  -h        this help\n"
"\n"
"Options may follow the file names. Files that cannot be opened or are not\n"
"regular files are skipped with a warning; files of 4 GiB or more cannot be\n"
"described by the protocol and are refused before connecting.\n"
"\n"
"Exit status: 0 sent, 1 runtime failure (no file left to send, a file too\n"
"big or shrinking, cannot resolve or connect, the server vanished, a read\n"
"error), 2 usage error.\n",
		MAX_CHUNK, MAX_SOCKBUF, MAX_SOCKBUF, cpu_max(), cpu_max() + 1);
	exit(status);
}

/*
 * A leading '-' in the option string makes getopt hand over file names in
 * place, so options may follow them even when POSIXLY_CORRECT is set.
 */
static const char **parse_args(int argc, char **argv, int *n_names)
{
	const char **names = calloc((size_t)argc, sizeof(*names));
	int opt, n = 0;

	if (!names)
		error(1, errno, "memory");
	while ((opt = getopt(argc, argv, "-:cCdDhkSwb:B:i:o:n:N:p:s:")) != -1) {
		switch (opt) {
		case 1:
			names[n++] = optarg;
			break;
		case 's':
			cfg_host = optarg;
			break;
		case 'p':
			cfg_port = (unsigned)opt_num(opt, optarg, 1, 65535);
			break;
		case 'n':
			cfg_loops = (uint32_t)opt_num(opt, optarg, 1, UINT32_MAX);
			break;
		case 'S':
			cfg_read_send = 1;
			break;
		case 'w':
			cfg_write = 1;
			break;
		case 'b':
			cfg_chunk = (size_t)opt_num(opt, optarg, 1, MAX_CHUNK);
			break;
		case 'k':
			cfg_cork = 1;
			break;
		case 'i':
			cfg_sockopts.rcvbuf = (int)opt_num(opt, optarg, 1, MAX_SOCKBUF);
			break;
		case 'o':
			cfg_sockopts.sndbuf = (int)opt_num(opt, optarg, 1, MAX_SOCKBUF);
			break;
		case 'B':
			cfg_cpu = (int)opt_num(opt, optarg, 0, cpu_max());
			break;
		case 'D':
			cfg_sockopts.debug = 1;
			break;
		case 'd':
			cfg_debug++;
			break;
		case 'c':
			cfg_measure = 1;
			break;
		case 'C':
			cfg_calibrate = 1;
			break;
		case 'N':
			cfg_ncpus = (int)opt_num(opt, optarg, 1, cpu_max() + 1);
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			opt_refused(opt);
		}
	}
	while (optind < argc)	/* after "--" */
		names[n++] = argv[optind++];
	*n_names = n;
	return names;
}

/* Open every file once; each fd is reused by every loop. */
static void open_files(const char **names, int n)
{
	struct rlimit rl;
	struct stat st;
	int i, fd;

	files = calloc((size_t)n + 1, sizeof(*files));
	if (!files)
		error(1, errno, "memory");
	/* Every file stays open for all loops: allow as many as the hard limit. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max &&
	    rl.rlim_cur < (rlim_t)n + 16) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (i = 0; i < n; i++) {
		/* O_NONBLOCK: a FIFO must not hang the open; cleared below. */
		fd = open(names[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE)
				error(1, errno, "%s", names[i]);
			error(0, errno, "skipping %s", names[i]);
			continue;
		}
		if (fstat(fd, &st) < 0) {
			error(0, errno, "skipping %s", names[i]);
			close(fd);
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			error(0, 0, "skipping %s: not a regular file", names[i]);
			close(fd);
			continue;
		}
		if (st.st_size > (off_t)UINT32_MAX)
			error(1, 0, "%s: %lld bytes: a file of 4 GiB or more cannot be "
			      "sent (the protocol's length word has 32 bits)",
			      names[i], (long long)st.st_size);
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		files[n_files].name = names[i];
		files[n_files].fd = fd;
		files[n_files].size = (uint32_t)st.st_size;
		file_bytes += (uint64_t)st.st_size;
		n_files++;
		if (cfg_debug > 1)
			fprintf(stderr, "zcc: %s: %" PRIu32 " bytes\n", names[i],
				(uint32_t)st.st_size);
	}
	if (n_files == 0)
		error(1, 0, "no files to send");
}

/* A socket error is the server's doing; anything else is the file's. */
static int peer_gone(int e)
{
	return e == EPIPE || e == ECONNRESET || e == ECONNABORTED ||
	       e == ETIMEDOUT || e == ENOTCONN || e == EHOSTUNREACH ||
	       e == ENETUNREACH || e == ENETDOWN || e == EHOSTDOWN;
}

static void sock_write(const void *buf, size_t len, int flags)
{
	if (cfg_write ? write_full(sock, buf, len) : send_full(sock, buf, len, flags))
		error(1, errno, "%s to %s port %u", cfg_write ? "write" : "send",
		      cfg_host, cfg_port);
	bytes_sent += len;
}

static void flush_words(int flags)
{
	if (hdr_len)
		sock_write(hdr, hdr_len, flags);
	hdr_len = 0;
}

static void put_word(uint32_t v)
{
	if (hdr_len == sizeof(hdr))	/* a long run of empty files */
		flush_words(MSG_MORE);
	proto_put_u32(hdr + hdr_len, v);
	hdr_len += PROTO_WORD;
}

static void __attribute__((noreturn)) shrank(const struct file *f, uint64_t at)
{
	error(1, 0, "%s: file shrank while being sent (%" PRIu64 " of %" PRIu32
	      " bytes)", f->name, at, f->size);
	exit(1);
}

static void send_file_sendfile(const struct file *f)
{
	off_t off = 0;
	ssize_t n;

	flush_words(0);
	while (off < (off_t)f->size) {
		n = sendfile(sock, f->fd, &off, f->size - (size_t)off);
		if (n > 0) {
			bytes_sent += (uint64_t)n;
		} else if (n == 0) {
			shrank(f, (uint64_t)off);
		} else if (errno != EINTR) {
			if (peer_gone(errno))
				error(1, errno, "sendfile to %s port %u", cfg_host, cfg_port);
			error(1, errno, "%s", f->name);
		}
	}
}

static void send_file_read(const struct file *f)
{
	unsigned char *data = chunk + HDR_ROOM;
	uint64_t off = 0;
	size_t want;
	ssize_t n;

	while (off < f->size) {
		want = f->size - off < cfg_chunk ? f->size - off : cfg_chunk;
		n = pread(f->fd, data, want, (off_t)off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			error(1, errno, "%s", f->name);
		}
		if (n == 0)
			shrank(f, off);
		off += (uint64_t)n;
		if (hdr_len)	/* the header words ride with the first chunk */
			memcpy(data - hdr_len, hdr, hdr_len);
		sock_write(data - hdr_len, hdr_len + (size_t)n, 0);
		hdr_len = 0;
	}
}

static void send_stream(void)
{
	uint32_t loop, i;

	put_word(cfg_loops);
	for (loop = 0; loop < cfg_loops; loop++) {
		put_word(n_files);
		for (i = 0; i < n_files; i++) {
			put_word(files[i].size);
			if (files[i].size == 0)
				continue;
			if (cfg_read_send)
				send_file_read(&files[i]);
			else
				send_file_sendfile(&files[i]);
		}
		if (cfg_debug > 1)
			fprintf(stderr, "zcc: loop %" PRIu32 " of %" PRIu32 " sent\n",
				loop + 1, cfg_loops);
	}
	flush_words(0);
}

/*
 * Everything is in the kernel's hands; see it delivered. A zcs closes once
 * it has read our end of stream; a reset here means it died holding data.
 */
static void await_server_close(void)
{
	char c;
	ssize_t n;

	if (shutdown(sock, SHUT_WR) < 0)
		error(1, errno, "shutdown");
	do
		n = read(sock, &c, 1);
	while (n > 0 || (n < 0 && errno == EINTR));
	if (n < 0)
		error(1, errno, "waiting for %s port %u to close", cfg_host, cfg_port);
	close(sock);
}

static void report_rate(double rate, void *arg)
{
	(void)arg;
	printf("calibrating: %.0f loops/sec\n", rate);
	fflush(stdout);
}

/* -C: the same calibration, file and lines as cyclesoak -C. */
static void calibrate(int ncpus)
{
	char err[256], warn[256];
	struct calib c;

	if (soak_calibrate(ncpus, report_rate, NULL, &c, warn, sizeof(warn),
			   err, sizeof(err)) < 0)
		error(1, 0, "calibrate: %s", err);
	if (calib_save(CALIB_DEFAULT_PATH, &c, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	printf("calibrated OK.  %.0f loops/sec\n", c.loops_per_sec);
	if (warn[0])
		error(0, 0, "warning: %s", warn);
}

static void load_calibration(struct calib *c, int ncpus)
{
	char err[256], warn[160];

	if (calib_for(CALIB_DEFAULT_PATH, ncpus, c, warn, sizeof(warn),
		      err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	if (warn[0])
		error(0, 0, "warning: %s", warn);
}

int main(int argc, char **argv)
{
	const char **names;
	char err[256], line[160];
	struct calib calib;
	uint64_t t0, t1, c0 = 0, c1 = 0, expect;
	int n_names, ncpus;

	names = parse_args(argc, argv, &n_names);
	ncpus = cfg_ncpus ? cfg_ncpus : cpu_online();
	if (cfg_calibrate) {
		free(names);
		if (!cfg_ncpus)
			printf("using %d CPUs\n", ncpus);
		calibrate(ncpus);
		return 0;
	}
	if (!cfg_host)
		usage_error("-s HOST is required (-h for help)");
	if (!*cfg_host)
		usage_error("-s '': an empty host name");
	if (cfg_write && !cfg_read_send)
		usage_error("-w needs -S (write() replaces send() in -S mode)");
	if (n_names == 0)
		usage_error("no files given (-h for help)");

	/* A peer that vanishes must be an error line, not a silent death. */
	signal(SIGPIPE, SIG_IGN);
	open_files(names, n_names);
	free(names);
	expect = proto_stream_bytes(cfg_loops, n_files, file_bytes);
	if (cfg_read_send) {
		void *p;
		int e = posix_memalign(&p, HDR_ROOM, HDR_ROOM + cfg_chunk);

		if (e)
			error(1, e, "a buffer of %zu bytes", cfg_chunk);
		chunk = p;
	}
	if (cfg_measure) {
		load_calibration(&calib, ncpus);
		start_soakers(ncpus);
	}
	if (cfg_cpu >= 0 && cpu_bind(cfg_cpu) < 0)
		error(1, errno, "bind to CPU %d", cfg_cpu);

	sock = net_connect(cfg_host, cfg_port, &cfg_sockopts, err, sizeof(err));
	if (sock < 0)
		error(1, 0, "%s", err);
	if (cfg_cork && net_set_cork(sock, err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	if (cfg_debug) {
		int sndbuf = 0;
		socklen_t len = sizeof(sndbuf);

		net_peer_name(sock, line, sizeof(line));
		getsockopt(sock, SOL_SOCKET, SO_SNDBUF, &sndbuf, &len);
		fprintf(stderr, "zcc: connected to %s, SO_SNDBUF %d\n", line, sndbuf);
		fprintf(stderr, "zcc: %s, %" PRIu32 " files of %" PRIu64 " bytes, "
			"%" PRIu32 " loops, %" PRIu64 " bytes in all\n",
			!cfg_read_send ? "sendfile()" : cfg_write ? "pread() + write()"
			: "pread() + send()", n_files, file_bytes, cfg_loops, expect);
	}

	if (soakers)
		c0 = soak_total(soakers);
	t0 = now_ns();
	send_stream();
	t1 = now_ns();
	if (soakers) {
		c1 = soak_total(soakers);
		stop_soakers();
	}
	await_server_close();

	if (bytes_sent != expect)
		error(1, 0, "internal error: sent %" PRIu64 " bytes, the protocol "
		      "says %" PRIu64, bytes_sent, expect);
	format_rate_line(line, sizeof(line), "sent", bytes_sent, t1 - t0);
	puts(line);
	if (cfg_measure) {
		double secs = (double)(t1 - t0) / 1e9;
		double load = soak_load(secs > 0 ? (double)(c1 - c0) / secs : 0, &calib);

		printf("cpu: load %.1f%% of %d CPUs, service demand %.3f us/KB\n",
		       load * 100, ncpus,
		       load * ncpus * secs * 1e6 / ((double)bytes_sent / 1024));
		if (secs < 1)
			error(0, 0, "warning: a transfer of %.3f s is too short for "
			      "a steady load figure: raise -n", secs);
	}
	return 0;
}
