#!/bin/sh
# zcc --rr --stamps: the kernel's software stamps cut each request's and
# answer's trip into stages (user to qdisc, qdisc to device, device to
# ACK over TCP, device to program), one stages: line with a stage no
# stamp came for named; tests/tools/shim_tstamp.so makes the kernel
# refuse SO_TIMESTAMPING (one line, exit 1) or lose every stamp after the
# first 30 (the missing ones counted, the run ends within its bound).
# zcc --rr --call-times: a send calls and a recv calls line, the send
# calls those tests/tools/shim_sockcalls.so sees on the socket (but the
# hello), --budget counting on both. Stream mode --stamps: -M send only,
# one send in 64 stamped, each with its three stamps. zcs --stamps: its
# side of a TCP request/response connection, a stages: line after its
# answered: line (text and JSON); refused by the kernel, one line and the
# connection served without; a stream and a UDP flow have none. zcs
# --call-times: a recv and a send call-times: line after a TCP
# request/response connection's answered: line, kept when the stamps are
# refused.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

ZCC=$ZC_BIN/zcc
J=$ZC_TESTBIN/jsoncheck
NUM='[0-9]+(\.[0-9]+)?'
P="p50 $NUM us, p99 $NUM us, max $NUM us"
LAT="p50 $NUM us, p90 $NUM us, p99 $NUM us, p99.9 $NUM us, p99.99 $NUM us, max $NUM us, mean $NUM us, sd $NUM us"

run_zcc() {
	captured 30 "$@"
}

shim_ready tstamp
TSHIM=$SHIM
shim_ready sockcalls

# --- at the door ---------------------------------------------------------------
printf 'data\n' >"$TMP/a"
usage_refused "--stamps with a value" "$ZCC" --rr -s 0 --stamps=1

zcs_start || { not_ok "zcs starts: $(cat "$TMP/zcs.err")"; finish; }
S="-s 127.0.0.1 -p $ZCS_PORT"

# --- TCP: every stage, beside the round trip -------------------------------------
# The kernel switches arrival stamps on in the background (a busy machine
# may take a while): -t 1, not a count of answers that may all come first.
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -t 1 -b 200 --stamps
check "TCP: exit 0, nothing on stderr ($(cat "$TMP/err"))" eval '[ "$RC" -eq 0 ] && [ ! -s "$TMP/err" ]'
check "TCP: the stages: line, every stage stamped: $(grep '^stages' "$TMP/out")" grep -Eq \
	"^stages: user to qdisc $P; qdisc to device $P; device to ACK $P; device to program $P; medians add to $NUM us of a round trip's p50 $NUM us; stamps missing 0, late 0, again [0-9]+, stepped 0, arrivals unstamped [0-9]+$" \
	"$TMP/out"
check "TCP: the stages: line right after one-way:" \
	[ "$(grep -A1 '^one-way:' "$TMP/out" | sed -n '2s/:.*//p')" = stages ]
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -t 1 -b 200 --stamps -J
check "TCP, -J: strict JSON, the stages event's keys" "$J" -E stages -k user_qdisc_p50_us \
	-k user_qdisc_p99_us -k user_qdisc_max_us -k qdisc_device_p50_us -k device_ack_p50_us \
	-k wakeup_p50_us -k wakeup_count -k sum_p50_us -k rtt_p50_us -k stamps_missing \
	-k stamps_late -k stamps_again -k stamps_stepped -k arrivals_unstamped "$TMP/out"
eval "$("$J" -E stages -s s_ "$TMP/out")"
# Each stage is a part of a round trip: its median under the round trip's;
# together, about the round trip less the server's part (loose: a busy
# machine's medians wander).
# shellcheck disable=SC2154
check "TCP: the stages' medians against the round trip's p50 ($s_user_qdisc_p50_us + $s_qdisc_device_p50_us + $s_device_ack_p50_us + $s_wakeup_p50_us = $s_sum_p50_us of $s_rtt_p50_us us)" \
	awk -v a="$s_user_qdisc_p50_us" -v b="$s_qdisc_device_p50_us" -v c="$s_device_ack_p50_us" \
	-v d="$s_wakeup_p50_us" -v s="$s_sum_p50_us" -v r="$s_rtt_p50_us" 'BEGIN {
	exit !(a > 0 && b >= 0 && c > 0 && d > 0 && a < r && c < r && d < r &&
	       s - (a + b + c + d) < 0.01 && s - (a + b + c + d) > -0.01 && s < 2 * r && s > r / 4) }'
