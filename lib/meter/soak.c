#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cpu.h"
#include "base/err.h"
#include "base/stop.h"
#include "meter/proc.h"
#include "meter/soak.h"
#include "meter/soak_internal.h"

struct soak {
	int n;
	pid_t *pids;
	int *cpus;		/* the CPU soaker i is pinned to; -1: none */
	char *parked;		/* soaker i stopped: its CPU is offline */
	struct slot *slots;	/* MAP_SHARED: the parent sees the counts */
	size_t maplen;
};

/* Kill and reap the first n soakers. */
static void kill_all(pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			soak_lift(pids[i]);
		}
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
}

/* Wait until every soaker has counted; a soaker that exits is a failure. */
static int wait_counting(struct soak *s, char *err, size_t errlen)
{
	uint64_t give_up = now_ns() + 10 * 1000000000ull;
	int i, status, counting;

	for (;;) {
		counting = 0;
		for (i = 0; i < s->n; i++) {
			if (__atomic_load_n(&s->slots[i].count, __ATOMIC_RELAXED))
				counting++;
			else if (waitpid(s->pids[i], &status, WNOHANG) == s->pids[i]) {
				s->pids[i] = 0;
				err_fill(err, errlen, s->slots[i].err,
				     "soaker %d failed to start", i);
				return -1;
			}
		}
		if (counting == s->n)
			return 0;
		if (stop_signal) {
			err_fill(err, errlen, EINTR, "interrupted while the soakers started");
			errno = EINTR;
			return -1;
		}
		if (now_ns() > give_up) {
			err_fill(err, errlen, 0, "soakers did not start within 10 s "
			     "(%d of %d counting)", counting, s->n);
			return -1;
		}
		sleep_until(now_ns() + 1000000u);
	}
}

/* The bookkeeping of ncpus soakers, their slots shared; NULL with err. */
static struct soak *soak_alloc(int ncpus, char *err, size_t errlen)
{
	struct soak *s = calloc(1, sizeof(*s));

	if (!s || !(s->pids = calloc((size_t)ncpus, sizeof(pid_t))) ||
	    !(s->cpus = calloc((size_t)ncpus, sizeof(int))) ||
	    !(s->parked = calloc((size_t)ncpus, 1))) {
		err_fill(err, errlen, errno, "soakers");
		goto fail;
	}
	s->maplen = (size_t)ncpus * sizeof(struct slot);
	s->slots = mmap(NULL, s->maplen, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->slots != MAP_FAILED)
		return s;
	err_fill(err, errlen, errno, "soakers' shared memory");
fail:
	if (s) {
		free(s->pids);
		free(s->cpus);
		free(s->parked);
	}
	free(s);
	return NULL;
}

struct soak *soak_start_cfg(int ncpus, const struct soak_cfg *cfg,
			    char *err, size_t errlen)
{
	static const struct soak_cfg defaults;
	struct soak *s;
	pid_t parent = getpid();
	int i, saved, n_allowed, allowed[CPU_SETSIZE];

	if (!cfg)
		cfg = &defaults;
	if (ncpus < 1) {
		err_fill(err, errlen, 0, "need at least one soaker, not %d", ncpus);
		errno = EINVAL;
		return NULL;
	}
	s = soak_alloc(ncpus, err, errlen);
	if (!s)
		return NULL;
	/*
	 * Soaker i goes to the i-th CPU we may use: left to the scheduler,
	 * SCHED_IDLE soakers pile up on one CPU and leave another idle while
	 * the work they measure comes and goes, and the meter reads that
	 * idle time as load.
	 */
	n_allowed = cpu_allowed(allowed);
	fflush(NULL);		/* nothing buffered gets written twice */
	for (i = 0; i < ncpus; i++) {
		s->cpus[i] = cfg->cpus ? cfg->cpus[i] : cfg->bind ? i
			   : n_allowed ? allowed[i % n_allowed] : -1;
		s->pids[i] = fork();
		if (s->pids[i] == 0)
			soaker(&s->slots[i], parent, s->cpus[i], cfg->policy);
		if (s->pids[i] < 0) {
			err_fill(err, errlen, errno, "fork soaker %d", i);
			s->n = i;
			goto fail;
		}
		s->n = i + 1;
	}
	if (wait_counting(s, err, errlen) == 0)
		return s;
fail:
	saved = errno;
	soak_stop(s);
	errno = saved;
	return NULL;
}

