/*
 * The MSG_ZEROCOPY and io_uring transmit methods, driven the way zcc drives
 * a method, over a real TCP loopback connection to a reader (a thread) that
 * keeps every byte: the stream must be exactly the protocol's, header words
 * and file data, and proto_rx must find it whole. Also: the zero-copy
 * counts, a peer that resets the connection, and an interruption by a
 * signal while the socket is full.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <netinet/in.h>
#include <unistd.h>

#include "wire/proto.h"
#include "wire/tx.h"
#include "unit/t.h"

#define N_FILES 8
static const uint32_t sizes[N_FILES] = {
	0, 1, 3, 65536, 65537, 3 * 1024 * 1024 + 5, 0, 100000,
};
static struct tx_file files[N_FILES];
static char tmpdir[] = "/tmp/zc-test-uring.XXXXXX";
static volatile sig_atomic_t stop;

static unsigned char pattern(uint32_t file, uint32_t i)
{
	return (unsigned char)(i * 131u + file * 7u + i / 251u);
}

static int make_files(void)
{
	static char names[N_FILES][64];
	unsigned char *buf;
	uint32_t k, i;
	FILE *fp;

	if (!mkdtemp(tmpdir))
		return -1;
	for (k = 0; k < N_FILES; k++) {
		snprintf(names[k], sizeof(names[k]), "%s/f%u", tmpdir, k);
		buf = malloc(sizes[k] + 1);
		for (i = 0; i < sizes[k]; i++)
			buf[i] = pattern(k, i);
		fp = fopen(names[k], "w+");
		if (!fp || fwrite(buf, 1, sizes[k], fp) != sizes[k] || fflush(fp)) {
			free(buf);
			return -1;
		}
		free(buf);
		files[k].name = names[k];
		files[k].fd = dup(fileno(fp));
		files[k].size = sizes[k];
		fclose(fp);
	}
	return 0;
}

static void remove_files(void)
{
	char path[128];
	uint32_t k;

	for (k = 0; k < N_FILES; k++) {
		close(files[k].fd);
		snprintf(path, sizeof(path), "%s/f%u", tmpdir, k);
		unlink(path);
	}
	rmdir(tmpdir);
}

/* The exact stream zcc sends for n_loops loops of every file. */
static unsigned char *expected_stream(uint32_t n_loops, size_t *len)
{
	size_t cap = 4 + n_loops * (4 + 4 * N_FILES);
	unsigned char *s, *p;
	uint32_t l, k, i;

	for (k = 0; k < N_FILES; k++)
		cap += (size_t)n_loops * sizes[k];
	s = p = malloc(cap);
	proto_put_u32(p, n_loops);
	p += 4;
	for (l = 0; l < n_loops; l++) {
		proto_put_u32(p, N_FILES);
		p += 4;
		for (k = 0; k < N_FILES; k++) {
			proto_put_u32(p, sizes[k]);
			p += 4;
			for (i = 0; i < sizes[k]; i++)
				*p++ = pattern(k, i);
		}
	}
	*len = (size_t)(p - s);
	return s;
}

/* The reader: accept one connection, keep every byte until EOF. */
struct reader {
	int lfd;
	int mode;		/* READ_ALL, RESET (close at once), STALL, HOLD */
	unsigned char *buf;
	size_t len, cap;
	pthread_t tid;
};
enum { READ_ALL, RESET, STALL, HOLD };

static void *reader_run(void *arg)
{
	struct reader *r = arg;
	struct linger lin = { 1, 0 };
	int fd = accept(r->lfd, NULL, NULL);
	ssize_t n;

	if (fd < 0)
		return NULL;
	if (r->mode == RESET) {
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &lin, sizeof(lin));
		close(fd);
		return NULL;
	}
	if (r->mode == STALL || r->mode == HOLD) {
		while (!stop)
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
		close(fd);
		return NULL;
	}
	for (;;) {
		if (r->cap - r->len < 65536) {
			r->cap = r->cap * 2 + 65536;
			r->buf = realloc(r->buf, r->cap);
		}
		n = read(fd, r->buf + r->len, r->cap - r->len);
		if (n <= 0)
			break;
		r->len += (size_t)n;
	}
	close(fd);
	return NULL;
}

/* A connected socket to a new reader thread; small buffers for STALL; for
 * HOLD, a tiny receive buffer and a send buffer that holds every file. */
