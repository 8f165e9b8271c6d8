#!/bin/sh
# zcc --rr --proto ip and --proto packet against zcs --proto ip / packet,
# between two network namespaces joined by a veth pair (root only): the
# closed loop over each, the open loop over ip, ip and udp compared in
# rounds; --stamps and --call-times over each (no ACK stamp, said), and
# --busy-poll refused (no NAPI ID on a raw socket); a foreign sender on
# the protocol (tests/tools/rawfoe) counted at
# zcs, and one toward zcc counted there, the runs unaffected; at the door --ip-proto 6 and -b above the
# MTU; without CAP_NET_RAW one line naming it; a stop mid-run; zcc's
# interface going down mid-run: one line, exit 1; zcs's: a warning, and
# it serves on.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
ZCS=$ZC_BIN/zcs
FOE=$ZC_TESTBIN/rawfoe
TX=zcrawt$$
RX=zcrawr$$
NUM='[0-9]+(\.[0-9]+)?'
P="p50 $NUM us, p99 $NUM us, max $NUM us"

if [ "$(id -u)" != 0 ]; then
	skip "raw sockets and network namespaces: not root"
	finish
fi
two_hosts "$TX" "$RX" || finish
ip -n "$TX" link set lo up

# --- at the door ------------------------------------------------------------------
usage_refused "--ip-proto 6" "$ZCC" --rr --proto ip --ip-proto 6 -s 192.0.2.2
check "--ip-proto 6: the line names TCP" grep -q "TCP's" "$TMP/err"
usage_refused "--ip-proto 0" "$ZCC" --rr --proto ip --ip-proto 0 -s 192.0.2.2
usage_refused "--ip-proto with --proto udp" "$ZCC" --rr --proto udp --ip-proto 253 -s 192.0.2.2
usage_refused "--ifname with --proto ip" "$ZCC" --rr --proto ip --ifname lo -s 192.0.2.2
usage_refused "--proto ip -b 10" "$ZCC" --rr --proto ip -b 10 -s 192.0.2.2
usage_refused "--proto packet -M write" "$ZCC" --rr --proto packet -M write -s 192.0.2.2
usage_refused "zcs --proto packet without --ifname" "$ZCS" --proto packet
usage_refused "zcs --proto sctp" "$ZCS" --proto sctp
usage_refused "zcs --ip-proto 17" "$ZCS" --proto ip --ip-proto 17

# in_tx ARGS...: zcc in the client's namespace, 30 s at most.
in_tx() {
	captured 30 ip netns exec "$TX" "$ZCC" "$@"
}

# raw_zcs ARGS...: zcs in the server's namespace; ZCS_PID, ZCS_PORT.
raw_zcs() {
	: >"$TMP/zcs.out"
	bg ip netns exec "$RX" "$ZCS" -p 0 "$@" >"$TMP/zcs.out" 2>"$TMP/zcs.err"
	ZCS_PID=$!
	within 50 zcs_listening "$TMP/zcs.out" "$ZCS_PID"
	has_line "$TMP/zcs.out" "$ZCS_LISTENING" || return 1
	ZCS_PORT=$(zcs_port "$TMP/zcs.out")
}

# closed PROTO: -n 200 -b 200 closed loop over PROTO.
closed() {
	proto=$1
	in_tx --rr --proto "$1" -s 192.0.2.2 -p "$ZCS_PORT" -n 200 -b 200
	check "--proto $1 -n 200 -b 200: exit 0, 200 transactions, lost 0 ($(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 0 ] && [ ! -s "$TMP/err" ] && grep -Eq "^rr: 200 transactions in .*request 200 bytes, response 200 bytes over $proto, lost 0, duplicated 0, reordered 0, foreign 0$" "$TMP/out"'
}

