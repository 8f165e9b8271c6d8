/* The report of lib/meter/where.c as text lines or JSON keys (app/where_out.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/out.h"
#include "app/where_out.h"

/*
 * v as printed with decimals: a value that rounds to zero is 0, never
 * -0.0 (unattributed is the meter's load less the classes', and the two
 * agree to within rounding as often as not).
 */
static double zero_unsigned(double v, int decimals)
{
	return fabs(v) < 0.5 * pow(10, -decimals) ? 0.0 : v;
}

/* Name the symbols that fell into other (where_show_other). */
static int show_other;

void where_show_other(int on)
{
	show_other = on;
}

static void print_classes(const struct where_report *r, const char *prefix)
{
	char line[512];
	size_t n = 0;
	int k;

	n += (size_t)snprintf(line + n, sizeof(line) - n, "%swhere:", prefix);
	for (k = 0; k < WHERE_CLASSES; k++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s %s %.1f%%",
				      k ? "," : "", where_class_name[k], r->class_pct[k]);
	if (!isnan(r->unattributed_pct))
		n += (size_t)snprintf(line + n, sizeof(line) - n, ", unattributed %.1f%%",
				      zero_unsigned(r->unattributed_pct, 1));
	n += (size_t)snprintf(line + n, sizeof(line) - n, " of the machine");
	if (!isnan(r->class_us_per_kb[0])) {
		n += (size_t)snprintf(line + n, sizeof(line) - n, "; us/KB:");
		for (k = 0; k < WHERE_CLASSES && n < sizeof(line); k++)
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s %s %.3f",
					      k ? "," : "", where_class_name[k],
					      r->class_us_per_kb[k]);
		if (!isnan(r->unattributed_us_per_kb) && n < sizeof(line))
			snprintf(line + n, sizeof(line) - n, ", unattributed %.3f",
				 zero_unsigned(r->unattributed_us_per_kb, 3));
	}
	out_text("%s\n", line);
}

static void print_cpus(const struct where_report *r, const char *prefix)
{
	int i, first = 1;

	out_text("%scpus:", prefix);
	for (i = 0; i < r->ncpus; i++) {
		if (!r->cpu[i].online)
			continue;
		out_text("%s cpu%d %.1f%% (softirq %.1f%%, NET_RX %.0f/s, NET_TX %.0f/s)",
			 first ? "" : ",", i, r->cpu[i].load_pct, r->cpu[i].softirq_pct,
			 r->cpu[i].net_rx_per_sec, r->cpu[i].net_tx_per_sec);
		first = 0;
	}
	out_text("\n");
}

static void print_net(const struct where_report *r, const char *prefix)
{
	int i, super = 0;

	out_text("%snet: %.0f interrupts/s", prefix, r->intr_per_sec);
	for (i = 0; i < r->nifs; i++) {
		out_text("%s %s rx %.0f tx %.0f packets/s", i ? "," : ";", r->ifs[i].name,
			 r->ifs[i].rx_per_sec, r->ifs[i].tx_per_sec);
		if (r->ifs[i].rx_dropped || r->ifs[i].tx_dropped || r->ifs[i].errors)
			out_text(" (dropped rx %" PRIu64 " tx %" PRIu64 ", errors %" PRIu64 ")",
				 r->ifs[i].rx_dropped, r->ifs[i].tx_dropped, r->ifs[i].errors);
		super |= r->ifs[i].super;
	}
	if (!r->nifs)
		out_text("; no packets");
	if (!isnan(r->us_per_packet))
		out_text("; %.2f us/packet", r->us_per_packet);
	if (!isnan(r->bytes_per_call))
		out_text(", %.0f bytes/call", r->bytes_per_call);
	if (!isnan(r->intr_per_packet))
		out_text(", %.3f interrupts/packet", r->intr_per_packet);
	if (super)
		out_text(" (TSO/GSO/GRO on: super-packets, not frames on the wire)");
	out_text("\n");
	if (r->rx_unseen)
		out_text("%snet: NET_RX ran but no interface this process sees moved "
			 "packets: traffic in a namespace it cannot see is likely\n", prefix);
	if (r->unseen[0])
		out_text("%snet: cannot read: %s\n", prefix, r->unseen);
}

static void print_kind_line(const char *prefix, const char *label, const double *pct,
			    uint64_t samples)
{
	int k;

	out_text("%s%s:", prefix, label);
	for (k = 0; k < WHERE_KINDS; k++)
		out_text("%s %s %.1f%%", k ? "," : "", where_kind_name[k], pct[k]);
	out_text(" of %llu samples\n", (unsigned long long)samples);
}

/* The machine's kinds (and per KB), each CPU's (more than one): whose work ran where. */
static void print_kinds(const struct where_report *r, const char *prefix)
{
	char label[32];
	int i, k, online = 0;

	if (!r->sampled)
		return;		/* where_sampling_why said why, once */
	print_kind_line(prefix, "kernel", r->kind_pct, r->samples);
	if (!isnan(r->kind_us_per_kb[0])) {
		out_text("%skernel us/KB:", prefix);
		for (k = 0; k < WHERE_KINDS; k++)
			out_text("%s %s %.4f", k ? "," : "", where_kind_name[k],
				 r->kind_us_per_kb[k]);
		out_text("\n");
	}
	for (i = 0; i < r->ncpus; i++)
		online += r->cpu[i].online;
	for (i = 0; i < r->ncpus && online > 1; i++) {
		if (!r->cpu[i].online)
			continue;
		snprintf(label, sizeof(label), "kernel cpu%d", i);
		print_kind_line(prefix, label, r->cpu[i].kind_pct, r->cpu[i].samples);
	}
	if (!show_other)
		return;
	out_text("%sother:", prefix);
	for (i = 0; i < r->nother; i++)
		out_text("%s %s %.1f%%", i ? "," : "", r->other_top[i].name, r->other_top[i].pct);
	out_text("%s\n", r->nother ? "" : " none");
}

