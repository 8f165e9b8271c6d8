/*
 * The stages: line, zcc's and zcs's, of the kernel's stamps of a run
 * (lib/wire/tstamp.h), text and JSON (event "stages"):
 *
 *   stages: user to qdisc p50 X us, p99 Y us, max Z us; qdisc to device
 *           ...; device to ACK ...; device to program ...; medians add
 *           to S us[ of a round trip's p50 R us]; stamps missing M, late
 *           L, again A, stepped K[, arrivals unstamped U]
 *
 * zcc's stream mode says "stages (1 send in N, K stamped):". A stage no
 * stamp came for is said ("not stamped here": loopback has no qdisc, a
 * device whose driver stamps nothing), never zero.
 */
#ifndef ZC_APP_STAGES_OUT_H
#define ZC_APP_STAGES_OUT_H

#include <stdint.h>

#include "base/hist.h"
#include "wire/tstamp.h"

/* What one stages: line says. */
struct stages_of {
	const struct tstamp_track *t;	/* every connection's stamps, merged */
	const struct hist *rtt;		/* the round trips to weigh them against, or NULL */
	unsigned every;			/* stream mode: one send in every so many; else 0 */
	int arrivals;			/* the messages read had arrival stamps asked */
	uint64_t unstamped, errors;	/* read with no arrival stamp; error queue failures */
};

/* stages_line - the line of *of. */
void stages_line(const struct stages_of *of);

#endif
