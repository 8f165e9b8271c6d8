/*
 * The record's keys, in the order they print, and how each is filled from
 * the machine's, the sysctls' and the interface's structs.
 */
#include <errno.h>
#include <error.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/env_out.h"
#include "app/out.h"
#include "meter/env.h"
#include "meter/where.h"
#include "wire/ifinfo.h"
#include "wire/mptcp.h"

/* Every key, once: its type. The order is the record's. */
static const struct {
	const char *key;
	enum env_type type;
} keys[] = {
	{ "kernel", ENV_STR }, { "cpu_model", ENV_STR }, { "cpus_online", ENV_NUM },
	{ "virtual", ENV_BOOL }, { "smt", ENV_BOOL }, { "governor", ENV_STR },
	{ "cpus_allowed", ENV_STR }, { "cpu_quota", ENV_STR },
	{ "tcp_congestion_control", ENV_STR }, { "tcp_rmem", ENV_STR },
	{ "tcp_wmem", ENV_STR }, { "rmem_max", ENV_NUM }, { "wmem_max", ENV_NUM },
	{ "mptcp_enabled", ENV_NUM }, { "mptcp_asked", ENV_BOOL },
	{ "interface", ENV_STR }, { "driver", ENV_STR }, { "mtu", ENV_NUM },
	{ "speed_mbps", ENV_NUM }, { "tso", ENV_BOOL }, { "gso", ENV_BOOL },
	{ "gro", ENV_BOOL }, { "sg", ENV_BOOL }, { "tx_csum", ENV_BOOL },
	{ "rx_csum", ENV_BOOL }, { "qdisc", ENV_STR }, { "rps_cpus", ENV_STR },
	{ "xps_cpus", ENV_STR }, { "mptcp", ENV_BOOL },
};
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))
#define FIRST_NET "tcp_congestion_control"
#define FIRST_CONN "interface"

static struct env_machine machine;
static int machine_read;
static struct env_record last;
static int printed;
static void (*then)(void);	/* env_then's */
static int mptcp_asked;

/* The place of key in r; r->n: none. */
static int place_of(const struct env_record *r, const char *key)
{
	int i = 0;

	while (i < r->n && strcmp(r->f[i].key, key) != 0)
		i++;
	return i;
}

const struct env_field *env_field_find(const struct env_record *r, const char *key)
{
	int i = place_of(r, key);

	return i < r->n ? &r->f[i] : NULL;
}

struct env_field *env_field_of(struct env_record *r, const char *key)
{
	int i = place_of(r, key);

	return i < r->n ? &r->f[i] : NULL;
}

const char *env_value(const struct env_field *f)
{
	return f->known ? f->text : "unknown";
}

void env_set_text(struct env_record *r, const char *key, const char *s)
{
	struct env_field *f = env_field_of(r, key);

	if (f && s && *s) {
		f->known = 1;
		snprintf(f->text, sizeof(f->text), "%s", s);
	}
}

static void set_num(struct env_record *r, const char *key, long long v)
{
	struct env_field *f = env_field_of(r, key);

	if (f && v >= 0) {
		f->known = 1;
		snprintf(f->text, sizeof(f->text), "%lld", v);
	}
}

void env_set_bool(struct env_record *r, const char *key, int v)
{
	struct env_field *f = env_field_of(r, key);
	int yes = strcmp(key, "virtual") == 0;

	if (f && v >= 0) {
		f->known = 1;
		snprintf(f->text, sizeof(f->text), "%s", v ? (yes ? "yes" : "on") :
			 (yes ? "no" : "off"));
	}
}

void env_record_init(struct env_record *r, const char *stop)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < N_KEYS && (!stop || strcmp(keys[i].key, stop) != 0); i++) {
		r->f[r->n].key = keys[i].key;
		r->f[r->n++].type = keys[i].type;
	}
}

void env_early(void)
{
	env_machine_read(&machine);
	machine_read = 1;
}