int soak_count(const struct soak *s)
{
	return s->n;
}

const volatile uint64_t *soak_counter(const struct soak *s, int i)
{
	return &s->slots[i].count;
}

int soak_cpu(const struct soak *s, int i)
{
	return i >= 0 && i < s->n ? s->cpus[i] : -1;
}

/*
 * A gap is added when it ends; one going on now (a soaker starved, or
 * parked) counts up to now, so a reading holds the gaps of its own period
 * and not those of the periods before. Read again if the soaker added one
 * meanwhile.
 */
void soak_gaps(const struct soak *s, uint64_t now, uint64_t *gap_ns)
{
	uint64_t gap, seen;
	int i;

	for (i = 0; i < s->n; i++) {
		do {
			gap = __atomic_load_n(&s->slots[i].gap_ns, __ATOMIC_ACQUIRE);
			seen = __atomic_load_n(&s->slots[i].seen_ns, __ATOMIC_ACQUIRE);
		} while (gap != __atomic_load_n(&s->slots[i].gap_ns, __ATOMIC_ACQUIRE));
		gap_ns[i] = gap + (seen && now > seen + SOAK_GAP_NS ? now - seen : 0);
	}
}

int soak_pid(const struct soak *s, int i)
{
	return i >= 0 && i < s->n ? s->pids[i] : -1;
}

void soak_read(const struct soak *s, uint64_t *counts)
{
	int i;

	for (i = 0; i < s->n; i++)
		counts[i] = __atomic_load_n(&s->slots[i].count, __ATOMIC_RELAXED);
}

uint64_t soak_total(const struct soak *s)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < s->n; i++)
		sum += __atomic_load_n(&s->slots[i].count, __ATOMIC_RELAXED);
	return sum;
}

/* "soaker for CPU 1 (PID 4321)", the name a line about it starts with. */
static void soaker_name(const struct soak *s, int i, char *buf, size_t len)
{
	if (s->cpus[i] >= 0)
		snprintf(buf, len, "soaker for CPU %d (PID %d)", s->cpus[i], (int)s->pids[i]);
	else
		snprintf(buf, len, "soaker %d (PID %d)", i, (int)s->pids[i]);
}

