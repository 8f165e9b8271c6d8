/*
 * zcs's request/response over UDP (lib/wire/rr_proto.h): one socket on
 * the TCP listener's address and port, read by the parent's poll loop.
 * A flow is known by its hello's source address and port; a request
 * from anyone else, or not the flow's, is counted, never answered.
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

#include <stdint.h>

/*
 * serve_udp_open - the UDP socket beside TCP listener listen_fd (same
 * address and port), non-blocking; -1 with err.
 */
int serve_udp_open(int listen_fd, char *err, size_t errlen);

/*
 * serve_udp_take - answer every datagram waiting on fd (sc: -d's lines,
 * -c's meter for a flow's report).
 */
struct serve_cfg;
void serve_udp_take(int fd, const struct serve_cfg *sc);

/* serve_udp_foreign - datagrams counted and not answered so far. */
uint64_t serve_udp_foreign(void);

#endif
