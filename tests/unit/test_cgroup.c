/*
 * lib/meter/cgroup.c and lib/base/cpu.c's lists: a CPU quota found on
 * made-up /proc/self/cgroup and mountinfo files for each layout (v1 with
 * cpu alone or beside cpuacct, v2, a container's view, a parent's tighter
 * quota, none, files that cannot be read), the environment record's text of
 * it, and the kernel's CPU lists both ways. Plus the meter's arithmetic
 * within a quota.
 */
#include <ftw.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cpu.h"
#include "meter/cgroup.h"
#include "meter/env.h"
#include "meter/meter_internal.h"
#include "unit/t.h"

static char top[64];

/* Write text to top/rel, making the directories on the way. */
static void put(const char *rel, const char *text)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	for (p = path + strlen(top) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		perror(path);
}

static char pc[256], mi[256];	/* the made-up proc_cgroup and mountinfo */

/* Write the made-up files: mounts holds two %s for top. */
static void made_up(const char *cgroup, const char *mounts)
{
	char text[1024];

	snprintf(pc, sizeof(pc), "%s/proc_cgroup", top);
	snprintf(mi, sizeof(mi), "%s/mountinfo", top);
	put("proc_cgroup", cgroup);
	/* mounts holds two %s, or none for an empty mountinfo */
	// cppcheck-suppress wrongPrintfScanfArgNum
	snprintf(text, sizeof(text), mounts, top, top);
	put("mountinfo", text);
}

/* The quota the made-up files give, into q; cgroup_quota_find's return. */
static int find(const char *cgroup, const char *mounts, struct cgroup_quota *q)
{
	made_up(cgroup, mounts);
	return cgroup_quota_find(pc, mi, q);
}

/* The environment record's cpu_quota for the made-up files. */
static const char *env_text(const char *cgroup, const char *mounts)
{
	static char text[48];

	made_up(cgroup, mounts);
	env_cpu_quota(pc, mi, text, sizeof(text));
	return text;
}

