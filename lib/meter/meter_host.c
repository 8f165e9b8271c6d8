/*
 * What the group and the host take from the soakers: a cgroup's CPU quota
 * and its throttling, and time a hypervisor took without the kernel
 * counting it as steal.
 */
#include <stdio.h>

#include "meter/cgroup.h"
#include "meter/meter.h"
#include "meter/meter_internal.h"
#include "base/plural.h"

/*
 * The group's CPU quota, where it is less than the CPUs covered: the
 * soakers are then throttled, not idle, whenever the group has used it up,
 * so each may have quota / ncpus of a CPU, and a load is a share of that.
 * Kernel idle time reads the group's usage against the quota instead.
 */
void meter_find_quota(struct meter *m)
{
	cgroup_quota_find(NULL, NULL, &m->quota);
	if (m->quota.cpus <= 0 || m->quota.cpus >= m->ncpus) {
		m->quota.cpus = 0;
		return;
	}
	snprintf(m->quota_text, sizeof(m->quota_text), "CPU quota %.2f of %d CPU%s "
		 "(%s): %s", m->quota.cpus, m->ncpus, plural_s(m->ncpus), m->quota.text,
		 m->method == METER_KERNEL ? "the load is the group's own usage as a "
		 "share of it" : "the soakers measure within it");
}

/* cpu.stat's counters under a quota, for the throttling of a period. */
void meter_throttle_mark(struct meter *m, uint64_t *periods, uint64_t *throttled)
{
	m->throttle_ok = m->quota.cpus > 0 &&
			 cgroup_throttled(&m->quota, periods, throttled) == 0;
}

/*
 * Time the soakers were charged for but did not spend in their loop: a
 * soaker's run time plus its gaps (time away, whoever had the CPU) exceeds
 * the period only where the hypervisor took the CPU and the kernel, not
 * counting steal, charged the soaker for it. Over every CPU covered, as a
 * share of what they can give. Stretches under SOAK_GAP_NS are left out
 * (soak.h says why); the system time ticks make a tenth of a point of noise.
 */
double meter_unseen_steal(const struct meter *m, int n, double secs, double share)
{
	double sum = 0, over;
	int i;

	for (i = 0; i < n; i++) {
		over = (double)m->r_run[i] / 1e9 + (double)m->gap[m->r_cpu[i]] / 1e9 - secs;
		if (over > 0)
			sum += over;
	}
	return n && secs > 0 ? sum / (n * secs * share) : 0;
}

/* The reading's throttling under a quota: cpu.stat now against the mark. */
void meter_throttle_read(struct meter *m, struct meter_reading *r)
{
	uint64_t periods = 0, throttled = 0;
	int was_ok = m->throttle_ok;

	r->quota_periods = r->throttled = -1;
	meter_throttle_mark(m, &periods, &throttled);
	if (was_ok && m->throttle_ok) {
		r->quota_periods = (long long)(periods - m->periods0);
		r->throttled = (long long)(throttled - m->throttled0);
	}
	m->periods0 = periods;
	m->throttled0 = throttled;
}
