#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/err.h"
#include "wire/addr.h"
#include "wire/net.h"

/*
 * Set one int socket option and read it back; the kernel may give less.
 * doubled: the kernel keeps twice what it allows, for its bookkeeping
 * (SO_RCVBUF, SO_SNDBUF), so what it allowed is half what it reports.
 */
static int set_checked(int fd, int level, int name, const char *what, int want,
		       int doubled, char *err, size_t errlen)
{
	int got = 0;
	socklen_t len = sizeof(got);
	long long allowed;

	if (setsockopt(fd, level, name, &want, sizeof(want)) < 0)
		return err_fill(err, errlen, errno, "set %s to %d", what, want);
	if (getsockopt(fd, level, name, &got, &len) < 0)
		return err_fill(err, errlen, errno, "read back %s", what);
	allowed = doubled ? got / 2 : got;
	if (allowed < want)
		return err_fill(err, errlen, 0, "%s: asked for %d, the kernel allowed %lld "
				"(raise net.core.%cmem_max?)", what, want, allowed,
				name == SO_RCVBUF ? 'r' : 'w');
	return 0;
}

/*
 * The kernel takes the pacing rate as 32 bits, or as 64 where a long is
 * (every 64-bit kernel since 4.20): the narrow form while it fits.
 */
static int set_pacing(int fd, uint64_t bytes_per_sec)
{
	uint32_t narrow = (uint32_t)bytes_per_sec;

	if (bytes_per_sec < UINT32_MAX)
		return setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &narrow, sizeof(narrow));
	return setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &bytes_per_sec,
			  sizeof(bytes_per_sec));
}

int net_set_opts(int fd, const struct net_opts *o, char *err, size_t errlen)
{
	int one = 1;

	if (!o)
		return 0;
	if (o->rcvbuf && set_checked(fd, SOL_SOCKET, SO_RCVBUF, "SO_RCVBUF",
				     o->rcvbuf, 1, err, errlen) < 0)
		return -1;
	if (o->sndbuf && set_checked(fd, SOL_SOCKET, SO_SNDBUF, "SO_SNDBUF",
				     o->sndbuf, 1, err, errlen) < 0)
		return -1;
	if (o->debug && setsockopt(fd, SOL_SOCKET, SO_DEBUG, &one, sizeof(one)) < 0)
		return err_fill(err, errlen, errno, "set SO_DEBUG");
	if (o->pacing && set_pacing(fd, o->pacing) < 0)
		return err_fill(err, errlen, errno, "set SO_MAX_PACING_RATE to %llu bytes/s",
				(unsigned long long)o->pacing);
	return 0;
}

#ifndef SO_INCOMING_NAPI_ID
#define SO_INCOMING_NAPI_ID 56
#endif
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif

int net_busy_poll(int fd, unsigned us, char *err, size_t errlen)
{
	unsigned id = 0;
	socklen_t len = sizeof(id);
	int v = (int)us, one = 1;

	if (getsockopt(fd, SOL_SOCKET, SO_INCOMING_NAPI_ID, &id, &len) < 0)
		return err_fill(err, errlen, errno, "--busy-poll: SO_INCOMING_NAPI_ID");
	if (id == 0)
		return err_fill(err, errlen, 0, "--busy-poll: the socket has no NAPI ID "
				"(loopback, a device whose driver has no NAPI, or a raw socket, "
				"which the kernel does not mark): nothing to poll");
	/* Some kernels ask CAP_NET_ADMIN for a value above net.core.busy_read. */
	if (setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &v, sizeof(v)) < 0)
		return err_fill(err, errlen, 0, "--busy-poll: SO_BUSY_POLL: %s", errno == EPERM ?
				"this kernel asks CAP_NET_ADMIN above net.core.busy_read" :
				strerror(errno));
	/* Older kernels lack it: the busy polling alone then. */
	if (setsockopt(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, &one, sizeof(one)) < 0 &&
	    errno != ENOPROTOOPT)
		return err_fill(err, errlen, 0, "--busy-poll: SO_PREFER_BUSY_POLL: %s",
				errno == EPERM ? "needs CAP_NET_ADMIN" : strerror(errno));
	return 0;
}

