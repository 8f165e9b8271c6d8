/*
 * zcc -t: how many loops fill the time asked for, from probe runs that
 * time a loop.
 */
#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/probe.h"
#include "app/report.h"
#include "app/stop.h"
#include "wire/proto.h"

/*
 * A probe is timed
 * to the server's close, so what only went into the socket buffers is not
 * taken for sent. It sends at first one loop, or a 64 MiB sample of it
 * when a loop is bigger (the server cannot tell); one too short to time well
 * (connecting and closing weigh in it) is run again, each a stream of its
 * own, scaled up until one lasts about a tenth of -t (0.2 to 1 s). The loop
 * time is the probe's time scaled by bytes.
 */
uint32_t probe_loops(struct sender *sd, double for_secs)
{
	const struct file_set *files = &sd->files;
	struct file_set probe_set = { .f = calloc(files->n, sizeof(*files->f)) };
	double target = for_secs / 10, secs, per_loop, want, budget = 64 << 20;
	const double loop_bytes = (double)proto_stream_bytes(1, files->n, files->bytes) - 4;
	const struct file_set *set;
	uint32_t k = 1;
	struct send_result r;

	if (!probe_set.f)
		error(1, errno, "memory");
	sd->probing = 1;
	target = target < 0.2 ? 0.2 : target > 1 ? 1 : target;
	for (int tries = 0;; tries++) {
		set = fileset_sample(files, (uint64_t)budget, &probe_set);
		r = send_once(sd, set ? set : files, k);
		if (r.interrupted) {
			sd->probing = 0;	/* what the probe sent is not lost */
			report_result(sd, &r);
			stop_exit(stop_signal);
		}
		secs = (double)r.ns_closed / 1e9;
		per_loop = secs * loop_bytes / (double)(r.bytes - 4);
		if (sd->cfg->debug > 1)
			fprintf(stderr, "%s: probe %d: %" PRIu64 " bytes in %.3f s (sent in %.3f s)\n",
				program_invocation_short_name, tries + 1, r.bytes, secs, (double)r.ns / 1e9);
		if (secs >= target * 0.75 || tries == 4 || k == UINT32_MAX)
			break;
		want = target / (secs > 1e-6 ? secs : 1e-6);	/* how much longer */
		if (set)
			budget = (double)set->bytes * want;
		else
			k = k * want > UINT32_MAX ? UINT32_MAX : (uint32_t)(k * want) + 1;
	}
	free(probe_set.f);
	sd->probing = 0;
	/*
	 * Whole loops only: when one loop is a good part of SECS, a loop less
	 * than the fraction asks for cuts the run short by most of a loop, and
	 * a rate that moves by a quarter between the probe and the run (seen
	 * on a virtual machine) on top of that ran -t 5 for 3.1 s. So the count
	 * rounds up from three quarters of a loop: at most 3/4 loop long.
	 */
	want = for_secs / (per_loop > 1e-12 ? per_loop : 1e-12) - 0.25;
	k = want < 1 ? 1 : want >= UINT32_MAX ? UINT32_MAX : (uint32_t)want;
	if (k < want && k < UINT32_MAX)
		k++;
	if (sd->cfg->debug)
		fprintf(stderr, "%s: probe: %" PRIu64 " bytes in %.3f s; %" PRIu32
			" loops fill %g s\n", program_invocation_short_name, r.bytes, secs, k,
			for_secs);
	return k;
}
