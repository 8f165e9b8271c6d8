/*
 * zcs's verb for a request/response connection (lib/wire/rr_proto.h): a
 * connection's process hands it over when the first bytes are an RR
 * hello (serve_rr_sniff), and it answers every request until the client
 * closes, then says so in one line (answered:).
 */
#ifndef ZC_ZCS_SERVE_RR_H
#define ZC_ZCS_SERVE_RR_H

#include "zcs/serve.h"

/*
 * serve_rr_sniff - whether connection fd opens with an RR hello (1) or
 * is a stream, or said nothing within -T (0: the stream's path takes it,
 * every byte still in the socket).
 */
int serve_rr_sniff(const struct serve_cfg *sc, int fd);

/*
 * serve_rr - answer the requests of connection fd (peer: its name for
 * lines) and report; fd is closed; res (or NULL) gets what it moved and
 * cost. 0 when the client closed after whole requests, 1 otherwise (one
 * line on stderr said why). A stop signal ends it, the line says
 * "(interrupted)", and the caller dies of the signal.
 */
int serve_rr(const struct serve_cfg *sc, int fd, const char *peer, struct serve_result *res);

#endif