static const char *sig_name(int sig)
{
	const char *abbrev = sigabbrev_np(sig);
	static __thread char buf[16];

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

/* What waitid() said of a soaker, as the line about it. */
static int waited(const siginfo_t *si, const char *who, char *err, size_t errlen)
{
	if (si->si_code == CLD_EXITED)
		return err_fill(err, errlen, 0, "%s exited with status %d", who, si->si_status);
	if (si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED)
		return err_fill(err, errlen, 0, "%s was killed by %s", who,
				sig_name(si->si_status));
	return err_fill(err, errlen, 0, "%s was stopped (%s)", who, sig_name(si->si_status));
}

/*
 * A soaker sent a signal that kills or stops it, but not yet scheduled to
 * act on it (a SCHED_IDLE one beside busy work waits for the CPU): its
 * figures are already wrong, so it is named now. The soaker takes every
 * signal at its default action: to end, to stop, or (SIGCHLD, SIGCONT,
 * SIGURG, SIGWINCH) to carry on.
 */
static int pending_end(pid_t pid, const char *who, char *err, size_t errlen)
{
	uint64_t pending = proc_task_pending(pid);
	int sig;

	if (pending & (1ull << (SIGKILL - 1)))
		return err_fill(err, errlen, 0, "%s was killed by SIGKILL", who);
	for (sig = 1; sig <= 64; sig++) {
		if (!(pending & (1ull << (sig - 1))) || sig == SIGCHLD || sig == SIGCONT ||
		    sig == SIGURG || sig == SIGWINCH)
			continue;	/* not sent, or ignored by default */
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
			return err_fill(err, errlen, 0, "%s was stopped (%s)", who, sig_name(sig));
		return err_fill(err, errlen, 0, "%s was killed by %s", who, sig_name(sig));
	}
	return 0;
}

/*
 * Has soaker i ended or stopped? Its parent asks waitid() without reaping
 * (WNOWAIT: soak_kill still reaps it), which also names the stop signal; a
 * process forked later is not its parent and asks /proc.
 */
static int soaker_broken(const struct soak *s, int i, char *err, size_t errlen)
{
	siginfo_t si = { 0 };
	char who[64], state = 'R';
	int rc, status = 0, tries, ours;

	soaker_name(s, i, who, sizeof(who));
	/*
	 * /proc shows a stopped soaker a moment before waitid() does; its
	 * parent waits that moment (20 ms at most) to name the signal.
	 */
	for (tries = 0;; tries++) {
		rc = waitid(P_PID, s->pids[i], &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT);
		if (rc == 0 && si.si_pid == s->pids[i])
			return waited(&si, who, err, errlen);
		ours = rc == 0 || errno != ECHILD;
		rc = proc_task_state(s->pids[i], &state, &status);
		if (rc <= 0 || (state != 'T' && state != 't') || !ours || tries >= 20)
			break;
		sleep_until(now_ns() + 1000000u);
	}
	if (rc == 0)
		return err_fill(err, errlen, 0, "%s has gone", who);
	if (rc < 0)
		return 0;	/* cannot tell: its figures will say */
	if (state == 'T' || state == 't')
		return err_fill(err, errlen, 0, "%s was stopped", who);
	if (state != 'Z' && state != 'X')
		return pending_end(s->pids[i], who, err, errlen);
	if (WIFSIGNALED(status))
		return err_fill(err, errlen, 0, "%s was killed by %s", who,
				sig_name(WTERMSIG(status)));
	return err_fill(err, errlen, 0, "%s exited with status %d", who,
			WEXITSTATUS(status));
}

int soak_check(const struct soak *s, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->pids[i] > 0 && !s->parked[i] && soaker_broken(s, i, err, errlen) < 0)
			return -1;
	return 0;
}

int soak_mend(struct soak *s, int i, char *was, size_t len, char *err, size_t errlen)
{
	char who[64];
	int rc;

	if (s->cpus[i] < 0 || s->parked[i])
		return 0;
	rc = cpu_pinned(s->pids[i], s->cpus[i], was, len);
	if (rc != 0)
		return rc > 0 ? 0 : soak_check(s, err, errlen);
	if (cpu_pin(s->pids[i], s->cpus[i]) == 0)
		return 1;
	soaker_name(s, i, who, sizeof(who));
	return err_fill(err, errlen, errno, "%s lost its pinning (now CPUs %s) "
			"and cannot be pinned again", who, was);
}

void soak_park(struct soak *s, int i)
{
	if (s->parked[i] || s->pids[i] <= 0)
		return;
	s->parked[i] = 1;
	kill(s->pids[i], SIGSTOP);
}

int soak_unpark(struct soak *s, int i, char *err, size_t errlen)
{
	char who[64];

	if (!s->parked[i])
		return 0;
	if (cpu_pin(s->pids[i], s->cpus[i]) < 0) {
		soaker_name(s, i, who, sizeof(who));
		return err_fill(err, errlen, errno, "%s cannot be pinned again", who);
	}
	s->parked[i] = 0;
	kill(s->pids[i], SIGCONT);
	return 0;
}

int soak_parked(const struct soak *s, int i)
{
	return s->parked[i];
}

void soak_kill(struct soak *s)
{
	int i;

	kill_all(s->pids, s->n);
	for (i = 0; i < s->n; i++)
		s->pids[i] = 0;
}

void soak_forget(struct soak *s)
{
	if (!s)
		return;
	munmap(s->slots, s->maplen);
	free(s->pids);
	free(s->cpus);
	free(s->parked);
	free(s);
}

void soak_stop(struct soak *s)
{
	if (!s)
		return;
	soak_kill(s);
	soak_forget(s);
}
