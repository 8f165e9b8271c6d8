/* The tx methods, listed beside them as fio lists engines; tx.c names none. */
#include <stddef.h>

#include "wire/tx_internal.h"

const struct tx_method *const tx_methods[] = {
	&tx_sendfile,		/* the default */
	&tx_send,
	&tx_write,
	&tx_mmap,
	&tx_splice,
	&tx_zerocopy,
	&tx_uring,
	&tx_uring_zc,
	NULL,
};
