/*
 * Which CPUs the meter covers, and CPUs that come and go while it runs.
 *
 * The 2001 meter counted every online CPU as its own. Under taskset or a
 * cpuset the soakers may only run on some of them: a soaker per online CPU
 * then doubles up on the allowed ones, each gets half a CPU, and an idle
 * machine reads 50%. So the soakers cover the affinity mask, one each.
 *
 * When a CPU goes offline the kernel moves its soaker elsewhere and widens
 * its mask; when the CPU returns it does not narrow it again. Each sample
 * looks at both, so the period in which either happened gives no figure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/cpu.h"
#include "meter/meter.h"
#include "meter/meter_internal.h"
#include "meter/soak.h"
#include "base/plural.h"

/* Is cpu among the n ascending CPUs of list? */
static int holds(const int *list, int n, int cpu)
{
	int i;

	for (i = 0; i < n; i++)
		if (list[i] == cpu)
			return 1;
	return 0;
}

int meter_cpus_pick(const struct meter_cfg *cfg, struct meter_cpus *c,
		    char *err, size_t errlen)
{
	int allowed[CPU_SETSIZE], n, i;
	char mask[256];

	memset(c, 0, sizeof(*c));
	c->online = cpu_online();
	n = cpu_allowed(allowed);
	if (n == 0) {			/* the kernel does not say: the 2001 way */
		n = c->online;
		for (i = 0; i < n; i++)
			allowed[i] = i;
	}
	cpu_list_text(allowed, n, mask, sizeof(mask));
	if (cfg->ncpus > n) {
		/* k CPUs mean CPUs 0 to k-1: name one the mask lacks. */
		for (i = 0; i < cfg->ncpus - 1 && holds(allowed, n, i); i++)
			;
		return err_fill(err, errlen, 0, "%d CPUs asked for, but this process "
				"may use %d: CPU %d is not in its CPU mask (cpuset: %s)",
				cfg->ncpus, n, i, mask);
	}
	c->n = cfg->ncpus > 0 ? cfg->ncpus : n;
	memcpy(c->cpu, allowed, (size_t)c->n * sizeof(int));
	cpu_list_text(c->cpu, c->n, c->list, sizeof(c->list));
	if (c->n == c->online)
		snprintf(c->text, sizeof(c->text), "%d CPU%s", c->n, plural_s(c->n));
	else if (c->n < n)		/* fewer asked for than the mask holds */
		snprintf(c->text, sizeof(c->text), "%d of %d CPUs (CPU%s %s of cpuset %s)",
			 c->n, c->online, plural_s(c->n), c->list, mask);
	else
		snprintf(c->text, sizeof(c->text), "%d of %d CPUs (cpuset: %s)",
			 c->n, c->online, c->list);
	return 0;
}

/* Append one clause to note, "; " between clauses. */
static void say(char *note, size_t len, const char *what)
{
	size_t used = strlen(note);

	if (used + 2 < len)
		snprintf(note + used, len - used, "%s%s", used ? "; " : "", what);
}

int meter_hotplug(struct meter *m, char *note, size_t len)
{
	int online[CPU_SETSIZE], n, i, cpu, rc, events = 0;
	char what[512], was[256];

	note[0] = '\0';
	n = cpu_online_list(online);
	for (i = 0; i < m->ncpus; i++) {
		cpu = soak_cpu(m->soak, i);
		if (cpu < 0)
			continue;
		if (!holds(online, n, cpu) && !soak_parked(m->soak, i)) {
			soak_park(m->soak, i);
			snprintf(what, sizeof(what), "CPU %d went offline", cpu);
			say(note, len, what);
			events++;
		} else if (holds(online, n, cpu) && soak_parked(m->soak, i)) {
			/* Online a moment before the scheduler may use it: EINVAL. */
			if (soak_unpark(m->soak, i, what, sizeof(what)) < 0) {
				if (errno != EINVAL) {
					snprintf(note, len, "%s", what);
					return -1;
				}
				continue;
			}
			snprintf(what, sizeof(what), "CPU %d came back online", cpu);
			say(note, len, what);
			events++;
		} else if (holds(online, n, cpu)) {
			rc = soak_mend(m->soak, i, was, sizeof(was), what, sizeof(what));
			if (rc < 0 && errno == EINVAL) {
				/* Its CPU cannot be used now: off it, it would take
				 * another soaker's time. */
				soak_park(m->soak, i);
				snprintf(what, sizeof(what), "the soaker for CPU %d lost its "
					 "pinning and CPU %d cannot be used now: stopped", cpu, cpu);
			} else if (rc < 0) {
				snprintf(note, len, "%s", what);
				return -1;
			} else if (rc > 0) {
				snprintf(what, sizeof(what), "the soaker for CPU %d had lost "
					 "its pinning (CPUs %s): pinned again", cpu, was);
			}
			if (rc != 0) {
				say(note, len, what);
				events++;
			}
		}
	}
	return events ? 1 : 0;
}
