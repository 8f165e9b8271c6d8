/* The CPUs: how many, which this process may use, binding to one. */
#ifndef ZC_CPU_H
#define ZC_CPU_H

#include <stddef.h>
#include <sys/types.h>

/* Number of CPUs online now (at least 1). */
int cpu_online(void);

/* Highest CPU number the kernel was configured with, for range checks. */
int cpu_max(void);

/* Bind the calling process (and what it forks later) to one CPU. -1/errno. */
int cpu_bind(int cpu);

/*
 * cpu_allowed - the CPUs the calling process may run on, in ascending order,
 * into cpus[CPU_SETSIZE]; returns how many (0 when the kernel does not say).
 * The kernel leaves offline CPUs out, so these are online ones.
 */
int cpu_allowed(int *cpus);

/*
 * cpu_online_list - the online CPUs, from /sys/devices/system/cpu/online,
 * into cpus[CPU_SETSIZE]; how many (the first cpu_online() CPUs when the
 * file cannot be read).
 */
int cpu_online_list(int *cpus);

/*
 * cpu_list_read - a CPU list ("2,0-1", as -B takes it) into cpus[max] in
 * the order given, repeats kept; how many, or -1 when it is not one or
 * holds more than max. cpu_list_parse - a kernel CPU list ("0-3,8") into
 * cpus[CPU_SETSIZE] in ascending order, each once; how many, or -1.
 */
int cpu_list_read(const char *text, int *cpus, int max);
int cpu_list_parse(const char *text, int *cpus);

/* cpu_list_text - ascending CPUs as the kernel writes a list: "0-1,3". */
void cpu_list_text(const int *cpus, int n, char *buf, size_t len);

/*
 * cpu_pinned - is pid's affinity exactly {cpu}? 1 yes, 0 no (and its mask,
 * as a list, in was), -1 when the kernel does not say (pid gone).
 * cpu_pin - set it so; -1/errno.
 */
int cpu_pinned(pid_t pid, int cpu, char *was, size_t len);
int cpu_pin(pid_t pid, int cpu);

#endif
