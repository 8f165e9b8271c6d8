/*
 * What zcc prints of a run (lib/zcc/send.h): text lines or, with -J, one
 * JSON object per line (lib/app/out.h), each described once.
 */
#ifndef ZC_ZCC_REPORT_H
#define ZC_ZCC_REPORT_H

#include "zcc/send.h"

/*
 * report_result - the run's lines:
 *   sent: BYTES bytes in SECONDS s, RATE kbytes/sec [(interrupted)]
 *   cpu: load PCT% of NCPUS CPUs, service demand USPERKB us/KB, zcc itself ...
 * (the cpu: line when r was measured, -W's lines after it), the -d lines
 * on stderr, and a warning when a measured run was too short for a steady
 * load figure. A failed stdout is exit 1.
 */
void report_result(const struct sender *sd, const struct send_result *r);

/*
 * report_call_times - --call-times: the time across each system call that
 * moved data, h of the run's connections merged:
 *   call-times: N METHOD calls, p50 X us, ..., max .., mean .., sd .. us
 * with --budget ", over B us: K of N, P%" (lib/app/hist_out.h). A failed
 * stdout is exit 1.
 */
struct hist;
void report_call_times(const struct sender *sd, const struct hist *h);

/*
 * report_ended - a failure (errnum: its errno; stalled: -T gave up) ended
 * the run once data went: when the peer was the cause, its sent: line
 * alone, marked with why ("(peer reset)", "(peer lost)", "(stalled)";
 * -J: the key "ended"), before the caller's error line.
 */
void report_ended(const struct sender *sd, struct send_result *r, int errnum, int stalled);

/*
 * report_summary - -R: the median, least and most of the n runs' rates
 * (and loads and service demands, when measured). A failed stdout is
 * exit 1.
 */
void report_summary(const struct send_result *rs, unsigned n);

#endif
