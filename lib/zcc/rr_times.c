/*
 * The times of each answer of zcc --rr (lib/zcc/rr_internal.h): its round
 * trips into the connection's histograms, its one-way times when the two
 * ends' clocks allow them (rr_clocks_of), the -I interval's histogram
 * (under a lock: the watcher thread reads and resets it) and --log's row.
 * Nothing is kept per message but in the histograms, unless --log asks.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "wire/rr_io.h"
#include "zcc/rr_internal.h"

enum rr_clocks rr_clocks_of(const unsigned char ours[RR_BOOT_ID],
			    const unsigned char theirs[RR_BOOT_ID], int timed, int synced,
			    uint32_t err_here_us, uint32_t err_there_us)
{
	static const unsigned char unknown[RR_BOOT_ID];
	int one = memcmp(ours, theirs, RR_BOOT_ID) == 0 && memcmp(ours, unknown, RR_BOOT_ID) != 0;

	if (!one && !synced)
		return RR_CLOCKS_APART;
	if (!timed)
		return RR_CLOCKS_BARE;
	if (one)
		return RR_CLOCKS_ONE;
	if (err_here_us == UINT32_MAX || err_there_us == UINT32_MAX)
		return RR_CLOCKS_UNSYNCED;
	return RR_CLOCKS_SYNCED;
}

double rr_clock_step_us(uint32_t err_a_us, uint32_t err_b_us)
{
	double err = err_a_us > err_b_us ? err_a_us : err_b_us, mag;

	if (err <= 0)
		return 0;
	mag = pow(10, floor(log10(err)));
	for (int k = 0; k < 3; k++) {	/* 1, 2, 5 times a power of ten */
		static const double mult[] = { 1, 2, 5 };

		if (mult[k] * mag >= err)
			return mult[k] * mag;
	}
	return 10 * mag;
}

double rr_clock_round(double v_us, double step_us)
{
	if (step_us <= 0)
		return v_us;
	v_us = round(v_us / step_us) * step_us;
	return v_us > 0 ? v_us : NAN;
}

void rr_clock_pair(uint64_t *mono, uint64_t *real)
{
	uint64_t again;

	/* A thread preempted between the two reads would pair times apart:
	 * a step to rr_msg_times. Read again until they are close. */
	for (int i = 0; i < RR_PAIR_TRIES; i++) {
		*mono = now_ns();
		*real = rr_real_ns();
		again = now_ns();
		if (again - *mono <= RR_PAIR_NS)
			return;
	}
}

void rr_times_init(struct rr_work *w, const struct send_cfg *sc)
{
	const struct rr_cfg *rc = rr_settings_of();

	hist_init(&w->f.out, rc->budget_ns);
	hist_init(&w->f.back, rc->budget_ns);
	if (sc->interval > 0) {
		w->ival = malloc(sizeof(*w->ival));
		if (!w->ival)
			error(1, errno, "memory");
		hist_init(w->ival, rc->budget_ns);
		pthread_mutex_init(&w->ival_lock, NULL);
	}
}

void rr_times_free(struct rr_work *w)
{
	if (w->ival)
		pthread_mutex_destroy(&w->ival_lock);
	free(w->ival);
	rr_log_free(w->log);
	w->ival = NULL;
	w->log = NULL;
}

void rr_clocks_take(struct rr_work *w, const struct rr_ack *a)
{
	struct rr_figures *f = &w->f;

	f->err_here_us = rr_clock_err_us();
	f->err_there_us = a->clock_err_us;
	f->clocks = rr_clocks_of(w->h.boot_id, a->boot_id, w->timed,
				 rr_settings_of()->clocks_synced, f->err_here_us, f->err_there_us);
	w->one_way = f->clocks == RR_CLOCKS_ONE || f->clocks == RR_CLOCKS_SYNCED;
}

/* The one-way times of m into w's figures and *t, or counted apart. */
static void one_way(struct rr_work *w, const struct rr_msg *m, uint64_t now, uint64_t real,
		    struct rr_times *t)
{
	struct rr_times got;

	if (rr_msg_times(m, now, real, &got) != RR_CLOCK_OK) {
		w->f.clock_off++;
		return;
	}
	hist_record(&w->f.out, got.out);
	hist_record(&w->f.back, got.back);
	t->out = got.out;
	t->back = got.back;
	t->one_way = 1;
}

void rr_record(struct rr_work *w, const struct rr_msg *m, int open, uint64_t now)
{
	uint64_t real = 0, rtt;
	struct rr_times t;

	if (w->one_way)
		rr_clock_pair(&now, &real);
	else if (!now)
		now = now_ns();
	t = (struct rr_times){ .from_due = now - m->due_mono, .from_send = now - m->tx_mono };
	rtt = open ? t.from_due : t.from_send;

	hist_record(&w->f.due, rtt);
	if (open)
		hist_record(&w->f.sent_h, t.from_send);
	if (w->one_way)
		one_way(w, m, now, real, &t);
	if (w->ival) {
		pthread_mutex_lock(&w->ival_lock);
		hist_record(w->ival, rtt);
		pthread_mutex_unlock(&w->ival_lock);
	}
	if (rr_settings_of()->log)
		rr_log_row(&w->log, w->h.flow, m, now, &t);
}
