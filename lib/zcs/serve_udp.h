/*
 * zcs's request/response over UDP (lib/wire/rr_proto.h): one socket on
 * the TCP listener's address and port, read by the parent's poll loop.
 * A flow is known by its hello's source address and port; a request
 * from anyone else, or not the flow's, is counted, never answered.
 *
 * No amplifier. A datagram's source can be forged, so zcs never sends
 * more bytes to an address than it received from it: the ack is as long
 * as the hello, and a hello asking for answers longer than its requests
 * (--response above -b) is refused with an ack that says so.
 */
#ifndef ZC_ZCS_SERVE_UDP_H
#define ZC_ZCS_SERVE_UDP_H

#include <stdint.h>

/*
 * serve_udp_open - the UDP socket beside TCP listener listen_fd (same
 * address and port), non-blocking; -1 with err.
 */
int serve_udp_open(int listen_fd, char *err, size_t errlen);

/* serve_udp_take - answer every datagram waiting on fd (debug: -d's lines). */
void serve_udp_take(int fd, int debug);

/* serve_udp_foreign - datagrams counted and not answered so far. */
uint64_t serve_udp_foreign(void);

#endif
