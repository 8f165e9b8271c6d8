/*
 * lib/base/stop.c and lib/app/stop_exit.c: a stop signal ends a wait whenever
 * it comes, before the wait began included; other signals do not; a
 * signal ignored at start stays ignored; signal_interrupts' handler
 * interrupts a blocked read; stop_exit runs the clean-up and dies of the
 * signal.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "app/stop_exit.h"
#include "t.h"

static double ms_since(uint64_t t0)
{
	return (double)(now_ns() - t0) / 1e6;
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void *term_later(void *arg)
{
	(void)arg;
	nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	kill(getpid(), SIGTERM);
	return NULL;
}

static int cleanup_pipe = -1;

static void cleanup(void)
{
	if (cleanup_pipe >= 0 && write(cleanup_pipe, "c", 1) < 0)
		_exit(3);
	cleanup_pipe = -1;
}

/* In a child: ignored (or not) at start, then raise SIGTERM; its status. */
static int child_status(int ignored_at_start, int use_exit)
{
	int p[2], status = 0;
	char c = 0;
	pid_t pid;

	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		stop_signal = 0;
		if (ignored_at_start)
			signal(SIGTERM, SIG_IGN);
		stop_catch(NULL);
		cleanup_pipe = p[1];
		stop_cleanup(cleanup);
		raise(SIGTERM);	/* caught or ignored: it returns */
		// cppcheck-suppress unreachableCode
		if (stop_signal && use_exit)
			stop_exit(stop_signal);
		_exit(stop_signal ? 4 : 0);
	}
	close(p[1]);
	waitpid(pid, &status, 0);
	if (read(p[0], &c, 1) == 1 && c == 'c')
		status |= 0x10000;	/* the clean-up ran */
	close(p[0]);
	return status;
}

int main(void)
{
	struct itimerval soon = { .it_value = { 0, 100000 } };
	pthread_t th;
	uint64_t t0;
	int rc, st, p[2] = { -1, -1 };
	char c;

	stop_catch(NULL);

	/* Nothing came: the wait lasts to its deadline. */
	t0 = now_ns();
	rc = stop_wait_until(now_ns() + 150000000u);
	CHECK(rc == 0 && ms_since(t0) >= 149, "no signal: waited to the deadline (%.0f ms)", ms_since(t0));

	/* signal_interrupts: no SA_RESTART, a blocked read returns EINTR. */
	rc = signal_interrupts(SIGALRM, on_alarm, NULL);
	if (rc == 0)
		rc = pipe(p);
	CHECK(rc == 0, "signal_interrupts(SIGALRM) and a pipe");
	if (rc == 0) {
		setitimer(ITIMER_REAL, &soon, NULL);
		errno = 0;
		rc = (int)read(p[0], &c, 1);
		CHECK(rc < 0 && errno == EINTR, "SIGALRM interrupts a blocked read (%d, errno %d)",
		      rc, errno);
		close(p[0]);
		close(p[1]);
	}

	/* Another signal with a handler does not end the wait. */
	alarm(1);
	t0 = now_ns();
	rc = stop_wait_until(now_ns() + 1300000000u);
	CHECK(rc == 0 && ms_since(t0) >= 1299, "SIGALRM in the middle: still waited 1300 ms (%.0f)", ms_since(t0));

	/* A stop signal during the wait ends it. */
	pthread_create(&th, NULL, term_later, NULL);
	t0 = now_ns();
	rc = stop_wait_until(now_ns() + 5000000000u);
	pthread_join(th, NULL);
	CHECK(rc < 0 && errno == EINTR && stop_signal == SIGTERM && ms_since(t0) < 1000,
	      "SIGTERM after 100 ms: EINTR after %.0f ms", ms_since(t0));

	/* One that came before the wait began (the race a plain sleep loses). */
	t0 = now_ns();
	rc = stop_wait_until(now_ns() + 5000000000u);
	CHECK(rc < 0 && errno == EINTR && ms_since(t0) < 50,
	      "a signal before the wait: EINTR at once (%.1f ms)", ms_since(t0));

	st = child_status(0, 1);
	CHECK(WIFSIGNALED(st & 0xffff) && WTERMSIG(st & 0xffff) == SIGTERM,
	      "stop_exit: dies of SIGTERM (status %#x)", st & 0xffff);
	CHECK(st & 0x10000, "stop_exit: the clean-up ran first");
	st = child_status(1, 1);
	CHECK(WIFEXITED(st & 0xffff) && WEXITSTATUS(st & 0xffff) == 0,
	      "SIGTERM ignored at start (nohup) stays ignored (status %#x)", st & 0xffff);
	return t_exit();
}
