#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cgquota.h"
#include "base/textfile.h"

int cgquota_line(const char *line, char *path, size_t len)
{
	const char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	const char *p, *end;
	size_t n;

	if (!c2 || c2[1] != '/')
		return 0;
	n = strcspn(c2 + 1, "\n");
	snprintf(path, len, "%.*s", (int)n, c2 + 1);
	if (c2 == c1 + 1)
		return strncmp(line, "0:", 2) == 0 ? 2 : 0;
	/* v1: the controllers between the colons, comma separated. */
	for (p = c1 + 1; p < c2; p = end + 1) {
		end = memchr(p, ',', (size_t)(c2 - p));
		if (!end)
			end = c2;
		if (end - p == 3 && strncmp(p, "cpu", 3) == 0)
			return 1;
	}
	return 0;
}

static int parse_count(const char *s, char **end, long long *v)
{
	errno = 0;
	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoll(s, end, 10);
	return errno ? -1 : 0;
}

int cgquota_parse_max(const char *s, long long *quota, long long *period)
{
	char *end;

	if (strncmp(s, "max", 3) == 0) {
		*quota = -1;
		end = (char *)s + 3;
	} else if (parse_count(s, &end, quota) < 0 || *quota == 0) {
		return -1;
	}
	if (*end != ' ' || parse_count(end + 1, &end, period) < 0 || *period == 0)
		return -1;
	return *end ? -1 : 0;
}

/* One directory's limit: 1 with *q, *p; 0 none; -1 unreadable. */
static int dir_limit(const char *dir, int v2, long long *q, long long *p)
{
	char path[4200], buf[64], *end;

	if (v2) {
		snprintf(path, sizeof(path), "%s/cpu.max", dir);
		if (textfile_line(path, buf, sizeof(buf)) < 0)
			return errno == ENOENT ? 0 : -1;	/* no cpu controller here */
		if (cgquota_parse_max(buf, q, p) < 0)
			return -1;
		return *q >= 0;
	}
	snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
	if (textfile_line(path, buf, sizeof(buf)) < 0)
		return errno == ENOENT ? 0 : -1;
	if (strcmp(buf, "-1") == 0)
		return 0;
	if (parse_count(buf, &end, q) < 0 || *end)
		return -1;
	snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
	if (textfile_line(path, buf, sizeof(buf)) < 0 || parse_count(buf, &end, p) < 0 ||
	    *end || *p == 0)
		return -1;
	return 1;
}

/* The tightest limit of base + path and its ancestors down to base. */
static int walk(const char *base, const char *path, int v2, char *out, size_t len)
{
	char dir[4096], *slash;
	long long q, p, best_q = -1, best_p = 1;
	size_t base_len;
	struct stat st;
	int rc;

	snprintf(dir, sizeof(dir), "%s%s", base, strcmp(path, "/") == 0 ? "" : path);
	base_len = strlen(base);
	if (stat(base, &st) < 0 || !S_ISDIR(st.st_mode))
		return -1;
	for (;;) {
		rc = dir_limit(dir, v2, &q, &p);
		if (rc < 0)
			return -1;
		if (rc > 0 && (best_q < 0 || (double)q / (double)p < (double)best_q / (double)best_p)) {
			best_q = q;
			best_p = p;
		}
		slash = strrchr(dir, '/');
		if (strlen(dir) <= base_len || !slash || (size_t)(slash - dir) < base_len)
			break;
		*slash = '\0';
	}
	if (best_q < 0)
		snprintf(out, len, "max");
	else
		snprintf(out, len, "%lld/%lld", best_q, best_p);
	return 0;
}

int cgquota_read(const char *proc_cgroup, const char *root, char *out, size_t len)
{
	char line[4096], found[2048], v1[2048] = "", v2[2048] = "", base[2100];
	FILE *f = fopen(proc_cgroup, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		switch (cgquota_line(line, found, sizeof(found))) {
		case 1: memcpy(v1, found, sizeof(v1)); break;
		case 2: memcpy(v2, found, sizeof(v2)); break;
		}
	}
	fclose(f);
	/* A hybrid machine lists both; the cpu controller is then v1's. */
	if (!v1[0] && v2[0])
		return walk(root, v2, 1, out, len);
	if (v1[0]) {
		const char *path = v1;

		/* Where the v1 cpu hierarchy is mounted: its usual names. */
		snprintf(base, sizeof(base), "%s/cpu,cpuacct", root);
		if (walk(base, path, 0, out, len) == 0)
			return 0;
		snprintf(base, sizeof(base), "%s/cpu", root);
		return walk(base, path, 0, out, len);
	}
	return -1;
}