# probed PROTO: --stamps and --call-times over PROTO: the stages each
# raw socket is stamped at (no ACK: said), every answer counted, stamped or
# not; each request's send call timed and a receive call for each answer;
# --busy-poll refused with the reason (the kernel marks no raw socket
# with a NAPI ID), in one line.
probed() {
	in_tx --rr --proto "$1" -s 192.0.2.2 -p "$ZCS_PORT" -n 300 -b 200 --stamps --call-times -J
	check "--proto $1 --stamps: the stages stamped, device to ACK said ($(grep '"event":"stages"' "$TMP/out"); $(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 0 ] && [ "$(json_get "$TMP/out" stages stamps_missing)" = 0 ] &&
		[ "$(json_get "$TMP/out" stages device_ack_count)" = 0 ] &&
		[ "$(json_get "$TMP/out" stages qdisc_device_count)" -gt 0 ] &&
		[ "$(( $(json_get "$TMP/out" stages wakeup_count) + $(json_get "$TMP/out" stages arrivals_unstamped) ))" = 300 ]'
	sends=$(grep '"direction":"send"' "$TMP/out" | sed 's/.*"calls":\([0-9]*\).*/\1/')
	recvs=$(grep '"direction":"recv"' "$TMP/out" | sed 's/.*"calls":\([0-9]*\).*/\1/')
	check "--proto $1 --call-times: 300 sends timed, a receive for each answer ($sends, $recvs)" \
		eval '[ "$sends" = 300 ] && [ -n "$recvs" ] && [ "$recvs" -ge 300 ]'
	# A second: the kernel turns arrival stamps on in deferred work, which
	# 300 quick transactions can outrun (all unstamped), as test_stamps'.
	in_tx --rr --proto "$1" -s 192.0.2.2 -p "$ZCS_PORT" -t 1 -b 200 --stamps
	check "--proto $1 --stamps: the stages: line ($(grep ^stages "$TMP/out"))" grep -Eq \
		"^stages: user to qdisc ($P|not stamped here); qdisc to device $P; device to ACK: not stamped here; device to program $P; " \
		"$TMP/out"
	in_tx --rr --proto "$1" -s 192.0.2.2 -p "$ZCS_PORT" -n 10 -b 200 --busy-poll 50
	check "--proto $1 --busy-poll 50: one line, the raw socket has no NAPI ID ($(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "no NAPI ID.*raw socket" "$TMP/err"'
}

# beside_foe NS PROTO WHERE COUNT FOREIGN: rawfoe in namespace NS sends
# COUNT foreign packets over PROTO to WHERE while zcc runs 300 requests
# over PROTO, open loop: the run whole, its rr: line's foreign count
# matching FOREIGN (grep -E). foe_pid: rawfoe's.
beside_foe() {
	proto=$2 foreign=$5
	: >"$TMP/foe.out"
	bg ip netns exec "$1" "$FOE" "$2" "$3" "$4" >"$TMP/foe.out" 2>"$TMP/foe.err"
	foe_pid=$!
	wait_for "$TMP/foe.out" '^sending$' || not_ok "rawfoe $2 starts: $(cat "$TMP/foe.err")"
	in_tx --rr --proto "$2" -s 192.0.2.2 -p "$ZCS_PORT" -n 300 -b 200 --gap 1ms
	check "--proto $2 beside a foreign sender in $1: 300 transactions, lost 0, foreign $5 ($(grep ^rr: "$TMP/out"); $(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 0 ] && grep -Eq "^rr: 300 transactions .* over $proto, lost 0, duplicated 0, reordered 0, foreign $foreign$" "$TMP/out"'
}

# foe PROTO WHERE: 300 foreign packets toward zcs during a run over PROTO:
# zcs counts each of them, zcc sees none.
foe() {
	beside_foe "$TX" "$1" "$2" 300 0
	check "rawfoe $1 sent its 300" wait_for "$TMP/foe.out" '^sent 300$' 100
	reap_pid "$foe_pid" 10
	forget_bg "$foe_pid"
	stop_bg "$ZCS_PID"
	check "zcs counted the 300 as foreign: $(cat "$TMP/zcs.err")" \
		grep -q "^zcs: --proto $1: 300 packets foreign" "$TMP/zcs.err"
}

# foe_back PROTO WHERE: foreign packets toward zcc (from the server's side,
# 1000 over a second or more) during its run: counted there.
foe_back() {
	beside_foe "$RX" "$1" "$2" 1000 '[1-9][0-9]*'
	stop_bg "$foe_pid"
}

# --- raw IP ---------------------------------------------------------------------
raw_zcs --proto ip || { not_ok "zcs --proto ip starts: $(cat "$TMP/zcs.err")"; finish; }
closed ip
probed ip
in_tx --rr --proto ip -P 2 -s 192.0.2.2 -p "$ZCS_PORT" -n 200 -b 200
check "--proto ip -P 2: 400 transactions, each flow's answers not foreign to the other ($(grep ^rr: "$TMP/out"); $(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && grep -Eq "^rr: 400 transactions .* over ip, lost 0, duplicated 0, reordered 0, foreign 0$" "$TMP/out"'
in_tx --rr --proto ip -s 192.0.2.2 -p "$ZCS_PORT" -n 100 -b 200 --gap 1ms
check "--proto ip --gap 1ms -n 100: exit 0, 100 transactions, the schedule ($(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && grep -Eq "^rr: 100 transactions .* over ip, lost 0" "$TMP/out" &&
	grep -q "^schedule: 100 of 100 requests sent" "$TMP/out"'
