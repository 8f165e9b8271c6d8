/*
 * The environment record's readers: lib/base/textfile.c, lib/meter/env.c,
 * lib/wire/ifinfo.c on loopback (its cgroup quota is test_cgroup.c's).
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/textfile.h"
#include "meter/env.h"
#include "wire/ifinfo.h"
#include "unit/t.h"

static char dir[] = "/tmp/zc-env.XXXXXX";

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The path of name in the test's directory (one at a time). */
static const char *at(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void tidy(void)
{
	char s[] = " \t a  b\tc \n", empty[] = "  \n";
	char buf[16], line[32];

	textfile_tidy(s);
	CHECK(strcmp(s, "a b c") == 0, "tidy: blanks squeezed, ends trimmed ('%s')", s);
	textfile_tidy(empty);
	CHECK(empty[0] == '\0', "tidy: blanks only is empty");
	put("blank", "  \n");
	put("one", "4096\t131072  6291456\nsecond\n");
	CHECK(textfile_line("/nonexistent/zc", buf, sizeof(buf)) < 0 && !buf[0],
	      "a missing file: -1, empty");
	CHECK(textfile_line(at("blank"), buf, sizeof(buf)) < 0 && errno == ENODATA,
	      "a blank file: -1, ENODATA");
	CHECK(textfile_line(at("one"), line, sizeof(line)) == 0 &&
	      strcmp(line, "4096 131072 6291456") == 0,
	      "the first line alone, tidied ('%s')", line);
}

static void machine(void)
{
	int cpus[] = { 0, 1, 2, 3, 6, 8, 9 };
	char buf[64], model[128], path[300];
	struct env_machine m;

	env_cpu_ranges(cpus, 7, buf, sizeof(buf));
	CHECK(strcmp(buf, "0-3,6,8-9") == 0, "ranges 0-3,6,8-9 (%s)", buf);
	env_cpu_ranges(cpus, 1, buf, sizeof(buf));
	CHECK(strcmp(buf, "0") == 0, "one CPU");
	put("cpuinfo_vm", "processor\t: 0\nmodel name\t:  Some  CPU \nflags\t\t: fpu hypervisor\n");
	put("cpuinfo_bare", "model name\t: Other\nflags\t\t: fpu vmx\n");
	put("cpuinfo_arm", "processor\t: 0\nFeatures\t: fp asimd\n");
	snprintf(path, sizeof(path), "%s/cpuinfo_vm", dir);
	setenv("ZC_CPUINFO", path, 1);
	CHECK(env_cpuinfo(model, sizeof(model)) == 1 && strcmp(model, "Some CPU") == 0,
	      "cpuinfo: hypervisor, model tidied ('%s')", model);
	snprintf(path, sizeof(path), "%s/cpuinfo_bare", dir);
	setenv("ZC_CPUINFO", path, 1);
	CHECK(env_cpuinfo(model, sizeof(model)) == 0, "cpuinfo: flags without hypervisor");
	snprintf(path, sizeof(path), "%s/cpuinfo_arm", dir);
	setenv("ZC_CPUINFO", path, 1);
	CHECK(env_cpuinfo(model, sizeof(model)) == -1 && !model[0],
	      "cpuinfo: no flags line, no model: unknown");
	unsetenv("ZC_CPUINFO");
	env_machine_read(&m);
	CHECK(m.kernel[0] && m.cpus_online >= 1 && m.n_allowed >= 1 && m.cpus_allowed[0],
	      "this machine: kernel %s, %d CPUs, allowed %s", m.kernel, m.cpus_online,
	      m.cpus_allowed);
}

static void loopback(void)
{
	struct if_info i;
	struct net_sysctls s;
	char err[256];

	CHECK(ifinfo_read("lo", &i, err, sizeof(err)) == 0, "ifinfo of lo");
	CHECK(i.mtu > 0, "lo: an MTU (%d)", i.mtu);
	CHECK(!i.driver[0] && i.speed_mbps == -1, "lo: no driver, no speed: unknown");
	CHECK(i.offload[IF_TSO] >= 0 && i.offload[IF_GSO] >= 0, "lo: tso and gso known");
	CHECK(strcmp(i.qdisc, "noqueue") == 0, "lo: qdisc noqueue (%s)", i.qdisc);
	CHECK(ifinfo_qdisc("zc-no-such", i.qdisc, sizeof(i.qdisc), err, sizeof(err)) < 0,
	      "no such interface: the qdisc cannot be read (%s)", err);
	net_sysctls_read(&s);
	CHECK(s.congestion[0] && s.rmem_max > 0 && strchr(s.tcp_wmem, ' '),
	      "sysctls: %s, rmem_max %lld, tcp_wmem %s", s.congestion, s.rmem_max, s.tcp_wmem);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	tidy();
	machine();
	loopback();
	if (nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return t_exit();
}