static void test_quota(void)
{
	const char *v1 = "31 30 0:28 / %s/cpu rw - cgroup cgroup rw,cpu\n"
			 "40 30 0:37 / %s/unified rw - cgroup2 cgroup2 rw\n";
	const char *v2 = "31 30 0:28 / %s/v2 rw - cgroup2 cgroup2 rw\n"
			 "32 30 0:29 / %s/x rw - tmpfs tmpfs rw\n";
	const char *v1both = "31 30 0:28 / %s/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
			     "32 30 0:29 /ctr %s/mem rw - cgroup cgroup rw,memory\n";
	struct cgroup_quota q;
	uint64_t periods = 0, throttled = 0, usage = 0;
	char want[512];
	int rc;

	put("cpu/zc/cpu.cfs_quota_us", "50000\n");
	put("cpu/zc/cpu.cfs_period_us", "100000\n");
	put("cpu/zc/cpu.stat", "nr_periods 46\nnr_throttled 45\nthrottled_time 1\n");
	find("3:cpuset:/\n1:cpu:/zc\n0::/\n", v1, &q);
	snprintf(want, sizeof(want), "cpu.cfs_quota_us 50000 per cpu.cfs_period_us "
		 "100000 in %s/cpu/zc", top);
	CHECK(fabs(q.cpus - 0.5) < 1e-9 && strcmp(q.text, want) == 0,
	      "v1 cpu: %.2f CPUs, '%s'", q.cpus, q.text);
	rc = cgroup_throttled(&q, &periods, &throttled);
	CHECK(rc == 0 && periods == 46 && throttled == 45,
	      "v1 cpu.stat: %llu of %llu periods throttled",
	      (unsigned long long)throttled, (unsigned long long)periods);
	CHECK(cgroup_usage_ns(&q, &usage) < 0, "v1 without cpuacct.usage: no usage");
	put("cpu/zc/cpuacct.usage", "123456789\n");
	CHECK(cgroup_usage_ns(&q, &usage) == 0 && usage == 123456789,
	      "v1 cpuacct.usage beside cpu.stat: %llu ns", (unsigned long long)usage);

	/* cpuacct mounted apart: the usage of the group of the same path. */
	find("2:cpuacct:/zc\n1:cpu:/zc\n", "31 30 0:28 / %s/cpu rw - cgroup cgroup rw,cpu\n"
	     "32 30 0:29 / %s/acct rw - cgroup cgroup rw,cpuacct\n", &q);
	snprintf(want, sizeof(want), "%s/cpu/zc/cpuacct.usage", top);
	unlink(want);
	put("acct/zc/cpuacct.usage", "987\n");
	CHECK(cgroup_usage_ns(&q, &usage) == 0 && usage == 987,
	      "v1 cpuacct mounted apart: %llu ns", (unsigned long long)usage);

	/* A parent's tighter quota limits the child. */
	put("cpu/zc/in/cpu.cfs_quota_us", "-1\n");
	put("cpu/zc/in/cpu.cfs_period_us", "100000\n");
	find("1:cpu:/zc/in\n", v1, &q);
	CHECK(fabs(q.cpus - 0.5) < 1e-9, "v1: the parent's quota holds the child: %.2f", q.cpus);

	/* No quota anywhere. */
	find("1:cpu:/\n", v1, &q);
	CHECK(q.cpus == 0, "v1 root, no quota: %.2f", q.cpus);

	/* cpu beside cpuacct in one hierarchy, under another name. */
	put("cpu,cpuacct/box/cpu.cfs_quota_us", "150000\n");
	put("cpu,cpuacct/box/cpu.cfs_period_us", "100000\n");
	find("2:cpu,cpuacct:/box\n", v1both, &q);
	CHECK(fabs(q.cpus - 1.5) < 1e-9, "v1 cpu,cpuacct: %.2f CPUs", q.cpus);

	/* v2 cpu.max; "max" is none. */
	put("v2/svc/cpu.max", "50000 100000\n");
	put("v2/svc/cpu.stat", "usage_usec 10\nnr_periods 5\nnr_throttled 2\n");
	find("0::/svc\n", v2, &q);
	CHECK(fabs(q.cpus - 0.5) < 1e-9 && strstr(q.text, "cpu.max 50000 100000 in "),
	      "v2 cpu.max: %.2f CPUs, '%s'", q.cpus, q.text);
	rc = cgroup_throttled(&q, &periods, &throttled);
	CHECK(rc == 0 && periods == 5 && throttled == 2, "v2 cpu.stat: %llu of %llu",
	      (unsigned long long)throttled, (unsigned long long)periods);
	CHECK(cgroup_usage_ns(&q, &usage) == 0 && usage == 10000,
	      "v2 cpu.stat usage_usec 10: %llu ns", (unsigned long long)usage);
	put("v2/open/cpu.max", "max 100000\n");
	find("0::/open\n", v2, &q);
	CHECK(q.cpus == 0, "v2 'max': no quota (%.2f)", q.cpus);

	/* A container sees its own group as the mount's root. */
	put("v2/cpu.max", "25000 100000\n");
	find("0::/\n", v2, &q);
	CHECK(fabs(q.cpus - 0.25) < 1e-9, "v2 in a container (group /): %.2f", q.cpus);

	/* Nothing mounted: no quota, and it cannot be told. */
	rc = find("1:cpu:/zc\n", "", &q);
	CHECK(rc == -1 && q.cpus == 0, "no cgroup mounted: no quota, -1 (%d)", rc);
}

/*
 * With text written into rel (none when rel is NULL), the environment
 * record's cpu_quota for the group cgroup, mounted as mounts says, is want.
 */
static void env_case(const char *rel, const char *text, const char *cgroup,
		     const char *mounts, const char *want, const char *what)
{
	const char *t;

	if (rel)
		put(rel, text);
	t = env_text(cgroup, mounts);
	CHECK(strcmp(t, want) == 0, "%s: '%s'", what, t);
}

