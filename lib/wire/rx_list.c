/* The rx methods, listed beside them as fio lists engines; rx.c names none. */
#include <stddef.h>

#include "wire/rx_methods.h"

const struct rx_method *const rx_methods[] = {
	&rx_read,
	&rx_discard,
	&rx_splice,
	&rx_zerocopy,
	NULL,
};
