#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/cpu.h"

int cpu_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

int cpu_max(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	if (n < 1)
		n = 1;
	return (int)(n > CPU_SETSIZE ? CPU_SETSIZE : n) - 1;
}

int cpu_bind(int cpu)
{
	return cpu_pin(0, cpu);
}

int cpu_pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

/* The CPUs of set, ascending, into cpus[CPU_SETSIZE]; how many. */
static int set_list(const cpu_set_t *set, int *cpus)
{
	int cpu, n = 0;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set))
			cpus[n++] = cpu;
	return n;
}

int cpu_allowed(int *cpus)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	return set_list(&set, cpus);
}

int cpu_list_read(const char *text, int *cpus, int max)
{
	const char *p = text;
	char *end;
	long a, b;
	int n = 0;

	while (*p && *p != '\n') {
		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		a = b = strtol(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -1;
			b = strtol(p, &end, 10);
		}
		if (errno || a > b || b >= CPU_SETSIZE || b - a >= max - n)
			return -1;
		while (a <= b)
			cpus[n++] = (int)a++;
		p = end;
		if (*p == ',' && (p[1] < '0' || p[1] > '9'))
			return -1;	/* "0," */
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return n;
}

int cpu_list_parse(const char *text, int *cpus)
{
	int given[CPU_SETSIZE];
	int n = cpu_list_read(text, given, CPU_SETSIZE);
	cpu_set_t set;

	if (n < 0)
		return -1;
	CPU_ZERO(&set);
	for (int i = 0; i < n; i++)
		CPU_SET(given[i], &set);
	return set_list(&set, cpus);
}

int cpu_online_list(int *cpus)
{
	char line[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	int n = -1, i;

	if (f) {
		if (fgets(line, sizeof(line), f))
			n = cpu_list_parse(line, cpus);
		fclose(f);
	}
	if (n > 0)
		return n;
	n = cpu_online();
	for (i = 0; i < n; i++)
		cpus[i] = i;
	return n;
}

void cpu_list_text(const int *cpus, int n, char *buf, size_t len)
{
	size_t used = 0;
	int i, j, w;

	buf[0] = '\0';
	for (i = 0; i < n; i = j + 1) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		if (j == i)
			w = snprintf(buf + used, len - used, "%s%d", i ? "," : "", cpus[i]);
		else
			w = snprintf(buf + used, len - used, "%s%d-%d", i ? "," : "",
				     cpus[i], cpus[j]);
		if (w < 0 || (size_t)w >= len - used)
			return;
		used += (size_t)w;
	}
}

int cpu_pinned(pid_t pid, int cpu, char *was, size_t len)
{
	cpu_set_t set;
	int cpus[CPU_SETSIZE], n;

	if (sched_getaffinity(pid, sizeof(set), &set) < 0)
		return -1;
	if (CPU_COUNT(&set) == 1 && CPU_ISSET(cpu, &set))
		return 1;
	n = set_list(&set, cpus);
	cpu_list_text(cpus, n, was, len);
	return 0;
}
