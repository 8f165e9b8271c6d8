#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/textfile.h"
#include "meter/cgroup.h"

/* Is word one of the comma-separated words of list? */
static int has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && *p) {
		if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return 0;
}

/*
 * The group path of this process in the v1 hierarchy holding the cpu
 * controller (v2: the "0::" line) into path. -1 when there is none.
 */
static int group_path(const char *proc_cgroup, int v2, char *path, size_t len)
{
	char line[PATH_MAX + 128], *ctl, *grp;
	FILE *f = fopen(proc_cgroup, "re");
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		ctl = strchr(line, ':');
		grp = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!grp)
			continue;
		*grp++ = '\0';
		*ctl++ = '\0';
		if (v2 ? strcmp(line, "0") == 0 && *ctl == '\0' : has_word(ctl, "cpu"))
			found = snprintf(path, len, "%s", grp) < (int)len ? 0 : -1;
	}
	fclose(f);
	return found;
}

/*
 * Where that hierarchy is mounted (mountinfo: "id parent dev root point
 * opts ... - fstype source superopts"), and the mount's own root, so a
 * group path maps to a directory. -1 when it is not mounted.
 */
static int mount_of(const char *mountinfo, int v2, const char *ctl, char *point,
		    size_t len, char *root, size_t rootlen)
{
	char line[PATH_MAX * 2 + 256], *f[6], *dash, *save, *fstype, *super;
	FILE *fp = fopen(mountinfo, "re");
	int found = -1, i;

	if (!fp)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), fp)) {
		dash = strstr(line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		fstype = strtok_r(dash + 3, " \n", &save);
		strtok_r(NULL, " \n", &save);	/* source */
		super = strtok_r(NULL, " \n", &save);
		if (!fstype || !super)
			continue;
		if (v2 ? strcmp(fstype, "cgroup2") != 0
		       : strcmp(fstype, "cgroup") != 0 || !has_word(super, ctl))
			continue;
		f[0] = strtok_r(line, " ", &save);
		for (i = 1; i < 6 && f[i - 1]; i++)
			f[i] = strtok_r(NULL, " ", &save);
		if (i < 6 || !f[4] || !f[3])
			continue;
		if (snprintf(point, len, "%s", f[4]) < (int)len &&
		    snprintf(root, rootlen, "%s", f[3]) < (int)rootlen)
			found = 0;
	}
	fclose(fp);
	return found;
}

/* A whole number the kernel wrote (and nothing after it but white space),
 * from *p on; *p moves past it. -1 when there is none ("max"). */
static int number(const char **p, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(*p, &end, 10);
	if (end == *p || errno || (*end && !isspace((unsigned char)*end)))
		return -1;
	*p = end;
	return 0;
}

/* A positive whole number and nothing else: a quota or a period. */
static int positive(const char *s, long long *v)
{
	return *s >= '0' && *s <= '9' && number(&s, v) == 0 && !*s && *v > 0 ? 0 : -1;
}

/*
 * The first line of dir/name into buf: 1, 0 when there is no such file
 * (no cpu controller in that group), -1 when it cannot be read.
 */
static int quota_file(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (textfile_line(path, buf, len) == 0)
		return 1;
	return errno == ENOENT ? 0 : -1;
}

/*
 * The quota set in directory dir: 1 with *quota, *period (microseconds)
 * and its words in text; 0 none ("max", -1, no such file); -1 when a file
 * there cannot be read or does not say what the kernel writes.
 */
static int quota_at(const char *dir, int v2, long long *quota, long long *period,
		    char *text, size_t len)
{
	char a[64], b[64], *sp;
	int rc;

	*quota = 0;
	*period = 1;
	if (v2) {
		rc = quota_file(dir, "cpu.max", a, sizeof(a));
		if (rc <= 0)
			return rc;
		sp = strchr(a, ' ');	/* "QUOTA PERIOD" or "max PERIOD" */
		if (!sp)
			return -1;
		*sp = '\0';
		if (positive(sp + 1, period) < 0 ||
		    (strcmp(a, "max") != 0 && positive(a, quota) < 0))
			return -1;
		if (strcmp(a, "max") == 0)
			return 0;
		snprintf(text, len, "cpu.max %lld %lld in %s", *quota, *period, dir);
		return 1;
	}
	rc = quota_file(dir, "cpu.cfs_quota_us", a, sizeof(a));
	if (rc <= 0 || strcmp(a, "-1") == 0)
		return rc < 0 ? -1 : 0;
	if (positive(a, quota) < 0 || quota_file(dir, "cpu.cfs_period_us", b, sizeof(b)) <= 0 ||
	    positive(b, period) < 0)
		return -1;
	snprintf(text, len, "cpu.cfs_quota_us %lld per cpu.cfs_period_us %lld in %s",
		 *quota, *period, dir);
	return 1;
}

