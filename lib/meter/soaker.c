/*
 * The soaker process itself: what one forked child does until it is killed.
 * The parent's side (start, read, stop) is lib/meter/soak.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cpu.h"
#include "meter/soak.h"
#include "meter/soak_internal.h"

/*
 * The soaker's private scratch memory: small enough to stay in the L1/L2
 * cache of an idle CPU, so the count rate is steady, but touched every
 * count, so memory traffic from other work slows the soaker as it should.
 */
#define SCRATCH_BYTES 32768u
#define LINE 64
#define LINES_PER_COUNT 8

/*
 * Every CLOCK_EVERY counts (a few microseconds) the soaker reads the clock;
 * a step over SOAK_GAP_NS means it was away from its loop: preempted (the
 * scheduler then charges the time to another task) or descheduled by the
 * hypervisor (charged to the soaker unless the kernel accounts steal). The
 * meter sets the gaps against the scheduler's run time.
 */
#define CLOCK_EVERY 1024

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The loop itself. The scratch writes and the counter store go through
 * volatile pointers and the counter store is atomic, so no -O level may drop
 * or merge them: every count really is LINES_PER_COUNT memory touches.
 */
static void __attribute__((noreturn, noinline))
spin(volatile uint64_t *count, volatile uint64_t *gap_ns, volatile uint64_t *seen_ns,
     volatile unsigned char *scratch)
{
	uint64_t n = 0, gaps = 0, then = mono_ns(), now, chunk = 0;
	size_t off = 0;
	int i;

	for (;;) {
		for (i = 0; i < LINES_PER_COUNT; i++) {
			scratch[off]++;
			off = (off + LINE) & (SCRATCH_BYTES - 1);
		}
		__atomic_store_n(count, ++n, __ATOMIC_RELAXED);
		if (n % CLOCK_EVERY)
			continue;
		/*
		 * A gap holds the part of a chunk of counts done before it and
		 * after: chunk, the usual step, is left out of it.
		 */
		now = mono_ns();
		if (now - then > SOAK_GAP_NS && now - then > chunk) {
			gaps += now - then - chunk;
			__atomic_store_n(gap_ns, gaps, __ATOMIC_RELAXED);
		} else {
			chunk = chunk ? chunk + (now - then) / 16 - chunk / 16 : now - then;
		}
		then = now;
		__atomic_store_n(seen_ns, now, __ATOMIC_RELAXED);
	}
}

/*
 * Give the soaker an autogroup of its own at nice 19. With autogroup on (the
 * default of most distributions) nice only ranks tasks within one session:
 * a nice 19 soaker in the shell's session would get half a CPU against a
 * load started from another terminal. Best effort: without autogroup there
 * is no file and nothing to fix. Unprivileged writes are rate limited
 * (EAGAIN), hence the retries.
 */
void soak_own_autogroup(void)
{
	int fd, tries;

	if (setsid() < 0)
		return;
	fd = open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (tries = 0; tries < 30; tries++) {
		if (write(fd, "19", 2) == 2 || errno != EAGAIN)
			break;
		sleep_until(now_ns() + 50000000u);
	}
	close(fd);
}

void soaker(struct slot *slot, pid_t parent, int cpu, enum soak_policy policy)
{
	struct sched_param sp = { 0 };
	sigset_t all;
	int fd, sig;
	unsigned char *scratch;

	/* Die with the parent; if it died before this took effect, go now. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(1);
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	/* Hold no pipe or socket of the parent's open. */
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
	}
	close_range(3, ~0U, 0);

	soak_own_autogroup();
	if (setpriority(PRIO_PROCESS, 0, 19) < 0)
		goto fail;
	if (policy == SOAK_IDLE && sched_setscheduler(0, SCHED_IDLE, &sp) < 0)
		goto fail;
	if (cpu >= 0 && cpu_bind(cpu) < 0)
		goto fail;
	scratch = mmap(NULL, SCRATCH_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (scratch == MAP_FAILED)
		goto fail;
	spin(&slot->count, &slot->gap_ns, &slot->seen_ns, scratch);
fail:
	slot->err = errno ? errno : EINVAL;
	_exit(1);
}

/*
 * Lift a soaker that has just been killed out of SCHED_IDLE, nice 19 and
 * its nice 19 autogroup, as far as this process may (all the way as root;
 * unprivileged, SCHED_OTHER at nice 19 and autogroup nice 0). A dying task
 * must run to exit, and beside busy work at nice 0 an idle-class soaker got
 * so little CPU that Ctrl-C took over 5 s. Best effort, and only system
 * calls: signal handlers come here too.
 */
void soak_lift(pid_t pid)
{
	struct sched_param sp = { 0 };
	char path[32] = "/proc/";
	char digits[12];
	int fd, n = 0, len = 6;

	sched_setscheduler(pid, SCHED_OTHER, &sp);
	setpriority(PRIO_PROCESS, (id_t)pid, 0);
	do
		digits[n++] = (char)('0' + pid % 10);
	while ((pid /= 10) > 0);
	while (n > 0)
		path[len++] = digits[--n];
	memcpy(path + len, "/autogroup", sizeof("/autogroup"));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "0", 1) < 0) {
			/* rate limited or refused: the soaker dies all the same */
		}
		close(fd);
	}
}
