/*
 * Where a message's time goes, as the kernel stamps it (SO_TIMESTAMPING,
 * software stamps, all read on CLOCK_REALTIME): when its bytes entered
 * the packet scheduler (SCHED), when the driver handed them to the device
 * (SND), when TCP saw them acknowledged (ACK), and on the receiving side
 * when the packet arrived from the device (the receive stamp). With the
 * time the program called send() and the time its recv() returned, they
 * cut a message's trip into stages:
 *
 *     user -> qdisc     send() called to SCHED
 *     qdisc -> device   SCHED to SND
 *     device -> ACK     SND to ACK (TCP)
 *     wake-up           the receive stamp to recv() returning
 *
 * Transmit stamps come back on the socket's error queue, each tied to its
 * message by OPT_ID: the kernel numbers a TCP socket's bytes from 0 at
 * tstamp_enable and stamps a send with the number of its last byte; a
 * datagram socket's sends, one number each. OPT_TSONLY: only the stamp
 * comes back, not the data.
 *
 * A device, a path or a kernel may give some stamps and not others
 * (a device whose driver never calls skb_tx_timestamp gives no SND; a
 * stage with no stamp is said so by the caller, never shown as zero).
 * A stamp whose message is older than the ring below, or that comes after
 * the run, is counted as missing; a stage that comes out negative (the
 * realtime clock stepped between its two ends) is counted apart, never
 * recorded. This file does the socket's part (enable, read, parse) and
 * keeps the stages (tstamp_track); the caller stamps user time and reads.
 */
#ifndef ZC_WIRE_TSTAMP_H
#define ZC_WIRE_TSTAMP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "base/hist.h"

enum tstamp_kind { TSTAMP_SCHED, TSTAMP_SND, TSTAMP_ACK, TSTAMP_KINDS };

/* The stages the tracker keeps. */
enum tstamp_stage { TS_USER_QDISC, TS_QDISC_DEV, TS_DEV_ACK, TS_WAKEUP, TS_STAGES };

/* tstamp_stage_name - "user to qdisc", "qdisc to device", ... */
const char *tstamp_stage_name(enum tstamp_stage s);
/* tstamp_stage_key - its JSON prefix: "user_qdisc", "qdisc_device", ... */
const char *tstamp_stage_key(enum tstamp_stage s);

/*
 * tstamp_enable - ask the kernel for fd's software stamps: on its sends
 * SCHED and SND (and ACK when tcp), numbered (OPT_ID) from here on, the
 * stamp only (OPT_TSONLY); on its receives, the arrival. -1 with err (a
 * kernel without SO_TIMESTAMPING names it).
 */
int tstamp_enable(int fd, int tcp, char *err, size_t errlen);

/*
 * tstamp_enable_each - as tstamp_enable for TCP, but no send is stamped
 * unless it asks by its control data (tstamp_cmsg): the bytes numbered
 * from here on all the same.
 */
int tstamp_enable_each(int fd, char *err, size_t errlen);

/*
 * tstamp_cmsg - into control (TSTAMP_CMSG_SPACE bytes) the control
 * message of a sendmsg that asks for its SCHED, SND and ACK stamps: its
 * length.
 */
size_t tstamp_cmsg(void *control);

/* One transmit stamp. */
struct tstamp_tx {
	enum tstamp_kind kind;
	uint32_t id;		/* OPT_ID's number: a byte's (TCP) or a send's */
	uint64_t ns;		/* CLOCK_REALTIME */
};

/*
 * tstamp_parse_tx - the transmit stamp in the control data of msg (read
 * from the error queue): 1 with *out, 0 when msg holds none (another kind
 * of error message, a cut control buffer).
 */
int tstamp_parse_tx(const struct msghdr *msg, struct tstamp_tx *out);

/*
 * tstamp_read_tx - the next stamp on fd's error queue, without waiting:
 * 1 with *out, 0 when there is none (or only what is not a stamp), -1
 * with err.
 */
int tstamp_read_tx(int fd, struct tstamp_tx *out, char *err, size_t errlen);

/*
 * tstamp_parse_rx - the arrival stamp among a received message's control
 * data (recvmsg with a control buffer of TSTAMP_CMSG_SPACE): CLOCK_REALTIME
 * ns, or 0 when there is none.
 */
#define TSTAMP_CMSG_SPACE 128
uint64_t tstamp_parse_rx(const struct msghdr *msg);

/* A run's stages: the messages' user times in a ring, their stamps as they come. */
#define TSTAMP_RING 4096

struct tstamp_track {
	uint32_t unit;			/* OPT_ID numbers a message spans: its bytes (TCP), or 1 */
	uint64_t sent;			/* messages noted by tstamp_track_sent */
	uint64_t user[TSTAMP_RING];	/* each message's send() time, realtime ns */
	uint64_t at[TSTAMP_RING][TSTAMP_KINDS];	/* its stamps so far (0: none yet) */
	uint64_t got[TSTAMP_KINDS];	/* stamps taken, by kind */
	uint64_t late;			/* stamps for a message gone from the ring */
	uint64_t again;			/* a kind's second stamp: the packet sent again */
	uint64_t stepped;		/* stages that came out negative */
	struct hist stage[TS_STAGES];
};

/*
 * tstamp_track_init - t for messages of unit OPT_ID numbers each, every
 * stage's histogram counting exactly the values over budget_ns (UINT64_MAX:
 * none). Large (a few hundred KiB): allocate it.
 */
void tstamp_track_init(struct tstamp_track *t, uint32_t unit, uint64_t budget_ns);

/* tstamp_track_sent - the next message's send() is called at user_ns (realtime). */
void tstamp_track_sent(struct tstamp_track *t, uint64_t user_ns);

/* tstamp_track_take - stamp s: its message's stages that it completes recorded. */
void tstamp_track_take(struct tstamp_track *t, const struct tstamp_tx *s);

/*
 * tstamp_track_put - stamp s of message msg (0: the first noted), however
 * its number maps to it (stream mode: lib/wire/tstamp_every.h).
 */
void tstamp_track_put(struct tstamp_track *t, uint64_t msg, const struct tstamp_tx *s);

/*
 * tstamp_track_missing - the stamps that never came: of each kind the
 * path gives at all (some came), messages noted minus stamps taken.
 */
uint64_t tstamp_track_missing(const struct tstamp_track *t);

/* tstamp_track_wakeup - a message arrived at stamp_ns and recv() returned at user_ns. */
void tstamp_track_wakeup(struct tstamp_track *t, uint64_t stamp_ns, uint64_t user_ns);

/* tstamp_track_merge - from's stages and counts into into (the same unit and budget). */
void tstamp_track_merge(struct tstamp_track *into, const struct tstamp_track *from);

#endif