int net_set_cork(int fd, char *err, size_t errlen)
{
	return set_checked(fd, IPPROTO_TCP, TCP_CORK, "TCP_CORK", 1, 0, err, errlen);
}

/* The protocol of a socket for ai: MPTCP when o asks for it. */
static int protocol(const struct addrinfo *ai, const struct net_opts *o)
{
	return o && o->mptcp ? IPPROTO_MPTCP : ai->ai_protocol;
}

static int cancelled(volatile sig_atomic_t *cancel)
{
	return cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED);
}

/*
 * connect() with a deadline (now_ns(); 0: none) or a cancel flag:
 * non-blocking, then a wait for the answer that a signal cuts short
 * (EINTR), as does the flag, looked at every NET_CANCEL_MS; back to
 * blocking.
 */
static int connect_within(int fd, const struct sockaddr *sa, socklen_t len,
			  uint64_t deadline, volatile sig_atomic_t *cancel)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	int flags = fcntl(fd, F_GETFL), soerr = 0, ms;
	socklen_t sl = sizeof(soerr);
	uint64_t now;

	if (!deadline && !cancel)
		return connect(fd, sa, len);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return -1;
	if (connect(fd, sa, len) < 0) {
		if (errno != EINPROGRESS)
			return -1;
		for (;;) {
			now = now_ns();
			if (cancelled(cancel)) {
				errno = EINTR;
				return -1;
			}
			if (deadline && now >= deadline) {
				errno = ETIMEDOUT;
				return -1;
			}
			/* Whole milliseconds, rounded up: never a busy loop. */
			ms = deadline ? (int)((deadline - now + 999999) / 1000000) : -1;
			if (cancel && (ms < 0 || ms > NET_CANCEL_MS))
				ms = NET_CANCEL_MS;
			int rc = poll(&pfd, 1, ms);
			if (rc > 0)
				break;
			if (rc < 0)
				return -1;	/* EINTR: the caller looks at its stop flag */
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
			return -1;
		if (soerr) {
			errno = soerr;
			return -1;
		}
	}
	return fcntl(fd, F_SETFL, flags);
}

/*
 * No address of host port took the connection: why, into err (errno: the
 * last one's error); -1. scope_name: every address was a link-local one
 * without a scope (its name); bounded: the options of a bounded connect.
 */
static int connect_failed(const char *host, unsigned port, const char *scope_name,
			  const struct net_opts *bounded, char *err, size_t errlen)
{
	char what[NI_MAXHOST + 32];
	int e = errno;

	snprintf(what, sizeof(what), "connect to %s port %u", host, port);
	if (scope_name)
		return addr_needs_scope(what, scope_name, err, errlen);
	if (e == ETIMEDOUT && bounded)
		return err_fill(err, errlen, 0, "%s: no answer within %g s%s%s%s", what,
				bounded->connect_secs, bounded->connect_limit ? " (" : "",
				bounded->connect_limit ? bounded->connect_limit : "",
				bounded->connect_limit ? ")" : "");
	return err_fill(err, errlen, e, "%s", what);
}

int net_connect(const char *host, unsigned port, const struct net_opts *o,
		char *err, size_t errlen)
{
	struct addrinfo *res, *ai;
	char service[16], bare[NI_MAXHOST];
	const char *name;
	int fd = -1, rc, unscoped = 0, tried = 0;
	uint64_t deadline = o && o->connect_secs > 0 ?
		now_ns() + (uint64_t)(o->connect_secs * 1e9) : 0;

	name = addr_unbracket(host, bare, sizeof(bare), err, errlen);
	if (!name)
		return -1;
	snprintf(service, sizeof(service), "%u", port);
	rc = addr_resolve(name, service, &res);
	if (rc)
		return addr_resolve_failed(host, rc, err, errlen);
	errno = 0;
	for (ai = res; ai; ai = ai->ai_next) {
		if (addr_unscoped_link_local(ai->ai_addr)) {
			unscoped = 1;
			continue;
		}
		tried++;
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, protocol(ai, o));
		if (fd < 0)
			continue;
		if (net_set_opts(fd, o, err, errlen) < 0) {
			rc = errno;
			close(fd);
			freeaddrinfo(res);
			errno = rc;
			return -1;
		}
		if (connect_within(fd, ai->ai_addr, ai->ai_addrlen, deadline,
				   o ? o->cancel : NULL) == 0)
			break;
		rc = errno;
		close(fd);
		fd = -1;
		errno = rc;
		if (rc == EINTR)
			break;	/* stopped: no other address either */
	}
	freeaddrinfo(res);
	if (fd < 0)
		return connect_failed(host, port, unscoped && !tried ? name : NULL,
				      deadline ? o : NULL, err, errlen);
	return fd;
}

