/*
 * Addresses as users write them: "127.0.0.1", "0", "::1", names, and the
 * forms pasted from URLs and ip(8) ("[::1]", "fe80::1%eth0",
 * "[fe80::1%eth0]"). The why of each rule is beside its code.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "wire/addr.h"

/*
 * URLs, ssh and browsers write an IPv6 address in brackets, and users
 * paste it so. A port after the bracket ("[::1]:2222") is not taken: the
 * programs give the port apart, and two ways to say it would conflict.
 */
const char *addr_unbracket(const char *host, char *buf, size_t len,
			   char *err, size_t errlen)
{
	const char *close;
	size_t n;

	if (!host || host[0] != '[')
		return host;
	close = strchr(host, ']');
	if (!close) {
		errno = EINVAL;
		err_fill(err, errlen, 0, "resolve %s: no ']' closes the '['", host);
		return NULL;
	}
	if (close[1]) {
		errno = EINVAL;
		err_fill(err, errlen, 0, "resolve %s: the port goes apart, not after "
			 "the address", host);
		return NULL;
	}
	n = (size_t)(close - host - 1);
	if (n + 1 > len) {
		errno = ENAMETOOLONG;
		err_fill(err, errlen, 0, "resolve %s: too long for an address", host);
		return NULL;
	}
	memcpy(buf, host + 1, n);
	buf[n] = '\0';
	return buf;
}

/*
 * An address written as one ("127.0.0.1", "0", "::1", "fe80::1%eth0")
 * is taken as it is: no lookup, no filter. A name is looked up with
 * AI_ADDRCONFIG, so that a host without IPv6 is not handed the AAAA
 * records first, and again without it when that finds nothing: glibc's
 * AI_ADDRCONFIG counts no loopback address, so on an IPv6-only host (lo
 * up, a global IPv6 address, no other IPv4) it looks a name up as IPv6
 * alone, and "localhost" or any name /etc/hosts gives only an IPv4
 * address fails (EAI_AGAIN from the DNS, or EAI_NONAME). A name that
 * cannot be resolved at all is so looked up twice.
 */
int addr_resolve(const char *host, const char *service, struct addrinfo **res)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	int rc;

	rc = getaddrinfo(host, service, &hints, res);
	if (rc != EAI_NONAME)
		return rc;
	hints.ai_flags = AI_ADDRCONFIG | AI_NUMERICSERV;
	rc = getaddrinfo(host, service, &hints, res);
	if (rc == 0 || rc == EAI_SYSTEM || rc == EAI_MEMORY)
		return rc;
	hints.ai_flags = AI_NUMERICSERV;
	return getaddrinfo(host, service, &hints, res);
}

/* glibc says only "Name or service not known" for a scope naming no interface. */
int addr_resolve_failed(const char *host, int rc, char *err, size_t errlen)
{
	const char *pct = host ? strchr(host, '%') : NULL;

	if (rc == EAI_SYSTEM)
		return err_fill(err, errlen, errno, "resolve %s", host);
	errno = EINVAL;
	if (pct && pct[1] && strspn(pct + 1, "0123456789") != strlen(pct + 1) &&
	    if_nametoindex(pct + 1) == 0)
		return err_fill(err, errlen, 0, "resolve %s: no interface named %s "
				"here", host, pct + 1);
	return err_fill(err, errlen, 0, "resolve %s: %s", host, gai_strerror(rc));
}

/*
 * A link-local IPv6 address (fe80::/10) names a host only together with
 * the link it is on: without a scope the kernel refuses it (EINVAL).
 */
int addr_unscoped_link_local(const struct sockaddr *sa)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)sa;

	return sa->sa_family == AF_INET6 && IN6_IS_ADDR_LINKLOCAL(&s6->sin6_addr) &&
	       s6->sin6_scope_id == 0;
}

static int link_local(const struct ifaddrs *i)
{
	return i->ifa_addr && i->ifa_addr->sa_family == AF_INET6 &&
	       IN6_IS_ADDR_LINKLOCAL(&((const struct sockaddr_in6 *)i->ifa_addr)->sin6_addr);
}

/* The interfaces are named so that the user need not run ip(8) to find one. */
int addr_needs_scope(const char *what, const char *name, char *err, size_t errlen)
{
	struct ifaddrs *ifs = NULL, *i, *j;
	char list[160] = "", first[IF_NAMESIZE] = "eth0";
	size_t n = 0, room = sizeof(list) - 4;	/* 4: "...)" after a cut name */
	int dup, k, cut = 0;

	if (getifaddrs(&ifs) < 0)
		ifs = NULL;
	for (i = ifs; i && !cut; i = i->ifa_next) {
		if (!link_local(i))
			continue;
		for (dup = 0, j = ifs; j != i; j = j->ifa_next)
			dup |= link_local(j) && strcmp(j->ifa_name, i->ifa_name) == 0;
		if (dup)
			continue;
		if (!n)
			snprintf(first, sizeof(first), "%s", i->ifa_name);
		k = snprintf(list + n, room - n, "%s%s", n ? ", " : " (here: ", i->ifa_name);
		cut = k < 0 || (size_t)k >= room - n;
		n = cut ? room - 1 : n + (size_t)k;
	}
	if (ifs)
		freeifaddrs(ifs);
	if (n)
		snprintf(list + n, sizeof(list) - n, "%s", cut ? "...)" : ")");
	errno = EINVAL;
	return err_fill(err, errlen, 0, "%s%sa link-local address needs the interface "
			"it is on: add %%INTERFACE%s, as in %s%%%s", what ? what : "",
			what ? ": " : "", list, name, first);
}


int addr_route_socket(const char *host, unsigned port)
{
	char service[16], bare[NI_MAXHOST], err[256];
	struct addrinfo *res, *ai;
	const char *name = addr_unbracket(host, bare, sizeof(bare), err, sizeof(err));
	int fd = -1;

	snprintf(service, sizeof(service), "%u", port);
	if (!name || addr_resolve(name, service, &res) != 0)
		return -1;
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	return fd;
}
