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
 * other, which the sampling's own timer would swell.
 */
int where_parse_interrupts(const char *text, struct where_snap *s);

/* /proc/softirqs: the NET_RX and NET_TX rows into s->net_rx, s->net_tx. */
int where_parse_softirqs(const char *text, struct where_snap *s);

/* /proc/net/dev: every interface's received and sent packets into s->ifs. */
int where_parse_netdev(const char *text, struct where_snap *s);

/*
 * where_net_take - after /proc/net/dev's interfaces are in s: which hand
 * the stack super-packets, and with every_netns the interfaces of every
 * other network namespace ("NS/ifname"), those it could not read named in
 * s->unseen.
 */
void where_net_take(struct where_snap *s, int every_netns);

/*
 * where_net_unseen - namespace name not read for errno e, into s->unseen;
 * one that does not fit whole is only counted. where_net_unseen_end - the
 * count of those at the end of the line: ", and N more". Neither ever cuts
 * a name in two.
 */
void where_net_unseen(struct where_snap *s, const char *name, int e);
void where_net_unseen_end(struct where_snap *s);

/* A /proc/PID/stat line: user time (ticks, field 14), last CPU (field 39). */
int where_parse_task(const char *line, uint64_t *utime, int *cpu);

/* The paper's name of each kind ("data copy", ...; "-": not one of its eight). */
extern const char *const where_kind_paper[WHERE_KINDS];

/*
 * where_kind_of - the kind of kernel work a function is, by its name and
 * the module it lives in (NULL or "": the kernel itself).
 */
enum where_kind where_kind_of(const char *name, const char *module);

/*
 * What a function is to a sample's walk up its call chain. WHERE_RIRQON:
 * a point where interrupts come back on, which in a virtual machine takes
 * the samples of all the time they were off: its time is its caller's,
 * and so is that of a helper of no known kind it calls (a hypervisor's
 * event check). WHERE_RPASS: the end of a bottom-half section, the softirq
 * run there, the return from an interrupt: a leaf there is its caller's.
 */
enum where_role { WHERE_RWORK, WHERE_RIRQON, WHERE_RPASS };
enum where_role where_role_of(const char *name);

/*
 * The kernel's text symbols as (address, name), sorted by address, each
 * one's kind and role found the first time a sample needs it (matching
 * every symbol at load took seconds; a run meets a few thousand).
 * where_syms_load reads a /proc/kallsyms-format file; -1 with err when it
 * cannot be read or every address is 0 (hidden: kptr_restrict, not root).
 * where_syms_add adds one (tests, tools: names without addresses). Not
 * for two threads at once: the sampler's drainer alone uses them.
 */
struct where_sym {
	uint64_t addr;
	uint32_t name;		/* offset into where_syms.names */
	unsigned char kind;	/* enum where_kind, once known */
	unsigned char role;	/* enum where_role, once known */
	unsigned char known;	/* kind and role are set */
	unsigned char module;	/* it lives in a module */
};
struct where_syms {
	struct where_sym *sym;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
};
int where_syms_load(const char *path, struct where_syms *t, char *err, size_t errlen);
int where_syms_add(struct where_syms *t, uint64_t addr, const char *name, const char *module);
void where_syms_sort(struct where_syms *t);
void where_syms_free(struct where_syms *t);

/* The index of the symbol holding ip (the last at or below it); t->n: none. */
size_t where_syms_find(struct where_syms *t, uint64_t ip);
/* Symbol i (< t->n), its kind and role known. */
const struct where_sym *where_sym_at(struct where_syms *t, size_t i);

/* Kernel frames a sample keeps: enough for the deepest walk seen (7 frames
 * on Linux 6.18: an irq-enable thunk, an unlock, the softirq run at a
 * bottom half's end, then the caller), with room to spare. */
#define WHERE_CHAIN_MAX 16

/* A symbol index for what fell into other without a symbol to name. */
#define WHERE_SYM_CUT ((size_t)-1)	/* the chain ended before the walk did */
#define WHERE_SYM_NONE ((size_t)-2)	/* no symbol holds the IP */

/*
 * where_chain_kind - the kind of a sample from its kernel call chain (the
 * sampled IP first, then its callers; perf's context markers skipped):
 * the leaf's kind, unless the leaf is where interrupts or bottom halves
 * came back on (or a helper of unknown kind within three frames below an
 * interrupt-enable point): then the first caller that is not such a point.
 * *sym: the index of the symbol charged (or a WHERE_SYM_ value).
 */
enum where_kind where_chain_kind(struct where_syms *t, const uint64_t *ips,
				 size_t n, size_t *sym);
const char *where_sym_name(struct where_syms *t, size_t sym);

/*
 * where_sample_kind - a kernel-mode sample's kind: the idle task's (pid 0)
 * is idle whatever it ran (the idle loop, a guest's halt, what it served
 * from there), any other's is its chain's.
 */
enum where_kind where_sample_kind(struct where_syms *t, uint32_t pid,
				  const uint64_t *ips, size_t n, size_t *sym);

/*
 * The sampler: perf's software cpu-clock on every CPU, a thread draining
 * the rings into counts by kind. Soakers' user-mode samples are dropped.
 */
struct where_sampler;
struct where_sampler *where_sampler_open(struct where_syms *syms,
					 const int *soakers, int nsoakers,
					 char *why, size_t whylen);
/*
 * The counts so far into kind[WHERE_KINDS + 1] (idle last), each CPU's
 * (of the first maxcpus) into kind_cpu, and lost.
 */
void where_sampler_counts(struct where_sampler *s, uint64_t *kind,
			  uint64_t (*kind_cpu)[WHERE_KINDS + 1], int maxcpus, uint64_t *lost);
/* The symbols charged to other so far, into snap->other (names from syms). */
void where_sampler_other(struct where_sampler *s, struct where_snap *snap);
void where_sampler_close(struct where_sampler *s);

#endif
