#!/bin/sh
# needs: meter
# MPTCP over two paths: zcc in one network namespace, zcs in another,
# joined by two veth pairs shaped by tc tbf to the same rate; zcs's end
# announces its second address (an MPTCP "signal" endpoint), so the
# connection opens a second subflow. Both subflows must carry at least
# 10% of the bytes, -d and -J show each, -W counts both interfaces; then
# the second link is set down mid-run: the transfer goes on over the
# first, byte-exact, and -d names the subflow that went down.
# Skipped, with the kernel's reason, where it opens no MPTCP socket.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
ZCS=$ZC_BIN/zcs
J=$ZC_TESTBIN/jsoncheck
tx=zc-mp-tx$$
rx=zc-mp-rx$$

if ! netns_new "$tx" || ! netns_new "$rx"; then
	skip "MPTCP paths: cannot make a network namespace (not root, or no ip)"
	finish
fi
if ! ip netns exec "$tx" "$ZC_TESTBIN/mptcpprobe" 2>"$TMP/probe"; then
	skip "MPTCP paths: $(cat "$TMP/probe")"
	finish
fi
# Two paths, 10.9.1.0/24 and 10.9.2.0/24, each 40 Mbit/s from zcc's end.
setup() {
	for i in 1 2; do
		ip -n "$tx" link add "a$i" type veth peer name "b$i" netns "$rx" &&
			ip -n "$tx" addr add "10.9.$i.1/24" dev "a$i" &&
			ip -n "$rx" addr add "10.9.$i.2/24" dev "b$i" &&
			ip -n "$tx" link set "a$i" up && ip -n "$rx" link set "b$i" up &&
			ip netns exec "$tx" tc qdisc add dev "a$i" root tbf rate 40mbit \
				burst 32kbit latency 400ms || return 1
	done
	ip -n "$tx" mptcp limits set subflow 2 add_addr_accepted 2 &&
		ip -n "$rx" mptcp limits set subflow 2 add_addr_accepted 2 &&
		ip -n "$rx" mptcp endpoint add 10.9.2.2 dev b2 signal
}
if ! setup 2>"$TMP/setup.err"; then
	skip "MPTCP paths: cannot set up two paths (ip mptcp, tc tbf): $(cat "$TMP/setup.err")"
	finish
fi
ZCS_PREFIX="ip netns exec $rx"
head -c 16000000 /dev/urandom >"$TMP/a"

# --- both paths carry bytes ----------------------------------------------------
zcs_up two --mptcp -1 -J -d
meter_slot
timeout 60 ip netns exec "$tx" "$ZCC" --mptcp -J -d -c -W -s 10.9.1.2 -p "$ZCS_PORT" \
	"$TMP/a" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
rc=$?
meter_slot_free
within 50 proc_ended "$ZCS_PID"
sent=$("$J" -E sent -g bytes "$TMP/zcc.out")
why=$(grep -v '^zcc: \(page cache\|subflow\|env\|connected\|sendfile\|tcp\)' "$TMP/zcc.err" | head -n 1)
check "two paths: exit $rc, $sent bytes sent and received whole $why" [ $rc -eq 0 ] &&
	[ "$sent" = "$("$J" -E done -g bytes "$WORK/two.out")" ]
grep '"event":"sent"' "$TMP/zcc.out" | grep -o '"bytes_sent":[0-9]*' | cut -d: -f2 >"$TMP/each"
check "zcc -J: two subflows listed ($(tr '\n' ' ' <"$TMP/each"))" [ "$(grep -c '' "$TMP/each")" -eq 2 ]
while read -r b; do
	check "a subflow carried $b of $sent bytes: at least 10%" [ $((b * 10)) -ge "$sent" ]
done <"$TMP/each"
check "zcc -d: a line for each subflow, one per path" \
	grep -q '^zcc: subflow 10.9.1.1 port [0-9]* -> 10.9.1.2 port [0-9]*: up' "$TMP/zcc.err" &&
	grep -q '^zcc: subflow 10.9.2.1 port [0-9]* -> 10.9.2.2 port [0-9]*: up' "$TMP/zcc.err"
check "zcs -d: a line for each subflow" [ "$(grep -c ': subflow 10.9.[12].2 port' "$WORK/two.err")" -eq 2 ]
cpu=$(grep '"event":"cpu"' "$TMP/zcc.out")
check "-W: both interfaces' packets counted" \
	sh -c "echo '$cpu' | grep -q '\"name\":\"a1\"' && echo '$cpu' | grep -q '\"name\":\"a2\"'"

# --- the second link goes down mid-run ------------------------------------------
zcs_up down --mptcp -1 -J -d -T 20
bg ip netns exec "$tx" "$ZCC" --mptcp -J -d -I 0.25 -T 20 -s 10.9.1.2 -p "$ZCS_PORT" \
	"$TMP/a" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
zcc_pid=$!
# has_subflow2: the second path's subflow is established (the kernel's word).
has_subflow2() {
	[ -n "$(ip netns exec "$tx" ss -Htn state established dst 10.9.2.2 2>/dev/null)" ]
}
wait_for "$TMP/zcc.out" '"event":"interval"' 100
check "the second path's subflow is up before its link goes down" within 100 has_subflow2
ip -n "$tx" link set a2 down
wait "$zcc_pid"
rc=$?
forget_bg "$zcc_pid"
within 50 proc_ended "$ZCS_PID"
sent=$("$J" -E sent -g bytes "$TMP/zcc.out")
check "a2 down mid-run: exit $rc, $sent bytes sent and received whole" [ $rc -eq 0 ] &&
	[ "$sent" = "$("$J" -E done -g bytes "$WORK/down.out")" ]
# The kernel may keep the subflow, retransmitting into the dead link
# (down, with its timeouts), or close it (gone): either is named.
check "zcc -d names the subflow that went down: $(grep 'subflow 10.9.2' "$TMP/zcc.err")" \
	grep -Eq '^zcc: subflow 10.9.2.1 port [0-9]+ -> 10.9.2.2 port [0-9]+: (down,.* timeouts in a row|gone )' "$TMP/zcc.err"
check "zcc -J: its state down or gone" \
	sh -c "grep '\"event\":\"sent\"' '$TMP/zcc.out' | grep -Eq '\"state\":\"(down|gone)\"'"
check "the first path's subflow still up" \
	grep -q '^zcc: subflow 10.9.1.1 port [0-9]* -> 10.9.1.2 port [0-9]*: up' "$TMP/zcc.err"

finish
