#include <errno.h>
#include <error.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "app/out.h"
#include "zcs/serve_sampler.h"
#include "zcs/serve_total.h"
#include "app/meter_session.h"
#include "base/clock.h"
#include "base/rate.h"

struct count_slot {
	uint64_t bytes;
	uint32_t active;
} __attribute__((aligned(64)));	/* a cache line each: children write their own */

static struct count_slot *counts;	/* shared: one slot per connection */
static unsigned nslots;
static uint64_t *count_seen;		/* parent: each slot's bytes at the last look */
static unsigned char *slot_used;	/* parent: a live child has it */
static struct count_slot *my_count;	/* child: its slot */
static uint64_t retired;		/* parent: bytes of the children reaped */

static struct serve_sampler_mark period_mark;	/* -c: the ledger as the period began */
static int metered;

static struct {
	uint64_t step;			/* the period */
	uint64_t start, next;		/* the period began, the next is due */
	uint64_t bytes;			/* this period, of children reaped in it */
	unsigned movers;		/* those of them that moved data in it */
	int overlap;			/* two connections were active at once */
} period;

/* Every connection's bytes so far: the meter's us/KB are over them. */
static uint64_t all_received(void)
{
	uint64_t sum = retired;

	for (unsigned i = 0; i < nslots; i++)
		if (slot_used[i])
			sum += __atomic_load_n(&counts[i].bytes, __ATOMIC_RELAXED);
	return sum;
}

void serve_total_open(unsigned max_conns, double period_s, int with_meter)
{
	nslots = max_conns;
	counts = mmap(NULL, nslots * sizeof(*counts), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counts == MAP_FAILED)
		error(1, errno, "map the byte counters of %u connections", nslots);
	count_seen = calloc(nslots, sizeof(*count_seen));
	slot_used = calloc(nslots, 1);
	if (!count_seen || !slot_used)
		error(1, errno, "allocate the child table");
	metered = with_meter;
	if (metered) {
		serve_sampler_count(all_received);
		serve_sampler_read(&period_mark);
	}
	period.step = (uint64_t)(period_s * 1e9);
	period.start = now_ns();
	period.next = period.start + period.step;
}

void serve_total_close(void)
{
	free(count_seen);
	free(slot_used);
	count_seen = NULL;
	slot_used = NULL;
}

/* How many live children have not yet ended their streams. */
static unsigned active_slots(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < nslots; i++)
		if (slot_used[i] && __atomic_load_n(&counts[i].active, __ATOMIC_RELAXED))
			n++;
	return n;
}

unsigned serve_total_streaming(void)
{
	return active_slots();
}

unsigned serve_total_take(void)
{
	unsigned i = 0;

	while (slot_used[i])
		i++;		/* fewer live than slots: there is one */
	if (active_slots() > 0)
		period.overlap = 1;
	slot_used[i] = 1;
	__atomic_store_n(&counts[i].bytes, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&counts[i].active, 1, __ATOMIC_RELAXED);
	count_seen[i] = 0;
	return i;
}

void serve_total_release(unsigned slot)
{
	uint64_t now = __atomic_load_n(&counts[slot].bytes, __ATOMIC_RELAXED);

	if (now > count_seen[slot]) {
		period.bytes += now - count_seen[slot];
		period.movers++;
	}
	retired += now;
	slot_used[slot] = 0;
}

void serve_total_forget(unsigned slot)
{
	slot_used[slot] = 0;
}

void serve_total_child(unsigned slot)
{
	serve_total_close();
	my_count = &counts[slot];
}

void serve_total_count(uint64_t bytes)
{
	if (my_count)
		__atomic_store_n(&my_count->bytes, bytes, __ATOMIC_RELAXED);
}

void serve_total_ended(void)
{
	if (my_count)
		__atomic_store_n(&my_count->active, 0, __ATOMIC_RELAXED);
}

/* The live slots' bytes since the last look, into the period's. */
static void look(uint64_t *bytes, unsigned *movers)
{
	uint64_t b;

	for (unsigned i = 0; i < nslots; i++) {
		if (!slot_used[i])
			continue;
		b = __atomic_load_n(&counts[i].bytes, __ATOMIC_RELAXED);
		if (b > count_seen[i]) {
			*bytes += b - count_seen[i];
			(*movers)++;
		}
		count_seen[i] = b;
	}
}

static void print_total(uint64_t bytes, uint64_t ns, unsigned movers,
			const struct serve_load *l)
{
	line_begin("total");
	line_text("total: ");
	line_u64("bytes", bytes, NULL);
	line_num("seconds", (double)ns / 1e9, 3, NULL);
	line_num("kbytes_per_sec", kbytes_per_sec(bytes, ns), 0, "%.0f kbytes/sec");
	line_int("connections", movers, " over %lld connections");
	serve_load_line(l);
	if (line_end() < 0 || out_failed())
		error(1, errno, "write to stdout");
}

/*
 * The period ended: when more than one connection moved data in it, one
 * line of their sum, with -c the whole machine's load over it.
 */
static void report(uint64_t now)
{
	uint64_t bytes = period.bytes, ns = now - period.start;
	unsigned movers = period.movers;
	int overlap = period.overlap;
	struct serve_load l = { 0 };

	look(&bytes, &movers);
	if (metered)
		l = serve_sampler_since(&period_mark, &(uint64_t){ bytes });
	period.start = now;
	period.bytes = 0;
	period.movers = 0;
	period.overlap = active_slots() > 1;	/* still at once in the next */
	if (movers >= 2 && overlap)
		print_total(bytes, ns, movers, &l);
}

void serve_total_tick(void)
{
	uint64_t now = now_ns();

	if (now < period.next)
		return;
	report(now);
	period.next += period.step;
	if (period.next <= now)	/* stopped, or starved: start again from now */
		period.next = now + period.step;
}

int serve_total_due_ms(unsigned serving)
{
	uint64_t now = now_ns();

	if (!serving && !period.movers)
		return -1;
	return period.next > now ? (int)((period.next - now) / 1000000u) + 1 : 0;
}
