/* zcc --rr's command line checked at the door (lib/zcc/rr_args.c). */
#ifndef ZC_ZCC_RR_ARGS_H
#define ZC_ZCC_RR_ARGS_H

#include "app/optab.h"
#include "zcc/rr.h"

/* What else the command line gave, that --rr has to judge. */
struct rr_given {
	int n_names, files_from;	/* files, --files-from */
	const char *method;		/* -M */
	const char *chunks;		/* -b as given */
	const char *other;		/* a stream-only long option given, or NULL */
};

/*
 * rr_check_args - --rr with the rest of the command line: one usage line
 * and exit 2 for what means nothing; the sizes' defaults set into *rc
 * (a request of 1 byte, as netperf's TCP_RR; the answer as the request).
 */
void rr_check_args(const struct optab_parser *p, struct rr_cfg *rc, const struct rr_given *g);

/* rr_check_unused - without --rr, an RR option is a usage error. */
void rr_check_unused(const struct rr_cfg *rc);

#endif