/* The environment record's text: "max", "QUOTA/PERIOD" or "" (unknown). */
static void test_env_text(void)
{
	const char *v2 = "31 30 0:28 / %s/e2 rw - cgroup2 cgroup2 rw\n";
	const char *hybrid = "31 30 0:28 / %s/e1/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
			     "40 30 0:37 / %s/e1/unified rw - cgroup2 cgroup2 rw\n";
	const char *docker = "4:cpu,cpuacct:/docker\n0::/\n";
	const char *bad[] = { "garbage\n", "150000\n", "0 100000\n", "max 100000x\n",
			      "50000 0\n" };
	struct cgroup_quota q;
	char none[48] = "x";
	size_t i;

	put("e2/a/cpu.max", "50000 100000\n");
	env_case("e2/a/b/cpu.max", "max 100000\n", "0::/a/b\n", v2, "50000/100000",
		 "v2: the parent's limit holds");
	env_case("e2/a/b/cpu.max", "20000 100000\n", "0::/a/b\n", v2, "20000/100000",
		 "v2: the tighter child's holds");
	CHECK(find("0::/a/b\n", v2, &q) == 0 && q.quota_us == 20000 && q.period_us == 100000,
	      "v2: quota_us %lld, period_us %lld", q.quota_us, q.period_us);
	env_case(NULL, NULL, "0::/\n", v2, "max", "v2 root: max");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		env_case("e2/a/b/cpu.max", bad[i], "0::/a/b\n", v2, "",
			 "v2: a cpu.max not as the kernel writes it: unknown");
		CHECK(find("0::/a/b\n", v2, &q) == -1, "... and -1 ('%.*s')",
		      (int)strcspn(bad[i], "\n"), bad[i]);
	}

	/* A hybrid machine: v1's cpu hierarchy holds the limit, v2's has no cpu.max. */
	put("e1/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
	put("e1/cpu,cpuacct/docker/cpu.cfs_period_us", "100000\n");
	put("e1/unified/cgroup.procs", "");
	env_case("e1/cpu,cpuacct/docker/cpu.cfs_quota_us", "250000\n", docker, hybrid,
		 "250000/100000", "v1: cfs quota and period");
	env_case("e1/cpu,cpuacct/docker/cpu.cfs_quota_us", "-1\n", docker, hybrid, "max",
		 "v1: -1 is no limit");
	env_case("e1/cpu,cpuacct/docker/cpu.cfs_quota_us", "abc\n", docker, hybrid, "",
		 "v1: a quota of 'abc': unknown");
	env_case(NULL, NULL, "2:cpuacct:/\n3:cpuset:/\n1:name=systemd:/\njunk\n", hybrid, "",
		 "no line with the cpu controller (cpuacct, cpuset, named, junk): unknown");
	env_cpu_quota("/nonexistent/zc", mi, none, sizeof(none));
	CHECK(!*none, "no cgroup file: unknown ('%s')", none);
}

static void test_lists(void)
{
	int cpus[CPU_SETSIZE], n;
	char text[64];

	n = cpu_list_parse("0-3,8,10-11\n", cpus);
	cpu_list_text(cpus, n, text, sizeof(text));
	CHECK(n == 7 && strcmp(text, "0-3,8,10-11") == 0, "'0-3,8,10-11': %d CPUs, '%s'", n, text);
	n = cpu_list_parse("1", cpus);
	CHECK(n == 1 && cpus[0] == 1, "'1': CPU 1");
	CHECK(cpu_list_parse("1-", cpus) < 0 && cpu_list_parse("3-1", cpus) < 0 &&
	      cpu_list_parse("x", cpus) < 0 && cpu_list_parse("99999", cpus) < 0,
	      "'1-', '3-1', 'x', '99999': not lists");
	n = cpu_online_list(cpus);
	CHECK(n >= 1 && n == cpu_online(), "online list: %d CPUs (sysconf %d)", n, cpu_online());
}

static void test_within_quota(void)
{
	/* 2 CPUs under a quota of 0.5: each soaker may have a quarter of a CPU. */
	uint64_t counts[2] = { 250000, 125000 };
	int64_t run[2] = { 250000000, 125000000 };
	struct meter_delta d = { 2, 1.0, counts, run, 2e6, 2, 0.25 };
	double cc[2], cr[2], lc, lr;

	meter_compute(&d, &lc, &lr, cc, cr);
	CHECK(fabs(lr - 0.25) < 1e-9 && fabs(cr[0]) < 1e-9 && fabs(cr[1] - 0.5) < 1e-9,
	      "run time within a quota: %.3f (want 0.25)", lr);
	CHECK(fabs(lc - 0.25) < 1e-9, "loop counts within a quota: %.3f (want 0.25)", lc);

	/* 25% of a half-CPU quota on 2 CPUs is 6.25% of the 2 CPUs' time. */
	struct meter_reading r = { .load = 0.25, .ncpus = 2, .cpus = 0.5 };
	CHECK(fabs(meter_cpus_load(&r) - 0.0625) < 1e-9,
	      "a quota's share as a share of the CPUs: %.4f (want 0.0625)", meter_cpus_load(&r));
	r.cpus = 2;
	CHECK(fabs(meter_cpus_load(&r) - 0.25) < 1e-9, "no quota: the load as it is");
}

static int drop(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(void)
{
	snprintf(top, sizeof(top), "/tmp/zc-cgroup-XXXXXX");
	if (!mkdtemp(top)) {
		perror("mkdtemp");
		return 1;
	}
	test_quota();
	test_env_text();
	test_lists();
	test_within_quota();
	if (nftw(top, drop, 16, FTW_DEPTH | FTW_PHYS) != 0)
		fprintf(stderr, "# could not remove %s\n", top);
	return t_exit();
}
