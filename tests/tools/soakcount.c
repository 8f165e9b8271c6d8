/*
 * soakcount - run the soakers of lib/meter/soak.c alone and print how far each
 * counted. The tests rebuild it at several -O levels to show the soaker
 * loop survives the optimiser.
 *
 *   soakcount [-n] NCPUS MSECS
 *
 * prints "soaker I: COUNT" per soaker, "rate: N loops/sec" in total and
 * "per cpu second: N loops", the count over the soakers' own run time from
 * the scheduler, which stays put when other work takes their CPU ("none"
 * when they got none at all).
 */
#include <error.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "app/opt.h"
#include "base/clock.h"
#include "meter/proc.h"
#include "meter/soak.h"
#include "meter/soak_internal.h"

/* Each soaker's run time less its system time (the interrupts in it). */
static void read_runtime(const struct soak *s, uint64_t *ns)
{
	uint64_t run, sys;
	char err[256];
	int i;

	for (i = 0; i < soak_count(s); i++) {
		if (proc_task_ns(soak_pid(s, i), &run, &sys, err, sizeof(err)) < 0)
			error(1, 0, "%s", err);
		ns[i] = run > sys ? run - sys : 0;
	}
}

int main(int argc, char **argv)
{
	struct soak_cfg cfg = { 0 };
	uint64_t *c0, *c1, *r0, *r1, t0, t1, sum = 0, ran = 0;
	struct soak *s;
	char err[256];
	int n, i, opt;
	long long ms;

	while ((opt = getopt(argc, argv, "n")) != -1) {
		if (opt != 'n')
			return 2;
		cfg.policy = SOAK_NICE19;
	}
	if (argc - optind != 2)
		usage_error("usage: soakcount [-n] NCPUS MSECS");
	n = (int)opt_num('N', argv[optind], 1, 1024);
	ms = opt_num('m', argv[optind + 1], 1, 600000);
	c0 = calloc((size_t)n, sizeof(*c0));
	c1 = calloc((size_t)n, sizeof(*c1));
	r0 = calloc((size_t)n, sizeof(*r0));
	r1 = calloc((size_t)n, sizeof(*r1));
	if (!c0 || !c1 || !r0 || !r1)
		error(1, 0, "out of memory");
	s = soak_start_cfg(n, &cfg, err, sizeof(err));
	if (!s) {
		error(0, 0, "%s", err);
		return 1;
	}
	t0 = now_ns();
	soak_read(s, c0);
	read_runtime(s, r0);
	sleep_until(t0 + (uint64_t)ms * 1000000u);
	t1 = now_ns();
	soak_read(s, c1);
	read_runtime(s, r1);
	soak_stop(s);
	for (i = 0; i < n; i++) {
		printf("soaker %d: %" PRIu64 "\n", i, c1[i] - c0[i]);
		sum += c1[i] - c0[i];
		ran += r1[i] - r0[i];
	}
	printf("rate: %.0f loops/sec\n", (double)sum * 1e9 / (double)(t1 - t0));
	if (ran)
		printf("per cpu second: %.0f loops\n", (double)sum * 1e9 / (double)ran);
	else
		printf("per cpu second: none\n");
	free(c0);
	free(c1);
	free(r0);
	free(r1);
	return 0;
}