static int connect_reader(struct reader *r, int mode)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t salen = sizeof(sa);
	int small = 65536, tiny = 4096, huge = 16 << 20, fd;
	sigset_t alrm, old;

	memset(r, 0, sizeof(*r));
	r->mode = mode;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r->lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (mode == STALL || mode == HOLD)
		setsockopt(r->lfd, SOL_SOCKET, SO_RCVBUF, mode == HOLD ? &tiny : &small,
			   sizeof(small));
	if (bind(r->lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(r->lfd, 1) < 0 ||
	    getsockname(r->lfd, (struct sockaddr *)&sa, &salen) < 0)
		return -1;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (mode == STALL)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
	if (mode == HOLD && setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &huge, sizeof(huge)) < 0) {
		close(fd);
		close(r->lfd);
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -1;
	/* The timer's signal must interrupt the sender, not the reader. */
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, &old);
	pthread_create(&r->tid, NULL, reader_run, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return fd;
}

static void reader_join(struct reader *r)
{
	pthread_join(r->tid, NULL);
	close(r->lfd);
}

static int open_files(const struct tx_method *m, struct tx *t, char *err, size_t errlen)
{
	uint32_t k;

	for (k = 0; k < N_FILES; k++)
		if (m->open_file && m->open_file(t, &files[k], err, errlen) < 0)
			return -1;
	return 0;
}

static void tx_init(struct tx *t, int fd, size_t chunk)
{
	memset(t, 0, sizeof(*t));
	t->sock = fd;
	t->peer = "127.0.0.1 test";
	t->chunk = chunk;
	t->stop = &stop;
}

static void check_stream(const struct tx_method *m, size_t chunk)
{
	char err[256] = "";
	struct reader r;
	struct tx t;
	struct proto_rx rx;
	unsigned char *want;
	size_t want_len;
	int fd, rc;

	fd = connect_reader(&r, READ_ALL);
	tx_init(&t, fd, chunk);
	rc = m->setup(&t, err, sizeof(err));
	if (rc == 0)
		rc = open_files(m, &t, err, sizeof(err));
	if (rc == 0)
		rc = tx_send_stream(m, &t, files, N_FILES, 2, err, sizeof(err));
	CHECK(rc == 0, "%s -b %zu: sends two loops (%s)", m->name, chunk, rc ? err : "no error");
	m->cleanup(&t, files, N_FILES);
	close(fd);
	reader_join(&r);

	want = expected_stream(2, &want_len);
	CHECK(r.buf && r.len == want_len && memcmp(r.buf, want, want_len) == 0,
	      "%s -b %zu: the reader got exactly the stream (%zu of %zu bytes)",
	      m->name, chunk, r.len, want_len);
	CHECK(t.bytes == want_len, "%s -b %zu: counted %llu bytes, the stream has %zu",
	      m->name, chunk, (unsigned long long)t.bytes, want_len);
	proto_rx_init(&rx);
	proto_rx_feed(&rx, r.buf, r.len);
	CHECK(proto_rx_complete(&rx), "%s -b %zu: proto_rx finds the stream whole",
	      m->name, chunk);
	if (strcmp(m->name, "uring") != 0)
		/* Loopback: the kernel copies the pinned pages after all. */
		CHECK(t.zc_sends > 0 && t.zc_copied > 0 && t.zc_copied <= t.zc_sends,
		      "%s -b %zu: %llu zero-copy completions, %llu copied (loopback copies)",
		      m->name, chunk, (unsigned long long)t.zc_sends,
		      (unsigned long long)t.zc_copied);
	else
		CHECK(t.zc_sends == 0, "%s: no zero-copy completions", m->name);
	free(want);
	free(r.buf);
}

/* A peer that resets: the method fails, naming itself, and cleans up. */
static void check_reset(const struct tx_method *m)
{
	char err[256] = "";
	struct reader r;
	struct tx t;
	int fd, rc;

	fd = connect_reader(&r, RESET);
	reader_join(&r);
	tx_init(&t, fd, 65536);
	rc = m->setup(&t, err, sizeof(err));
	if (rc == 0)
		rc = open_files(m, &t, err, sizeof(err));
	if (rc == 0)
		rc = tx_send_stream(m, &t, files, N_FILES, 100, err, sizeof(err));
	CHECK(rc < 0 && strncmp(err, m->name, strlen(m->name)) == 0 && err[strlen(m->name)] == ':',
	      "%s: a reset peer is an error naming the method (%s)", m->name, err);
	m->cleanup(&t, files, N_FILES);
	close(fd);
}

