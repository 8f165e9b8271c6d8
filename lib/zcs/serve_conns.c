#include <errno.h>
#include <error.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "zcs/serve.h"
#include "zcs/serve_conns.h"
#include "zcs/serve_sampler.h"
#include "zcs/serve_total.h"
#include "base/clock.h"
#include "base/line_limit.h"

static pid_t *kids;		/* the live children */
static unsigned *kid_slot;	/* each one's slot of the total */
static unsigned live, max_conns;
static void (*on_ended)(pid_t pid);

void serve_conns_open(unsigned max, void (*ended)(pid_t pid))
{
	max_conns = max;
	on_ended = ended;
	kids = calloc(max, sizeof(*kids));
	kid_slot = calloc(max, sizeof(*kid_slot));
	if (!kids || !kid_slot)
		error(1, errno, "allocate the child table");
}

void serve_conns_close(void)
{
	free(kids);
	free(kid_slot);
	kids = NULL;
	kid_slot = NULL;
}

unsigned serve_conns_live(void)
{
	return live;
}

/*
 * The "refused" lines of a flood: at most one a second (base/line_limit.h).
 * A line names the latest peer refused and counts the refusals not shown
 * since the line before; once the flood stops, the last of them is shown
 * the same way.
 */
static struct line_limit refusals;
static char refused_peer[CONN_PEER_LEN];	/* the latest not shown */

static void refused_line(const char *peer, unsigned others)
{
	if (others)
		error(0, 0, "%s: refused: already serving %u connections (-m %u); "
		      "%u more refused since the last such line", peer, live,
		      max_conns, others);
	else
		error(0, 0, "%s: refused: already serving %u connections (-m %u)",
		      peer, live, max_conns);
}

static void refused(const char *peer)
{
	unsigned others;

	if (line_limit_take(&refusals, now_ns(), &others))
		refused_line(peer, others);
	else
		snprintf(refused_peer, sizeof(refused_peer), "%s", peer);
}

int serve_conns_refused_due_ms(void)
{
	unsigned others;
	int ms = line_limit_due(&refusals, now_ns(), &others);

	if (ms == 0) {
		refused_line(refused_peer, others);
		return -1;
	}
	return ms;
}

/* Block or unblock the signals whose handlers only the parent may run. */
static void mask_parent_signals(int how)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(how, &set, NULL);
}

/* The child's start: it dies with the parent and forgets the parent's tables. */
static void become_child(pid_t parent, unsigned slot, void (*in_child)(void))
{
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(1);
	signal(SIGCHLD, SIG_DFL);
	free(kids);
	free(kid_slot);
	kids = NULL;
	kid_slot = NULL;
	live = 0;
	serve_total_child(slot);
	if (in_child)
		in_child();
	mask_parent_signals(SIG_UNBLOCK);
}

pid_t serve_conns_spawn(const char *peer, void (*in_child)(void))
{
	pid_t parent = getpid(), pid;
	unsigned slot;

	serve_conns_reap();	/* a child may have ended since we last looked */
	if (live >= max_conns) {
		refused(peer);
		errno = EBUSY;
		return -1;
	}
	slot = serve_total_take();
	fflush(stdout);
	mask_parent_signals(SIG_BLOCK);
	pid = fork();
	if (pid == 0) {
		become_child(parent, slot, in_child);
		return 0;
	}
	mask_parent_signals(SIG_UNBLOCK);
	if (pid < 0) {
		error(0, errno, "%s: fork", peer);
		serve_total_forget(slot);
		return -1;
	}
	kid_slot[live] = slot;
	kids[live++] = pid;
	return pid;
}

int serve_conns_reap(void)
{
	int status, broken = 0;
	unsigned i = 0;

	/* By PID: with -c the meter's soakers are children too, and its own. */
	while (i < live) {
		if (waitpid(kids[i], &status, WNOHANG) != kids[i]) {
			i++;
			continue;
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == SERVE_GIVE_UP)
			broken = 1;
		serve_total_release(kid_slot[i]);
		if (on_ended)
			on_ended(kids[i]);
		live--;
		kids[i] = kids[live];
		kid_slot[i] = kid_slot[live];
	}
	return broken;
}

void serve_conns_stop(int sig)
{
	struct pollfd asked = { .fd = serve_sampler_fd(), .events = POLLIN };
	unsigned i;
	pid_t pid;

	for (i = 0; i < live; i++)
		kill(kids[i], sig);
	while (live) {
		pid = waitpid(kids[live - 1], NULL, WNOHANG);
		if (pid > 0 || (pid < 0 && errno != EINTR)) {
			live--;
			continue;
		}
		/* Their last lines may wait for a reading of the meter. */
		serve_sampler_answer();
		poll(&asked, 1, 10);
	}
}
