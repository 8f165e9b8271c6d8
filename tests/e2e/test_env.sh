#!/bin/sh
# needs: meter
# The environment record: zcc's, zcs's and cyclesoak's first JSON event
# (env) and -d's env: line, on loopback, and across a veth pair between
# two namespaces of our own whose sending end has another MTU, TSO off
# (set through SIOCETHTOOL by tests/tools/ifset: ethtool is not needed)
# and a qdisc of its own (the first of fq, fq_codel, pfifo this kernel has).
. "$ZC_TOP/tests/lib.sh"

J=$ZC_TESTBIN/jsoncheck
head -c 200000 /dev/urandom >"$TMP/a"

MACHINE_KEYS="kernel cpu_model cpus_online virtual smt governor cpus_allowed cpu_quota"
NET_KEYS="tcp_congestion_control tcp_rmem tcp_wmem rmem_max wmem_max"
CONN_KEYS="interface driver mtu speed_mbps tso gso gro sg tx_csum rx_csum qdisc rps_cpus xps_cpus"

# has_keys WHAT FILE KEYS...: every env event of FILE has every key.
has_keys() {
	_w=$1 _f=$2
	shift 2
	_ks=
	for _k in "$@"; do _ks="$_ks -k $_k"; done
	# shellcheck disable=SC2086
	check "$_w: the env event has its keys" "$J" -E env $_ks "$_f"
}

# env_of FILE KEY: KEY's value in FILE's first env event.
env_of() { "$J" -E env -g "$2" "$1" | head -n 1; }

# --- loopback ---------------------------------------------------------------
zcs_start -J
timeout 20 "$ZC_BIN/zcc" -J -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
check "zcc -J to loopback: exit 0" [ $? -eq 0 ]
check "zcc: env is the first event" sh -c "head -n 1 '$TMP/zcc.out' | grep -q '\"event\":\"env\"'"
check "zcc: one env event" [ "$("$J" -E env -g kernel "$TMP/zcc.out" | wc -l)" -eq 1 ]
# shellcheck disable=SC2086
has_keys "zcc" "$TMP/zcc.out" $MACHINE_KEYS $NET_KEYS $CONN_KEYS
check "zcc: interface lo" [ "$(env_of "$TMP/zcc.out" interface)" = lo ]
lo_mtu=$(cat /sys/class/net/lo/mtu)
check "zcc: mtu $lo_mtu as /sys says" [ "$(env_of "$TMP/zcc.out" mtu)" = "$lo_mtu" ]
check "zcc: kernel $(uname -r)" [ "$(env_of "$TMP/zcc.out" kernel)" = "$(uname -r)" ]
check "zcc: loopback has no driver or speed: null" \
	[ "$(env_of "$TMP/zcc.out" driver)$(env_of "$TMP/zcc.out" speed_mbps)" = nullnull ]
check "zcc: the congestion control as the sysctl says" \
	[ "$(env_of "$TMP/zcc.out" tcp_congestion_control)" = "$(cat /proc/sys/net/ipv4/tcp_congestion_control)" ]
check "zcc: cpus_online $(getconf _NPROCESSORS_ONLN)" \
	[ "$(env_of "$TMP/zcc.out" cpus_online)" = "$(getconf _NPROCESSORS_ONLN)" ]
stop_bg "$ZCS_PID"
check "zcs: env before listening, then one with the connection" \
	[ "$("$J" -g event "$TMP/zcs.out" | head -n 3 | tr '\n' ' ')" = "env listening env " ]
grep '"event":"env"' "$TMP/zcs.out" | head -n 1 >"$TMP/zcs.first"
# shellcheck disable=SC2086
has_keys "zcs at start" "$TMP/zcs.first" $MACHINE_KEYS $NET_KEYS
check "zcs at start: no interface key" sh -c "! grep -q '\"interface\"' '$TMP/zcs.first'"
check "zcs at its connection: interface lo" \
	[ "$(grep '"event":"env"' "$TMP/zcs.out" | sed -n 2p | "$J" -g interface)" = lo ]

# -B: the allowed CPUs are the ones zcc was given, not the one it binds to.
zcs_start -1
timeout 20 "$ZC_BIN/zcc" -J -B 0 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zcc.out" 2>&1
allowed=$(env_of "$TMP/zcc.out" cpus_allowed)
# The shell's mask as sched_getaffinity gives it (taskset asks so), which
# leaves offline CPUs out as zcc's does; /proc's Cpus_allowed_list keeps
# them. taskset writes "0,1" where zcc writes "0-1": both spelled out.
cpus_each() {
	echo "$1" | tr ',' '\n' | awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }'
}
want=$(taskset -pc $$ | sed 's/.*: *//')
check "zcc -B 0: cpus_allowed $allowed, the shell's $want" \
	eval '[ -n "$allowed" ] && [ "$(cpus_each "$allowed")" = "$(cpus_each "$want")" ]'