static void fill_machine(struct env_record *r)
{
	env_set_text(r, "kernel", machine.kernel);
	env_set_text(r, "cpu_model", machine.cpu_model);
	set_num(r, "cpus_online", machine.cpus_online);
	env_set_bool(r, "virtual", machine.virtual);
	env_set_bool(r, "smt", machine.smt);
	env_set_text(r, "governor", machine.governor);
	env_set_text(r, "cpus_allowed", machine.cpus_allowed);
	env_set_text(r, "cpu_quota", machine.cpu_quota);
}

static void fill_net(struct env_record *r)
{
	struct net_sysctls s;

	net_sysctls_read(&s);
	env_set_text(r, "tcp_congestion_control", s.congestion);
	env_set_text(r, "tcp_rmem", s.tcp_rmem);
	env_set_text(r, "tcp_wmem", s.tcp_wmem);
	set_num(r, "rmem_max", s.rmem_max);
	set_num(r, "wmem_max", s.wmem_max);
	set_num(r, "mptcp_enabled", mptcp_enabled());
	env_set_bool(r, "mptcp_asked", mptcp_asked);
}

void env_mptcp_asked(int asked)
{
	mptcp_asked = asked;
}

/* The interface of sock; every key null when it cannot be found. */
static void fill_conn(struct env_record *r, int sock)
{
	char name[IF_NAMESIZE], err[256];
	struct if_info i;

	if (!mptcp_asked)	/* an IPPROTO_TCP socket is never MPTCP */
		env_set_bool(r, "mptcp", 0);
	else if (sock >= 0)
		env_set_bool(r, "mptcp", mptcp_active(sock));
	if (sock < 0 || where_ifname(sock, name, sizeof(name), err, sizeof(err)) < 0 ||
	    ifinfo_read(name, &i, err, sizeof(err)) < 0)
		return;
	env_set_text(r, "interface", i.name);
	env_set_text(r, "driver", i.driver);
	set_num(r, "mtu", i.mtu);
	set_num(r, "speed_mbps", i.speed_mbps);
	for (int k = 0; k < IF_N_OFFLOADS; k++)
		env_set_bool(r, ifinfo_offload_names[k], i.offload[k]);
	env_set_text(r, "qdisc", i.qdisc);
	env_set_text(r, "rps_cpus", i.rps_cpus);
	env_set_text(r, "xps_cpus", i.xps_cpus);
}

void env_field_json(const char *key, const struct env_field *f)
{
	if (!f || !f->known)
		out_null(key);
	else if (f->type == ENV_STR)
		out_str(key, f->text);
	else if (f->type == ENV_NUM)
		out_int(key, strtoll(f->text, NULL, 10));
	else
		out_bool(key, strcmp(f->text, "on") == 0 || strcmp(f->text, "yes") == 0);
}

void env_record_print(const char *event, const struct env_record *r)
{
	out_begin(event);
	for (int i = 0; i < r->n; i++)
		env_field_json(r->f[i].key, &r->f[i]);
	if (out_end() < 0 || out_failed())
		exit(1);	/* the at-exit check says why */
}

/* -d's line, on stderr with the other debug lines: stdout keeps the 2001 ones. */
static void print_debug(const struct env_record *r)
{
	char line[4096];
	size_t used = 0;

	for (int i = 0; i < r->n && used < sizeof(line); i++)
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%s %s %s",
					 i ? "," : "", r->f[i].key, env_value(&r->f[i]));
	fprintf(stderr, "%s: env:%s\n", program_invocation_short_name, line);
}

void env_print(enum env_parts parts, int sock, int debug)
{
	if (!machine_read)
		env_early();
	env_record_init(&last, parts == ENV_CONN ? NULL : parts == ENV_NET ? FIRST_CONN :
			   FIRST_NET);
	fill_machine(&last);
	if (parts & ENV_NET)
		fill_net(&last);
	if (parts == ENV_CONN)
		fill_conn(&last, sock);
	printed = 1;
	if (out_json())
		env_record_print("env", &last);
	else if (debug)
		print_debug(&last);
	if (then)
		then();
}

void env_then(void (*fn)(void))
{
	then = fn;
}

const struct env_record *env_last(void)
{
	return printed ? &last : NULL;
}
