/*
 * zcs - the zc server. Accepts zcc connections, swallows each stream while
 * checking it against its own headers, and reports the receive rate: every
 * period while data flows, and once in a summary when the client closes.
 * Each connection has its own child process; the parent only accepts,
 * reaps and, when told to stop, takes its children down with it.
 */
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "cpu.h"
#include "net.h"
#include "opt.h"
#include "proto.h"

#define MAX_READ_SIZE	(64 << 20)
#define MAX_SECS	86400
/* The child's clock: rate reports and the idle timeout count these ticks. */
#define TICKS_PER_SEC	4
/* "address port N", the longest IPv6 address and port */
#define PEER_LEN	80

static int cfg_one;
static const char *cfg_addr;
static size_t cfg_read_size = 16384;
static int cfg_cpu = -1;
static int cfg_debug;
static struct net_opts cfg_net;
static unsigned cfg_port = 2222;
static unsigned cfg_period = 5;
static unsigned cfg_idle = 60;
static unsigned cfg_max_conns = 256;

static volatile sig_atomic_t ticks;	/* child: SIGALRMs so far */
static volatile sig_atomic_t stop_sig;	/* parent: the signal that stops it */
static int wake_pipe[2] = { -1, -1 };	/* parent: wakes poll() from handlers */
static pid_t *kids;			/* parent: the live children, -m of them */
static unsigned live;

static void usage(void)
{
	fputs("usage: zcs [-1dh] [-a address] [-b read_size] [-B cpu] [-i input_bufsize]\n"
	      "           [-o output_bufsize] [-p port] [-t period] [-T idle_secs] [-m max_conns]\n"
	      "\nReceive zcc streams and print the receive rate.\n\n"
	      "  -p PORT    port to listen on (default 2222; 0: the kernel picks one)\n"
	      "  -a ADDR    listen on this address only (default: every IPv6 and IPv4 address)\n"
	      "  -b BYTES   size of each read() (default 16384)\n"
	      "  -t SECS    print the rate every SECS seconds (default 5)\n"
	      "  -T SECS    close a connection that sends nothing for SECS seconds\n"
	      "             (default 60; 0: never)\n"
	      "  -m MAX     serve at most MAX connections at once; one more is accepted,\n"
	      "             logged and closed at once (default 256)\n"
	      "  -1         serve one connection, then exit: 0 if the stream was complete\n"
	      "             and well formed, 1 if not\n"
	      "  -i BYTES   socket receive buffer size (default: the kernel's auto-tuning)\n"
	      "  -o BYTES   socket send buffer size (default: the kernel's)\n"
	      "  -B CPU     run on that CPU only\n"
	      "  -d         debug output on stderr: connections and headers; -dd: every file\n"
	      "  -h         this help\n\n"
	      "Output: \"listening on port N\", then per connection \"RATE kbytes/sec\" every\n"
	      "period and \"done: BYTES bytes in SECONDS s, RATE kbytes/sec\" at the end.\n"
	      "A stream that ends early or holds more than its headers announced gets\n"
	      "one line on stderr instead.\n", stdout);
}

