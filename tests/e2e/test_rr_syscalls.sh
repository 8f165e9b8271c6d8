#!/bin/sh
# Request/response over UDP costs each end the system calls of the work
# and no more, as netperf UDP_RR: zcc's closed loop waits for an answer
# in its receive call (SO_RCVTIMEO bounds it), not in a poll() before it,
# counted by tests/shim_recvcalls.so (ZC_SHIM_POLLS: the polls on a
# socket); zcs's loop reads its wake-up pipe only when poll() says it has
# bytes, seen in /proc/PID/io's read() count. With --call-times zcc polls
# first (the receive call's time is its own, as zcc(1) says). Copies and
# losses (tests/tools/rrpeer udpbye dup) counted through the waits.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

ZCC=$ZC_BIN/zcc
shim_ready recvcalls

zcs_start || { not_ok "zcs starts: $(cat "$TMP/zcs.err")"; finish; }

# syscr: zcs's read() calls so far (/proc/PID/io).
syscr() {
	sed -n 's/^syscr: //p' "/proc/$ZCS_PID/io"
}

# counted ARGS...: zcc --rr --proto udp -n 2000 -b 100 ARGS under the shim:
# POLLS and RECVS, its polls on a socket and its receive calls.
counted() {
	: >"$TMP/polls"
	: >"$TMP/calls"
	LD_PRELOAD=$SHIM ZC_SHIM_POLLS=$TMP/polls ZC_SHIM_RECVCALLS=$TMP/calls \
		captured 60 "$ZCC" --rr --proto udp -s 127.0.0.1 -p "$ZCS_PORT" -n 2000 -b 100 "$@"
	# timeout(1), preloaded too, adds its line of none.
	POLLS=$(awk '{ n += $2 } END { print n + 0 }' "$TMP/polls")
	RECVS=$(awk '{ n += $2 } END { print n + 0 }' "$TMP/calls")
}

r0=$(syscr)
counted
r1=$(syscr)
check "closed loop: 2000 transactions, the answers waited for in recv: $POLLS polls, $RECVS receives ($(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && grep -q "^rr: 2000 transactions" "$TMP/out" &&
	[ -n "$POLLS" ] && [ "$POLLS" -lt 20 ] && [ "$RECVS" -ge 2000 ] && [ "$RECVS" -lt 2020 ]'
check "zcs: its wake-up pipe not read for each request ($((r1 - r0)) read calls over 2000)" \
	[ $((r1 - r0)) -lt 200 ]
counted --call-times
check "--call-times: a poll before each receive ($POLLS polls)" \
	eval '[ "$RC" -eq 0 ] && [ -n "$POLLS" ] && [ "$POLLS" -ge 2000 ]'
stop_bg "$ZCS_PID"

# What comes while the closed loop waits in recv and is not its answer (a
# copy of the last one) leaves the rest of the wait to poll(); an answer
# that never comes ends the wait in recv's time-out, counted as lost, not
# as an error: rrpeer udpbye dup sends each answer twice but 5 and 6's.
peer_start "$ZC_TESTBIN/rrpeer" udpbye dup || not_ok "rrpeer udpbye dup starts"
captured 60 "$ZCC" --rr --proto udp -s 127.0.0.1 -p "$PEER_PORT" -n 50 -b 100
check "copies and losses in the closed loop: 48 answered, lost 2, duplicated 47 ($(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && grep -q "^rr: 48 transactions .*, lost 2, duplicated 47, reordered 0$" "$TMP/out"'
stop_bg "$PEER_PID"
finish