in_tx --rr --proto ip,udp -R 2 -s 192.0.2.2 -p "$ZCS_PORT" -n 200 -b 200
check "--proto ip,udp -R 2: the comparison table, ip against udp ($(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && grep -q "^compare: 2 rounds, each variant against ip" "$TMP/out" &&
	grep -Eq "^udp +[0-9]+ +$NUM" "$TMP/out"'
in_tx --rr --proto ip -s 192.0.2.2 -p "$ZCS_PORT" -n 10 -b 1481
check "--proto ip -b 1481 over a 1500 MTU: refused, naming the MTU ($(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	grep -q "above the 1480 bytes .* MTU" "$TMP/err"'
if command -v setpriv >/dev/null; then
	captured 30 ip netns exec "$TX" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$ZCC" --rr --proto ip -s 192.0.2.2 -p "$ZCS_PORT" -n 10 -b 200
	check "not root: one line naming CAP_NET_RAW, exit 1 ($(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q CAP_NET_RAW "$TMP/err"'
	captured 30 ip netns exec "$RX" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$ZCS" -p 0 --proto ip
	check "zcs not root: one line naming CAP_NET_RAW, exit 1 ($(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q CAP_NET_RAW "$TMP/err"'
else
	skip "not root: no setpriv here"
fi
foe_back ip 192.0.2.1
foe ip 192.0.2.2

# --- raw Ethernet -----------------------------------------------------------------
raw_zcs --proto packet --ifname vr || { not_ok "zcs --proto packet starts: $(cat "$TMP/zcs.err")"; finish; }
closed packet
probed packet
in_tx --rr --proto packet --ifname vt -s 192.0.2.2 -p "$ZCS_PORT" -n 10 -b 1501
check "--proto packet -b 1501: refused, naming the MTU ($(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 1 ] && grep -q "above the 1500 bytes .* MTU" "$TMP/err"'
# A stop mid-run (a packet socket cannot be shut): the run ends at once,
# its lines said, the stop's exit status.
for gap in "" "--gap 1ms"; do
	# shellcheck disable=SC2086
	bg ip netns exec "$TX" "$ZCC" --rr --proto packet -s 192.0.2.2 -p "$ZCS_PORT" \
		-n 10000000 -b 200 -I 0.2 $gap >"$TMP/stop.out" 2>"$TMP/stop.err"
	stop_pid=$!
	wait_for "$TMP/stop.out" 'transactions/sec' 100
	kill -TERM "$stop_pid"
	within 30 proc_ended "$stop_pid"
	wait "$stop_pid"
	stop_rc=$?
	forget_bg "$stop_pid"
	check "--proto packet $gap stopped by SIGTERM: exit 143 within 3 s, rr: (interrupted) ($(cat "$TMP/stop.err"))" \
		eval '[ "$stop_rc" -eq 143 ] && grep -q "^rr: .* over packet, .*(interrupted)$" "$TMP/stop.out"'
done
# The interface going down mid-run: the send's error, one line, exit 1.
bg ip netns exec "$TX" "$ZCC" --rr --proto packet -s 192.0.2.2 -p "$ZCS_PORT" -n 20000 \
	-b 200 --gap 1ms -I 0.2 >"$TMP/down.out" 2>"$TMP/down.err"
down_pid=$!
wait_for "$TMP/down.out" 'transactions/sec' 100
ip -n "$TX" link set vt down
within 50 proc_ended "$down_pid"
wait "$down_pid"
down_rc=$?
forget_bg "$down_pid"
check "vt down mid-run: exit 1, one line naming the send's error ($(cat "$TMP/down.err"))" \
	eval '[ "$down_rc" -eq 1 ] && [ "$(wc -l <"$TMP/down.err")" -eq 1 ] &&
	grep -q "Network is down" "$TMP/down.err"'
ip -n "$TX" link set vt up
# The server's interface going down: one warning, and zcs serves on once it is up.
ip -n "$RX" link set vr down
check "vr down: zcs says so in one warning" \
	wait_for "$TMP/zcs.err" '^zcs: warning: --proto packet: receive: Network is down$'
ip -n "$RX" link set vr up
closed packet
foe_back packet vr
foe packet vt

finish