static void json_kind_object(const char *key, const double *v, int decimals)
{
	int k;

	out_object(key);
	for (k = 0; k < WHERE_KINDS; k++)
		out_num(where_kind_name[k], v[k], decimals);
	out_object_end();
}

static void json_kinds(const char *key, const char *count_key, int sampled,
		       const double *pct, uint64_t samples)
{
	if (!sampled)
		out_null(key);
	else
		json_kind_object(key, pct, 1);
	out_u64(count_key, samples);
}

/* The machine's kinds: shares, per KB, and when shown other's symbols. */
static void json_machine_kinds(const struct where_report *r)
{
	int i;

	json_kinds("kernel_pct", "kernel_samples", r->sampled, r->kind_pct, r->samples);
	/* Null where there is no figure, so every line has the same keys. */
	if (r->sampled && !isnan(r->kind_us_per_kb[0]))
		json_kind_object("kernel_us_per_kb", r->kind_us_per_kb, 4);
	else
		out_null("kernel_us_per_kb");
	if (!r->sampled || !show_other)
		return;
	out_array("kernel_other");
	for (i = 0; i < r->nother; i++) {
		out_object(NULL);
		out_str("symbol", r->other_top[i].name);
		out_num("pct", r->other_top[i].pct, 1);
		out_object_end();
	}
	out_array_end();
}

/* The report as text lines, each starting with prefix. */
static void print_prefixed(const struct where_report *r, const char *prefix)
{
	print_classes(r, prefix);
	print_cpus(r, prefix);
	print_net(r, prefix);
	print_kinds(r, prefix);
}

static void json_classes(const char *key, const double *v, double unattributed, int decimals)
{
	int k;

	out_object(key);
	for (k = 0; k < WHERE_CLASSES; k++)
		out_num(where_class_name[k], v[k], decimals);
	out_num("unattributed", zero_unsigned(unattributed, decimals), decimals);
	out_object_end();
}

/* The report's keys in the JSON object being built. */
static void json_keys(const struct where_report *r)
{
	int i, k;

	json_classes("class_pct", r->class_pct, r->unattributed_pct, 1);
	if (!isnan(r->class_us_per_kb[0]))
		json_classes("class_us_per_kb", r->class_us_per_kb, r->unattributed_us_per_kb, 4);
	else
		out_null("class_us_per_kb");	/* no bytes: no figure */
	out_array("cpus");
	for (i = 0; i < r->ncpus; i++) {
		if (!r->cpu[i].online)
			continue;
		out_object(NULL);
		out_int("cpu", i);
		out_num("load_pct", r->cpu[i].load_pct, 1);
		out_num("softirq_pct", r->cpu[i].softirq_pct, 1);
		out_object("class_pct");
		for (k = 0; k < WHERE_CLASSES; k++)
			out_num(where_class_name[k], r->cpu[i].class_pct[k], 1);
		out_object_end();
		out_num("net_rx_per_sec", r->cpu[i].net_rx_per_sec, 0);
		out_num("net_tx_per_sec", r->cpu[i].net_tx_per_sec, 0);
		json_kinds("kernel_pct", "kernel_samples", r->sampled, r->cpu[i].kind_pct,
			   r->cpu[i].samples);
		out_object_end();
	}
	out_array_end();
	out_object("net");
	out_num("interrupts_per_sec", r->intr_per_sec, 0);
	out_array("interfaces");
	for (i = 0; i < r->nifs; i++) {
		out_object(NULL);
		out_str("name", r->ifs[i].name);
		out_num("rx_packets_per_sec", r->ifs[i].rx_per_sec, 0);
		out_num("tx_packets_per_sec", r->ifs[i].tx_per_sec, 0);
		out_u64("rx_dropped", r->ifs[i].rx_dropped);
		out_u64("tx_dropped", r->ifs[i].tx_dropped);
		out_u64("errors", r->ifs[i].errors);
		out_bool("super_packets", r->ifs[i].super);
		out_object_end();
	}
	out_array_end();
	out_num("us_per_packet", r->us_per_packet, 2);
	out_num("bytes_per_call", r->bytes_per_call, 0);
	out_num("interrupts_per_packet", r->intr_per_packet, 3);
	out_bool("rx_unseen", r->rx_unseen);
	if (r->unseen[0])
		out_str("unseen", r->unseen);
	else
		out_null("unseen");
	out_object_end();
	json_machine_kinds(r);
}

static void nested_json(const void *r)
{
	json_keys(r);
}

/* The report and prefix of the line being described: one line at a time. */
static struct {
	const struct where_report *r;
	const char *prefix;
} nested;

static void nested_text(const void *arg)
{
	(void)arg;
	print_prefixed(nested.r, nested.prefix);
}

void where_line_prefixed(const struct where_report *r, const char *prefix)
{
	nested.r = r;
	nested.prefix = prefix;
	line_nested(nested_json, nested_text, r);
}

void where_line(const struct where_report *r)
{
	where_line_prefixed(r, "");
}
