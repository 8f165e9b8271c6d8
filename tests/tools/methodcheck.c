/*
 * methodcheck - whether the kernel lets zcc use its transmit methods,
 * asked the way zcc asks: tx_usable, zcc's question before it connects,
 * then each method's own set-up (lib/wire/tx.h, the hook that checks the
 * kernel can do it), on a TCP socket not connected.
 *
 *   methodcheck METHOD...
 *
 * Prints "METHOD: ok" for each method the kernel allows, or the set-up's
 * own line saying why not ("uring: the kernel refuses io_uring ..."),
 * and exits 0 when every one was allowed, 1 when one was refused, 2 for
 * a name that is no method. Tests skip with that line instead of failing
 * on a host that refuses a method (io_uring switched off, a seccomp
 * filter).
 */
#include <errno.h>
#include <error.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wire/tx.h"

static int check(const struct tx_method *m)
{
	volatile sig_atomic_t stop = 0;
	struct tx t = { .peer = "methodcheck", .chunk = 65536, .stop = &stop };
	char err[256];
	int rc;

	if (tx_usable(m, t.chunk, err, sizeof(err)) < 0) {
		printf("%s\n", err);
		return 1;
	}
	t.sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (t.sock < 0)
		error(2, errno, "socket");
	rc = tx_open(m, &t, NULL, 0, err, sizeof(err));
	tx_close(m, &t, NULL, 0);
	close(t.sock);
	if (rc < 0) {
		printf("%s\n", err);
		return 1;
	}
	printf("%s: ok\n", m->name);
	return 0;
}

int main(int argc, char **argv)
{
	const struct tx_method *m;
	int refused = 0;

	if (argc < 2)
		error(2, 0, "usage: methodcheck METHOD...");
	for (int i = 1; i < argc; i++) {
		m = tx_find(argv[i]);
		if (!m) {
			error(0, 0, "%s: no such method", argv[i]);
			return 2;
		}
		refused |= check(m);
	}
	return refused;
}
