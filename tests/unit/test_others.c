/*
 * lib/meter/others.c: other processes' share of the machine, from two
 * snapshots of a /proc tree this test builds in a temporary directory;
 * lib/app/others_tally.c: a comparison's runs it touched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "t.h"
#include "app/others_tally.h"
#include "meter/others.h"

#define HZ 100
#define KTHREAD 0x00200000

static char root[64];
static int made[64], n_made;	/* the PIDs put, for the end */

/* /proc/PID/stat as the kernel writes it: fields 4, 9, 14, 15 and 22. */
static void put(int pid, const char *name, int ppid, unsigned flags, unsigned utime,
		unsigned stime, unsigned start)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", root, pid);
	if (mkdir(path, 0700) == 0 && n_made < 64)
		made[n_made++] = pid;
	snprintf(path, sizeof(path), "%s/%d/stat", root, pid);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fprintf(f, "%d (%s) S %d %d %d 0 -1 %u 0 0 0 0 %u %u 0 0 20 0 1 0 %u 1000 "
		"100 18446744073709551615\n", pid, name, ppid, pid, pid, flags, utime, stime,
		start);
	fclose(f);
}

static void drop(int pid)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%d/stat", root, pid);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%d", root, pid);
	rmdir(path);
}

static struct others_snap *take(void)
{
	char err[256];
	struct others_snap *s = others_take(root, err, sizeof(err));

	if (!s) {
		printf("not ok - snapshot: %s\n", err);
		exit(1);
	}
	return s;
}

/* The share named name has in r, or -1. */
static double share_of(const struct others_report *r, const char *name)
{
	for (int i = 0; i < r->n; i++)
		if (strcmp(r->top[i].name, name) == 0)
			return r->top[i].pct;
	return -1;
}

static int near(double a, double b)
{
	return a > b - 0.01 && a < b + 0.01;
}

/*
 * The machine: a busy dpkg, man-db that appears during the period, a
 * process that vanishes, zc's programs and what they started, soakers
 * named by PID, the kernel's network threads, and a reused PID.
 */
static void test_period(void)
{
	struct others_snap *a, *b;
	struct others_report r;
	struct others_skip skip = { 0 };
	int pids[] = { 300, 301 };
	char text[512];

	put(1, "systemd", 0, 0, 500, 500, 1);
	put(2, "kthreadd", 0, KTHREAD, 0, 0, 1);
	put(100, "dpkg", 1, 0, 1000, 200, 50);
	put(110, "gone", 1, 0, 70, 0, 60);
	put(120, "reused", 1, 0, 900, 0, 70);
	put(200, "zcs", 1, 0, 10, 10, 80);
	put(210, "zcs", 200, 0, 0, 0, 81);		/* a connection */
	put(300, "soaker", 1, 0, 0, 0, 90);		/* named by the caller */
	put(301, "me", 1, 0, 5, 5, 91);
	put(310, "sh", 301, 0, 0, 0, 92);		/* the caller's child */
	put(11, "ksoftirqd/0", 2, KTHREAD, 100, 100, 2);
	put(12, "napi/eth0-8193", 2, KTHREAD, 0, 0, 2);
	put(13, "irq/30-eth0-rx-0", 2, KTHREAD, 0, 0, 2);
	put(14, "irq/9-acpi", 2, KTHREAD, 0, 0, 2);
	put(15, "ksoftirqd/fake", 1, 0, 0, 0, 3);	/* a user process */
	a = take();
	/* 2 CPUs x 10 s at 100 Hz: 2000 ticks, one tick 0.05%. */
	put(100, "dpkg", 1, 0, 1300, 268, 50);		/* +368: 18.4% */
	put(130, "man-db", 100, 0, 150, 32, 200);	/* new: 182, 9.1% */
	drop(110);					/* lost */
	put(120, "reused", 1, 0, 40, 0, 500);		/* a new process: 40, 2% */
	put(200, "zcs", 1, 0, 400, 400, 80);
	put(210, "zcs", 200, 0, 300, 300, 81);
	put(220, "cat", 210, 0, 50, 50, 300);		/* zcs's grandchild */
	put(300, "soaker", 1, 0, 900, 0, 90);
	put(301, "me", 1, 0, 100, 100, 91);
	put(310, "sh", 301, 0, 80, 0, 92);
	put(11, "ksoftirqd/0", 2, KTHREAD, 100, 400, 2);
	put(12, "napi/eth0-8193", 2, KTHREAD, 0, 300, 2);
	put(13, "irq/30-eth0-rx-0", 2, KTHREAD, 0, 200, 2);
	put(14, "irq/9-acpi", 2, KTHREAD, 0, 10, 2);	/* 0.5% */
	put(15, "ksoftirqd/fake", 1, 0, 20, 0, 3);	/* 1% */
	b = take();
	skip.pids = pids;
	skip.npids = 2;
	skip.nnetdevs = 1;
	strcpy(skip.netdevs[0], "eth0");
	others_compute(a, b, &skip, 2, 10, HZ, &r);
	CHECK(r.valid && near(r.pct, 18.4 + 9.1 + 2 + 0.5 + 1),
	      "all others: 31.0%% (%.2f)", r.pct);
	CHECK(near(share_of(&r, "dpkg"), 18.4) && r.top[0].pct > r.top[1].pct,
	      "a busy process named, largest first (%s %.2f)", r.top[0].name, r.top[0].pct);
	CHECK(near(share_of(&r, "man-db"), 9.1),
	      "one that appeared counts from 0 (%.2f)", share_of(&r, "man-db"));
	CHECK(share_of(&r, "gone") < 0,
	      "one that vanished is not there");
	CHECK(near(share_of(&r, "reused"), 2),
	      "a reused PID counts from 0 (%.2f)", share_of(&r, "reused"));
	CHECK(share_of(&r, "zcs") < 0 && share_of(&r, "cat") < 0,
	      "zc's programs and what they started left out");
	CHECK(share_of(&r, "soaker") < 0 && share_of(&r, "me") < 0 && share_of(&r, "sh") < 0,
	      "the caller's PIDs and their children left out");
	CHECK(share_of(&r, "ksoftirqd/0") < 0 && share_of(&r, "napi/eth0-8193") < 0 &&
	      share_of(&r, "irq/30-eth0-rx-0") < 0,
	      "the kernel's network threads left out");
	CHECK(near(share_of(&r, "irq/9-acpi"), 0.5) && near(share_of(&r, "ksoftirqd/fake"), 1),
	      "another device's irq thread and a user process in disguise counted");
	CHECK(r.n == OTHERS_TOP && r.more == 0 && others_over(&r),
	      "five names, none more, over the mark (%d, %d)", r.n, r.more);
	others_text(&r, "the service demand", text, sizeof(text));
	CHECK(strcmp(text, "others: 31.0% of the machine during the run (dpkg 18.4%, "
		     "man-db 9.1%, reused 2.0%, ksoftirqd/fake 1.0%, irq/9-acpi 0.5%); "
		     "the service demand includes it") == 0,
	      "the line: %s", text);
	others_free(a);
	others_free(b);
}

