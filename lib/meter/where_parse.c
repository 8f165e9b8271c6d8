/* where.c's readers of /proc text: pure, so canned text tests them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "meter/proc.h"
#include "meter/where_internal.h"

static const char *next_line(const char *p)
{
	p = strchr(p, '\n');
	return p ? p + 1 : NULL;
}

int where_parse_stat(const char *text, struct where_snap *s)
{
	s->ncpus = proc_stat_cpus(text, s->tick, WHERE_MAX_CPUS);
	return s->ncpus > 0 ? 0 : -1;
}

/* How many "CPUn" columns the header line of p names. */
static int header_columns(const char *p)
{
	const char *end = strchr(p, '\n');
	int n = 0;

	while ((p = strstr(p, "CPU")) && (!end || p < end)) {
		n++;
		p += 3;
	}
	return n;
}

int where_parse_interrupts(const char *text, struct where_snap *s)
{
	int ncols = header_columns(text), i;
	const char *p, *q;
	uint64_t v;

	s->intr = 0;
	if (!ncols)
		return -1;
	/* " 24:   1   0  IO-APIC 5-edge ACPI:Ged": a numbered line is a device's. */
	for (p = next_line(text); p && *p; p = next_line(p)) {
		q = p + strspn(p, " ");
		if (*q < '0' || *q > '9')
			continue;
		q += strspn(q, "0123456789");
		if (*q++ != ':')
			continue;
		for (i = 0; i < ncols && (q = proc_number(q, &v)); i++)
			s->intr += v;
	}
	return 0;
}

int where_parse_softirqs(const char *text, struct where_snap *s)
{
	int col_cpu[WHERE_MAX_CPUS], ncols = 0, i;
	uint64_t v, *row;
	const char *p = text, *q;
	char *end;

	memset(s->net_rx, 0, sizeof(s->net_rx));
	memset(s->net_tx, 0, sizeof(s->net_tx));
	/* The header names the CPU of each column: "    CPU0   CPU1 ..." */
	for (q = p; q && *q && *q != '\n'; ) {
		q = strstr(q, "CPU");
		if (!q || (next_line(p) && q > next_line(p)))
			break;
		i = (int)strtol(q + 3, &end, 10);
		if (end == q + 3 || i < 0 || i >= WHERE_MAX_CPUS || ncols == WHERE_MAX_CPUS)
			return -1;
		col_cpu[ncols++] = i;
		q = end;
	}
	if (!ncols)
		return -1;
	for (p = next_line(p); p && *p; p = next_line(p)) {
		q = p + strspn(p, " ");
		if (strncmp(q, "NET_RX:", 7) == 0)
			row = s->net_rx;
		else if (strncmp(q, "NET_TX:", 7) == 0)
			row = s->net_tx;
		else
			continue;
		q += 7;
		for (i = 0; i < ncols; i++) {
			q = proc_number(q, &v);
			if (!q)
				return -1;
			row[col_cpu[i]] = v;
		}
	}
	return 0;
}

int where_parse_netdev(const char *text, struct where_snap *s)
{
	const char *p, *colon, *q;
	uint64_t v[16];
	size_t len;
	int k;

	s->nifs = 0;
	/*
	 * Two header lines, then "  name:" and 8 receive columns (bytes packets
	 * errs drop fifo frame compressed multicast; drop counts the missed
	 * too) and 8 transmit ones (bytes packets errs drop fifo colls carrier
	 * compressed).
	 */
	for (p = text; p && *p; p = next_line(p)) {
		colon = strchr(p, ':');
		if (!colon || (next_line(p) && colon > next_line(p)))
			continue;
		p += strspn(p, " ");
		len = (size_t)(colon - p);
		if (!len || len >= IF_NAMESIZE || s->nifs == WHERE_MAX_IFS)
			continue;
		for (q = colon + 1, k = 0; k < 16 && q; k++)
			q = proc_number(q, &v[k]);
		if (!q)
			return -1;
		memcpy(s->ifs[s->nifs].name, p, len);
		s->ifs[s->nifs].name[len] = 0;
		s->ifs[s->nifs].rx = v[1];
		s->ifs[s->nifs].tx = v[9];
		s->ifs[s->nifs].rx_drop = v[3];
		s->ifs[s->nifs].tx_drop = v[11];
		s->ifs[s->nifs].errs = v[2] + v[10];
		s->nifs++;
	}
	return 0;
}

int where_parse_task(const char *line, uint64_t *utime, int *cpu)
{
	const char *p = proc_stat_field(line, 14);
	uint64_t c;

	if (!p || !proc_number(p, utime))
		return -1;
	p = proc_stat_field(line, 39);
	if (!p || !proc_number(p, &c) || c >= WHERE_MAX_CPUS)
		return -1;
	*cpu = (int)c;
	return 0;
}