# shellcheck disable=SC2154
n=$(json_get "$TMP/out" rr transactions)
check "TCP: every answer counted, stamped or not ($s_wakeup_count + $s_arrivals_unstamped of $n)" \
	[ "$((s_wakeup_count + s_arrivals_unstamped))" -eq "$n" ]

# --- UDP: no ACK to stamp ----------------------------------------------------------
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -t 1 -b 200 --proto udp --stamps
check "UDP: device to ACK not stamped here, never zero: $(grep '^stages' "$TMP/out")" grep -Eq \
	"^stages: user to qdisc $P; qdisc to device $P; device to ACK: not stamped here; device to program $P; .*stamps missing 0, late 0," \
	"$TMP/out"
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 300 -b 200 --proto udp --stamps -J
check "UDP, -J: the unstamped stage's keys null" eval '[ "$RC" -eq 0 ] &&
	grep "\"event\":\"stages\"" "$TMP/out" | grep -q "\"device_ack_count\":0,\"device_ack_p50_us\":null,\"device_ack_p99_us\":null,\"device_ack_max_us\":null"'

# --- open loop: the reader and the sender share the stamps ------------------------
for p in tcp udp; do
	# shellcheck disable=SC2086
	run_zcc "$ZCC" --rr $S -n 1000 -b 200 --proto $p --gap 200us --stamps
	check "--gap, $p: exit 0 and a stages: line ($(grep '^stages' "$TMP/out"; cat "$TMP/err"))" \
		eval '[ "$RC" -eq 0 ] && grep -Eq "^stages: user to qdisc $P; .*; stamps missing [0-9]+, late 0," "$TMP/out"'
done

