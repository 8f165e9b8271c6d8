/*
 * zcc -B's CPU list (one CPU, or one per -P stream), checked as the
 * other option values are (lib/app/opt.h): the one option of the suite
 * that takes a list of CPUs.
 */
#ifndef ZC_ZCC_OPT_CPUS_H
#define ZC_ZCC_OPT_CPUS_H

/*
 * opt_cpus - option opt's CPU list ("0,2,4-7": the order given, repeats
 * kept, each CPU 0 to the last) into a new array *cpus (any old one
 * freed); how many. Anything else: one usage line, exit 2.
 */
int opt_cpus(int opt, const char *arg, int **cpus);

#endif
