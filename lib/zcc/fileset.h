/*
 * The files zcc sends: every loop sends the whole set once, in the order
 * given. Opened once and kept open, so every loop of every run (and every
 * stream of -P) sends the same descriptors.
 */
#ifndef ZC_ZCC_FILESET_H
#define ZC_ZCC_FILESET_H

#include <stdint.h>

#include "wire/tx.h"

/* The share of a set's bytes in the page cache below which zcc warns. */
#define FILESET_RESIDENT_WARN 0.9

struct file_set {
	struct tx_file *f;
	uint32_t n;
	uint64_t bytes;		/* one loop's data */
};

/*
 * fileset_open - open the n_names files into files. One that cannot be
 * opened or is not a regular file is skipped with a warning; one of 4 GiB
 * or more (the protocol's length word has 32 bits), no file left, or no
 * descriptor left is one line and exit 1 (lib/zcc/limits.h checks the
 * limit first). A set less than FILESET_RESIDENT_WARN in the page cache
 * gets one warning line (the run would time the disk too); debug: the
 * share resident; debug > 1: each file's size on stderr.
 */
void fileset_open(struct file_set *files, const char *const *names, int n_names,
		  int debug);

/* fileset_resident - the share of files' pages in the page cache now
 * (mincore); 1 for a set of empty files. */
double fileset_resident(const struct file_set *files);

/*
 * fileset_names_from - the file names in path, one a line ("-": standard
 * input; empty lines skipped), added after the *n names of *names, which
 * is realloc'ed. A file that cannot be read is one line, exit 1.
 */
void fileset_names_from(const char *path, const char ***names, int *n);

#endif
