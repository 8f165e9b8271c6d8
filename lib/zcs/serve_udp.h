/*
 * zcs's request/response over datagrams (lib/wire/rr_proto.h): one UDP
 * socket on the TCP listener's address and port and, with --proto, a
 * raw IP or raw Ethernet end (lib/zcs/serve_dgram.h), read by the
 * parent's poll loop. A flow is known by its end, its hello's source
 * address (and port) and its run and flow ids; a request from anyone
 * else, or not the flow's, is counted as foreign, never answered.
 *
 * No amplifier. A datagram's source can be forged, so zcs never sends
 * more bytes to an address than it received from it: the ack is as long
 * as the hello, and a hello asking for answers longer than its requests
 * (--response above -b) is refused with an ack that says so; a bye is
 * padded to at least the report that answers it.
 *
 * A flow that asked for the receiver's report (zcc -c) ends with a bye:
 * zcs answers it with the report of the requests it answered since the
 * hello, its own CPU and with -c the machine's load over that time,
 * made once and sent again to each bye (lib/wire/rr_proto.h).
 */
#ifndef ZC_ZCS_SERVE_UDP_H
#define ZC_ZCS_SERVE_UDP_H

#include <stddef.h>

/*
 * serve_udp_take - answer what waits on end d (sc: -d's lines, -c's
 * meter for a flow's report): on a raw end every packet waiting, on the
 * UDP end one request (the caller's poll() says when more wait: a receive
 * that finds none would be a system call more a request); what is not a
 * flow's is counted in d->foreign. 0, or -1 with err when d's receive fails (a
 * packet end's interface went down).
 */
struct serve_cfg;
struct serve_dg;
int serve_udp_take(struct serve_dg *d, const struct serve_cfg *sc, char *err, size_t errlen);

#endif
