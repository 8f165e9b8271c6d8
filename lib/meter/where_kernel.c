/*
 * Kernel work by kind: perf's software cpu-clock event (a timer, so it
 * works in a virtual machine without a PMU) samples every CPU about 333
 * times a second; a thread drains the rings every 100 ms into counts by
 * kind, each IP's kind found in /proc/kallsyms sorted by address.
 *
 * The rate is what sampling may cost: each sample is a timer interrupt,
 * and a virtual machine makes those dear, so the rate is a third of the
 * usual 1000 a second. The period is not a multiple of the scheduler
 * tick's (4 ms at HZ 250), so the samples do not keep one phase against it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/err.h"
#include "base/textfile.h"
#include "meter/where_internal.h"

#define SAMPLE_NS 3001000	/* a sample per 3 ms of CPU time */
#define RING_PAGES 16		/* 64 KiB: seconds of samples per CPU */
#define DRAIN_MS 100

struct ring {
	int fd;
	int cpu;		/* the CPU it samples */
	void *base;		/* the control page, then the data pages */
};

struct where_sampler {
	struct where_syms *syms;
	const int *soakers;
	int nsoakers;
	pid_t owner;		/* the process whose thread drains */
	int nrings;
	struct ring *rings;
	size_t page, map_len;
	pthread_t thread;
	int stop[2];		/* a pipe: closing the write end stops the thread */
	pthread_mutex_t lock;
	int ncpus;		/* rows of kind: sysconf's configured CPUs */
	uint64_t (*kind)[WHERE_KINDS + 1];	/* samples by CPU, by kind */
	uint64_t lost;
	/* Samples charged to other, by symbol index (the key; t->n and up:
	 * the WHERE_SYM_ values folded in); a slot once taken keeps its key. */
	struct { size_t sym; uint64_t n; } other[WHERE_OTHER_SLOTS];
};

static int is_soaker(const struct where_sampler *s, uint32_t pid)
{
	int i;

	for (i = 0; i < s->nsoakers; i++)
		if ((uint32_t)s->soakers[i] == pid)
			return 1;
	return 0;
}

static void count_other(struct where_sampler *s, size_t sym)
{
	size_t h = (sym * 2654435761u) % WHERE_OTHER_SLOTS, i;

	for (i = 0; i < WHERE_OTHER_SLOTS; i++, h = (h + 1) % WHERE_OTHER_SLOTS) {
		if (s->other[h].n && s->other[h].sym != sym)
			continue;
		s->other[h].sym = sym;
		s->other[h].n++;
		return;
	}
	/* Full: hundreds of symbols in other, the top few are named anyway. */
}

/*
 * One sample: ip, pid and tid, then the kernel call chain's length and
 * addresses (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN).
 */
static void count_sample(struct where_sampler *s, uint64_t *kind, uint16_t misc,
			 const unsigned char *body, size_t len)
{
	uint64_t ip, nr, chain[WHERE_CHAIN_MAX + 4];
	uint32_t pid;
	int mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	enum where_kind k;
	size_t sym = WHERE_SYM_NONE;

	memcpy(&ip, body, 8);
	memcpy(&pid, body + 8, 4);
	memcpy(&nr, body + 16, 8);
	if (nr > WHERE_CHAIN_MAX + 4 || 24 + nr * 8 > len)
		nr = 0;
	memcpy(chain, body + 24, nr * 8);
	if (mode == PERF_RECORD_MISC_USER && pid) {
		/* A soaker's own spinning is not load; its interrupts are. */
		if (!is_soaker(s, pid))
			kind[WHERE_KUSER]++;
		return;
	}
	if (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_USER)
		k = nr ? where_sample_kind(s->syms, pid, chain, nr, &sym)
		       : where_sample_kind(s->syms, pid, &ip, 1, &sym);
	else
		k = pid ? WHERE_KOTHER : WHERE_KIDLE;	/* a hypervisor's, a guest's */
	kind[k]++;
	if (k == WHERE_KOTHER)
		count_other(s, sym);
}

/* Every record the ring holds; under s->lock. */
static void drain(struct where_sampler *s, struct ring *r)
{
	struct perf_event_mmap_page *pg = r->base;
	unsigned char *data = (unsigned char *)r->base + s->page, rec[512];
	uint64_t size = (uint64_t)RING_PAGES * s->page, head, tail, lost;
	struct perf_event_header h;
	uint64_t at, i;

	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	for (tail = pg->data_tail; tail < head; tail += h.size) {
		for (i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(tail + i) % size];
		if (h.size < sizeof(h))
			break;		/* never: the kernel writes whole records */
		at = tail + sizeof(h);
		for (i = 0; i < sizeof(rec) && i < h.size - sizeof(h); i++)
			rec[i] = data[(at + i) % size];
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 24) {
			count_sample(s, s->kind[r->cpu], h.misc, rec, i);
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			memcpy(&lost, rec + 8, 8);
			s->lost += lost;
		}
	}
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
}

static void drain_all(struct where_sampler *s)
{
	int i;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->nrings; i++)
		drain(s, &s->rings[i]);
	pthread_mutex_unlock(&s->lock);
}