static int listen_on(const struct addrinfo *ai, const struct net_opts *o,
		     char *err, size_t errlen)
{
	int fd, one = 1, zero = 0, saved;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, protocol(ai, o));
	if (fd < 0)
		return err_fill(err, errlen, errno, "socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ai->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (net_set_opts(fd, o, err, errlen) < 0)
		goto out;
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		err_fill(err, errlen, errno, "bind");
		goto out;
	}
	if (listen(fd, SOMAXCONN) < 0) {
		err_fill(err, errlen, errno, "listen");
		goto out;
	}
	return fd;
out:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

/*
 * Listen on the first address of addr (NULL: any; name: addr unbracketed,
 * as the lookup takes it) in family that works.
 */
static int listen_family(const char *addr, const char *name, unsigned port,
			 int family, const struct net_opts *o, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_family = family,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res, *ai;
	char service[16];
	int fd = -1, rc;

	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(name, service, &hints, &res);
	if (rc) {
		addr_resolve_failed(addr ? addr : "*", rc, err, errlen);
		if (rc != EAI_SYSTEM)
			errno = EAFNOSUPPORT;	/* for a caller that tries another family */
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		if (addr_unscoped_link_local(ai->ai_addr)) {
			addr_needs_scope(NULL, name, err, errlen);
			continue;
		}
		fd = listen_on(ai, o, err, errlen);
		if (fd >= 0)
			break;
	}
	rc = errno;
	freeaddrinfo(res);
	errno = rc;
	return fd;
}

int net_listen(const char *addr, unsigned port, const struct net_opts *o,
	       unsigned *bound_port, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	char bare[NI_MAXHOST];
	const char *name;
	int fd, rc;

	if (addr) {
		name = addr_unbracket(addr, bare, sizeof(bare), err, errlen);
		fd = name ? listen_family(addr, name, port, AF_UNSPEC, o, err, errlen) : -1;
	} else {
		/* "::" takes IPv4 too; a kernel without IPv6 says so at socket(). */
		fd = listen_family(NULL, NULL, port, AF_INET6, o, err, errlen);
		if (fd < 0 && errno == EAFNOSUPPORT)
			fd = listen_family(NULL, NULL, port, AF_INET, o, err, errlen);
	}
	if (fd < 0)
		return -1;
	if (bound_port) {
		if (getsockname(fd, (struct sockaddr *)&ss, &sslen) < 0) {
			err_fill(err, errlen, errno, "getsockname");
			rc = errno;
			close(fd);
			errno = rc;
			return -1;
		}
		/*
		 * getsockname() filled ss; clang-analyzer 14 misses writes made
		 * through glibc's transparent-union __SOCKADDR_ARG parameter.
		 */
		/* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult) */
		*bound_port = ntohs(ss.ss_family == AF_INET6
				    ? ((struct sockaddr_in6 *)&ss)->sin6_port
				    : ((struct sockaddr_in *)&ss)->sin_port);
	}
	return fd;
}

void net_addr_name(const struct sockaddr *sa, socklen_t salen, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN], serv[8];
	const char *h = host;

	if (getnameinfo(sa, salen, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(buf, len, "unknown peer");
		return;
	}
	/* A dual-stack socket sees IPv4 peers as ::ffff:a.b.c.d. */
	if (strncmp(h, "::ffff:", 7) == 0 && strchr(h + 7, '.'))
		h += 7;
	snprintf(buf, len, "%s port %s", h, serv);
}

void net_reset_on_close(int fd)
{
	struct linger reset = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
}

void net_peer_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);

	if (getpeername(fd, (struct sockaddr *)&ss, &sslen) < 0) {
		snprintf(buf, len, "unknown peer");
		return;
	}
	net_addr_name((struct sockaddr *)&ss, sslen, buf, len);
}