static void parse_opts(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, ":1a:b:B:dhi:m:o:p:t:T:")) != -1) {
		switch (c) {
		case '1':
			cfg_one = 1;
			break;
		case 'a':
			cfg_addr = optarg;
			break;
		case 'b':
			cfg_read_size = (size_t)opt_num(c, optarg, 1, MAX_READ_SIZE);
			break;
		case 'B':
			cfg_cpu = (int)opt_num(c, optarg, 0, cpu_max());
			break;
		case 'd':
			cfg_debug++;
			break;
		case 'h':
			usage();
			exit(0);
		case 'i':
			cfg_net.rcvbuf = (int)opt_num(c, optarg, 1, INT_MAX / 2);
			break;
		case 'm':
			cfg_max_conns = (unsigned)opt_num(c, optarg, 1, 65536);
			break;
		case 'o':
			cfg_net.sndbuf = (int)opt_num(c, optarg, 1, INT_MAX / 2);
			break;
		case 'p':
			cfg_port = (unsigned)opt_num(c, optarg, 0, 65535);
			break;
		case 't':
			cfg_period = (unsigned)opt_num(c, optarg, 1, MAX_SECS);
			break;
		case 'T':
			cfg_idle = (unsigned)opt_num(c, optarg, 0, MAX_SECS);
			break;
		default:
			opt_refused(c);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s' (zcs -h for help)", argv[optind]);
}

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

static void wake(void)
{
	int saved = errno;
	char c = 0;

	if (write(wake_pipe[1], &c, 1) < 0) {
		/* The pipe is full: poll() will wake anyway. */
	}
	errno = saved;
}

static void on_child(int sig)
{
	(void)sig;
	wake();
}

static void on_stop(int sig)
{
	stop_sig = sig;
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

static void start_ticker(void)
{
	struct itimerval it = {
		.it_interval = { .tv_usec = 1000000 / TICKS_PER_SEC },
		.it_value = { .tv_usec = 1000000 / TICKS_PER_SEC },
	};

	set_handler(SIGALRM, on_alarm);
	if (setitimer(ITIMER_REAL, &it, NULL) < 0)
		error(1, errno, "setitimer");
}

static void stop_ticker(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
}

static void debug_header(const struct proto_rx *rx, enum proto_state what,
			 uint32_t value)
{
	const char *peer = rx->arg;

	if (what == PROTO_N_LOOPS)
		fprintf(stderr, "zcs: %s: %u loops\n", peer, value);
	else if (what == PROTO_N_FILES)
		fprintf(stderr, "zcs: %s: loop %u of %u: %u files\n", peer,
			rx->loop + 1, rx->n_loops, value);
	else if (cfg_debug > 1)
		fprintf(stderr, "zcs: %s: loop %u, file %u of %u: %u bytes\n", peer,
			rx->loop + 1, rx->file + 1, rx->n_files, value);
}

/*
 * serve - receive one stream from fd (peer, for messages) into buf and report.
 * Returns 0 when it was complete and well formed, 1 otherwise.
 */
static int serve(int fd, const char *peer, unsigned char *buf)
{
	struct proto_rx rx;
	char where[160], line[160];
	uint64_t start, period_start, period_bytes = 0, now, bytes_at_tick = 0;
	unsigned tick_seen = 0, idle_ticks = 0;
	ssize_t n;
	int rc = 1, report;

	proto_rx_init(&rx);
	if (cfg_debug) {
		rx.on_header = debug_header;
		rx.arg = (void *)peer;
		fprintf(stderr, "zcs: %s: connected\n", peer);
	}
	start = period_start = now_ns();
	ticks = 0;
	start_ticker();
	for (;;) {
		n = read(fd, buf, cfg_read_size);
		if (n > 0) {
			if (proto_rx_feed(&rx, buf, (size_t)n) < 0)
				break;
		} else if (n == 0) {
			break;
		} else if (errno != EINTR) {
			int saved = errno;

			proto_rx_describe(&rx, where, sizeof(where));
			error(0, saved, "%s: receive failed after %llu bytes (%s)",
			      peer, (unsigned long long)rx.bytes, where);
			goto out;
		}
		/* The rest of the loop runs a few times a second, not per read. */
		if ((unsigned)ticks == tick_seen)
			continue;
		report = 0;
		while (tick_seen != (unsigned)ticks) {
			tick_seen++;
			if (rx.bytes == bytes_at_tick) {
				idle_ticks++;
			} else {
				idle_ticks = 0;
				bytes_at_tick = rx.bytes;
			}
			if (tick_seen % (cfg_period * TICKS_PER_SEC) == 0)
				report = 1;
		}
		/* One line even if ticks piled up (say, after SIGSTOP). */
		if (report) {
			now = now_ns();
			printf("%.0f kbytes/sec\n",
			       kbytes_per_sec(rx.bytes - period_bytes, now - period_start));
			period_start = now;
			period_bytes = rx.bytes;
		}
		if (cfg_idle && idle_ticks >= cfg_idle * TICKS_PER_SEC) {
			error(0, 0, "%s: idle timeout: nothing received for %u s, "
			      "closed after %llu bytes", peer, cfg_idle,
			      (unsigned long long)rx.bytes);
			goto out;
		}
	}
	now = now_ns();
	proto_rx_describe(&rx, where, sizeof(where));
	if (rx.state == PROTO_EXCESS) {
		error(0, 0, "%s: excess data: %s; %llu bytes received", peer, where,
		      (unsigned long long)rx.bytes);
	} else if (!proto_rx_complete(&rx)) {
		error(0, 0, "%s: truncated: %s; %llu bytes received", peer, where,
		      (unsigned long long)rx.bytes);
	} else {
		format_rate_line(line, sizeof(line), "done", rx.bytes, now - start);
		rc = 0;
		if (puts(line) == EOF) {
			error(0, errno, "%s: write the summary to stdout", peer);
			rc = 1;
		}
	}
out:
	stop_ticker();
	close(fd);
	if (cfg_debug)
		fprintf(stderr, "zcs: %s: closed\n", peer);
	return rc;
}

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

/* Fork a child for connection fd; it dies with the parent. */
static pid_t spawn(int fd, const char *peer, int listen_fd, unsigned char *buf)
{
	pid_t parent = getpid(), pid;

	fflush(stdout);
	mask_parent_signals(SIG_BLOCK);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		mask_parent_signals(SIG_UNBLOCK);
		close(listen_fd);
		close(wake_pipe[0]);
		close(wake_pipe[1]);
		free(kids);
		kids = NULL;
		exit(serve(fd, peer, buf));
	}
	mask_parent_signals(SIG_UNBLOCK);
	return pid;
}

/* Take pid off the table of live children. */
static void forget(pid_t pid)
{
	unsigned i;

	for (i = 0; i < live; i++) {
		if (kids[i] == pid) {
			kids[i] = kids[--live];
			return;
		}
	}
}

static void reap(void)
{
	pid_t pid;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		forget(pid);
}

static void accept_one(int listen_fd, unsigned char *buf)
{
	char peer[PEER_LEN];
	struct timespec pause = { 0, 100000000L };	/* 0.1 s */
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
	if (live >= cfg_max_conns) {
		error(0, 0, "%s: refused: already serving %u connections (-m %u)",
		      peer, live, cfg_max_conns);
		close(fd);
		return;
	}
	pid = spawn(fd, peer, listen_fd, buf);
	if (pid < 0)
		error(0, errno, "%s: fork", peer);
	else
		kids[live++] = pid;
	close(fd);
}

/* Accept until told to stop; then stop the children and die the same way. */
static __attribute__((noreturn)) void serve_forever(int listen_fd, unsigned char *buf)
{
	struct pollfd pfd[2] = {
		{ .fd = listen_fd, .events = POLLIN },
		{ .fd = -1, .events = POLLIN },
	};
	char drain[64];
	unsigned i;
	pid_t pid;
	int sig;

	kids = calloc(cfg_max_conns, sizeof(*kids));
	if (!kids)
		error(1, errno, "allocate the child table");
	if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		error(1, errno, "pipe");
	pfd[1].fd = wake_pipe[0];
	if (fcntl(listen_fd, F_SETFL, O_NONBLOCK) < 0)
		error(1, errno, "set the listening socket non-blocking");
	set_handler(SIGCHLD, on_child);
	set_handler(SIGTERM, on_stop);
	set_handler(SIGINT, on_stop);
	set_handler(SIGHUP, on_stop);

	while (!stop_sig) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno != EINTR)
				error(1, errno, "poll");
			pfd[0].revents = 0;
		}
		while (read(wake_pipe[0], drain, sizeof(drain)) > 0)
			;
		reap();
		if (!stop_sig && (pfd[0].revents & POLLIN))
			accept_one(listen_fd, buf);
	}

	sig = stop_sig;
	close(listen_fd);
	for (i = 0; i < live; i++)
		kill(kids[i], sig);
	while (live) {
		pid = waitpid(-1, NULL, 0);
		if (pid > 0)
			forget(pid);
		else if (errno != EINTR)
			break;
	}
	free(kids);
	free(buf);
	signal(sig, SIG_DFL);
	raise(sig);
	/* Not reached unless the signal was blocked; never fall into main's -1. */
	exit(1); // cppcheck-suppress unreachableCode ; raise() returns if sig is blocked
}