static void *drainer(void *arg)
{
	struct where_sampler *s = arg;
	struct pollfd p = { .fd = s->stop[0], .events = POLLIN };

	int rc;

	/* Until the pipe's write end closes. */
	while ((rc = poll(&p, 1, DRAIN_MS)) == 0 || (rc < 0 && errno == EINTR))
		drain_all(s);
	return NULL;
}

static void why_refused(int e, char *why, size_t whylen)
{
	char paranoid[32] = "?";

	if (textfile_line("/proc/sys/kernel/perf_event_paranoid", paranoid,
			  sizeof(paranoid)) < 0)
		snprintf(paranoid, sizeof(paranoid), "?");
	if (e == EACCES || e == EPERM)
		err_fill(why, whylen, e, "perf_event_open (perf_event_paranoid is %s; "
			 "sampling every CPU needs root, CAP_PERFMON or a setting "
			 "of 0 or less)", paranoid);
	else
		err_fill(why, whylen, e, "perf_event_open (software cpu-clock)");
}

/* A sampling event on cpu and its ring; 1: CPU offline, -1 with why. */
static int open_ring(struct where_sampler *s, int cpu, struct ring *r,
		     char *why, size_t whylen)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = SAMPLE_NS,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN,
		.exclude_hv = 1,
		.exclude_callchain_user = 1,
		.sample_max_stack = WHERE_CHAIN_MAX,
	};
	long fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && errno == ENODEV)
		return 1;
	if (fd < 0) {
		why_refused(errno, why, whylen);
		return -1;
	}
	r->fd = (int)fd;
	r->cpu = cpu;
	r->base = mmap(NULL, s->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED) {
		err_fill(why, whylen, errno, "perf_event_open: mmap of its ring");
		close(r->fd);
		return -1;
	}
	return 0;
}

struct where_sampler *where_sampler_open(struct where_syms *syms,
					 const int *soakers, int nsoakers,
					 char *why, size_t whylen)
{
	struct where_sampler *s = calloc(1, sizeof(*s));
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	sigset_t all, old;
	int cpu, rc;

	if (!s || ncpus < 1 || !(s->rings = calloc((size_t)ncpus, sizeof(*s->rings))) ||
	    !(s->kind = calloc((size_t)ncpus, sizeof(*s->kind)))) {
		err_fill(why, whylen, ENOMEM, "sampling");
		if (s)
			free(s->rings);
		free(s);
		return NULL;
	}
	s->ncpus = (int)ncpus;
	s->syms = syms;
	s->soakers = soakers;
	s->nsoakers = nsoakers;
	s->owner = getpid();
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->map_len = (1 + RING_PAGES) * s->page;
	s->stop[0] = s->stop[1] = -1;
	pthread_mutex_init(&s->lock, NULL);
	for (cpu = 0; cpu < ncpus; cpu++) {
		rc = open_ring(s, cpu, &s->rings[s->nrings], why, whylen);
		if (rc < 0)
			goto fail;
		s->nrings += rc == 0;
	}
	if (pipe2(s->stop, O_CLOEXEC) < 0) {
		err_fill(why, whylen, errno, "sampling: pipe");
		goto fail;
	}
	/* Every signal stays the program's: its handlers interrupt its calls. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&s->thread, NULL, drainer, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		err_fill(why, whylen, rc, "sampling: a thread");
		goto fail;
	}
	return s;
fail:
	s->owner = 0;			/* no thread to stop */
	where_sampler_close(s);
	return NULL;
}

void where_sampler_counts(struct where_sampler *s, uint64_t *kind,
			  uint64_t (*kind_cpu)[WHERE_KINDS + 1], int maxcpus, uint64_t *lost)
{
	int cpu, k;

	drain_all(s);
	pthread_mutex_lock(&s->lock);
	memset(kind, 0, (WHERE_KINDS + 1) * sizeof(*kind));
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		for (k = 0; k <= WHERE_KINDS; k++)
			kind[k] += s->kind[cpu][k];
		if (cpu < maxcpus)
			memcpy(kind_cpu[cpu], s->kind[cpu], sizeof(s->kind[cpu]));
	}
	*lost = s->lost;
	pthread_mutex_unlock(&s->lock);
}

void where_sampler_other(struct where_sampler *s, struct where_snap *snap)
{
	int i;

	drain_all(s);
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < WHERE_OTHER_SLOTS; i++) {
		snap->other[i].n = s->other[i].n;
		snap->other[i].name = s->other[i].n ? where_sym_name(s->syms, s->other[i].sym)
						    : NULL;
	}
	pthread_mutex_unlock(&s->lock);
}

void where_sampler_close(struct where_sampler *s)
{
	int i;

	if (!s)
		return;
	/* In a forked copy the thread is not ours and the lock may be held. */
	if (s->owner == getpid()) {
		close(s->stop[1]);
		s->stop[1] = -1;
		pthread_join(s->thread, NULL);
	}
	for (i = 0; i < s->nrings; i++) {
		munmap(s->rings[i].base, s->map_len);
		close(s->rings[i].fd);
	}
	if (s->stop[0] >= 0)
		close(s->stop[0]);
	if (s->stop[1] >= 0)
		close(s->stop[1]);
	free(s->rings);
	free(s->kind);
	free(s);
}
