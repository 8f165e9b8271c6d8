/*
 * zcc -t SECS: the run announces its loop count first (the protocol's
 * first word), so the count that fills SECS is found beforehand by probe
 * runs, each a stream of its own that the server sees as a short run.
 */
#ifndef ZC_APP_PROBE_H
#define ZC_APP_PROBE_H

#include <stdint.h>

#include "app/send.h"

/*
 * probe_loops - the whole loops of sd's files that fill for_secs, timed
 * by probe runs (sd->probing is set while they run: they print no lines
 * of their own). A stop signal during a probe prints what it sent and ends the
 * program by the signal.
 */
uint32_t probe_loops(struct sender *sd, double for_secs);

#endif
