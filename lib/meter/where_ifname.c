/* where.c's interface of a socket: the one whose address it has. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "base/err.h"
#include "meter/where.h"

/* The loopback addresses: 127.0.0.0/8 and ::1. */
static int is_loopback(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET)
		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	return ss->ss_family == AF_INET6 && IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
}

/* An IPv4-mapped IPv6 address (::ffff:a.b.c.d) as the IPv4 one. */
static void unmap(struct sockaddr_storage *ss)
{
	struct sockaddr_in6 in6 = *(struct sockaddr_in6 *)ss;
	struct sockaddr_in *in = (struct sockaddr_in *)ss;

	if (ss->ss_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr))
		return;
	memset(ss, 0, sizeof(*ss));
	in->sin_family = AF_INET;
	memcpy(&in->sin_addr, &in6.sin6_addr.s6_addr[12], 4);
}

static int same_addr(const struct sockaddr_storage *ss, const struct sockaddr *a)
{
	if (!a || a->sa_family != ss->ss_family)
		return 0;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)ss)->sin_addr.s_addr;
	return a->sa_family == AF_INET6 &&
	       IN6_ARE_ADDR_EQUAL(&((const struct sockaddr_in6 *)a)->sin6_addr,
				  &((const struct sockaddr_in6 *)ss)->sin6_addr);
}

int where_ifname(int sock, char *name, size_t len, char *err, size_t errlen)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t sl = sizeof(ss);
	struct ifaddrs *ifs, *i;
	int found = 0;

	if (getsockname(sock, (struct sockaddr *)&ss, &sl) < 0)
		return err_fill(err, errlen, errno, "getsockname");
	unmap(&ss);
	if (getifaddrs(&ifs) < 0)
		return err_fill(err, errlen, errno, "getifaddrs");
	for (i = ifs; i && !same_addr(&ss, i->ifa_addr); i = i->ifa_next)
		;
	/* 127.0.0.2 and the like belong to no interface's list: loopback's. */
	if (!i && is_loopback(&ss))
		for (i = ifs; i && !(i->ifa_flags & IFF_LOOPBACK); i = i->ifa_next)
			;
	if (i)
		snprintf(name, len, "%s", i->ifa_name);
	found = i != NULL;
	freeifaddrs(ifs);
	return found ? 0 : err_fill(err, errlen, 0, "no interface holds the socket's address");
}
