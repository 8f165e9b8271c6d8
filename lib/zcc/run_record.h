/*
 * zcc's settings record: what of a run's own options its figures depend
 * on, as the "settings" event that follows the env event (the same
 * shape as the environment record, lib/app/env_out.h), so that
 * --baseline can name every setting that differs as it names the
 * environment's: methods, chunk_bytes (the -b sizes), streams (-P),
 * rate_bits_per_sec (--rate; 0: unpaced), loops (-n; 0 with -t), time_ms
 * (-t; 0 with -n), files and file_bytes (the file set), and runs (-R,
 * read to tell a cut file, never compared).
 */
#ifndef ZC_ZCC_RUN_RECORD_H
#define ZC_ZCC_RUN_RECORD_H

#include <stdint.h>

#include "app/env_out.h"
#include "zcc/compare.h"
#include "zcc/fileset.h"

/* run_record_init - r with the settings record's keys, all unknown. */
void run_record_init(struct env_record *r);

/*
 * run_record_arm - this run's record, printed as the settings event right
 * after the env event (-J only).
 */
void run_record_arm(const struct variants *vs, const struct send_cfg *c, uint32_t loops,
		    double rate, unsigned runs, const struct file_set *files);

/* run_record_last - this run's record; NULL before run_record_arm. */
const struct env_record *run_record_last(void);

/* run_record_compared - key is one --baseline compares (runs is not). */
int run_record_compared(const char *key);

#endif
