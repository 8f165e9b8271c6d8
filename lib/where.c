#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <math.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "err.h"
#include "meter.h"
#include "proc.h"
#include "where.h"
#include "where_internal.h"

/* /proc/stat's columns, in its order. */
enum { T_USER, T_NICE, T_SYSTEM, T_IDLE, T_IOWAIT, T_IRQ, T_SOFTIRQ, T_STEAL, T_COLS };

/* /proc/stat, /proc/softirqs with many CPUs and interrupts: tens of KB. */
#define TEXT_MAX (512 * 1024)

const char *const where_class_name[WHERE_CLASSES] = {
	"user", "system", "irq", "softirq", "steal",
};

struct where {
	int *soakers;
	int nsoakers;
	char ifname[IF_NAMESIZE];	/* "": every interface that moved */
	int sample;
	struct where_syms syms;
	struct where_sampler *sampler;
	char why[256];			/* why kernel work is not sampled */
	pthread_mutex_t lock;		/* one where_take at a time: text */
	char *text;			/* TEXT_MAX bytes for a /proc file */
};

/* The next unsigned number after p (spaces skipped) into *v; its end. */
static const char *number(const char *p, uint64_t *v)
{
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	errno = 0;
	*v = strtoull(p, &end, 10);
	return errno ? NULL : end;
}

static const char *next_line(const char *p)
{
	p = strchr(p, '\n');
	return p ? p + 1 : NULL;
}

int where_parse_stat(const char *text, struct where_snap *s)
{
	const char *p, *q;
	uint64_t cpu, v;
	int k;

	s->ncpus = 0;
	memset(s->tick, 0, sizeof(s->tick));
	for (p = text; p && *p; p = next_line(p)) {
		/* "cpuN user nice system idle iowait irq softirq steal ..." */
		if (strncmp(p, "cpu", 3) != 0 || p[3] < '0' || p[3] > '9')
			continue;
		q = number(p + 3, &cpu);
		if (!q || cpu >= WHERE_MAX_CPUS)
			return -1;
		for (k = 0; k < T_COLS; k++) {
			q = number(q, &v);
			if (!q)
				return -1;
			s->tick[cpu][k] = v;
		}
		if ((int)cpu + 1 > s->ncpus)
			s->ncpus = (int)cpu + 1;
	}
	return s->ncpus > 0 ? 0 : -1;
}

/* How many "CPUn" columns the header line of p names. */
static int header_columns(const char *p)
{
	const char *end = strchr(p, '\n');
	int n = 0;

	while ((p = strstr(p, "CPU")) && (!end || p < end)) {
		n++;
		p += 3;
	}
	return n;
}

int where_parse_interrupts(const char *text, struct where_snap *s)
{
	int ncols = header_columns(text), i;
	const char *p, *q;
	uint64_t v;

	s->intr = 0;
	if (!ncols)
		return -1;
	/* " 24:   1   0  IO-APIC 5-edge ACPI:Ged": a numbered line is a device's. */
	for (p = next_line(text); p && *p; p = next_line(p)) {
		q = p + strspn(p, " ");
		if (*q < '0' || *q > '9')
			continue;
		q += strspn(q, "0123456789");
		if (*q++ != ':')
			continue;
		for (i = 0; i < ncols && (q = number(q, &v)); i++)
			s->intr += v;
	}
	return 0;
}

int where_parse_softirqs(const char *text, struct where_snap *s)
{
	int col_cpu[WHERE_MAX_CPUS], ncols = 0, i;
	uint64_t v, *row;
	const char *p = text, *q;
	char *end;

	memset(s->net_rx, 0, sizeof(s->net_rx));
	memset(s->net_tx, 0, sizeof(s->net_tx));
	/* The header names the CPU of each column: "    CPU0   CPU1 ..." */
	for (q = p; q && *q && *q != '\n'; ) {
		q = strstr(q, "CPU");
		if (!q || (next_line(p) && q > next_line(p)))
			break;
		i = (int)strtol(q + 3, &end, 10);
		if (end == q + 3 || i < 0 || i >= WHERE_MAX_CPUS || ncols == WHERE_MAX_CPUS)
			return -1;
		col_cpu[ncols++] = i;
		q = end;
	}
	if (!ncols)
		return -1;
	for (p = next_line(p); p && *p; p = next_line(p)) {
		q = p + strspn(p, " ");
		if (strncmp(q, "NET_RX:", 7) == 0)
			row = s->net_rx;
		else if (strncmp(q, "NET_TX:", 7) == 0)
			row = s->net_tx;
		else
			continue;
		q += 7;
		for (i = 0; i < ncols; i++) {
			q = number(q, &v);
			if (!q)
				return -1;
			row[col_cpu[i]] = v;
		}
	}
	return 0;
}

