/*
 * The socket side of the request/response protocol (lib/wire/rr_proto.h),
 * shared by zcc --rr and zcs: what each end says of itself in the hello
 * and the ack, telling a new connection's protocol by its first bytes,
 * and reading a message whole. Errors are returned, never printed.
 */
#ifndef ZC_RR_IO_H
#define ZC_RR_IO_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/hist.h"
#include "wire/rr_proto.h"

/* rr_real_ns - CLOCK_REALTIME now, ns: the stamps of the messages' one-way times. */
uint64_t rr_real_ns(void);

/* rr_boot_id - this kernel's boot id into id (zeros when unknown). */
void rr_boot_id(unsigned char id[RR_BOOT_ID]);

/*
 * rr_clock_err_us - the realtime clock's error as the kernel estimates it
 * (adjtimex's esterror), us; UINT32_MAX when it is not synchronised.
 */
uint32_t rr_clock_err_us(void);

/*
 * rr_sniff_fd - which protocol connection fd speaks, by its first bytes
 * (peeked: none is taken from the socket). Waits for them at most
 * timeout_ms (<= 0: no bound) and while *stop is 0; RR_SNIFF_MORE when
 * that ran out first. An end of the stream or an error before the bytes
 * decide: RR_SNIFF_STREAM (the stream's path says what happened).
 */
enum rr_sniff rr_sniff_fd(int fd, int timeout_ms, const volatile sig_atomic_t *stop);

/*
 * rr_read - read exactly len bytes into buf; *got says how many came.
 * 0: all of them; 1: the end of the stream came first; -1 with errno:
 * an error, EINTR (a signal came and *stop is set; stop NULL: any
 * signal), or EAGAIN (the socket's SO_RCVTIMEO ran out: nothing came for
 * that long).
 */
int rr_read(int fd, unsigned char *buf, size_t len, size_t *got,
	    const volatile sig_atomic_t *stop);

/*
 * What a reader of answers asks of each receive call beyond the bytes
 * (zcc --rr's --call-times and --stamps): calls, each call's time
 * (CLOCK_MONOTONIC) recorded there, NULL: none; stamps, received by
 * recvmsg with a control buffer, whose arrival stamp (tstamp.h, realtime)
 * goes into stamp_ns (0: the kernel gave none) and the realtime when the
 * call returned into back_ns: of the last call that took bytes.
 */
struct rr_io_ctl {
	struct hist *calls;
	int stamps;
	uint64_t stamp_ns, back_ns;
};

/*
 * rr_recv_one - one receive call as recv(2) with flags, under ctl (NULL:
 * a bare recv): its return, errno as recv's.
 */
ssize_t rr_recv_one(int fd, void *buf, size_t len, int flags, struct rr_io_ctl *ctl);

/*
 * rr_io_took - a receive call that began at t0 (now_ns(); 0: not timed)
 * took bytes by msg: under ctl (NULL: nothing), its arrival stamp and
 * the call's time, as rr_recv_one records them.
 */
struct msghdr;
void rr_io_took(struct rr_io_ctl *ctl, const struct msghdr *msg, uint64_t t0);

/* rr_read_ctl - rr_read, each call under ctl (NULL: as rr_read). */
int rr_read_ctl(int fd, unsigned char *buf, size_t len, size_t *got,
		const volatile sig_atomic_t *stop, struct rr_io_ctl *ctl);

/* rr_write_calls - rr_write, each send's time into calls (NULL: none). */
int rr_write_calls(int fd, const unsigned char *buf, size_t len, struct hist *calls);

/*
 * rr_write - write all len bytes (MSG_NOSIGNAL): 0, or -1 with errno
 * (EINTR: a signal came and stop_signal is set). rr_write_by - the same
 * by write() when by_write (the caller keeps SIGPIPE ignored), each
 * call's time into calls (NULL: none).
 */
int rr_write(int fd, const unsigned char *buf, size_t len);
int rr_write_by(int fd, const unsigned char *buf, size_t len, int by_write, struct hist *calls);

#endif
