/*
 * lib/wire/tx*.c: every transmit method sends a set of files (empty ones, sizes
 * on and off the chunk and page edges, a run of empty files longer than the
 * header-word queue) through a real TCP loopback connection to a checker
 * built on proto_rx: the byte totals of both ends equal the protocol's
 * count and the stream is well formed. Then a file that is shorter than
 * announced (as one that shrank after it was opened) is an error naming it,
 * by every method.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wire/net.h"
#include "wire/proto.h"
#include "wire/tx_internal.h"
#include "unit/t.h"

#define N_EMPTY 1100

struct checker {
	int lfd;
	struct proto_rx rx;
	int well_formed;
};

static void *check_stream(void *arg)
{
	struct checker *c = arg;
	static unsigned char buf[1 << 16];
	int fd = accept(c->lfd, NULL, NULL);
	ssize_t n;

	proto_rx_init(&c->rx);
	c->well_formed = fd >= 0;
	while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || proto_rx_feed(&c->rx, buf, (size_t)n) < 0) {
			c->well_formed = 0;
			break;
		}
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static char dir[] = "/tmp/zc-test-tx.XXXXXX";

/* A file of size random-ish bytes, opened; *size_out as announced. */
static struct tx_file make_file(const char *name, uint32_t size, uint32_t announce)
{
	char path[256];
	struct tx_file f = { 0 };
	unsigned char *b = malloc(size + 1);
	int fd;

	for (uint32_t i = 0; i < size; i++)
		b[i] = (unsigned char)(i * 7 + 3);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, b, size) != (ssize_t)size)
		perror(path);
	free(b);
	f.name = strdup(path);
	f.fd = fd;
	f.size = announce;
	return f;
}

/* Send files by method m to a fresh checker; 0, or -1 with err. */
static int send_to_checker(const struct tx_method *m, struct tx_file *files, uint32_t n,
			   uint32_t loops, struct checker *c, uint64_t *sent,
			   char *err, size_t errlen)
{
	static volatile sig_atomic_t stop;
	struct net_opts o = { 0 };
	pthread_t th;
	unsigned port;
	int rc = -1;
	uint32_t opened = 0;
	struct tx t = { .peer = "the checker", .chunk = 4096, .stop = &stop };

	/* A failure before the checker runs leaves nothing received, nothing sent. */
	memset(c, 0, sizeof(*c));
	proto_rx_init(&c->rx);
	*sent = 0;
	c->lfd = net_listen("127.0.0.1", 0, &o, &port, err, errlen);
	if (c->lfd < 0)
		return -1;
	pthread_create(&th, NULL, check_stream, c);
	t.sock = net_connect("127.0.0.1", port, &o, err, errlen);
	if (t.sock >= 0 && (!m->setup || m->setup(&t, err, errlen) == 0)) {
		for (; opened < n; opened++)
			if (m->open_file && m->open_file(&t, &files[opened], err, errlen) < 0)
				break;
		if (opened == n)
			rc = tx_send_stream(m, &t, files, n, loops, err, errlen);
	}
	if (m->cleanup)
		m->cleanup(&t, files, opened);
	if (t.sock >= 0)
		close(t.sock);
	pthread_join(th, NULL);
	close(c->lfd);
	*sent = t.bytes;
	return rc;
}

static void whole_files(const struct tx_method *m, struct tx_file *files, uint32_t n,
			uint64_t data)
{
	struct checker c;
	uint64_t sent, want = proto_stream_bytes(3, n, data);
	char err[256] = "";
	int rc = send_to_checker(m, files, n, 3, &c, &sent, err, sizeof(err));

	CHECK(rc == 0, "%s: 3 loops of %u files sent%s%s", m->name, n, rc ? ": " : "", err);
	CHECK(sent == want && c.rx.bytes == want,
	      "%s: sent %llu, received %llu, the protocol says %llu", m->name,
	      (unsigned long long)sent, (unsigned long long)c.rx.bytes,
	      (unsigned long long)want);
	CHECK(c.well_formed && proto_rx_complete(&c.rx), "%s: the stream is whole and well formed",
	      m->name);
}

static void short_file(const struct tx_method *m, struct tx_file *f)
{
	struct checker c;
	uint64_t sent;
	char err[256] = "", want[300];
	int rc = send_to_checker(m, f, 1, 1, &c, &sent, err, sizeof(err));

	/* The offset reached, as the receiver got it: a method that sends from
	 * a mapping sends the last page whole (past the end it reads zeros)
	 * and faults at the next; a copying one stops where read() did. */
	snprintf(want, sizeof(want), "%s: file shrank while being sent (%d of 10000 bytes)",
		 f->name, m->open_file == tx_map_open ? 4096 : 1000);
	CHECK(rc == -1 && strcmp(err, want) == 0, "%s: a file shorter than announced: '%s'",
	      m->name, err);
}

int main(void)
{
	static const uint32_t sizes[] = { 0, 1, 3, 4095, 4096, 4097, 100003, 0, 2 * 65536 + 5 };
	enum { N_SIZED = sizeof(sizes) / sizeof(sizes[0]) };
	struct tx_file files[N_SIZED + N_EMPTY], shrunk;
	uint64_t data = 0;
	char name[32], err[256];

	signal(SIGPIPE, SIG_IGN);
	if (!mkdtemp(dir))
		return 1;
	for (uint32_t i = 0; i < N_SIZED; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		files[i] = make_file(name, sizes[i], sizes[i]);
		data += sizes[i];
	}
	for (uint32_t i = N_SIZED; i < N_SIZED + N_EMPTY; i++) {
		snprintf(name, sizeof(name), "e%u", i);
		files[i] = make_file(name, 0, 0);
	}
	shrunk = make_file("shrunk", 1000, 10000);

	CHECK(tx_methods[0] && strcmp(tx_methods[0]->name, "sendfile") == 0,
	      "the first method, the default, is sendfile");
	CHECK(tx_find("nonesuch") == NULL, "tx_find of an unknown name: NULL");
	for (int i = 0; tx_methods[i]; i++) {
		const struct tx_method *m = tx_methods[i];

		CHECK(tx_find(m->name) == m, "tx_find(\"%s\")", m->name);
		CHECK(!(m->flags & TX_CHUNKED) == (strcmp(m->name, "sendfile") == 0),
		      "%s: chunked unless sendfile", m->name);
		/* A method this kernel refuses (io_uring switched off, a locked
		 * memory limit) is zcc's refusal here too: a skip, its reason. */
		if (m->usable && m->usable(65536, err, sizeof(err)) < 0) {
			printf("skip - %s: %s\n", m->name, err);
			continue;
		}
		whole_files(m, files, N_SIZED, data);
		whole_files(m, files, N_SIZED + N_EMPTY, data);
		short_file(m, &shrunk);
	}
	for (uint32_t i = 0; i < N_SIZED + N_EMPTY; i++) {
		close(files[i].fd);
		unlink(files[i].name);
		free((char *)files[i].name);
	}
	close(shrunk.fd);
	unlink(shrunk.name);
	free((char *)shrunk.name);
	rmdir(dir);
	return t_exit();
}
