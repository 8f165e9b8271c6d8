/*
 * Small readers of /proc: the machine's CPU ticks, and what /proc/PID says
 * of one process (run time, system time, state). One line of a file is
 * lib/base/textfile.h's.
 */
#ifndef ZC_PROC_H
#define ZC_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * proc_machine_ticks - the whole machine's jiffies from /proc/stat's first
 * line. *busy is what ran at nice 0 or better (user, system, irq, softirq)
 * plus what the hypervisor stole; work at a positive nice (the soakers) is
 * not in it; *total is every tick. -1 when unreadable.
 */
int proc_machine_ticks(uint64_t *busy, uint64_t *total);

/* proc_number - the next unsigned number after p (spaces and tabs skipped)
 * into *v; where it ends, or NULL when there is none. */
const char *proc_number(const char *p, uint64_t *v);

/* /proc/stat's columns of a cpuN line that zc reads: user nice system idle
 * iowait irq softirq steal (guest time is inside user and nice). */
#define PROC_STAT_COLS 8

/*
 * proc_stat_cpus - the cpuN lines of text (a /proc/stat) into tick[N] for
 * every N under max, the rows of CPUs without a line zeroed (an offline CPU
 * has none; an online one never has all its columns 0). The highest such N
 * + 1 (0: none); -1 when a cpuN line lacks a column.
 */
int proc_stat_cpus(const char *text, uint64_t (*tick)[PROC_STAT_COLS], int max);

/*
 * proc_stat_head - /proc/stat from its start into buf, ended after its last
 * whole line (the cpu lines come first: a buffer of about 100 bytes a CPU
 * holds them). -1 with errno when it cannot be read.
 */
int proc_stat_head(char *buf, size_t len);

/*
 * proc_stat_field - where field number `field` (counted from 1, as in
 * proc(5); 3 and up) starts in a /proc/PID/stat line, whatever the process
 * name in parentheses holds; NULL when the line has no such field.
 */
const char *proc_stat_field(const char *line, int field);

/*
 * proc_parse_stime - the system time field (clock ticks) of a
 * /proc/PID/stat line, whatever the process name holds. -1 when the line
 * has no such field.
 */
int proc_parse_stime(const char *stat, unsigned long long *ticks);

/*
 * proc_task_ns - a process's run time (ns, the scheduler's exact accounting
 * from /proc/PID/schedstat) and system time (ns, from /proc/PID/stat's tick
 * count). -1 with err filled when the kernel does not say or pid is gone.
 */
int proc_task_ns(pid_t pid, uint64_t *run_ns, uint64_t *sys_ns, char *err, size_t errlen);

/*
 * proc_task_slices - how many times the scheduler has put pid on a CPU
 * (/proc/PID/schedstat's third figure). -1 when the kernel does not say.
 */
int proc_task_slices(pid_t pid, uint64_t *slices);

/*
 * proc_task_state - the state letter of /proc/PID/stat ('R', 'S', 'T' for
 * stopped, 'Z' for a zombie...) and, for a process that has ended, its
 * wait status (field 52, Linux 3.5 and up; else 0). 0 when pid is gone
 * altogether (reaped), -1 on any other failure.
 */
int proc_task_state(pid_t pid, char *state, int *wait_status);

/*
 * proc_task_pending - the signals sent to pid that it has not acted on yet
 * (/proc/PID/status: SigPnd, the thread's, or ShdPnd, the process's), as a
 * mask with bit sig - 1 for signal sig. A SCHED_IDLE process beside busy
 * work may wait a while for the CPU it needs to die or stop. 0 when none
 * or unknown.
 */
uint64_t proc_task_pending(pid_t pid);

/* proc_entry_pid - the PID a /proc directory entry's name is; -1 when it
 * is no process (self, sys, a name that is not all digits). */
long proc_entry_pid(const char *name);

/* One process, as /proc/PID/stat names it. */
struct proc_task {
	pid_t pid;
	char state;		/* R, S, T, Z... */
	int nice;		/* -20..19 */
	char name[32];		/* the command name, cut to fit */
};

/*
 * proc_children - the processes whose parent is parent, zombies included:
 * the first max of them into kids (may be NULL when max is 0), and how
 * many there are in all. -1 when /proc cannot be listed.
 */
int proc_children(pid_t parent, struct proc_task *kids, int max);

#endif
