/*
 * mptcpprobe - may this network namespace open an MPTCP socket? The
 * kernel's own answer, for a test to run or to skip with the reason:
 * exit 0, or the reason on stderr and exit 1.
 */
#include <error.h>

#include "wire/mptcp.h"

int main(void)
{
	char err[256];

	if (mptcp_probe(err, sizeof(err)) < 0)
		error(1, 0, "%s", err);
	return 0;
}