# -d: the env: line on stderr with the other debug lines; stdout keeps
# the sent: line alone.
zcs_start -1
timeout 20 "$ZC_BIN/zcc" -d -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
check "zcc -d: an env: line on stderr naming the interface" \
	grep -q '^zcc: env: kernel .*, interface lo, ' "$TMP/zcc.err"
check "zcc -d: stdout only the sent: line" [ "$(cut -d: -f1 "$TMP/zcc.out" | tr '\n' ' ')" = "sent " ]
zcs_start -1
timeout 20 "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zcc.out" 2>&1
check "zcc without -d: no env: line" sh -c "! grep -q '^env:' '$TMP/zcc.out'"

# -P: the record comes before the streams connect; the interface is the
# route's (every stream takes it).
zcs_start -J
timeout 20 "$ZC_BIN/zcc" -J -P 2 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zcc.out" 2>&1
check "zcc -P 2: env first, interface lo" \
	[ "$(head -n 1 "$TMP/zcc.out" | "$J" -E env -g interface)" = lo ]
stop_bg "$ZCS_PID"

# cyclesoak: the machine only.
meter_slot
meter_wait_others
run_cs -J -r -1 >"$TMP/cs.out"
check "cyclesoak -J: env is the first event" \
	[ "$("$J" -g event "$TMP/cs.out" | head -n 1)" = env ]
# shellcheck disable=SC2086
has_keys "cyclesoak" "$TMP/cs.out" $MACHINE_KEYS
check "cyclesoak: no connection or network keys" \
	sh -c "! grep -q '\"interface\"\\|\"tcp_rmem\"' '$TMP/cs.out'"
meter_slot_free

# --- a veth pair between two namespaces --------------------------------------
nsa=zc-enva$$ nsb=zc-envb$$
remove_ns() {
	ip netns delete "$nsa" 2>/dev/null
	ip netns delete "$nsb" 2>/dev/null
}
if ! ip netns add "$nsa" 2>/dev/null || ! ip netns add "$nsb" 2>/dev/null; then
	remove_ns
	skip "veth: cannot make network namespaces (not root, or no ip)"
	finish
fi
on_cleanup remove_ns
if ! { ip -n "$nsa" link add v0 type veth peer name v1 netns "$nsb" &&
	ip -n "$nsa" addr add 192.0.2.1/24 dev v0 && ip -n "$nsb" addr add 192.0.2.2/24 dev v1 &&
	ip -n "$nsa" link set v0 mtu 1400 && ip -n "$nsb" link set v1 mtu 1400 &&
	ip -n "$nsa" link set v0 up && ip -n "$nsb" link set v1 up &&
	ip -n "$nsa" link set lo up && ip -n "$nsb" link set lo up; }; then
	not_ok "cannot set up the veth pair"
	finish
fi
if ! ip netns exec "$nsa" "$ZC_TESTBIN/ifset" v0 tso off 2>"$TMP/ifset.err"; then
	not_ok "ifset v0 tso off: $(cat "$TMP/ifset.err")"
fi
qdisc=
for q in fq fq_codel pfifo; do
	ip netns exec "$nsa" tc qdisc add dev v0 root $q 2>/dev/null && qdisc=$q && break
done
ZCS_PREFIX="ip netns exec $nsb"
zcs_up veth -J -1
timeout 30 ip netns exec "$nsa" "$ZC_BIN/zcc" -J -s 192.0.2.2 -p "$ZCS_PORT" "$TMP/a" \
	>"$TMP/zcc.out" 2>"$TMP/zcc.err"
check "zcc across the veth pair: exit 0 $(cat "$TMP/zcc.err")" [ $? -eq 0 ]
# shellcheck disable=SC2086
has_keys "veth" "$TMP/zcc.out" $MACHINE_KEYS $NET_KEYS $CONN_KEYS
check "veth: interface v0" [ "$(env_of "$TMP/zcc.out" interface)" = v0 ]
check "veth: driver veth" [ "$(env_of "$TMP/zcc.out" driver)" = veth ]
check "veth: mtu 1400" [ "$(env_of "$TMP/zcc.out" mtu)" = 1400 ]
check "veth: tso false" [ "$(env_of "$TMP/zcc.out" tso)" = false ]
check "veth: gso true" [ "$(env_of "$TMP/zcc.out" gso)" = true ]
check "veth: a link speed ($(env_of "$TMP/zcc.out" speed_mbps))" \
	sh -c "env_speed=\$('$J' -E env -g speed_mbps '$TMP/zcc.out'); [ \"\$env_speed\" -gt 0 ]"
if [ -n "$qdisc" ]; then
	check "veth: qdisc $qdisc (tc added it)" [ "$(env_of "$TMP/zcc.out" qdisc)" = "$qdisc" ]
else
	skip "veth: tc could not add a qdisc (no tc, or none of fq, fq_codel, pfifo)"
fi
check "veth: the rps mask as /sys says" [ "$(env_of "$TMP/zcc.out" rps_cpus)" = \
	"$(ip netns exec "$nsa" cat /sys/class/net/v0/queues/rx-0/rps_cpus)" ]
finish
