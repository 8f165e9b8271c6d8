/*
 * Where the CPU went: a snapshot of the counters, and a period's report
 * from two of them (lib/meter/where.h). The parsers are in where_parse.c,
 * the symbols and the call chains' walk in where_syms.c, the sampler in
 * where_kernel.c, the interfaces of every namespace in where_net.c; its
 * lines are lib/app/where_out.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/err.h"
#include "base/textfile.h"
#include "meter/meter.h"
#include "meter/where.h"
#include "meter/where_internal.h"


/* NET_RX softirqs a second that mean packets moved (a quiet machine: a few). */
#define RX_UNSEEN_PER_SEC 100

/* /proc/stat, /proc/softirqs with many CPUs and interrupts: tens of KB. */
#define TEXT_MAX ((size_t)512 * 1024)

const char *const where_class_name[WHERE_CLASSES] = {
	"user", "system", "irq", "softirq", "steal",
};

struct where {
	int *soakers;
	int nsoakers;
	char ifname[IF_NAMESIZE];	/* "": every interface that moved */
	int sample;
	int every_netns;		/* other namespaces' interfaces too */
	struct where_syms syms;
	struct where_sampler *sampler;
	char why[256];			/* why kernel work is not sampled */
	pthread_mutex_t lock;		/* one where_take at a time: text */
	char *text;			/* TEXT_MAX bytes for a /proc file */
};

