#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/stop.h"
#include "base/textfile.h"
#include "wire/rr_io.h"
#include "wire/tstamp.h"

uint64_t rr_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void rr_boot_id(unsigned char id[RR_BOOT_ID])
{
	char text[64];

	if (textfile_line("/proc/sys/kernel/random/boot_id", text, sizeof(text)) < 0 ||
	    rr_boot_id_parse(text, id) < 0)
		memset(id, 0, RR_BOOT_ID);
}

uint32_t rr_clock_err_us(void)
{
	struct timex tx = { 0 };
	int state = adjtimex(&tx);

	if (state < 0 || state == TIME_ERROR || (tx.status & STA_UNSYNC) || tx.esterror < 0)
		return UINT32_MAX;
	return tx.esterror > (long)UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)tx.esterror;
}

/* Time to wait in one poll: the rest of the bound, in slices a stop is seen in. */
static int slice_ms(uint64_t end)
{
	uint64_t now = now_ns();

	if (end == UINT64_MAX)
		return 100;
	if (now >= end)
		return 0;
	return end - now > 100000000u ? 100 : (int)((end - now + 999999) / 1000000);
}

enum rr_sniff rr_sniff_fd(int fd, int timeout_ms, const volatile sig_atomic_t *stop)
{
	uint64_t end = timeout_ms > 0 ? now_ns() + (uint64_t)timeout_ms * 1000000 : UINT64_MAX;
	const struct timespec later = { 0, 1000000 };
	unsigned char buf[RR_SNIFF_BYTES];
	struct pollfd p = { .fd = fd, .events = POLLIN };
	enum rr_sniff s;
	ssize_t n;

	while (!(stop && *stop)) {
		n = recv(fd, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return RR_SNIFF_STREAM;
		s = n > 0 ? rr_sniff(buf, (size_t)n) : RR_SNIFF_MORE;
		if (s != RR_SNIFF_MORE)
			return s;
		if (end != UINT64_MAX && now_ns() >= end)
			break;
		/* Some bytes but too few: poll would say readable at once,
		 * unless the peer is done sending (too short to be a hello). */
		if (n > 0 && poll(&(struct pollfd){ .fd = fd, .events = POLLRDHUP }, 1, 0) == 1)
			return RR_SNIFF_STREAM;
		if (n > 0)
			nanosleep(&later, NULL);
		else
			poll(&p, 1, slice_ms(end));
	}
	return RR_SNIFF_MORE;
}

ssize_t rr_recv_one(int fd, void *buf, size_t len, int flags, struct rr_io_ctl *ctl)
{
	char control[TSTAMP_CMSG_SPACE];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	uint64_t t0 = ctl && ctl->calls ? now_ns() : 0;
	ssize_t n;

	if (!ctl || !ctl->stamps)
		n = recv(fd, buf, len, flags);
	else {
		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		n = recvmsg(fd, &msg, flags);
	}
	if (n > 0)
		rr_io_took(ctl, &msg, t0);
	return n;
}

void rr_io_took(struct rr_io_ctl *ctl, const struct msghdr *msg, uint64_t t0)
{
	if (ctl && ctl->stamps) {
		ctl->back_ns = rr_real_ns();
		ctl->stamp_ns = tstamp_parse_rx(msg);
	}
	if (ctl && t0)
		hist_record(ctl->calls, now_ns() - t0);
}

int rr_read_ctl(int fd, unsigned char *buf, size_t len, size_t *got,
		const volatile sig_atomic_t *stop, struct rr_io_ctl *ctl)
{
	ssize_t n;

	*got = 0;
	while (*got < len) {
		n = rr_recv_one(fd, buf + *got, len - *got, 0, ctl);
		if (n == 0)
			return 1;
		if (n < 0 && errno == EINTR && stop && !*stop)
			continue;
		if (n < 0)
			return -1;
		*got += (size_t)n;
	}
	return 0;
}

int rr_read(int fd, unsigned char *buf, size_t len, size_t *got,
	    const volatile sig_atomic_t *stop)
{
	return rr_read_ctl(fd, buf, len, got, stop, NULL);
}

int rr_write_by(int fd, const unsigned char *buf, size_t len, int by_write, struct hist *calls)
{
	uint64_t t0;
	ssize_t n;

	while (len > 0) {
		t0 = calls ? now_ns() : 0;
		n = by_write ? write(fd, buf, len) : send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR && !stop_signal)
			continue;
		if (n < 0)
			return -1;
		if (calls)
			hist_record(calls, now_ns() - t0);
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int rr_write_calls(int fd, const unsigned char *buf, size_t len, struct hist *calls)
{
	return rr_write_by(fd, buf, len, 0, calls);
}

int rr_write(int fd, const unsigned char *buf, size_t len)
{
	return rr_write_by(fd, buf, len, 0, NULL);
}
