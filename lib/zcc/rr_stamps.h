/*
 * What zcc --rr measures of a connection beyond its round trips: its
 * probe (lib/wire/rr_probe.h) of the requests out and the answers in;
 * the lines: lib/zcc/rr_stages.c and lib/app/stages_out.h. The UDP and
 * --gap readers poll first, so their receive calls time the copy; the
 * --gap reader thread shares the requests' tracker with the sender.
 */
#ifndef ZC_ZCC_RR_STAMPS_H
#define ZC_ZCC_RR_STAMPS_H

#include <pthread.h>
#include <stdint.h>

#include "app/stages_out.h"
#include "wire/rr_probe.h"
#include "wire/tstamp_every.h"
#include "zcc/rr.h"

/* rr_probe_new - a connection's, as rc asks; NULL when it asks neither. */
struct rr_probe *rr_probe_new(const struct rr_cfg *rc);

/*
 * rr_probe_lines - the run's connections' probes merged: with --stamps
 * the stages: line (rtt: the run's round trips, to weigh the stages
 * against), with --call-times the two call-times: lines.
 */
struct engine;
void rr_probe_lines(const struct engine *e, const struct hist *rtt);

/* rr_probe_of - the probe of one connection of conn_rr (NULL: none). */
struct rr_probe *rr_probe_of(const struct conn *c);

#endif
