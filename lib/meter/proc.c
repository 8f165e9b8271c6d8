#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/textfile.h"
#include "meter/proc.h"

int proc_machine_ticks(uint64_t *busy, uint64_t *total)
{
	/* user nice system idle iowait irq softirq steal */
	unsigned long long v[8] = { 0 };
	char line[512], *p, *end;
	int n;

	if (textfile_line("/proc/stat", line, sizeof(line)) < 0 ||
	    strncmp(line, "cpu ", 4) != 0)
		return -1;
	p = line + 4;
	for (n = 0; n < 8; n++) {
		v[n] = strtoull(p, &end, 10);
		if (end == p)
			break;
		p = end;
	}
	if (n < 7)
		return -1;
	*busy = v[0] + v[2] + v[5] + v[6] + v[7];
	*total = *busy + v[1] + v[3] + v[4];
	return 0;
}

const char *proc_number(const char *p, uint64_t *v)
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

int proc_stat_cpus(const char *text, uint64_t (*tick)[PROC_STAT_COLS], int max)
{
	const char *p, *q;
	uint64_t cpu, v[PROC_STAT_COLS];
	int k, n = 0;

	memset(tick, 0, (size_t)max * sizeof(*tick));
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		/* "cpuN user nice system idle iowait irq softirq steal ..." */
		if (strncmp(p, "cpu", 3) != 0 || p[3] < '0' || p[3] > '9')
			continue;
		q = proc_number(p + 3, &cpu);
		for (k = 0; q && k < PROC_STAT_COLS; k++)
			q = proc_number(q, &v[k]);
		if (!q)
			return -1;
		if (cpu >= (uint64_t)max)
			continue;
		memcpy(tick[cpu], v, sizeof(v));
		if ((int)cpu + 1 > n)
			n = (int)cpu + 1;
	}
	return n;
}

int proc_stat_head(char *buf, size_t len)
{
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t n = 0;
	char *end;

	if (fd < 0)
		return -1;
	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	if (n < 0)
		return -1;
	buf[got] = '\0';
	end = strrchr(buf, '\n');
	if (end)
		end[1] = '\0';
	return 0;
}

const char *proc_stat_field(const char *line, int field)
{
	const char *p = strrchr(line, ')');
	int f;

	/* Fields 1 and 2 are the PID and the name; 3 starts after the ')'. */
	if (!p || field < 3)
		return NULL;
	p++;
	for (f = 3;; f++) {
		p += strspn(p, " ");
		if (!*p || *p == '\n')
			return NULL;
		if (f == field)
			return p;
		p += strcspn(p, " \n");
	}
}

/* A decimal field of a /proc/PID/stat line; -1 when there is none. */
static int stat_field_ull(const char *stat, int field, unsigned long long *v)
{
	const char *p = proc_stat_field(stat, field);
	char *end;

	if (!p || *p < '0' || *p > '9')
		return -1;
	errno = 0;
	*v = strtoull(p, &end, 10);
	return errno || (*end != ' ' && *end != '\n' && *end) ? -1 : 0;
}

int proc_parse_stime(const char *stat, unsigned long long *ticks)
{
	return stat_field_ull(stat, 15, ticks);
}

int proc_task_ns(pid_t pid, uint64_t *run_ns, uint64_t *sys_ns, char *err, size_t errlen)
{
	char path[64], line[1024], *end;
	unsigned long long run, stime;
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0)
		hz = 100;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	if (textfile_line(path, line, sizeof(line)) < 0)
		return err_fill(err, errlen, errno, "%s", path);
	/* "RUN_NS WAIT_NS TIMESLICES": the first number is ours. */
	errno = 0;
	run = strtoull(line, &end, 10);
	if (end == line || errno || *end != ' ')
		return err_fill(err, errlen, 0, "%s: no run time in it", path);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (textfile_line(path, line, sizeof(line)) < 0)
		return err_fill(err, errlen, errno, "%s", path);
	if (proc_parse_stime(line, &stime) < 0)
		return err_fill(err, errlen, 0, "%s: no system time in it", path);
	*run_ns = run;
	*sys_ns = stime * (1000000000ull / (unsigned long long)hz);
	return 0;
}

int proc_task_slices(pid_t pid, uint64_t *slices)
{
	char path[64], line[256], *p = line, *end;
	int k;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	if (textfile_line(path, line, sizeof(line)) < 0)
		return -1;
	/* "RUN_NS WAIT_NS TIMESLICES" */
	for (k = 0; k < 2 && p; k++)
		p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
	if (!p)
		return -1;
	errno = 0;
	*slices = strtoull(p, &end, 10);
	return end == p || errno ? -1 : 0;
}

int proc_task_state(pid_t pid, char *state, int *wait_status)
{
	char path[64], line[1024];
	unsigned long long code = 0;
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (textfile_line(path, line, sizeof(line)) < 0)
		return errno == ENOENT || errno == ESRCH ? 0 : -1;
	p = proc_stat_field(line, 3);
	if (!p)
		return -1;
	*state = *p;
	*wait_status = 0;
	if ((*p == 'Z' || *p == 'X') && stat_field_ull(line, 52, &code) == 0)
		*wait_status = (int)code;
	return 1;
}

uint64_t proc_task_pending(pid_t pid)
{
	char path[64], line[256], *end;
	unsigned long long mask;
	uint64_t pending = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	/* "SigPnd:\t0000000000000100": this thread's; "ShdPnd:" the process's. */
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "SigPnd:", 7) != 0 && strncmp(line, "ShdPnd:", 7) != 0)
			continue;
		errno = 0;
		mask = strtoull(line + 7, &end, 16);
		if (!errno && end != line + 7)
			pending |= mask;
	}
	fclose(f);
	return pending;
}

/* pid's parent, state and name; -1 when it is gone or its line is odd. */
static int task_of(pid_t pid, pid_t *parent, struct proc_task *t)
{
	char path[64], line[1024], *end;
	const char *state, *ppid, *nice, *open = NULL, *close = NULL;
	long v;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (textfile_line(path, line, sizeof(line)) < 0)
		return -1;
	state = proc_stat_field(line, 3);
	ppid = proc_stat_field(line, 4);
	nice = proc_stat_field(line, 19);
	open = strchr(line, '(');
	close = strrchr(line, ')');
	if (!state || !ppid || !open || close < open)
		return -1;
	errno = 0;
	v = strtol(ppid, &end, 10);
	if (errno || end == ppid || v < 0)
		return -1;
	*parent = (pid_t)v;
	t->pid = pid;
	t->state = *state;
	t->nice = nice ? (int)strtol(nice, NULL, 10) : 0;
	snprintf(t->name, sizeof(t->name), "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

long proc_entry_pid(const char *name)
{
	char *end;
	long pid;

	if (name[0] < '1' || name[0] > '9')
		return -1;
	errno = 0;
	pid = strtol(name, &end, 10);
	return errno || *end || pid > INT_MAX ? -1 : pid;
}

int proc_children(pid_t parent, struct proc_task *kids, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	struct proc_task t;
	pid_t ppid;
	long pid;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		pid = proc_entry_pid(e->d_name);
		if (pid < 0 || task_of((pid_t)pid, &ppid, &t) < 0 || ppid != parent)
			continue;
		if (n < max)
			kids[n] = t;
		n++;
	}
	closedir(d);
	return n;
}
