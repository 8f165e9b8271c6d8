/*
 * Addresses as users write them, for net_connect and net_listen. Like the
 * socket helpers, each returns failure with errno set and a "what: why"
 * text in err, and prints nothing.
 */
#ifndef ZC_ADDR_H
#define ZC_ADDR_H

#include <netdb.h>
#include <stddef.h>
#include <sys/socket.h>

/*
 * addr_unbracket - "[addr]" or "[addr%if]" as the address inside, copied
 * into buf (len bytes); host itself when it has no '['. NULL with err
 * filled for a '[' not closed, anything after the ']' (a port), or an
 * address longer than buf.
 */
const char *addr_unbracket(const char *host, char *buf, size_t len,
			   char *err, size_t errlen);

/*
 * addr_resolve - getaddrinfo for a TCP connection to host: an address as
 * written, a name for the families this host has addresses in, then for
 * every family. What getaddrinfo returns (0, or an EAI_ code).
 */
int addr_resolve(const char *host, const char *service, struct addrinfo **res);

/* addr_resolve_failed - err "resolve HOST: why" for getaddrinfo's rc; -1. */
int addr_resolve_failed(const char *host, int rc, char *err, size_t errlen);

/* addr_unscoped_link_local - sa is an IPv6 link-local address without a scope. */
int addr_unscoped_link_local(const struct sockaddr *sa);

/*
 * addr_needs_scope - err "WHAT: a link-local address needs the interface
 * it is on: add %INTERFACE (here: v0, v1), as in NAME%v0", naming the
 * interfaces that have a link-local address; what NULL: no "WHAT: ".
 * Returns -1, errno EINVAL.
 */
int addr_needs_scope(const char *what, const char *name, char *err, size_t errlen);

/*
 * addr_route_socket - a UDP socket connected to host's first address
 * (port: port), which sends nothing but holds the local address the
 * kernel's route to host picks: the interface a TCP connection to it
 * would take. -1 when host cannot be resolved or has no route.
 */
int addr_route_socket(const char *host, unsigned port);

#endif