static void on_alarm(int sig)
{
	(void)sig;
	stop = 1;
}

/* A stalled peer and a signal that sets *stop: -1, errno EINTR, promptly. */
static void check_interrupt(const struct tx_method *m)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval it = { .it_value = { 0, 300000 } };
	char err[256] = "";
	struct reader r;
	struct tx t;
	int fd, rc, saved = 0;

	stop = 0;
	sigaction(SIGALRM, &sa, NULL);
	fd = connect_reader(&r, STALL);
	tx_init(&t, fd, 65536);
	rc = m->setup(&t, err, sizeof(err));
	if (rc == 0)
		rc = open_files(m, &t, err, sizeof(err));
	setitimer(ITIMER_REAL, &it, NULL);
	if (rc == 0)	/* 60 MiB: far more than fits */
		rc = tx_send_stream(m, &t, files, N_FILES, 20, err, sizeof(err));
	saved = errno;
	CHECK(rc < 0 && saved == EINTR && stop,
	      "%s: a signal setting *stop ends a stalled send with EINTR (%s)",
	      m->name, rc ? err : "it returned 0");
	stop = 1;
	m->cleanup(&t, files, N_FILES);
	close(fd);
	reader_join(&r);
	stop = 0;
}

static void *shut_later(void *arg)
{
	nanosleep(&(struct timespec){ 0, 300000000 }, NULL);
	shutdown(*(int *)arg, SHUT_RDWR);
	return NULL;
}

/*
 * Every send is queued but the peer's window is shut, so the notifications
 * cannot come; zcc's stall limit (-T) then shuts the socket down, and the
 * wait for them must end in an error, not hang.
 */
static void check_shutdown_while_due(const struct tx_method *m)
{
	char err[256] = "";
	struct timespec t0, t1;
	struct reader r;
	pthread_t shut;
	struct tx t;
	int fd, rc;

	fd = connect_reader(&r, HOLD);
	if (fd < 0) {
		printf("skip - %s: shut down while notifications are due: no SO_SNDBUFFORCE"
		       " (needs CAP_NET_ADMIN)\n", m->name);
		return;
	}
	tx_init(&t, fd, 65536);
	rc = m->setup(&t, err, sizeof(err));
	if (rc == 0)
		rc = open_files(m, &t, err, sizeof(err));
	pthread_create(&shut, NULL, shut_later, &fd);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (rc == 0)
		rc = tx_send_stream(m, &t, files, N_FILES, 1, err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(shut, NULL);
	/* 5 s: the 100 ms wake-ups plus a busy machine, far from a hang. */
	CHECK(rc < 0 && t1.tv_sec - t0.tv_sec < 5,
	      "%s: a socket shut down while notifications are due ends the wait"
	      " in %ld s (%s)", m->name, (long)(t1.tv_sec - t0.tv_sec), rc ? err : "returned 0");
	m->cleanup(&t, files, N_FILES);
	close(fd);
	stop = 1;
	reader_join(&r);
	stop = 0;
}

int main(void)
{
	static const char *const names[] = { "zerocopy", "uring", "uring-zc" };
	const struct tx_method *m;
	char err[256];
	struct tx t;
	unsigned i;

	signal(SIGPIPE, SIG_IGN);
	if (!CHECK(make_files() == 0, "test files made in %s", tmpdir))
		return t_exit();
	for (i = 0; i < 3; i++) {
		m = tx_find(names[i]);
		CHECK(m != NULL, "%s is in the method table", names[i]);
		if (!m)
			continue;
		tx_init(&t, socket(AF_INET, SOCK_STREAM, 0), 65536);
		if (m->setup(&t, err, sizeof(err)) < 0) {
			printf("skip - %s: %s\n", m->name, err);
			close(t.sock);
			continue;
		}
		m->cleanup(&t, NULL, 0);
		close(t.sock);
		check_stream(m, 65536);
		check_stream(m, 1000);
		check_reset(m);
		check_interrupt(m);
		if (strcmp(m->name, "uring") != 0)	/* uring: nothing due */
			check_shutdown_while_due(m);
	}
	remove_files();
	return t_exit();
}
