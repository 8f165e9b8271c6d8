/*
 * zcc's settings record: what of a run's own options its figures depend
 * on, as the "settings" event that follows the env event (the same
 * shape as the environment record, lib/app/env_out.h), so that
 * --baseline can name every setting that differs as it names the
 * environment's: methods, chunk_bytes (the -b sizes), streams (-P),
 * rate_bits_per_sec (--rate; 0: unpaced), loops (-n; 0 with -t), time_ms
 * (-t; 0 with -n), files and file_bytes (the file set), and runs (-R,
 * read to tell a cut file, never compared).
 *
 * The receiver's settings record: rx_method and rx_read_bytes, the
 * receive methods and read sizes the receiver's reports named (each a
 * comma list, names in alphabetical order and sizes by number, so that
 * a receiver's rotation reads alike in two runs; unknown with no
 * report). It is not printed as an event: a saved run's comes from its
 * receiver events.
 */
#ifndef ZC_ZCC_RUN_RECORD_H
#define ZC_ZCC_RUN_RECORD_H

#include <stdint.h>

#include "app/env_out.h"
#include "zcc/fileset.h"
#include "zcc/send.h"

struct variants;

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

/*
 * run_record_rx_init - r with the receiver's record's keys, all unknown;
 * run_record_rx_add - a report's method and read size into r;
 * run_record_rx - the same into this run's; run_record_rx_last - this
 * run's (NULL before run_record_arm).
 */
void run_record_rx_init(struct env_record *r);
void run_record_rx_add(struct env_record *r, const char *method, uint64_t read_bytes);
void run_record_rx(const char *method, uint64_t read_bytes);
const struct env_record *run_record_rx_last(void);

/* run_record_compared - key is one --baseline compares (runs is not). */
int run_record_compared(const char *key);

#endif
