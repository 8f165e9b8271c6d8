/* The CPUs: how many, which this process may use, binding to one. */
#ifndef ZC_CPU_H
#define ZC_CPU_H

/* Number of CPUs online now (at least 1). */
int cpu_online(void);

/* Highest CPU number the kernel was configured with, for range checks. */
int cpu_max(void);

/* Bind the calling process (and what it forks later) to one CPU. -1/errno. */
int cpu_bind(int cpu);

/*
 * cpu_allowed - the CPUs the calling process may run on, in ascending order,
 * into cpus[CPU_SETSIZE]; returns how many (0 when the kernel does not say).
 */
int cpu_allowed(int *cpus);

#endif