# --- a kernel that refuses, stamps that never come ----------------------------------
for p in tcp udp; do
	# shellcheck disable=SC2086
	LD_PRELOAD=$TSHIM ZC_SHIM_TSTAMP=refuse run_zcc "$ZCC" --rr $S -n 10 -b 100 --proto $p --stamps
	check "$p, SO_TIMESTAMPING refused: one line, exit 1 ($(cat "$TMP/err"))" eval '[ "$RC" -eq 1 ] &&
		[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "^zcc: --stamps: SO_TIMESTAMPING: " "$TMP/err"'
done
# shellcheck disable=SC2086
LD_PRELOAD=$TSHIM ZC_SHIM_TSTAMP=drop run_zcc "$ZCC" --rr $S -n 500 -b 100 --stamps -J
check "TCP, stamps lost after the first 30: the rest of 3 x 500 counted missing, the run ends" \
	eval '[ "$RC" -eq 0 ] && [ "$(json_get "$TMP/out" stages stamps_missing)" = 1470 ]'
# shellcheck disable=SC2086
LD_PRELOAD=$TSHIM ZC_SHIM_TSTAMP=drop run_zcc "$ZCC" --rr $S -n 500 -b 100 --proto udp --stamps -J
check "UDP, stamps lost after the first 30: the rest of 2 x 500 counted missing" \
	eval '[ "$RC" -eq 0 ] && [ "$(json_get "$TMP/out" stages stamps_missing)" = 970 ]'

# --- --call-times under --rr ---------------------------------------------------------
CT="^call-times: [0-9]+ (send|recv) calls, $LAT"
: >"$TMP/count"
# shellcheck disable=SC2086
LD_PRELOAD=$SHIM ZC_SHIM_SOCKCALLS=$TMP/count run_zcc "$ZCC" --rr $S -n 300 -b 100 --call-times -J
seen=$(awk '{ n += $6 } END { print n + 0 }' "$TMP/count")
sends=$(grep '"direction":"send"' "$TMP/out" | sed 's/.*"calls":\([0-9]*\).*/\1/')
recvs=$(grep '"direction":"recv"' "$TMP/out" | sed 's/.*"calls":\([0-9]*\).*/\1/')
check "TCP: a send calls event of every request's send ($sends timed, $seen on the socket with the hello)" \
	eval '[ "$RC" -eq 0 ] && [ "$sends" = 300 ] && [ "$seen" -eq 301 ]'
check "TCP: a recv calls event, a call or more for each answer ($recvs)" \
	eval '[ -n "$recvs" ] && [ "$recvs" -ge 300 ]'
check "TCP, -J: strict JSON, both call_times events" "$J" -E call_times -k direction -k method \
	-k calls -k p50_us -k max_us "$TMP/out"
for p in tcp udp; do
	# shellcheck disable=SC2086
	run_zcc "$ZCC" --rr $S -n 200 -b 100 --proto $p --call-times --budget 1ns
	check "$p, --budget 1ns: every call and round trip over it ($(grep -c '100.00%$' "$TMP/out"))" eval \
		'[ "$RC" -eq 0 ] && grep -Eq "$CT, over 0.001 us: ([0-9]+) of [0-9]+, 100.00%$" "$TMP/out" &&
		[ "$(grep -Ec "^(latency|call-times):.*, over 0.001 us: [0-9]+ of [0-9]+, 100.00%$" "$TMP/out")" -eq 3 ]'
	check "$p: the send line, then the recv line, after latency" \
		[ "$(sed -n 's/^call-times: [0-9]* \([a-z]*\) calls.*/\1/p' "$TMP/out" | tr '\n' ' ')" = "send recv " ]
done
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 200 -b 100 --call-times --budget 1000s
check "--budget 1000s: none over it" eval '[ "$(grep -c ", over 1e+09 us: 0 of" "$TMP/out")" -eq 3 ]'
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 100 -b 100 -J
check "without --stamps and --call-times: neither event" \
	eval '[ "$RC" -eq 0 ] && ! grep -Eq "\"event\":\"(stages|call_times)\"" "$TMP/out"'

# --- stream mode: one send in 64 ------------------------------------------------------
head -c 2000000 /dev/urandom >"$TMP/f"
# shellcheck disable=SC2086
usage_refused "stream --stamps with the default method" "$ZCC" $S --stamps "$TMP/f"
grep -q 'give -M send (the default sendfile sends none)' "$TMP/err" &&
	ok "it names -M send" || not_ok "names -M send: $(cat "$TMP/err")"
# shellcheck disable=SC2086
usage_refused "stream --stamps -M send,splice" "$ZCC" $S -M send,splice --stamps "$TMP/f"
# shellcheck disable=SC2086
run_zcc "$ZCC" $S -M send -b 4096 -n 3 --stamps --call-times "$TMP/f"
check "stream: exit 0, the stages: line after call-times: $(grep '^stages' "$TMP/out")" eval '
	[ "$RC" -eq 0 ] && [ "$(grep -A1 "^call-times:" "$TMP/out" | sed -n "2s/[ :].*//p")" = stages ] &&
	grep -Eq "^stages \(1 send in 64, [0-9]+ stamped\): user to qdisc $P; qdisc to device $P; device to ACK $P; device to program: not stamped here; medians add to $NUM us; stamps missing 0, late 0, again [0-9]+, stepped 0$" "$TMP/out"'
# shellcheck disable=SC2086
run_zcc "$ZCC" $S -M send -b 4096 -n 3 --stamps --call-times -J "$TMP/f"
calls=$(json_get "$TMP/out" call_times calls)
stamped=$(json_get "$TMP/out" stages stamped_sends)
check "stream, -J: one send in 64 stamped ($stamped of $calls), each with its three stamps" eval '
	[ "$RC" -eq 0 ] && [ -n "$calls" ] && [ "$stamped" -eq $(((calls + 63) / 64)) ] &&
	[ "$(json_get "$TMP/out" stages every)" = 64 ] &&
	[ "$(json_get "$TMP/out" stages device_ack_count)" = "$stamped" ] &&
	[ "$(json_get "$TMP/out" stages wakeup_p50_us)" = null ]'
# shellcheck disable=SC2086
LD_PRELOAD=$TSHIM ZC_SHIM_TSTAMP=refuse run_zcc "$ZCC" $S -M send -n 1 --stamps "$TMP/f"
check "stream, SO_TIMESTAMPING refused: one line, exit 1 ($(cat "$TMP/err"))" eval '[ "$RC" -eq 1 ] &&
	[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "^zcc: .*--stamps: SO_TIMESTAMPING: " "$TMP/err"'
# shellcheck disable=SC2086
LD_PRELOAD=$TSHIM ZC_SHIM_TSTAMP=drop ZC_SHIM_TSTAMP_KEEP=3 run_zcc "$ZCC" $S -M send -b 4096 -n 3 \
	--stamps -J "$TMP/f"
stamped=$(json_get "$TMP/out" stages stamped_sends)
check "stream, stamps lost after the first 3: the rest counted missing, the run ends" \
	eval '[ "$RC" -eq 0 ] && [ -n "$stamped" ] &&
	[ "$(json_get "$TMP/out" stages stamps_missing)" -eq $((3 * stamped - 3)) ]'
stop_bg "$ZCS_PID"

# --- zcs --stamps: the server's side -------------------------------------------
zcs_start --stamps || { not_ok "zcs --stamps starts: $(cat "$TMP/zcs.err")"; finish; }
S="-s 127.0.0.1 -p $ZCS_PORT"
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -t 1 -b 200
check "zcs --stamps, TCP: the stages: line after answered: (answers out, requests' wake-ups)" eval '
	wait_for "$TMP/zcs.out" "^stages:" &&
	[ "$(grep -A1 "^answered:" "$TMP/zcs.out" | sed -n "2s/:.*//p")" = stages ] &&
	grep -Eq "^stages: user to qdisc $P; qdisc to device $P; device to ACK $P; device to program $P; medians add to $NUM us; stamps missing 0, late 0, again [0-9]+, stepped 0, arrivals unstamped [0-9]+$" "$TMP/zcs.out"'
# shellcheck disable=SC2086
run_zcc "$ZCC" $S -M send "$TMP/f"
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr --proto udp $S -n 100 -b 100
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 100 -b 1
check "a stream and a UDP flow: no stages: line; 1-byte messages: the next one" eval '
	wait_for "$TMP/zcs.out" "^answered: 100 requests" &&
	[ "$(grep -c "^stages:" "$TMP/zcs.out")" -eq 2 ] &&
	[ "$(grep -A1 "^done:" "$TMP/zcs.out" | grep -c "^stages:")" -eq 0 ] && [ ! -s "$TMP/zcs.err" ]'
stop_bg "$ZCS_PID"
zcs_start --stamps -J || { not_ok "zcs --stamps -J starts: $(cat "$TMP/zcs.err")"; finish; }
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 500 -b 200
check "zcs --stamps -J: strict JSON, a stages event with the wake-up" eval '
	wait_for "$TMP/zcs.out" "\"event\":\"stages\"" &&
	"$J" -E stages -k wakeup_p50_us -k user_qdisc_p50_us -k stamps_missing "$TMP/zcs.out"'
stop_bg "$ZCS_PID"
LD_PRELOAD=$TSHIM ZC_SHIM_TSTAMP=refuse zcs_start --stamps ||
	{ not_ok "zcs --stamps (refused) starts: $(cat "$TMP/zcs.err")"; finish; }
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 100 -b 200
check "zcs --stamps refused by the kernel: one line, served without ($(cat "$TMP/zcs.err"))" eval '
	[ "$RC" -eq 0 ] && wait_for "$TMP/zcs.out" "^answered: 100 requests" &&
	[ "$(wc -l <"$TMP/zcs.err")" -eq 1 ] &&
	grep -q "SO_TIMESTAMPING.*: served without stamps$" "$TMP/zcs.err" &&
	! grep -q "^stages:" "$TMP/zcs.out"'
stop_bg "$ZCS_PID"
LD_PRELOAD=$TSHIM ZC_SHIM_TSTAMP=refuse zcs_start --stamps --call-times ||
	{ not_ok "zcs --stamps --call-times (refused) starts: $(cat "$TMP/zcs.err")"; finish; }
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 100 -b 200
check "zcs --stamps refused, --call-times kept: its lines, no stages: ($(cat "$TMP/zcs.err"))" eval '
	[ "$RC" -eq 0 ] && wait_for "$TMP/zcs.out" "^call-times: [0-9]+ send calls" &&
	grep -q "^call-times: 100 send calls, " "$TMP/zcs.out" && ! grep -q "^stages:" "$TMP/zcs.out"'
stop_bg "$ZCS_PID"

# --- zcs --call-times: each request's receive calls, each answer's send --------------
zcs_start --call-times --budget 1ns -J ||
	{ not_ok "zcs --call-times starts: $(cat "$TMP/zcs.err")"; finish; }
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 300 -b 200
check "zcs --call-times -J: strict JSON, a recv and a send call_times event" eval '
	wait_for "$TMP/zcs.out" "\"direction\":\"send\"" &&
	"$J" -E call_times -k peer -k direction -k calls -k p50_us -k max_us "$TMP/zcs.out"'
recvs=$(grep '"direction":"recv"' "$TMP/zcs.out" | sed 's/.*"calls":\([0-9]*\).*/\1/')
sends=$(grep '"direction":"send"' "$TMP/zcs.out" | sed 's/.*"calls":\([0-9]*\).*/\1/')
over=$(grep '"direction":"send"' "$TMP/zcs.out" | sed 's/.*"over":\([0-9]*\).*/\1/')
check "zcs --call-times: 300 answers' sends (all over 1 ns: $over), a receive call or more for each request ($sends, $recvs)" \
	eval '[ "$sends" = 300 ] && [ "$over" = 300 ] && [ -n "$recvs" ] && [ "$recvs" -ge 300 ]'
stop_bg "$ZCS_PID"
finish
