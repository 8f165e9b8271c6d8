/*
 * lib/zcc/run_record.c: the receiver's record, its lists in order however
 * the reports came; and lib/app/compare_table.c's name of the deciding
 * figure, the sender's said to be the sender's beside the receiver's.
 */
#include <string.h>

#include "t.h"
#include "app/compare.h"
#include "zcc/run_record.h"

static const char *text(const struct env_record *r, const char *key)
{
	const struct env_field *f = env_field_find(r, key);

	return f && f->known ? f->text : "(unknown)";
}

static void record(void)
{
	struct env_record a, b;

	run_record_rx_init(&a);
	run_record_rx_init(&b);
	CHECK(!env_field_find(&a, "rx_method")->known &&
	      !env_field_find(&a, "rx_read_bytes")->known, "no report: both keys unknown");
	run_record_rx_add(&a, "splice", 65536);
	run_record_rx_add(&a, "read", 4096);
	run_record_rx_add(&a, "discard", 131072);
	run_record_rx_add(&a, "read", 4096);
	CHECK(strcmp(text(&a, "rx_method"), "discard,read,splice") == 0,
	      "methods by name, each once (%s)", text(&a, "rx_method"));
	CHECK(strcmp(text(&a, "rx_read_bytes"), "4096,65536,131072") == 0,
	      "sizes by number, not as text (%s)", text(&a, "rx_read_bytes"));
	run_record_rx_add(&b, "discard", 131072);
	run_record_rx_add(&b, "read", 4096);
	run_record_rx_add(&b, "splice", 65536);
	CHECK(strcmp(text(&a, "rx_method"), text(&b, "rx_method")) == 0 &&
	      strcmp(text(&a, "rx_read_bytes"), text(&b, "rx_read_bytes")) == 0,
	      "another rotation of the same reports reads the same");
	run_record_rx_add(&b, "zerocopy", 100);
	CHECK(strcmp(text(&b, "rx_method"), "discard,read,splice,zerocopy") == 0 &&
	      strcmp(text(&b, "rx_read_bytes"), "100,4096,65536,131072") == 0,
	      "first and last places (%s; %s)", text(&b, "rx_method"),
	      text(&b, "rx_read_bytes"));
}

static void figure(void)
{
	struct compare_look look = { .self = "zcc" };
	unsigned metered = 1u << FIG_STREAM | 1u << FIG_LOADED | 1u << FIG_METERED, rx = 1u << FIG_RX;
	char t[80];

	compare_figure(&look, metered, t, sizeof(t));
	CHECK(strcmp(t, "service demand (us/KB)") == 0, "the sender alone: %s", t);
	compare_figure(&look, metered | rx, t, sizeof(t));
	CHECK(strcmp(t, "the sender's service demand (us/KB)") == 0, "beside the receiver: %s", t);
	compare_figure(&look, rx, t, sizeof(t));
	CHECK(strcmp(t, "zcc's own CPU time, the sender's (us/KB)") == 0,
	      "unmetered beside the receiver: %s", t);
	look.decide = COMPARE_RECEIVER;
	compare_figure(&look, rx, t, sizeof(t));
	CHECK(strcmp(t, "the receiver's own CPU time (us/KB)") == 0, "the receiver's: %s", t);
}

int main(void)
{
	record();
	figure();
	return t_exit();
}
