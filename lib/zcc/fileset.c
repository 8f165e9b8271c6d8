/*
 * zcc's files: opened once, each sent whole every loop of every run.
 */
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "zcc/fileset.h"
#include "base/safe_text.h"


/* Open one file; 0 when it was skipped with a warning. */
static int open_one(const char *name, struct tx_file *f, int debug)
{
	struct stat st;
	char shown[SAFE_LEN];
	/* O_NONBLOCK: a FIFO must not hang the open; cleared below. */
	int fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE)
			error(1, errno, "%s (zcc keeps every file open: ulimit -n)",
			      safe_text(name, shown, sizeof(shown)));
		error(0, errno, "skipping %s", safe_text(name, shown, sizeof(shown)));
		return 0;
	}
	if (fstat(fd, &st) < 0) {
		error(0, errno, "skipping %s", safe_text(name, shown, sizeof(shown)));
		close(fd);
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		error(0, 0, "skipping %s: not a regular file",
		      safe_text(name, shown, sizeof(shown)));
		close(fd);
		return 0;
	}
	if (st.st_size > (off_t)UINT32_MAX)
		error(1, 0, "%s: %lld bytes: a file of 4 GiB or more cannot be "
		      "sent (the protocol's length word has 32 bits)",
		      safe_text(name, shown, sizeof(shown)), (long long)st.st_size);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (st.st_size == 0 && pread(fd, &(char){ 0 }, 1, 0) == 1)
		error(0, 0, "warning: %s: stat says 0 bytes but it reads more (a /proc or "
		      "/sys file made as it is read): sent as the 0 bytes stat says",
		      safe_text(name, shown, sizeof(shown)));
	*f = (struct tx_file){ .name = name, .fd = fd, .size = (uint32_t)st.st_size };
	if (debug > 1)
		fprintf(stderr, "%s: %s: %" PRIu32 " bytes\n", program_invocation_short_name,
			safe_text(name, shown, sizeof(shown)), f->size);
	return 1;
}

/*
 * f's pages that hold data (a hole reads as zeros from no disk: SEEK_DATA
 * and SEEK_HOLE find them), into *all, and how many of them are in the
 * page cache (mincore), into *in. Nothing when the kernel does not say.
 */
static void resident(const struct tx_file *f, uint64_t *in, uint64_t *all)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages = ((size_t)f->size + page - 1) / page;
	off_t data, hole = 0;
	unsigned char *vec;
	void *map;

	if (pages == 0)
		return;
	map = mmap(NULL, f->size, PROT_READ, MAP_SHARED, f->fd, 0);
	vec = map == MAP_FAILED ? NULL : malloc(pages);
	if (vec && mincore(map, f->size, vec) == 0) {
		while (hole < (off_t)f->size &&
		       (data = lseek(f->fd, hole, SEEK_DATA)) >= 0) {
			hole = lseek(f->fd, data, SEEK_HOLE);
			if (hole < 0 || hole > (off_t)f->size)
				hole = (off_t)f->size;
			for (size_t i = (size_t)data / page; i < (size_t)(hole + (off_t)page - 1) / page; i++) {
				*in += vec[i] & 1;
				(*all)++;
			}
		}
	}
	free(vec);
	if (map != MAP_FAILED)
		munmap(map, f->size);
}

double fileset_resident(const struct file_set *files)
{
	uint64_t in = 0, all = 0;

	for (uint32_t i = 0; i < files->n; i++)
		resident(&files->f[i], &in, &all);
	return all ? (double)in / (double)all : 1;
}

void fileset_names_from(const char *path, const char ***names, int *n)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "re");
	char *line = NULL, shown[SAFE_LEN];
	size_t cap = 0, room = (size_t)*n;
	ssize_t len;

	if (!f) {
		error(1, errno, "--files-from %s", safe_text(path, shown, sizeof(shown)));
		return;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (len == 0)
			continue;
		if ((size_t)*n == room) {
			room = room ? 2 * room : 64;
			*names = realloc(*names, room * sizeof(**names));
			if (!*names)
				error(1, errno, "memory");
		}
		(*names)[(*n)++] = strdup(line);
		if (!(*names)[*n - 1])
			error(1, errno, "memory");
	}
	if (ferror(f))
		error(1, errno, "--files-from %s", safe_text(path, shown, sizeof(shown)));
	free(line);
	if (f != stdin)
		fclose(f);
}

void fileset_open(struct file_set *files, const char *const *names, int n_names,
		  int debug)
{
	double share;

	files->f = calloc((size_t)n_names + 1, sizeof(*files->f));
	if (!files->f)
		error(1, errno, "memory");
	for (int i = 0; i < n_names; i++) {
		if (open_one(names[i], &files->f[files->n], debug)) {
			files->bytes += files->f[files->n].size;
			files->n++;
		}
	}
	if (files->n == 0)
		error(1, 0, "no files to send");
	/* A user timing the disk rather than the network should know. */
	share = fileset_resident(files);
	if (debug)
		fprintf(stderr, "%s: page cache: %.1f%% of the files' bytes resident\n",
			program_invocation_short_name, share * 100);
	if (share < FILESET_RESIDENT_WARN)
		error(0, 0, "warning: only %.0f%% of the files' bytes are in the page cache: "
		      "the figures include reading them from the disk (send them once "
		      "first, or cat them to /dev/null)", share * 100);
}
