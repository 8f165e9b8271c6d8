/*
 * zcc -P: N streams at once (lib/zcc/send.h's settings: streams, and the
 * CPUs of -B spread over them round robin).
 */
#ifndef ZC_ZCC_STREAMS_H
#define ZC_ZCC_STREAMS_H

#include "zcc/send.h"

/*
 * send_streams - sd->cfg->streams connections at once, each in a thread
 * of its own (with every signal blocked: the calling thread takes them),
 * each the whole stream of loops of sd's files. Prints the run's lines
 * (lib/zcc/report.h): the sent: line of their sum, seconds from the first
 * connect to the last close; with -J a stream event per stream; with -d a
 * line per stream and the slowest/fastest ratio. The first stream that
 * fails ends the run: the others are shut, one line names it, exit 1. A
 * stop signal shuts them all: the result is interrupted.
 */
struct send_result send_streams(struct sender *sd, uint32_t loops);

#endif