/*
 * The tightest quota from the group's directory up to the mount point,
 * into q where it is tighter than what q holds. -1 when a directory's
 * files cannot be read.
 */
static int tightest(const char *point, const char *dir_in, int v2, struct cgroup_quota *q)
{
	char dir[PATH_MAX], text[sizeof(q->text)], *slash;
	size_t top = strlen(point);
	long long quota = 0, period = 1;
	double cpus;
	int rc;

	if (snprintf(dir, sizeof(dir), "%s", dir_in) >= (int)sizeof(dir))
		return -1;
	for (;;) {
		rc = quota_at(dir, v2, &quota, &period, text, sizeof(text));
		if (rc < 0)
			return -1;
		cpus = rc ? (double)quota / (double)period : 0;
		if (cpus > 0 && (q->cpus == 0 || cpus < q->cpus)) {
			q->cpus = cpus;
			q->quota_us = quota;
			q->period_us = period;
			memcpy(q->text, text, sizeof(text));
			snprintf(q->stat, sizeof(q->stat), "%.*s/cpu.stat",
				 (int)(sizeof(q->stat) - 10), dir);
			snprintf(q->group, sizeof(q->group), "%s", dir + top);
			q->v1 = !v2;
		}
		slash = strrchr(dir, '/');
		if (strlen(dir) <= top || !slash || slash < dir + top)
			return 0;
		*slash = '\0';
	}
}

int cgroup_quota_find(const char *proc_cgroup, const char *mountinfo,
		      struct cgroup_quota *q)
{
	char grp[PATH_MAX], point[PATH_MAX], root[PATH_MAX], dir[PATH_MAX];
	const char *rel;
	int v2, looked = 0, rc = 0;
	size_t rl;

	memset(q, 0, sizeof(*q));
	for (v2 = 0; v2 <= 1; v2++) {
		if (group_path(proc_cgroup ? proc_cgroup : "/proc/self/cgroup", v2,
			       grp, sizeof(grp)) < 0 ||
		    mount_of(mountinfo ? mountinfo : "/proc/self/mountinfo", v2, "cpu",
			     point, sizeof(point), root, sizeof(root)) < 0)
			continue;
		/* A mount of a subtree (a container's view) shows its root as "/". */
		rel = grp;
		rl = strlen(root);
		if (strcmp(root, "/") != 0 && strncmp(grp, root, rl) == 0)
			rel = grp + rl;
		if (strcmp(rel, "/") == 0)
			rel = "";
		if (snprintf(dir, sizeof(dir), "%s%s", point, rel) >= (int)sizeof(dir))
			continue;
		looked++;
		if (tightest(point, dir, v2, q) < 0)
			rc = -1;
	}
	/* v1's usage is cpuacct's, which may be mounted apart from cpu. */
	if (q->cpus > 0 && q->v1 &&
	    mount_of(mountinfo ? mountinfo : "/proc/self/mountinfo", 0, "cpuacct",
		     point, sizeof(point), root, sizeof(root)) == 0)
		snprintf(q->acct, sizeof(q->acct), "%.*s%.*s/cpuacct.usage",
			 PATH_MAX / 2, point, PATH_MAX / 2 - 20, q->group);
	return looked ? rc : -1;
}

int cgroup_throttled(const struct cgroup_quota *q, uint64_t *periods, uint64_t *throttled)
{
	char line[256];
	const char *p;
	long long v;
	FILE *f;
	int seen = 0;

	if (!q->cpus || !(f = fopen(q->stat, "re")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strchr(line, ' ');
		if (!p || number(&p, &v) < 0 || v < 0)
			continue;
		if (strncmp(line, "nr_periods ", 11) == 0) {
			*periods = (uint64_t)v;
			seen |= 1;
		} else if (strncmp(line, "nr_throttled ", 13) == 0) {
			*throttled = (uint64_t)v;
			seen |= 2;
		}
	}
	fclose(f);
	return seen == 3 ? 0 : -1;
}

int cgroup_usage_ns(const struct cgroup_quota *q, uint64_t *ns)
{
	char path[PATH_MAX], line[256];
	const char *p;
	size_t dir = strlen(q->stat) - strlen("cpu.stat");
	long long v;
	FILE *f;
	int found = -1;

	if (!q->cpus || !(f = fopen(q->stat, "re")))
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		p = line + strlen("usage_usec");
		if (strncmp(line, "usage_usec ", 11) == 0 && number(&p, &v) == 0 && v >= 0) {
			*ns = (uint64_t)v * 1000;
			found = 0;
		}
	}
	fclose(f);
	if (found == 0)
		return 0;
	/* v1: the cpuacct controller beside cpu, or mounted apart. */
	snprintf(path, sizeof(path), "%.*scpuacct.usage", (int)dir, q->stat);
	v = textfile_num(path);
	if (v < 0 && *q->acct)
		v = textfile_num(q->acct);
	if (v < 0)
		return -1;
	*ns = (uint64_t)v;
	return 0;
}