static uint64_t gained(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

/* The classes and load of each CPU, and the machine's classes in ticks. */
static void compute_cpus(const struct where_snap *a, const struct where_snap *b,
			 struct where_report *r, double *cls, double *total)
{
	uint64_t d[WHERE_T_COLS], soak[WHERE_MAX_CPUS] = { 0 };
	double c[WHERE_CLASSES], all, busy, secs = r->secs > 0 ? r->secs : 1;
	int i, k;

	for (i = 0; i < b->nsoak && i < a->nsoak; i++)
		soak[b->soak_cpu[i]] += gained(a->soak_user[i], b->soak_user[i]);
	for (i = 0; i < b->ncpus; i++) {
		for (k = 0, all = 0; k < WHERE_T_COLS; k++) {
			d[k] = gained(a->tick[i][k], b->tick[i][k]);
			all += (double)d[k];
		}
		c[WHERE_USER] = (double)d[WHERE_T_USER] +
			(d[WHERE_T_NICE] > soak[i] ? (double)(d[WHERE_T_NICE] - soak[i]) : 0);
		c[WHERE_SYSTEM] = (double)d[WHERE_T_SYSTEM];
		c[WHERE_IRQ] = (double)d[WHERE_T_IRQ];
		c[WHERE_SOFTIRQ] = (double)d[WHERE_T_SOFTIRQ];
		c[WHERE_STEAL] = (double)d[WHERE_T_STEAL];
		for (k = 0, busy = 0; k < WHERE_CLASSES; k++) {
			cls[k] += c[k];
			busy += c[k];
		}
		*total += all;
		r->cpu[i].online = all > 0;
		r->cpu[i].load_pct = all > 0 ? 100 * busy / all : 0;
		r->cpu[i].softirq_pct = all > 0 ? 100 * c[WHERE_SOFTIRQ] / all : 0;
		for (k = 0; k < WHERE_CLASSES; k++)
			r->cpu[i].class_pct[k] = all > 0 ? 100 * c[k] / all : 0;
		r->cpu[i].net_rx_per_sec = (double)gained(a->net_rx[i], b->net_rx[i]) / secs;
		r->cpu[i].net_tx_per_sec = (double)gained(a->net_tx[i], b->net_tx[i]) / secs;
	}
}

static void compute_net(const struct where_snap *a, const struct where_snap *b,
			const char *ifname, double busy_us, struct where_report *r)
{
	double secs = r->secs > 0 ? r->secs : 1, net_rx = 0;
	uint64_t rx, tx, packets = 0;
	int i, j;

	r->intr_per_sec = (double)gained(a->intr, b->intr) / secs;
	r->nifs = 0;
	for (i = 0; i < b->nifs; i++) {
		if (ifname && *ifname && strcmp(ifname, b->ifs[i].name) != 0)
			continue;
		for (j = 0; j < a->nifs && strcmp(a->ifs[j].name, b->ifs[i].name) != 0; j++)
			;
		rx = j < a->nifs ? gained(a->ifs[j].rx, b->ifs[i].rx) : 0;
		tx = j < a->nifs ? gained(a->ifs[j].tx, b->ifs[i].tx) : 0;
		if (!(ifname && *ifname) && !rx && !tx)
			continue;
		memcpy(r->ifs[r->nifs].name, b->ifs[i].name, WHERE_IF_NAME);
		r->ifs[r->nifs].rx_per_sec = (double)rx / secs;
		r->ifs[r->nifs].tx_per_sec = (double)tx / secs;
		if (j < a->nifs) {
			r->ifs[r->nifs].rx_dropped = gained(a->ifs[j].rx_drop, b->ifs[i].rx_drop);
			r->ifs[r->nifs].tx_dropped = gained(a->ifs[j].tx_drop, b->ifs[i].tx_drop);
			r->ifs[r->nifs].errors = gained(a->ifs[j].errs, b->ifs[i].errs);
		}
		r->ifs[r->nifs].super = b->ifs[i].super;
		r->nifs++;
		packets += rx + tx;
	}
	r->us_per_packet = packets ? busy_us / (double)packets : NAN;
	r->intr_per_packet = packets ? (double)gained(a->intr, b->intr) / (double)packets : NAN;
	for (i = 0; i < b->ncpus; i++)
		net_rx += r->cpu[i].net_rx_per_sec;
	/* Receive softirqs at a rate no counter we read explains. */
	r->rx_unseen = !r->nifs && net_rx >= RX_UNSEEN_PER_SEC;
	snprintf(r->unseen, sizeof(r->unseen), "%s", b->unseen);
}

/* Samples by kind from a to b into pct, idle left out; their count. */
static uint64_t kinds_of(const uint64_t *a, const uint64_t *b, double *pct)
{
	uint64_t d[WHERE_KINDS], n = 0;
	int k;

	for (k = 0; k < WHERE_KINDS; k++) {
		d[k] = gained(a[k], b[k]);
		n += d[k];
	}
	for (k = 0; k < WHERE_KINDS; k++)
		pct[k] = n ? 100.0 * (double)d[k] / (double)n : 0;
	return n;
}

/* Other's biggest symbols over the period, biggest first. */
static void compute_other(const struct where_snap *a, const struct where_snap *b,
			  struct where_report *r)
{
	uint64_t d, top[WHERE_OTHER_TOP] = { 0 };
	int i, j, k;

	r->nother = 0;
	for (i = 0; i < WHERE_OTHER_SLOTS && r->samples; i++) {
		if (!b->other[i].name)
			continue;
		d = gained(a->other[i].name == b->other[i].name ? a->other[i].n : 0,
			   b->other[i].n);
		for (j = 0; j < r->nother && top[j] >= d; j++)
			;
		if (!d || j == WHERE_OTHER_TOP)
			continue;
		if (r->nother < WHERE_OTHER_TOP)
			r->nother++;
		for (k = r->nother - 1; k > j; k--) {
			top[k] = top[k - 1];
			r->other_top[k] = r->other_top[k - 1];
		}
		top[j] = d;
		snprintf(r->other_top[j].name, sizeof(r->other_top[j].name), "%s",
			 b->other[i].name);
		r->other_top[j].pct = 100.0 * (double)d / (double)r->samples;
	}
}

static void compute_kinds(const struct where_snap *a, const struct where_snap *b,
			  double busy_us, uint64_t bytes, struct where_report *r)
{
	int i, k;

	r->samples = kinds_of(a->kind, b->kind, r->kind_pct);
	for (i = 0; i < b->ncpus && i < WHERE_MAX_CPUS; i++)
		r->cpu[i].samples = kinds_of(a->kind_cpu[i], b->kind_cpu[i], r->cpu[i].kind_pct);
	/* Each kind's share of the busy time, per KB: they add up to the load's. */
	for (k = 0; k < WHERE_KINDS; k++)
		r->kind_us_per_kb[k] = bytes >= DEMAND_MIN_BYTES && r->samples ?
			cpu_us_per_kb(r->kind_pct[k] / 100 * busy_us / 1e6, bytes) : NAN;
	compute_other(a, b, r);
}

void where_compute(const struct where_snap *a, const struct where_snap *b,
		   double load, uint64_t bytes, const char *ifname,
		   struct where_report *r)
{
	double cls[WHERE_CLASSES] = { 0 }, total = 0, sum = 0, cpus = 0, busy_us;
	int i, k;

	memset(r, 0, sizeof(*r));
	r->secs = (double)gained(a->ns, b->ns) / 1e9;
	r->ncpus = b->ncpus;
	compute_cpus(a, b, r, cls, &total);
	for (k = 0; k < WHERE_CLASSES; k++) {
		r->class_pct[k] = total > 0 ? 100 * cls[k] / total : 0;
		sum += r->class_pct[k];
	}
	r->load_pct = 100 * load;
	/*
	 * Not clamped at 0: the meter's load and /proc/stat's classes (whole
	 * hundredths of a second, each rounded down, each tick charged whole)
	 * measure the same busy time apart, so a share a little below 0 is
	 * their resolution, and one far below it says they disagree.
	 */
	r->unattributed_pct = r->load_pct - sum;
	/* CPUs that ticked at all: offline ones have no line, or no ticks. */
	for (i = 0; i < b->ncpus; i++)
		cpus += r->cpu[i].online;
	for (k = 0; k < WHERE_CLASSES; k++)
		r->class_us_per_kb[k] = bytes >= DEMAND_MIN_BYTES ? cpu_us_per_kb(r->class_pct[k] / 100 * cpus *
							     r->secs, bytes) : NAN;
	r->unattributed_us_per_kb = bytes >= DEMAND_MIN_BYTES ? cpu_us_per_kb(r->unattributed_pct / 100 *
							  cpus * r->secs, bytes) : NAN;
	/* The machine's busy CPU time: the meter's load, or /proc/stat's. */
	busy_us = (isnan(r->load_pct) ? sum : r->load_pct) / 100 * cpus * r->secs * 1e6;
	compute_net(a, b, ifname, busy_us, r);
	r->bytes_per_call = NAN;
	r->sampled = a->lost != UINT64_MAX && b->lost != UINT64_MAX;
	compute_kinds(a, b, busy_us, bytes, r);
}

void where_calls(struct where_report *r, uint64_t bytes, uint64_t calls)
{
	r->bytes_per_call = calls ? (double)bytes / (double)calls : NAN;
}

/* A whole /proc file into w->text, NUL-terminated. */
static int read_text(struct where *w, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return err_fill(err, errlen, errno, "%s", path);
	while ((n = read(fd, w->text + len, TEXT_MAX - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (n < 0)
		return err_fill(err, errlen, errno, "%s", path);
	w->text[len] = 0;
	return 0;
}

/* The /proc files a snapshot reads, each with its parser. */
static const struct {
	const char *path;
	int (*parse)(const char *text, struct where_snap *s);
} readers[] = {
	{ "/proc/stat", where_parse_stat },
	{ "/proc/interrupts", where_parse_interrupts },
	{ "/proc/softirqs", where_parse_softirqs },
	{ "/proc/net/dev", where_parse_netdev },
};

static int take(struct where *w, struct where_snap *s, char *err, size_t errlen)
{
	char path[64], line[1024];
	int i;

	s->ns = now_ns();
	for (i = 0; i < (int)(sizeof(readers) / sizeof(readers[0])); i++) {
		if (read_text(w, readers[i].path, err, errlen) < 0)
			return -1;
		if (readers[i].parse(w->text, s) < 0)
			return err_fill(err, errlen, 0, "%s: not as expected", readers[i].path);
	}
	s->nsoak = 0;
	for (i = 0; i < w->nsoakers && i < WHERE_MAX_CPUS; i++, s->nsoak++) {
		snprintf(path, sizeof(path), "/proc/%d/stat", w->soakers[i]);
		if (textfile_line(path, line, sizeof(line)) < 0)
			return err_fill(err, errlen, errno, "%s", path);
		if (where_parse_task(line, &s->soak_user[i], &s->soak_cpu[i]) < 0)
			return err_fill(err, errlen, 0, "%s: not as expected", path);
	}
	where_net_take(s, w->every_netns);
	memset(s->kind, 0, sizeof(s->kind));
	memset(s->kind_cpu, 0, sizeof(s->kind_cpu));
	memset(s->other, 0, sizeof(s->other));
	s->lost = UINT64_MAX;		/* not sampled */
	if (w->sampler) {
		where_sampler_counts(w->sampler, s->kind, s->kind_cpu, WHERE_MAX_CPUS, &s->lost);
		where_sampler_other(w->sampler, s);
	}
	return 0;
}

int where_take(struct where *w, struct where_snap *s, char *err, size_t errlen)
{
	int rc;

	pthread_mutex_lock(&w->lock);
	rc = take(w, s, err, errlen);
	pthread_mutex_unlock(&w->lock);
	return rc;
}

static void start_sampling(struct where *w)
{
	if (!w->syms.n && where_syms_load("/proc/kallsyms", &w->syms, w->why,
					  sizeof(w->why)) < 0)
		return;
	w->sampler = where_sampler_open(&w->syms, w->soakers, w->nsoakers,
					w->why, sizeof(w->why));
}

struct where *where_open(const struct where_cfg *cfg, char *err, size_t errlen)
{
	struct where *w = calloc(1, sizeof(*w));

	if (w)
		w->text = malloc(TEXT_MAX);
	if (w && cfg->nsoakers > 0)
		w->soakers = calloc((size_t)cfg->nsoakers, sizeof(*w->soakers));
	if (!w || !w->text || (cfg->nsoakers > 0 && !w->soakers)) {
		err_fill(err, errlen, errno, "where");
		where_close(w);
		return NULL;
	}
	if (cfg->nsoakers > 0)
		memcpy(w->soakers, cfg->soakers, (size_t)cfg->nsoakers * sizeof(*w->soakers));
	w->nsoakers = cfg->nsoakers;
	pthread_mutex_init(&w->lock, NULL);
	if (cfg->ifname)
		snprintf(w->ifname, sizeof(w->ifname), "%s", cfg->ifname);
	w->sample = cfg->sample;
	w->every_netns = cfg->every_netns;
	if (w->sample)
		start_sampling(w);
	return w;
}

struct where *where_open_meter(const struct meter *m, char *err, size_t errlen)
{
	int pids[WHERE_MAX_CPUS];
	struct where_cfg cfg = { .soakers = pids, .sample = 1 };

	cfg.nsoakers = meter_soakers(m, pids, WHERE_MAX_CPUS);
	return where_open(&cfg, err, errlen);
}

void where_every_netns(struct where *w)
{
	w->every_netns = 1;
}

const char *where_sampling_why(const struct where *w)
{
	return w->sampler || !w->sample ? NULL : w->why;
}

void where_pause(struct where *w)
{
	where_sampler_close(w->sampler);	/* knows a copy: no join */
	w->sampler = NULL;
}

void where_resume(struct where *w)
{
	where_pause(w);
	if (w->sample && !w->why[0])
		start_sampling(w);
}

void where_close(struct where *w)
{
	if (!w)
		return;
	where_sampler_close(w->sampler);
	where_syms_free(&w->syms);
	free(w->soakers);
	free(w->text);
	free(w);
}
