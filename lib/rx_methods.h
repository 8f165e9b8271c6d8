/* The receive methods behind lib/rx.h's table, one struct each. */
#ifndef ZC_RX_METHODS_H
#define ZC_RX_METHODS_H

#include "rx.h"

extern const struct rx_method rx_read;		/* lib/rx_methods.c */
extern const struct rx_method rx_discard;
extern const struct rx_method rx_splice;
extern const struct rx_method rx_zerocopy;	/* lib/rx_zerocopy.c */

#endif
