/*
 * The files zcc sends: every loop sends the whole set once, in the order
 * given. Opened once and kept open, so every loop of every run (and every
 * stream of -P) sends the same descriptors.
 */
#ifndef ZC_APP_FILESET_H
#define ZC_APP_FILESET_H

#include <stdint.h>

#include "wire/tx.h"

struct file_set {
	struct tx_file *f;
	uint32_t n;
	uint64_t bytes;		/* one loop's data */
};

/*
 * fileset_open - open the n_names files into files. One that cannot be
 * opened or is not a regular file is skipped with a warning; one of 4 GiB
 * or more (the protocol's length word has 32 bits), no file left, or no
 * descriptor left is one line and exit 1. The descriptor limit is raised
 * to the hard limit when the files and streams (-P) need it. debug > 1:
 * each file's size on stderr.
 */
void fileset_open(struct file_set *files, const char *const *names, int n_names,
		  unsigned streams, int debug);

#endif
