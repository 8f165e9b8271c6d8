/*
 * What where*.c here share and the tests look at: the parsers of /proc text
 * (pure, so canned text tests them), the kinds table, and the sampler.
 */
#ifndef ZC_WHERE_INTERNAL_H
#define ZC_WHERE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "meter/where.h"

/* /proc/stat's columns, in its order: the second index of where_snap.tick. */
enum {
	WHERE_T_USER, WHERE_T_NICE, WHERE_T_SYSTEM, WHERE_T_IDLE, WHERE_T_IOWAIT,
	WHERE_T_IRQ, WHERE_T_SOFTIRQ, WHERE_T_STEAL, WHERE_T_COLS
};

/* /proc/stat: the cpuN lines into s->tick and s->ncpus. */
int where_parse_stat(const char *text, struct where_snap *s);

/*
 * /proc/interrupts: the devices' interrupts (the numbered lines, on every
 * CPU) into s->intr; not the local timer's or the CPUs' calls to each
 * other, which -W's own sampling timer would swell.
 */
int where_parse_interrupts(const char *text, struct where_snap *s);

/* /proc/softirqs: the NET_RX and NET_TX rows into s->net_rx, s->net_tx. */
int where_parse_softirqs(const char *text, struct where_snap *s);

/* /proc/net/dev: every interface's received and sent packets into s->ifs. */
int where_parse_netdev(const char *text, struct where_snap *s);

/* A /proc/PID/stat line: user time (ticks, field 14), last CPU (field 39). */
int where_parse_task(const char *line, uint64_t *utime, int *cpu);

/*
 * Two kinds only the table and the sampler know. WHERE_KCALLER: a helper
 * whose time is its caller's kind of work (a lock, the point where
 * interrupts come back on, which in a virtual machine takes the samples
 * of the time they were off). WHERE_KENTRY: an interrupt's entry, past
 * which the callers are whatever it interrupted, not the work's.
 */
#define WHERE_KCALLER ((enum where_kind)(WHERE_KIDLE + 1))
#define WHERE_KENTRY ((enum where_kind)(WHERE_KIDLE + 2))

/*
 * where_kind_of - the kind of kernel work a function is, by its name and
 * the module it lives in (NULL or "": the kernel itself).
 */
enum where_kind where_kind_of(const char *name, const char *module);

/*
 * The kernel's text symbols as (address, kind), sorted by address.
 * where_syms_load reads a /proc/kallsyms-format file; -1 with err when it
 * cannot be read or every address is 0 (hidden: kptr_restrict, not root).
 */
struct where_sym {
	uint64_t addr;
	enum where_kind kind;
};
struct where_syms {
	struct where_sym *sym;
	size_t n;
};
int where_syms_load(const char *path, struct where_syms *t, char *err, size_t errlen);
enum where_kind where_syms_kind(const struct where_syms *t, uint64_t ip);

/*
 * where_chain_kind - the kind of a sample from its kernel call chain (the
 * sampled IP first, then its callers; perf's context markers skipped): the
 * first frame's kind, or for a WHERE_KCALLER helper its nearest caller's,
 * up to an interrupt's entry. Never WHERE_KCALLER or WHERE_KENTRY.
 */
enum where_kind where_chain_kind(const struct where_syms *t, const uint64_t *ips, size_t n);
void where_syms_free(struct where_syms *t);

/*
 * The sampler: perf's software cpu-clock on every CPU, a thread draining
 * the rings into counts by kind. Soakers' user-mode samples are dropped.
 */
struct where_sampler;
struct where_sampler *where_sampler_open(const struct where_syms *syms,
					 const int *soakers, int nsoakers,
					 char *why, size_t whylen);
/*
 * The counts so far into kind[WHERE_KINDS + 1] (idle last), each CPU's
 * (of the first maxcpus) into kind_cpu, and lost.
 */
void where_sampler_counts(struct where_sampler *s, uint64_t *kind,
			  uint64_t (*kind_cpu)[WHERE_KINDS + 1], int maxcpus, uint64_t *lost);
void where_sampler_close(struct where_sampler *s);

#endif
