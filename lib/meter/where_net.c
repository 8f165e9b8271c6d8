/*
 * where.c's interfaces beyond /proc/net/dev's: whether each hands the stack
 * super-packets (TSO, GSO or GRO on: then its packet counters count those,
 * not frames on the wire), and the interfaces of the other network
 * namespaces, for cyclesoak, whose load may be traffic between two of them.
 *
 * A namespace is found by its name under /var/run/netns (ip netns) or by a
 * process living in it (/proc/PID/ns/net: containers, unshare); each is
 * entered by a helper thread (setns changes only the calling thread's
 * namespace, and the helper ends with it), which reads its
 * /proc/thread-self/net/dev and asks its devices about offloads. One it
 * may not enter is named in the snapshot's unseen line, with the reason.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "meter/where_internal.h"

#define MAX_NS 32
#define NETDEV_MAX ((size_t)64 * 1024)

/* One of TSO, GSO, GRO on for ifname (in the calling thread's namespace). */
static int super_packets(int sock, const char *ifname)
{
	static const uint32_t cmds[] = { ETHTOOL_GTSO, ETHTOOL_GGSO, ETHTOOL_GGRO };
	struct ethtool_value v;
	struct ifreq ifr;
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		memset(&ifr, 0, sizeof(ifr));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
		v = (struct ethtool_value){ .cmd = cmds[i] };
		ifr.ifr_data = (void *)&v;
		if (ioctl(sock, SIOCETHTOOL, &ifr) == 0 && v.data)
			return 1;
	}
	return 0;
}

/* The super flag of s->ifs[from..]. */
static void mark_super(struct where_snap *s, int from)
{
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), i;

	for (i = from; i < s->nifs; i++)
		s->ifs[i].super = sock >= 0 && super_packets(sock, s->ifs[i].name);
	if (sock >= 0)
		close(sock);
}

struct netns {
	ino_t ino;
	char name[32];		/* its ip-netns name, or "pidN" */
	char path[300];		/* to open for setns */
};

/* The helper's work: every namespace's interfaces into s, after the own. */
struct visit {
	struct where_snap *s;
	const struct netns *ns;
	int n;
	char *text;
};

static int read_netdev(char *text)
{
	int fd = open("/proc/thread-self/net/dev", O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while ((r = read(fd, text + len, NETDEV_MAX - 1 - len)) > 0)
		len += (size_t)r;
	close(fd);
	text[len] = 0;
	return r < 0 ? -1 : 0;
}

/* Room kept at the end of the unseen line for ", and N more". */
#define UNSEEN_MORE_ROOM 24

void where_net_unseen(struct where_snap *s, const char *name, int e)
{
	size_t len = strlen(s->unseen), room = sizeof(s->unseen) - UNSEEN_MORE_ROOM;
	int n;

	if (len < room) {
		n = snprintf(s->unseen + len, room - len, "%s%s (%s)",
			     len ? ", " : "", name, strerror(e));
		if (n >= 0 && (size_t)n < room - len)
			return;
		s->unseen[len] = 0;
	}
	s->unseen_more++;
}

void where_net_unseen_end(struct where_snap *s)
{
	size_t len = strlen(s->unseen);

	if (s->unseen_more)
		snprintf(s->unseen + len, sizeof(s->unseen) - len, "%sand %d more",
			 len ? ", " : "", s->unseen_more);
}

/* One namespace, entered: its interfaces, named "NS/ifname", into v->s. */
static void visit_one(struct visit *v, const struct netns *ns)
{
	static __thread struct where_snap tmp;
	int fd = open(ns->path, O_RDONLY | O_CLOEXEC), i, at;

	if (fd < 0 || setns(fd, CLONE_NEWNET) < 0 || read_netdev(v->text) < 0 ||
	    where_parse_netdev(v->text, &tmp) < 0) {
		where_net_unseen(v->s, ns->name, errno);
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	mark_super(&tmp, 0);
	for (i = 0; i < tmp.nifs && v->s->nifs < WHERE_MAX_IFS; i++) {
		if (strcmp(tmp.ifs[i].name, "lo") == 0 && !tmp.ifs[i].rx)
			continue;	/* every namespace has one */
		at = v->s->nifs++;
		snprintf(v->s->ifs[at].name, sizeof(v->s->ifs[at].name), "%.*s/%s",
			 (int)(WHERE_IF_NAME - IF_NAMESIZE - 1), ns->name, tmp.ifs[i].name);
		v->s->ifs[at].rx = tmp.ifs[i].rx;
		v->s->ifs[at].tx = tmp.ifs[i].tx;
		v->s->ifs[at].super = tmp.ifs[i].super;
	}
}

static void *visitor(void *arg)
{
	struct visit *v = arg;
	int i;

	for (i = 0; i < v->n; i++)
		visit_one(v, &v->ns[i]);
	return NULL;
}

static int known(const struct netns *ns, int n, ino_t ino)
{
	int i;

	for (i = 0; i < n; i++)
		if (ns[i].ino == ino)
			return 1;
	return 0;
}

/* The namespaces other than ours: named ones first, then processes'. */
static int find_netns(struct netns *ns, struct where_snap *s)
{
	struct stat st;
	struct dirent *d;
	DIR *dir;
	char path[300], link[64], *end;
	unsigned long long ino;
	int n = 0;

	if (stat("/proc/self/ns/net", &st) < 0)
		return 0;
	ns[n++].ino = st.st_ino;		/* ours: skipped below */
	dir = opendir("/var/run/netns");
	while (dir && (d = readdir(dir)) && n < MAX_NS) {
		snprintf(path, sizeof(path), "/var/run/netns/%s", d->d_name);
		if (d->d_name[0] == '.' || stat(path, &st) < 0 || known(ns, n, st.st_ino))
			continue;
		ns[n].ino = st.st_ino;
		snprintf(ns[n].name, sizeof(ns[n].name), "%.31s", d->d_name);
		memcpy(ns[n].path, path, sizeof(path));
		n++;
	}
	if (dir)
		closedir(dir);
	dir = opendir("/proc");
	while (dir && (d = readdir(dir)) && n < MAX_NS) {
		ssize_t len;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/net", d->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = 0;
		if (strncmp(link, "net:[", 5) != 0)
			continue;
		ino = strtoull(link + 5, &end, 10);
		if (end == link + 5 || *end != ']' || known(ns, n, (ino_t)ino))
			continue;
		ns[n].ino = (ino_t)ino;
		snprintf(ns[n].name, sizeof(ns[n].name), "pid%.28s", d->d_name);
		memcpy(ns[n].path, path, sizeof(path));
		n++;
	}
	if (dir)
		closedir(dir);
	if (n == MAX_NS)
		where_net_unseen(s, "namespaces past 31", ENOSPC);
	return n;
}

void where_net_take(struct where_snap *s, int every_netns)
{
	struct netns ns[MAX_NS];
	struct visit v = { .s = s };
	sigset_t all, old;
	pthread_t t;
	int rc;

	s->unseen[0] = 0;
	s->unseen_more = 0;
	mark_super(s, 0);
	if (!every_netns)
		return;
	v.n = find_netns(ns, s) - 1;
	v.ns = ns + 1;
	if (v.n <= 0)
		return;
	v.text = malloc(NETDEV_MAX);
	if (!v.text) {
		where_net_unseen(s, "other namespaces", ENOMEM);
		return;
	}
	/* Every signal stays the program's: its handlers interrupt its calls. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&t, NULL, visitor, &v);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc == 0)
		pthread_join(t, NULL);
	else
		where_net_unseen(s, "other namespaces", rc);
	free(v.text);
	where_net_unseen_end(s);
}
