#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "zcs/serve_sampler.h"
#include "zcs/serve_load.h"

/*
 * The ledger, written by the sampler alone: seq is odd while a reading is
 * added (readers retry), asked counts the requests of connections, and
 * readings moves after each reading: the futex a connection's process
 * sleeps on while it waits for one.
 */
struct ledger {
	uint64_t seq, asked;
	uint32_t readings;
	double load_secs, secs;
	int ncpus;
	int counted;		/* all_bytes is kept (serve_sampler_count) */
	uint64_t all_bytes;	/* received by every connection, at the reading */
};

static struct ledger *ledger;
static struct meter *meter;
static pid_t sampler_pid;		/* the process that samples */
static int req_pipe[2] = { -1, -1 };
static int child, failed;
static uint64_t answered;		/* sampler: asked, at its last reading */
static void (*fail_fn)(void);
static uint64_t (*count_all)(void);	/* sampler: every connection's bytes */

static void fail(const char *err)
{
	failed = 1;
	error(0, 0, "%s", err);
	if (fail_fn)
		fail_fn();
	exit(1);
}

/* The sampler: a reading into the ledger. */
static void sample(void)
{
	struct meter_reading r;
	char err[512];
	uint64_t s = ledger->seq, all;
	double load_secs, secs;

	if (app_meter_sample(meter, &r, err, sizeof(err)) != 0)
		fail(err);	/* 1: a CPU came or went, no figure either */
	all = count_all ? count_all() : 0;
	load_secs = ledger->load_secs + meter_cpus_load(&r) * r.secs;
	secs = ledger->secs + r.secs;
	/* Release on each figure, acquire on each read of one: a reader that
	 * sees a new figure then sees the odd seq before it, and retries (no
	 * fences, which ThreadSanitizer cannot follow). */
	__atomic_store_n(&ledger->seq, s + 1, __ATOMIC_RELAXED);
	__atomic_store(&ledger->load_secs, &load_secs, __ATOMIC_RELEASE);
	__atomic_store(&ledger->secs, &secs, __ATOMIC_RELEASE);
	__atomic_store_n(&ledger->ncpus, r.ncpus, __ATOMIC_RELEASE);
	__atomic_store_n(&ledger->all_bytes, all, __ATOMIC_RELEASE);
	__atomic_store_n(&ledger->seq, s + 2, __ATOMIC_RELEASE);
	/* After seq: a waiter that sees the new count sees the new seq. */
	__atomic_add_fetch(&ledger->readings, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &ledger->readings, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void serve_sampler_open(struct meter *m, void (*on_fail)(void))
{
	char err[512];

	ledger = mmap(NULL, sizeof(*ledger), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ledger == MAP_FAILED)
		error(1, errno, "map the meter's ledger");
	if (pipe2(req_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		error(1, errno, "pipe");
	meter = m;
	fail_fn = on_fail;
	sampler_pid = getpid();
	ledger->ncpus = meter_ncpus(m);
	if (meter_mark(m, err, sizeof(err)) < 0)
		fail(err);
}

void serve_sampler_count(uint64_t (*all_bytes)(void))
{
	if (!ledger || child)
		return;
	count_all = all_bytes;
	__atomic_store_n(&ledger->all_bytes, all_bytes(), __ATOMIC_RELEASE);
	__atomic_store_n(&ledger->counted, 1, __ATOMIC_RELEASE);
}

int serve_sampler_fd(void)
{
	return child ? -1 : req_pipe[0];
}

void serve_sampler_child(void)
{
	if (!ledger)
		return;
	child = 1;
	close(req_pipe[0]);
	req_pipe[0] = -1;
}

void serve_sampler_answer(void)
{
	char drain[64];
	uint64_t asked;

	if (!ledger || child || failed)
		return;
	while (read(req_pipe[0], drain, sizeof(drain)) > 0)
		;
	asked = __atomic_load_n(&ledger->asked, __ATOMIC_ACQUIRE);
	if (asked == answered)
		return;
	answered = asked;
	sample();
}

static void read_ledger(struct serve_sampler_mark *mk)
{
	uint64_t s1, s2;

	do {
		s1 = __atomic_load_n(&ledger->seq, __ATOMIC_ACQUIRE);
		__atomic_load(&ledger->load_secs, &mk->load_secs, __ATOMIC_ACQUIRE);
		__atomic_load(&ledger->secs, &mk->secs, __ATOMIC_ACQUIRE);
		mk->ncpus = __atomic_load_n(&ledger->ncpus, __ATOMIC_ACQUIRE);
		mk->all_bytes = __atomic_load_n(&ledger->all_bytes, __ATOMIC_ACQUIRE);
		mk->counted = __atomic_load_n(&ledger->counted, __ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&ledger->seq, __ATOMIC_RELAXED);
	} while ((s1 & 1) || s1 != s2);
}

/*
 * A connection's process: ask, and sleep until a reading begun after the
 * asking is in the ledger. The futex word is read before seq, so a reading
 * that lands between the look and the sleep makes the sleep return at once.
 */
static int ask(void)
{
	uint64_t s = __atomic_load_n(&ledger->seq, __ATOMIC_ACQUIRE);
	uint64_t want = s + ((s & 1) ? 3 : 2);
	/* Long enough not to spin, short enough to see the server gone (its
	 * death also sends SIGTERM here, lib/zcs/serve_conns.h). */
	struct timespec patience = { 1, 0 };
	uint32_t seen;
	char c = 0;

	__atomic_add_fetch(&ledger->asked, 1, __ATOMIC_RELEASE);
	if (write(req_pipe[1], &c, 1) < 0 && errno != EAGAIN)
		return -1;
	for (;;) {
		seen = __atomic_load_n(&ledger->readings, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&ledger->seq, __ATOMIC_ACQUIRE) >= want)
			return 0;
		if (getppid() != sampler_pid)
			return -1;	/* the server is gone */
		syscall(SYS_futex, &ledger->readings, FUTEX_WAIT, seen, &patience, NULL, 0);
	}
}

int serve_sampler_read(struct serve_sampler_mark *mk)
{
	if (child && ask() < 0)
		return -1;
	if (!child)
		sample();
	read_ledger(mk);
	return 0;
}

struct serve_load serve_sampler_since(struct serve_sampler_mark *mk, uint64_t *bytes)
{
	struct serve_load l = { 0 };
	struct serve_sampler_mark now;
	double secs;

	if (serve_sampler_read(&now) < 0)
		return l;
	secs = now.secs - mk->secs;
	if (now.counted && mk->counted)
		*bytes = now.all_bytes - mk->all_bytes;
	if (secs > 0)
		l = serve_load_of((now.load_secs - mk->load_secs) / secs, now.ncpus, secs,
				*bytes);
	*mk = now;
	return l;
}