int where_parse_netdev(const char *text, struct where_snap *s)
{
	const char *p, *colon, *q;
	uint64_t v[10];
	size_t len;
	int k;

	s->nifs = 0;
	/* Two header lines, then "  name: rxbytes rxpackets ... txbytes txpackets ..." */
	for (p = text; p && *p; p = next_line(p)) {
		colon = strchr(p, ':');
		if (!colon || (next_line(p) && colon > next_line(p)))
			continue;
		p += strspn(p, " ");
		len = (size_t)(colon - p);
		if (!len || len >= IF_NAMESIZE || s->nifs == WHERE_MAX_IFS)
			continue;
		for (q = colon + 1, k = 0; k < 10 && q; k++)
			q = number(q, &v[k]);
		if (!q)
			return -1;
		memcpy(s->ifs[s->nifs].name, p, len);
		s->ifs[s->nifs].name[len] = 0;
		s->ifs[s->nifs].rx = v[1];
		s->ifs[s->nifs].tx = v[9];
		s->nifs++;
	}
	return 0;
}

int where_parse_task(const char *line, uint64_t *utime, int *cpu)
{
	const char *p = proc_stat_field(line, 14);
	uint64_t c;

	if (!p || !number(p, utime))
		return -1;
	p = proc_stat_field(line, 39);
	if (!p || !number(p, &c) || c >= WHERE_MAX_CPUS)
		return -1;
	*cpu = (int)c;
	return 0;
}

