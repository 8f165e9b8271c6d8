/* lib/wire/addr.c: addresses as users write them. */
#include <errno.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <string.h>

#include "unit/t.h"
#include "wire/addr.h"

static void unbrackets(const char *host, const char *want)
{
	char buf[64], err[256] = "";
	const char *got = addr_unbracket(host, buf, sizeof(buf), err, sizeof(err));

	CHECK(got && strcmp(got, want) == 0, "'%s' is '%s' (got '%s', %s)", host, want,
	      got ? got : "NULL", err);
}

static void unbracket_refuses(const char *host, size_t len, const char *why)
{
	char buf[64], err[256] = "";
	const char *got = addr_unbracket(host, buf, len, err, sizeof(err));

	CHECK(!got && strstr(err, host) && strstr(err, why), "'%s' refused: %s", host, err);
}

/* resolves HOST FAMILY SCOPED: the first address's family and scope. */
static void resolves(const char *host, int family, unsigned scope)
{
	struct addrinfo *res;
	int rc = addr_resolve(host, "2222", &res);
	const struct sockaddr_in6 *s6;

	if (!CHECK(rc == 0, "'%s' resolves (%s)", host, rc ? gai_strerror(rc) : "ok"))
		return;
	s6 = (const struct sockaddr_in6 *)res->ai_addr;
	CHECK(res->ai_family == family && res->ai_socktype == SOCK_STREAM &&
	      (family != AF_INET6 || s6->sin6_scope_id == scope),
	      "'%s': family %d (want %d), scope %u (want %u)", host, res->ai_family, family,
	      family == AF_INET6 ? s6->sin6_scope_id : 0, scope);
	CHECK(addr_unscoped_link_local(res->ai_addr) ==
	      (family == AF_INET6 && IN6_IS_ADDR_LINKLOCAL(&s6->sin6_addr) && !scope),
	      "'%s': link-local without a scope: %s", host,
	      addr_unscoped_link_local(res->ai_addr) ? "yes" : "no");
	freeaddrinfo(res);
}

int main(void)
{
	char err[512];
	unsigned lo = if_nametoindex("lo");

	unbrackets("::1", "::1");
	unbrackets("[::1]", "::1");
	unbrackets("[fe80::1%lo]", "fe80::1%lo");
	unbrackets("example.org", "example.org");
	unbracket_refuses("[::1]:2222", 64, "the port goes apart");
	unbracket_refuses("[::1", 64, "no ']'");
	unbracket_refuses("[::1]", 3, "too long");

	resolves("0", AF_INET, 0);
	resolves("127.0.0.1", AF_INET, 0);
	resolves("::1", AF_INET6, 0);
	resolves("fe80::1", AF_INET6, 0);
	if (lo)
		resolves("fe80::1%lo", AF_INET6, lo);

	addr_resolve_failed("fe80::1%zc-nosuch", EAI_NONAME, err, sizeof(err));
	CHECK(strstr(err, "no interface named zc-nosuch") != NULL,
	      "a scope naming no interface says so: %s", err);
	addr_resolve_failed("zc.invalid", EAI_NONAME, err, sizeof(err));
	CHECK(strcmp(err, "resolve zc.invalid: Name or service not known") == 0,
	      "a name not found: getaddrinfo's reason: %s", err);

	errno = 0;
	CHECK(addr_needs_scope("connect to fe80::1 port 1", "fe80::1", err, sizeof(err)) == -1 &&
	      errno == EINVAL && strncmp(err, "connect to fe80::1 port 1: a link-local", 39) == 0 &&
	      strstr(err, "add %INTERFACE") && strstr(err, "as in fe80::1%"),
	      "a bare link-local address: the line says to add %%INTERFACE: %s", err);
	addr_needs_scope(NULL, "fe80::2", err, sizeof(err));
	CHECK(strncmp(err, "a link-local address", 20) == 0, "no WHAT: the line starts with "
	      "the reason: %s", err);
	return t_exit();
}
