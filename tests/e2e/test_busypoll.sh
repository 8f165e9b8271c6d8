#!/bin/sh
# zcc --rr --busy-poll: usage refused at the door (without --rr, a bad or
# too large value, -M uring); over loopback (no NAPI ID) one line, exit 1,
# and 0 (off) runs, busy_poll_us 0; between two network namespaces over a veth
# pair whose ends have GRO on (veth then receives by NAPI: the connection
# gets a NAPI ID), the rr: line and event say the busy polling, over TCP
# and UDP, a list 0,50 is two variants in one table, and a user without
# CAP_NET_ADMIN (which SO_PREFER_BUSY_POLL asks) gets one line naming it.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
NUM='[0-9]+(\.[0-9]+)?'

usage_refused "--busy-poll without --rr" "$ZCC" --busy-poll 50 -s 127.0.0.1 /dev/null
grep -q "^zcc: --busy-poll is for request/response: give --rr$" "$TMP/err" &&
	ok "it names --rr" || not_ok "names --rr: $(cat "$TMP/err")"
usage_refused "--busy-poll x" "$ZCC" --rr --busy-poll x -s 127.0.0.1
usage_refused "--busy-poll above a second" "$ZCC" --rr --busy-poll 1000001 -s 127.0.0.1
usage_refused "--busy-poll 5,05" "$ZCC" --rr --busy-poll 5,05 -s 127.0.0.1
usage_refused "-M uring --busy-poll" "$ZCC" --rr -M uring --busy-poll 5 -s 127.0.0.1
grep -q "io_uring's receive does not make" "$TMP/err" &&
	ok "uring: says why" || not_ok "uring: says why: $(cat "$TMP/err")"

zcs_start || { not_ok "zcs starts: $(cat "$TMP/zcs.err")"; finish; }
captured 30 "$ZCC" --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 100 --busy-poll 50
check "loopback --busy-poll 50: exit 1, one line naming the missing NAPI ID ($(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	grep -q "^zcc: --busy-poll: the socket has no NAPI ID (loopback" "$TMP/err"'
captured 30 "$ZCC" --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 100 --busy-poll 0 -J
check "loopback --busy-poll 0: off, the run whole" eval '[ "$RC" -eq 0 ] &&
	[ "$(json_get "$TMP/out" rr busy_poll_us)" = 0 ] && [ ! -s "$TMP/err" ]'
stop_bg "$ZCS_PID"

tx=zc-bp-tx$$
rx=zc-bp-rx$$
if ! command -v ethtool >/dev/null 2>&1; then
	skip "busy polling over veth: no ethtool to turn GRO on (Debian's ethtool)"
	finish
fi
two_hosts "$tx" "$rx" || finish
# GRO on a veth end makes it receive by NAPI; TSO off on the sender keeps
# TCP's packets eligible for it (UDP's need rx-udp-gro-forwarding).
if ! { ip netns exec "$tx" ethtool -K vt gro on rx-udp-gro-forwarding on tso off gso off &&
	ip netns exec "$rx" ethtool -K vr gro on rx-udp-gro-forwarding on tso off gso off; } \
	2>"$TMP/ethtool.err"; then
	skip "busy polling over veth: GRO refused: $(head -n 1 "$TMP/ethtool.err")"
	finish
fi
# ip netns exec execs zcs: the PID is zcs's.
bg ip netns exec "$rx" "$ZC_BIN/zcs" -p 0 >"$TMP/zcs.out" 2>"$TMP/zcs.err"
ZCS_PID=$!
within 50 zcs_listening "$TMP/zcs.out" "$ZCS_PID"
has_line "$TMP/zcs.out" "$ZCS_LISTENING" || { not_ok "zcs starts in $rx: $(cat "$TMP/zcs.err")"; finish; }
ZCS_PORT=$(zcs_port "$TMP/zcs.out")

for p in tcp udp; do
	captured 60 ip netns exec "$tx" "$ZCC" --rr --proto $p -b 200 -s 192.0.2.2 -p "$ZCS_PORT" -n 500 \
		--busy-poll 50 -J
	check "veth, $p, --busy-poll 50: exit 0, busy_poll_us 50 ($(head -c 300 "$TMP/err"))" \
		eval '[ "$RC" -eq 0 ] && [ "$(json_get "$TMP/out" rr busy_poll_us)" = 50 ] &&
		[ "$(json_get "$TMP/out" rr transactions)" -ge 1 ]'
done
captured 60 ip netns exec "$tx" "$ZCC" --rr -b 200 -s 192.0.2.2 -p "$ZCS_PORT" -n 300 --busy-poll 50
check "the rr: line says it: $(grep '^rr:' "$TMP/out")" \
	grep -Eq "^rr: 300 transactions in $NUM s, [0-9]+ transactions/sec, request 200 bytes, response 200 bytes, busy polling 50 us" "$TMP/out"
captured 120 ip netns exec "$tx" "$ZCC" --rr -b 200 -s 192.0.2.2 -p "$ZCS_PORT" -n 300 --busy-poll 0,50 -R 2
check "--busy-poll 0,50 -R 2: one table, busy0 the reference, busy50 beside it" eval '
	[ "$RC" -eq 0 ] && grep -Eq "^busy0 .*\(reference\)$" "$TMP/out" &&
	grep -Eq "^busy50 +[0-9]+ " "$TMP/out"'
if command -v setpriv >/dev/null 2>&1; then
	captured 60 ip netns exec "$tx" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$ZCC" --rr -b 200 -s 192.0.2.2 -p "$ZCS_PORT" -n 10 --busy-poll 50
	check "without CAP_NET_ADMIN: exit 1, one line naming it ($(cat "$TMP/err"))" eval '
		[ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q "^zcc: --busy-poll: SO_[A-Z_]*: .*CAP_NET_ADMIN" "$TMP/err"'
else
	skip "without CAP_NET_ADMIN: no setpriv"
fi
stop_bg "$ZCS_PID"
finish