int main(int argc, char **argv)
{
	unsigned char *buf;
	char err[256], peer[PEER_LEN];
	unsigned port;
	int listen_fd, fd, rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* One write per line, so that children logging at once do not interleave. */
	setvbuf(stderr, NULL, _IOLBF, 0);
	parse_opts(argc, argv);
	signal(SIGPIPE, SIG_IGN);

	if (cfg_cpu >= 0 && cpu_bind(cfg_cpu) < 0)
		error(1, errno, "run on CPU %d", cfg_cpu);
	buf = malloc(cfg_read_size);
	if (!buf)
		error(1, errno, "allocate a %zu byte read buffer", cfg_read_size);
	listen_fd = net_listen(cfg_addr, cfg_port, &cfg_net, &port, err, sizeof(err));
	if (listen_fd < 0)
		error(1, 0, "listen on %s port %u: %s", cfg_addr ? cfg_addr : "*",
		      cfg_port, err);
	if (printf("listening on port %u\n", port) < 0 || fflush(stdout) == EOF)
		error(1, errno, "write to stdout");

	if (!cfg_one)
		serve_forever(listen_fd, buf);

	do
		fd = accept_peer(listen_fd, peer, sizeof(peer));
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		error(1, errno, "accept");
	close(listen_fd);
	rc = serve(fd, peer, buf);
	free(buf);
	return rc;
}
