#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meter/cgroup.h"
#include "meter/proc.h"

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
static int mount_of(const char *mountinfo, int v2, char *point, size_t len,
		    char *root, size_t rootlen)
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
		       : strcmp(fstype, "cgroup") != 0 || !has_word(super, "cpu"))
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

/* The quota set in directory dir, in CPUs (0: none), and its words. */
static double quota_at(const char *dir, int v2, char *text, size_t len)
{
	char path[PATH_MAX + 32], a[64], b[64];
	const char *pa = a, *pb = b;
	long long quota, period;

	if (v2) {
		snprintf(path, sizeof(path), "%s/cpu.max", dir);
		if (proc_read_line(path, a, sizeof(a), NULL, 0) < 0 ||
		    number(&pa, &quota) < 0 || number(&pa, &period) < 0)
			return 0;	/* "max 100000", or no such file */
		snprintf(text, len, "cpu.max %lld %lld in %s", quota, period, dir);
	} else {
		snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
		if (proc_read_line(path, a, sizeof(a), NULL, 0) < 0 || number(&pa, &quota) < 0)
			return 0;
		snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
		if (proc_read_line(path, b, sizeof(b), NULL, 0) < 0 || number(&pb, &period) < 0)
			return 0;
		snprintf(text, len, "cpu.cfs_quota_us %lld per cpu.cfs_period_us %lld in %s",
			 quota, period, dir);
	}
	return quota > 0 && period > 0 ? (double)quota / (double)period : 0;
}

/* The tightest quota from the group's directory up to the mount point. */
static void tightest(const char *point, const char *dir_in, int v2, struct cgroup_quota *q)
{
	char dir[PATH_MAX], text[sizeof(q->text)], *slash;
	size_t top = strlen(point);
	double cpus;

	if (snprintf(dir, sizeof(dir), "%s", dir_in) >= (int)sizeof(dir))
		return;
	for (;;) {
		cpus = quota_at(dir, v2, text, sizeof(text));
		if (cpus > 0 && (q->cpus == 0 || cpus < q->cpus)) {
			q->cpus = cpus;
			memcpy(q->text, text, sizeof(text));
			snprintf(q->stat, sizeof(q->stat), "%.*s/cpu.stat",
				 (int)(sizeof(q->stat) - 10), dir);
		}
		slash = strrchr(dir, '/');
		if (strlen(dir) <= top || !slash || slash < dir + top)
			break;
		*slash = '\0';
	}
}

int cgroup_quota_find(const char *proc_cgroup, const char *mountinfo,
		      struct cgroup_quota *q)
{
	char grp[PATH_MAX], point[PATH_MAX], root[PATH_MAX], dir[PATH_MAX];
	const char *rel;
	size_t rl;
	int v2;

	memset(q, 0, sizeof(*q));
	for (v2 = 0; v2 <= 1; v2++) {
		if (group_path(proc_cgroup ? proc_cgroup : "/proc/self/cgroup", v2,
			       grp, sizeof(grp)) < 0 ||
		    mount_of(mountinfo ? mountinfo : "/proc/self/mountinfo", v2,
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
		tightest(point, dir, v2, q);
	}
	return 0;
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