static void test_threshold(void)
{
	struct others_report r = { .valid = 1, .pct = OTHERS_MARK - 0.05, .n = 1 };
	char text[256];

	strcpy(r.top[0].name, "cron");
	r.top[0].pct = r.pct;
	CHECK(!others_over(&r) && !*others_text(&r, "the load", text, sizeof(text)),
	      "under %.0f%%: no line", OTHERS_MARK);
	r.pct = r.top[0].pct = OTHERS_MARK;
	CHECK(others_over(&r), "at %.0f%%: a line", OTHERS_MARK);
	r.more = 2;
	others_text(&r, "the load", text, sizeof(text));
	CHECK(strcmp(text, "others: 3.0% of the machine during the run (cron 3.0%, ...); "
		     "the load includes it") == 0,
	      "names left out: ... (%s)", text);
	others_text(&r, "the load", text, 20);
	CHECK(strlen(text) == 19, "a short buffer: cut, ended (%s)", text);
	r.valid = 0;
	CHECK(!others_over(&r), "no figure: no line");
}

static void test_bad(void)
{
	struct others_report r;
	struct others_skip skip = { 0 };
	struct others_snap *a;
	char err[256];

	CHECK(!others_take("/nonexistent/proc", err, sizeof(err)) &&
	      strstr(err, "/nonexistent/proc"),
	      "no such directory: %s", err);
	put(400, "odd) (x", 1, 0, 1, 1, 1);
	a = take();
	others_compute(a, a, &skip, 0, 10, HZ, &r);
	CHECK(!r.valid, "no CPUs: no figure");
	others_compute(a, NULL, &skip, 2, 10, HZ, &r);
	CHECK(!r.valid, "no second snapshot: no figure");
	others_compute(a, a, &skip, 2, 10, HZ, &r);
	CHECK(r.valid && r.pct == 0, "nothing moved: 0%%");
	others_free(a);
	drop(400);
}

/* A comparison's runs: which variant's runs passed the mark, and evenly? */
static void test_tally(void)
{
	static struct others_tally t;
	struct others_report quiet = { .valid = 1, .pct = 1 };
	struct others_report busy = { .valid = 1, .pct = 20, .n = 1 };
	struct others_report none = { 0 };

	strcpy(busy.top[0].name, "dpkg");
	others_tally_add(&t, "sendfile", &busy);
	others_tally_add(&t, "send", &quiet);
	others_tally_add(&t, "send", &none);
	CHECK(others_tally_over(&t, "sendfile") == 1 && others_tally_over(&t, "send") == 0 &&
	      t.v[1].runs == 1,
	      "over the mark: sendfile 1, send 0; a run with no figure not counted");
	CHECK(others_tally_uneven(&t) && t.worst.pct == 20 &&
	      strcmp(t.worst.top[0].name, "dpkg") == 0,
	      "one variant touched, the other not: uneven; the worst run kept");
	others_tally_add(&t, "send", &busy);
	CHECK(others_tally_over(&t, "send") == 1 && others_tally_uneven(&t),
	      "both touched once, but means 20%% and 10.5%%: uneven");
	others_tally_add(&t, "sendfile", &quiet);
	CHECK(!others_tally_uneven(&t),
	      "both touched once, means 10.5%% and 10.5%%: even");
	memset(&t, 0, sizeof(t));
	busy.pct = OTHERS_MARK + 1;
	quiet.pct = OTHERS_MARK - 1;
	others_tally_add(&t, "sendfile", &busy);
	others_tally_add(&t, "send", &quiet);
	CHECK(others_tally_uneven(&t),
	      "means 2 points apart, but one over the mark and one not: uneven");
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/zc-others-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	test_period();
	test_threshold();
	test_bad();
	test_tally();
	for (int i = 0; i < n_made; i++)
		drop(made[i]);
	if (rmdir(root) < 0)
		fprintf(stderr, "could not remove %s: %s\n", root, strerror(errno));
	return t_exit();
}
