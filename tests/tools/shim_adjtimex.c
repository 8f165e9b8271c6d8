/*
 * LD_PRELOAD shim: a realtime clock synchronised as NTP or PTP leaves it.
 * adjtimex() says TIME_OK, STA_UNSYNC clear and the estimated error of
 * ZC_SHIM_ESTERROR microseconds; it changes nothing (a call that would set
 * the clock fails with EPERM).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timex.h>

int adjtimex(struct timex *tx)
{
	const char *err = getenv("ZC_SHIM_ESTERROR");

	if (tx->modes) {
		errno = EPERM;
		return -1;
	}
	memset(tx, 0, sizeof(*tx));
	tx->esterror = err ? strtol(err, NULL, 10) : 0;
	tx->maxerror = tx->esterror;
	return TIME_OK;
}
