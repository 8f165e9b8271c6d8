/* The receive methods, one struct each, for the list in rx_list.c. */
#ifndef ZC_RX_METHODS_H
#define ZC_RX_METHODS_H

#include "wire/rx.h"

extern const struct rx_method rx_read;		/* lib/wire/rx_methods.c */
extern const struct rx_method rx_discard;
extern const struct rx_method rx_splice;
extern const struct rx_method rx_zerocopy;	/* lib/wire/rx_zerocopy.c */

#endif
