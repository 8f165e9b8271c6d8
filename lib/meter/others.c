#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/textfile.h"
#include "meter/others.h"
#include "meter/proc.h"

#define PF_KTHREAD 0x00200000	/* /proc/PID/stat's flags: a kernel thread */
#define ANCESTRY_MAX 64		/* parents followed before giving up */

/* One process as a snapshot holds it. */
struct proc_cpu {
	int pid, ppid;
	int kthread;
	unsigned long long ticks;	/* utime + stime */
	unsigned long long start;	/* start time: tells a reused PID */
	char name[OTHERS_NAME];
};

struct others_snap {
	int n, cap;
	struct proc_cpu *p;		/* sorted by pid */
};

/* zc's own programs: not others, nor is anything they started. */
static const char *const zc_programs[] = { "zcc", "zcs", "cyclesoak", "run_rr" };

/* A /proc/PID/stat line into *p; -1 when it is not one. */
static int parse_stat(const char *line, struct proc_cpu *p)
{
	const char *open = strchr(line, '('), *close = strrchr(line, ')');
	static const int fields[] = { 4, 9, 14, 15, 22 };
	unsigned long long v[5];
	char *end;

	if (!open || !close || close < open)
		return -1;
	for (int i = 0; i < 5; i++) {
		const char *f = proc_stat_field(line, fields[i]);

		if (!f || *f < '0' || *f > '9')
			return -1;
		errno = 0;
		v[i] = strtoull(f, &end, 10);
		if (errno || (*end != ' ' && *end))
			return -1;
	}
	if (v[0] > INT_MAX)
		return -1;
	p->ppid = (int)v[0];
	p->kthread = (v[1] & PF_KTHREAD) != 0;
	p->ticks = v[2] + v[3];
	p->start = v[4];
	snprintf(p->name, sizeof(p->name), "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

static int by_pid(const void *a, const void *b)
{
	const struct proc_cpu *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Room for one more in s; -1 when there is none to be had. */
static int grow(struct others_snap *s)
{
	struct proc_cpu *p;
	int cap = s->cap ? s->cap * 2 : 512;

	if (s->n < s->cap)
		return 0;
	if (s->cap >= OTHERS_MAX_PROCS)
		return -1;
	p = realloc(s->p, (size_t)cap * sizeof(*p));
	if (!p)
		return -1;
	s->p = p;
	s->cap = cap;
	return 0;
}

/* dir's process entries into s; -1 with err on memory. */
static int scan(DIR *d, const char *root, struct others_snap *s, char *err, size_t errlen)
{
	char path[PATH_MAX], line[1024];
	struct dirent *e;
	long pid;

	while ((e = readdir(d))) {
		pid = proc_entry_pid(e->d_name);
		if (pid < 0)
			continue;	/* not a process */
		if (grow(s) < 0)
			return err_fill(err, errlen, ENOMEM, "%s: %d processes", root, s->n);
		snprintf(path, sizeof(path), "%s/%ld/stat", root, pid);
		if (textfile_line(path, line, sizeof(line)) < 0 ||
		    parse_stat(line, &s->p[s->n]) < 0)
			continue;	/* gone meanwhile */
		s->p[s->n++].pid = (int)pid;
	}
	return 0;
}

struct others_snap *others_take(const char *proc_root, char *err, size_t errlen)
{
	struct others_snap *s = calloc(1, sizeof(*s));
	DIR *d;

	if (!s) {
		err_fill(err, errlen, ENOMEM, "%s", proc_root);
		return NULL;
	}
	d = opendir(proc_root);
	if (!d) {
		err_fill(err, errlen, errno, "%s", proc_root);
		free(s);
		return NULL;
	}
	if (scan(d, proc_root, s, err, errlen) < 0) {
		closedir(d);
		others_free(s);
		return NULL;
	}
	closedir(d);
	if (s->n)
		qsort(s->p, (size_t)s->n, sizeof(*s->p), by_pid);
	return s;
}

void others_free(struct others_snap *s)
{
	if (!s)
		return;
	free(s->p);
	free(s);
}

static const struct proc_cpu *find(const struct others_snap *s, int pid)
{
	struct proc_cpu key = { .pid = pid };

	return s->n ? bsearch(&key, s->p, (size_t)s->n, sizeof(*s->p), by_pid) : NULL;
}

static int has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The kernel's network work: a kernel thread that serves the network. */
static int network_thread(const struct proc_cpu *p, const struct others_skip *skip)
{
	const char *dev;

	if (!p->kthread)
		return 0;
	if (has_prefix(p->name, "ksoftirqd/") || has_prefix(p->name, "napi/"))
		return 1;
	if (!has_prefix(p->name, "irq/"))
		return 0;
	dev = strchr(p->name, '-');	/* irq/NUMBER-ACTION */
	for (int i = 0; dev && i < skip->nnetdevs; i++)
		if (skip->netdevs[i][0] && has_prefix(dev + 1, skip->netdevs[i]))
			return 1;
	return 0;
}

/* p itself is left out: named by the caller, or one of zc's programs. */
static int skipped_itself(const struct proc_cpu *p, const struct others_skip *skip)
{
	for (int i = 0; i < skip->npids; i++)
		if (skip->pids[i] == p->pid)
			return 1;
	for (size_t i = 0; i < sizeof(zc_programs) / sizeof(*zc_programs); i++)
		if (strcmp(p->name, zc_programs[i]) == 0)
			return 1;
	return 0;
}

/* p or one of its ancestors (as b, else a, knows them) is left out. */
static int skipped(const struct proc_cpu *p, const struct others_snap *a,
		   const struct others_snap *b, const struct others_skip *skip)
{
	if (network_thread(p, skip))
		return 1;
	for (int depth = 0; p && depth < ANCESTRY_MAX; depth++) {
		int ppid = p->ppid;

		if (skipped_itself(p, skip))
			return 1;
		if (ppid <= 1)
			return 0;
		p = find(b, ppid);
		if (!p)
			p = find(a, ppid);
	}
	return 0;
}

/* pct more to name's share, among the n names of by so far. */
static void add_named(struct others_share *by, int *n, const char *name, double pct)
{
	int i;

	for (i = 0; i < *n && strcmp(by[i].name, name) != 0; i++)
		;
	if (i == *n) {
		snprintf(by[i].name, sizeof(by[i].name), "%s", name);
		by[i].pct = 0;
		(*n)++;
	}
	by[i].pct += pct;
}

static int by_share(const void *a, const void *b)
{
	const struct others_share *x = a, *y = b;

	return (x->pct < y->pct) - (x->pct > y->pct);
}

void others_compute(const struct others_snap *a, const struct others_snap *b,
		    const struct others_skip *skip, double cpus, double secs, long hz,
		    struct others_report *r)
{
	struct others_share *by;
	double per_tick;
	int n = 0;

	memset(r, 0, sizeof(*r));
	if (!a || !b || cpus <= 0 || secs <= 0 || hz <= 0)
		return;
	by = calloc((size_t)b->n + 1, sizeof(*by));
	if (!by)
		return;
	per_tick = 100.0 / ((double)hz * cpus * secs);
	for (int i = 0; i < b->n; i++) {
		const struct proc_cpu *now = &b->p[i], *then = find(a, now->pid);
		unsigned long long from = then && then->start == now->start ? then->ticks : 0;

		if (now->ticks <= from || skipped(now, a, b, skip))
			continue;
		add_named(by, &n, now->name, (double)(now->ticks - from) * per_tick);
	}
	qsort(by, (size_t)n, sizeof(*by), by_share);
	r->valid = 1;
	for (int i = 0; i < n; i++)
		r->pct += by[i].pct;
	r->n = n < OTHERS_TOP ? n : OTHERS_TOP;
	r->more = n - r->n;
	memcpy(r->top, by, (size_t)r->n * sizeof(*by));
	free(by);
}

int others_over(const struct others_report *r)
{
	return r->valid && r->pct >= OTHERS_MARK;
}

const char *others_text(const struct others_report *r, const char *figure, char *buf,
			size_t len)
{
	size_t at;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!others_over(r))
		return buf;
	at = (size_t)snprintf(buf, len, "others: %.1f%% of the machine during the run (",
			      r->pct);
	for (int i = 0; i < r->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s %.1f%%", i ? ", " : "",
				       r->top[i].name, r->top[i].pct);
	if (at < len)
		snprintf(buf + at, len - at, "%s); %s includes it", r->more ? ", ..." : "",
			 figure);
	return buf;
}

void others_netdevs(struct others_skip *skip)
{
	struct if_nameindex *ifs = if_nameindex(), *i;

	skip->nnetdevs = 0;
	if (!ifs)
		return;
	for (i = ifs; i->if_name && skip->nnetdevs < OTHERS_NETDEVS; i++)
		snprintf(skip->netdevs[skip->nnetdevs++], 16, "%s", i->if_name);
	if_freenameindex(ifs);
}
