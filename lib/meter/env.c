#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpu.h"
#include "base/textfile.h"
#include "meter/cgroup.h"
#include "meter/env.h"

int env_cpuinfo(char *model, size_t len)
{
	const char *path = getenv("ZC_CPUINFO");
	char line[4096], *p, *save, *colon;
	FILE *f = fopen(path && *path ? path : "/proc/cpuinfo", "re");
	int virt = -1;

	model[0] = '\0';
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && (virt != 1 || !model[0])) {
		colon = strchr(line, ':');
		if (!model[0] && colon && strncmp(line, "model name", 10) == 0) {
			snprintf(model, len, "%s", colon + 1);
			textfile_tidy(model);
		}
		if (virt == 1 || strncmp(line, "flags", 5) != 0)
			continue;
		virt = 0;
		for (p = strtok_r(line, " \t\n", &save); p && virt != 1;
		     p = strtok_r(NULL, " \t\n", &save))
			virt = strcmp(p, "hypervisor") == 0;
	}
	fclose(f);
	return virt;
}

void env_cpu_ranges(const int *cpus, int n, char *buf, size_t len)
{
	size_t used = 0;
	int i, j;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i = j + 1) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		if (j == i)
			used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "",
						 cpus[i]);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%d-%d",
						 i ? "," : "", cpus[i], cpus[j]);
	}
}

void env_machine_read(struct env_machine *m)
{
	static int cpus[CPU_SETSIZE];
	struct utsname u;
	char buf[16], path[96];

	memset(m, 0, sizeof(*m));
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
	m->virtual = env_cpuinfo(m->cpu_model, sizeof(m->cpu_model));
	m->cpus_online = cpu_online();
	m->smt = -1;
	if (textfile_line("/sys/devices/system/cpu/smt/active", buf, sizeof(buf)) == 0 &&
	    (strcmp(buf, "0") == 0 || strcmp(buf, "1") == 0))
		m->smt = buf[0] == '1';
	m->n_allowed = cpu_allowed(cpus);
	if (m->n_allowed > 0) {
		env_cpu_ranges(cpus, m->n_allowed, m->cpus_allowed, sizeof(m->cpus_allowed));
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpus[0]);
		textfile_line(path, m->governor, sizeof(m->governor));	/* "": none */
	} else {
		m->n_allowed = -1;
	}
	env_cpu_quota(NULL, NULL, m->cpu_quota, sizeof(m->cpu_quota));
}

void env_cpu_quota(const char *proc_cgroup, const char *mountinfo, char *buf, size_t len)
{
	struct cgroup_quota q;

	if (cgroup_quota_find(proc_cgroup, mountinfo, &q) < 0)
		buf[0] = '\0';
	else if (!q.cpus)
		snprintf(buf, len, "max");
	else
		snprintf(buf, len, "%lld/%lld", q.quota_us, q.period_us);
}
