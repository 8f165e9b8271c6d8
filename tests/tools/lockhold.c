/*
 * lockhold - hold a POSIX write lock on a file, as a meter holds its lock,
 * until killed: for the tests of lib/meter/lock.c.
 *
 *   lockhold [-s] PATH
 *
 * Prints "locked PID" once it holds the lock. -s starts a child at nice 19
 * that sleeps, as a meter's soaker sits at nice 19: the holder then looks
 * like a meter. The child dies with the holder (PR_SET_PDEATHSIG).
 */
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int soaker = argc > 2 && strcmp(argv[1], "-s") == 0, fd;
	const char *path = argv[argc - 1];
	pid_t parent = getpid();

	if (argc < 2)
		error(2, 0, "usage: lockhold [-s] PATH");
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || fcntl(fd, F_SETLK, &fl) < 0)
		error(1, errno, "%s", path);
	if (soaker && fork() == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(1);
		if (setpriority(PRIO_PROCESS, 0, 19) < 0)
			_exit(1);
		for (;;)
			pause();
	}
	printf("locked %d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}
