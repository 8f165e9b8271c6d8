/*
 * zcc -B's CPU list (opt_cpus.h).
 */
#include <errno.h>
#include <error.h>
#include <sched.h>
#include <stdlib.h>

#include "app/opt.h"
#include "base/cpu.h"
#include "base/safe_text.h"
#include "zcc/opt_cpus.h"

int opt_cpus(int opt, const char *arg, int **cpus)
{
	char shown[SAFE_LEN], name[64];
	int n;

	free(*cpus);
	*cpus = calloc(CPU_SETSIZE, sizeof(**cpus));
	if (!*cpus)
		error(1, errno, "memory");
	n = cpu_list_read(arg, *cpus, CPU_SETSIZE);
	for (int i = 0; i < n && n > 0; i++)
		if ((*cpus)[i] > cpu_max())
			n = -1;
	if (n > 0)
		return n;
	usage_error("%s: '%s': want a CPU or a list such as 0,2,4-7 (CPUs 0 to %d)",
		    opt_spelled(opt, name, sizeof(name)), safe_text(arg, shown, sizeof(shown)),
		    cpu_max());
}
