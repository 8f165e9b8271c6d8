#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/io.h"

ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = read(fd, (char *)buf + done, len - done);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* One loop for both: write() when use_send is 0, else send() with flags. */
static int put_full(int fd, const void *buf, size_t len, int use_send, int flags)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = use_send ? send(fd, (const char *)buf + done, len - done, flags)
			     : write(fd, (const char *)buf + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		done += (size_t)n;
	}
	return 0;
}

int write_full(int fd, const void *buf, size_t len)
{
	return put_full(fd, buf, len, 0, 0);
}

int send_full(int fd, const void *buf, size_t len, int flags)
{
	return put_full(fd, buf, len, 1, flags);
}
