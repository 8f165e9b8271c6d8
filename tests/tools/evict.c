/*
 * evict - drop files from the page cache, so a test can see zcc with a
 * cold one: each file is flushed (fdatasync) and then advised
 * POSIX_FADV_DONTNEED. On a file system without a page cache of its own
 * (tmpfs) nothing is dropped; the caller checks.
 *
 *   evict FILE...
 */
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd, e;

	if (argc < 2)
		error(2, 0, "usage: evict FILE...");
	for (int i = 1; i < argc; i++) {
		fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			error(0, errno, "%s", argv[i]);
			return 1;
		}
		if (fdatasync(fd) < 0)
			error(1, errno, "%s: fdatasync", argv[i]);
		e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (e)
			error(1, e, "%s: posix_fadvise", argv[i]);
		close(fd);
	}
	return 0;
}
