/*
 * syscost - what one system call costs on this machine: the median of 5
 * batches of 200000 getppid() calls (about the cheapest call the kernel
 * has: no lock, no copy), in microseconds a call. Under a hypervisor the
 * figure moves with how the guest enters the kernel, 0.05 us on bare
 * metal to over 1 us in some guests, and every figure the bench gives per
 * call or per file moves with it.
 *
 *   syscost        prints "0.123"
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/clock.h"

#define BATCH 200000
#define ROUNDS 5

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double us[ROUNDS];
	uint64_t t0;
	int r, i;

	(void)argv;
	if (argc != 1) {
		fputs("usage: syscost (no arguments)\n", stderr);
		return 2;
	}
	for (r = 0; r < ROUNDS; r++) {
		t0 = now_ns();
		for (i = 0; i < BATCH; i++)
			syscall(SYS_getppid);
		us[r] = (double)(now_ns() - t0) / 1e3 / BATCH;
	}
	qsort(us, ROUNDS, sizeof(us[0]), by_value);
	printf("%.3f\n", us[ROUNDS / 2]);
	return 0;
}
