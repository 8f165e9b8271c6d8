/*
 * The kernel's stamps of a message's trip (tstamp.h): the socket's part.
 */
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <time.h>

#include <linux/errqueue.h>	/* after time.h: its struct timespec */
#include <linux/net_tstamp.h>
#include <linux/if_packet.h>

#include "base/err.h"
#include "wire/tstamp.h"

static const struct {
	const char *name, *key;
} stages[TS_STAGES] = {
	[TS_USER_QDISC] = { "user to qdisc", "user_qdisc" },
	[TS_QDISC_DEV] = { "qdisc to device", "qdisc_device" },
	[TS_DEV_ACK] = { "device to ACK", "device_ack" },
	[TS_WAKEUP] = { "device to program", "wakeup" },
};

const char *tstamp_stage_name(enum tstamp_stage s)
{
	return stages[s].name;
}

const char *tstamp_stage_key(enum tstamp_stage s)
{
	return stages[s].key;
}

/*
 * TCP numbers its bytes for OPT_ID from the next one written with
 * OPT_ID_TCP (Linux 6.2), else from the first one not yet acknowledged:
 * the same when nothing is in flight, as at tstamp_enable's call after a
 * hello's answer. The older kernels refuse the flag: asked again without.
 */
#ifndef SOF_TIMESTAMPING_OPT_ID_TCP
#define SOF_TIMESTAMPING_OPT_ID_TCP (1 << 16)
#endif

int tstamp_enable(int fd, int tcp, char *err, size_t errlen)
{
	unsigned flags = SOF_TIMESTAMPING_SOFTWARE | SOF_TIMESTAMPING_TX_SCHED |
			 SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_RX_SOFTWARE |
			 SOF_TIMESTAMPING_OPT_ID | SOF_TIMESTAMPING_OPT_TSONLY;
	unsigned with_tcp = flags | SOF_TIMESTAMPING_TX_ACK | SOF_TIMESTAMPING_OPT_ID_TCP;

	if (tcp && setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &with_tcp, sizeof(with_tcp)) == 0)
		return 0;
	if (tcp)
		flags |= SOF_TIMESTAMPING_TX_ACK;
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)) < 0)
		return err_fill(err, errlen, errno, "--stamps: SO_TIMESTAMPING");
	return 0;
}

int tstamp_enable_each(int fd, char *err, size_t errlen)
{
	unsigned flags = SOF_TIMESTAMPING_SOFTWARE | SOF_TIMESTAMPING_OPT_ID |
			 SOF_TIMESTAMPING_OPT_TSONLY;
	unsigned with_tcp = flags | SOF_TIMESTAMPING_OPT_ID_TCP;

	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &with_tcp, sizeof(with_tcp)) == 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)) == 0)
		return 0;
	return err_fill(err, errlen, errno, "--stamps: SO_TIMESTAMPING");
}

size_t tstamp_cmsg(void *control)
{
	uint32_t record = SOF_TIMESTAMPING_TX_SCHED | SOF_TIMESTAMPING_TX_SOFTWARE |
			  SOF_TIMESTAMPING_TX_ACK;
	struct msghdr msg = { .msg_control = control, .msg_controllen = CMSG_SPACE(sizeof(record)) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	memset(control, 0, CMSG_SPACE(sizeof(record)));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SO_TIMESTAMPING;
	cm->cmsg_len = CMSG_LEN(sizeof(record));
	memcpy(CMSG_DATA(cm), &record, sizeof(record));
	return CMSG_SPACE(sizeof(record));
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

/* The software stamp of an SCM_TIMESTAMPING cmsg: ts[0]; 0 when there is none. */
static uint64_t stamp_of(const struct cmsghdr *cm)
{
	struct scm_timestamping t;

	if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_TIMESTAMPING ||
	    cm->cmsg_len < CMSG_LEN(sizeof(t)))
		return 0;
	memcpy(&t, CMSG_DATA(cm), sizeof(t));
	return ts_ns(&t.ts[0]);
}

int tstamp_parse_tx(const struct msghdr *msg, struct tstamp_tx *out)
{
	struct sock_extended_err ee;
	uint64_t ns = 0;
	int have_ee = 0;

	if (msg->msg_flags & MSG_CTRUNC)
		return 0;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(msg); cm; cm = CMSG_NXTHDR((struct msghdr *)msg, cm)) {
		if (stamp_of(cm))
			ns = stamp_of(cm);
		else if (((cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_RECVERR) ||
			  (cm->cmsg_level == SOL_IPV6 && cm->cmsg_type == IPV6_RECVERR) ||
			  (cm->cmsg_level == SOL_PACKET && cm->cmsg_type == PACKET_TX_TIMESTAMP)) &&
			 cm->cmsg_len >= CMSG_LEN(sizeof(ee))) {
			memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
			have_ee = ee.ee_errno == ENOMSG &&
				  ee.ee_origin == SO_EE_ORIGIN_TIMESTAMPING &&
				  ee.ee_info <= SCM_TSTAMP_ACK;
		}
	}
	if (!have_ee || !ns)
		return 0;
	out->kind = ee.ee_info == SCM_TSTAMP_SCHED ? TSTAMP_SCHED :
		    ee.ee_info == SCM_TSTAMP_SND ? TSTAMP_SND : TSTAMP_ACK;
	out->id = ee.ee_data;
	out->ns = ns;
	return 1;
}

int tstamp_read_tx(int fd, struct tstamp_tx *out, char *err, size_t errlen)
{
	char control[TSTAMP_CMSG_SPACE * 2];
	struct msghdr msg;

	for (;;) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			if (errno == EINTR)
				continue;
			return err_fill(err, errlen, errno, "--stamps: the error queue");
		}
		if (tstamp_parse_tx(&msg, out))
			return 1;
	}
}

uint64_t tstamp_parse_rx(const struct msghdr *msg)
{
	uint64_t ns = 0;

	for (struct cmsghdr *cm = CMSG_FIRSTHDR(msg); cm; cm = CMSG_NXTHDR((struct msghdr *)msg, cm))
		if (stamp_of(cm))
			ns = stamp_of(cm);
	return ns;
}