static uint64_t gained(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

/* The classes and load of each CPU, and the machine's classes in ticks. */
static void compute_cpus(const struct where_snap *a, const struct where_snap *b,
			 struct where_report *r, double *cls, double *total)
{
	uint64_t d[T_COLS], soak[WHERE_MAX_CPUS] = { 0 };
	double c[WHERE_CLASSES], all, busy, secs = r->secs > 0 ? r->secs : 1;
	int i, k;

	for (i = 0; i < b->nsoak && i < a->nsoak; i++)
		soak[b->soak_cpu[i]] += gained(a->soak_user[i], b->soak_user[i]);
	for (i = 0; i < b->ncpus; i++) {
		for (k = 0, all = 0; k < T_COLS; k++) {
			d[k] = gained(a->tick[i][k], b->tick[i][k]);
			all += (double)d[k];
		}
		c[WHERE_USER] = (double)d[T_USER] +
			(d[T_NICE] > soak[i] ? (double)(d[T_NICE] - soak[i]) : 0);
		c[WHERE_SYSTEM] = (double)d[T_SYSTEM];
		c[WHERE_IRQ] = (double)d[T_IRQ];
		c[WHERE_SOFTIRQ] = (double)d[T_SOFTIRQ];
		c[WHERE_STEAL] = (double)d[T_STEAL];
		for (k = 0, busy = 0; k < WHERE_CLASSES; k++) {
			cls[k] += c[k];
			busy += c[k];
		}
		*total += all;
		r->cpu[i].online = all > 0;
		r->cpu[i].load_pct = all > 0 ? 100 * busy / all : 0;
		r->cpu[i].softirq_pct = all > 0 ? 100 * c[WHERE_SOFTIRQ] / all : 0;
		r->cpu[i].net_rx_per_sec = (double)gained(a->net_rx[i], b->net_rx[i]) / secs;
		r->cpu[i].net_tx_per_sec = (double)gained(a->net_tx[i], b->net_tx[i]) / secs;
	}
}

static void compute_net(const struct where_snap *a, const struct where_snap *b,
			const char *ifname, struct where_report *r)
{
	double secs = r->secs > 0 ? r->secs : 1;
	uint64_t rx, tx;
	int i, j;

	r->intr_per_sec = (double)gained(a->intr, b->intr) / secs;
	r->nifs = 0;
	for (i = 0; i < b->nifs; i++) {
		if (ifname && *ifname && strcmp(ifname, b->ifs[i].name) != 0)
			continue;
		for (j = 0; j < a->nifs && strcmp(a->ifs[j].name, b->ifs[i].name); j++)
			;
		rx = j < a->nifs ? gained(a->ifs[j].rx, b->ifs[i].rx) : 0;
		tx = j < a->nifs ? gained(a->ifs[j].tx, b->ifs[i].tx) : 0;
		if (!(ifname && *ifname) && !rx && !tx)
			continue;
		memcpy(r->ifs[r->nifs].name, b->ifs[i].name, IF_NAMESIZE);
		r->ifs[r->nifs].rx_per_sec = (double)rx / secs;
		r->ifs[r->nifs].tx_per_sec = (double)tx / secs;
		r->nifs++;
	}
}

static void compute_kinds(const struct where_snap *a, const struct where_snap *b,
			  struct where_report *r)
{
	uint64_t d[WHERE_KINDS];
	int k;

	r->samples = 0;
	for (k = 0; k < WHERE_KINDS; k++) {
		d[k] = gained(a->kind[k], b->kind[k]);
		r->samples += d[k];
	}
	for (k = 0; k < WHERE_KINDS; k++)
		r->kind_pct[k] = r->samples ? 100.0 * (double)d[k] / (double)r->samples : 0;
}

void where_compute(const struct where_snap *a, const struct where_snap *b,
		   double load, uint64_t bytes, const char *ifname,
		   struct where_report *r)
{
	double cls[WHERE_CLASSES] = { 0 }, total = 0, sum = 0, cpus = 0;
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
	r->unattributed_pct = r->load_pct - sum;
	/* CPUs that ticked at all: offline ones have no line, or no ticks. */
	for (i = 0; i < b->ncpus; i++)
		cpus += r->cpu[i].online;
	for (k = 0; k < WHERE_CLASSES; k++)
		r->class_us_per_kb[k] = bytes ? cpu_us_per_kb(r->class_pct[k] / 100 * cpus *
							     r->secs, bytes) : NAN;
	r->unattributed_us_per_kb = bytes ? cpu_us_per_kb(r->unattributed_pct / 100 *
							  cpus * r->secs, bytes) : NAN;
	compute_net(a, b, ifname, r);
	r->sampled = a->lost != UINT64_MAX && b->lost != UINT64_MAX;
	compute_kinds(a, b, r);
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

static int take(struct where *w, struct where_snap *s, char *err, size_t errlen)
{
	char path[64], line[1024];
	int i;

	s->ns = now_ns();
	if (read_text(w, "/proc/stat", err, errlen) < 0)
		return -1;
	if (where_parse_stat(w->text, s) < 0)
		return err_fill(err, errlen, 0, "/proc/stat: not as expected");
	if (read_text(w, "/proc/interrupts", err, errlen) < 0)
		return -1;
	if (where_parse_interrupts(w->text, s) < 0)
		return err_fill(err, errlen, 0, "/proc/interrupts: not as expected");
	if (read_text(w, "/proc/softirqs", err, errlen) < 0)
		return -1;
	if (where_parse_softirqs(w->text, s) < 0)
		return err_fill(err, errlen, 0, "/proc/softirqs: not as expected");
	if (read_text(w, "/proc/net/dev", err, errlen) < 0)
		return -1;
	if (where_parse_netdev(w->text, s) < 0)
		return err_fill(err, errlen, 0, "/proc/net/dev: not as expected");
	s->nsoak = 0;
	for (i = 0; i < w->nsoakers && i < WHERE_MAX_CPUS; i++, s->nsoak++) {
		snprintf(path, sizeof(path), "/proc/%d/stat", w->soakers[i]);
		if (proc_read_line(path, line, sizeof(line), err, errlen) < 0)
			return -1;
		if (where_parse_task(line, &s->soak_user[i], &s->soak_cpu[i]) < 0)
			return err_fill(err, errlen, 0, "%s: not as expected", path);
	}
	memset(s->kind, 0, sizeof(s->kind));
	s->lost = UINT64_MAX;		/* not sampled */
	if (w->sampler)
		where_sampler_counts(w->sampler, s->kind, &s->lost);
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

int where_since(struct where *w, struct where_snap *mark, double load,
		uint64_t bytes, struct where_report *r, char *err, size_t errlen)
{
	static __thread struct where_snap now;

	if (where_take(w, &now, err, errlen) < 0)
		return -1;
	where_compute(mark, &now, load, bytes, w->ifname, r);
	*mark = now;
	return 0;
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
	if (w->sample)
		start_sampling(w);
	return w;
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

/* The loopback addresses: 127.0.0.0/8 and ::1. */
static int is_loopback(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET)
		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	return ss->ss_family == AF_INET6 && IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
}

/* An IPv4-mapped IPv6 address (::ffff:a.b.c.d) as the IPv4 one. */
static void unmap(struct sockaddr_storage *ss)
{
	struct sockaddr_in6 in6 = *(struct sockaddr_in6 *)ss;
	struct sockaddr_in *in = (struct sockaddr_in *)ss;

	if (ss->ss_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr))
		return;
	memset(ss, 0, sizeof(*ss));
	in->sin_family = AF_INET;
	memcpy(&in->sin_addr, &in6.sin6_addr.s6_addr[12], 4);
}

static int same_addr(const struct sockaddr_storage *ss, const struct sockaddr *a)
{
	if (!a || a->sa_family != ss->ss_family)
		return 0;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)ss)->sin_addr.s_addr;
	return a->sa_family == AF_INET6 &&
	       IN6_ARE_ADDR_EQUAL(&((const struct sockaddr_in6 *)a)->sin6_addr,
				  &((const struct sockaddr_in6 *)ss)->sin6_addr);
}

int where_ifname(int sock, char *name, size_t len, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ifaddrs *ifs, *i;
	int found = 0;

	if (getsockname(sock, (struct sockaddr *)&ss, &sl) < 0)
		return err_fill(err, errlen, errno, "getsockname");
	unmap(&ss);
	if (getifaddrs(&ifs) < 0)
		return err_fill(err, errlen, errno, "getifaddrs");
	for (i = ifs; i && !same_addr(&ss, i->ifa_addr); i = i->ifa_next)
		;
	/* 127.0.0.2 and the like belong to no interface's list: loopback's. */
	if (!i && is_loopback(&ss))
		for (i = ifs; i && !(i->ifa_flags & IFF_LOOPBACK); i = i->ifa_next)
			;
	if (i)
		snprintf(name, len, "%s", i->ifa_name);
	found = i != NULL;
	freeifaddrs(ifs);
	return found ? 0 : err_fill(err, errlen, 0, "no interface holds the socket's address");
}
