/*
 * What a meter reading calls for beside its line, as cyclesoak says it
 * every period and after a command, and zcc and zcs after each reading
 * (app_meter_sample): -d's line of both methods and each CPU, and the
 * warnings, each said once a process on stderr and, with -J, as a warning
 * event on stdout: the host took time without the kernel counting it as
 * steal, the two methods disagree for long, the CPUs run faster than
 * calibrated.
 */
#ifndef ZC_APP_METER_NOTES_H
#define ZC_APP_METER_NOTES_H

#include "meter/meter.h"

/* meter_note_debug - -d: r's figures by both methods, per CPU too. */
void meter_note_debug(const struct meter_reading *r);

/*
 * meter_note_warnings - what r (read from m) warns of, each warning once;
 * the CPUs being faster than calibrated only when m counts loops or debug.
 */
void meter_note_warnings(const struct meter *m, const struct meter_reading *r, int debug);

/* meter_note_presence - the soakers' cost to the run (meter_presence),
 * warned of once when over PRESENCE_MARK. */
void meter_note_presence(const struct meter_reading *r);

/* meter_note_steal - the host's unseen share of the CPUs, taken (a
 * fraction), warned of once when over STEAL_MARK. */
void meter_note_steal(double taken);

/*
 * Unseen time over this share of the CPUs covered is worth a warning: the
 * soakers were charged for time they did not run. The figure is in every
 * JSON load event and on -d's line; the text line keeps its shape.
 */
#define STEAL_MARK 0.015

/*
 * The two soaker methods disagreeing (over 5 points) is worth a warning
 * once it lasts this many readings in a row, or readings in a row covering
 * this many seconds (zcc takes one reading over its whole run).
 */
#define APART_PERIODS 5
#define APART_SECS 5

#endif
