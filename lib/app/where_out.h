/*
 * The -W report's lines: a where_report (lib/meter/where.h) as text lines or
 * as keys of the JSON object being built, through lib/app/out.h.
 */
#ifndef ZC_APP_WHERE_OUT_H
#define ZC_APP_WHERE_OUT_H

#include "meter/where.h"

/*
 * where_show_other - with on (debug), the kernel lines gain "other:", the
 * symbols that fell into other with their shares (JSON: kernel_other).
 */
void where_show_other(int on);

/*
 * where_line - the report as part of the line being described (app/out.h
 * line_begin .. line_end): its keys inside the object in JSON mode, its text
 * lines ("where:", "cpus:", "net:", "kernel:", us/KB in where: when bytes
 * were given) after the line's own.
 */
void where_line(const struct where_report *r);

/*
 * where_line_prefixed - the same, each text line starting with prefix
 * (zcs: "PEER: ", as its rate lines do), so that the lines of
 * connections served at once are told apart.
 */
void where_line_prefixed(const struct where_report *r, const char *prefix);

#endif
