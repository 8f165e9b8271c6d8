#!/bin/sh
# needs: meter
# zcc --rr against zcs: request/response over loopback. The count of
# transactions, the lines' shapes, the same zcs still serving a 2001
# stream, the open loop's schedule, Ctrl-C, and bad servers: a
# stream-only one (tests/tools/sink) and tests/tools/rrpeer, which
# acknowledges and then answers never, short or long.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
PEER=$ZC_TESTBIN/rrpeer
SINK=$ZC_TESTBIN/sink

run_zcc() {
	captured 30 "$ZCC" "$@"
}

NUM='[0-9]+(\.[0-9]+)?'
RR_LINE="^rr: [0-9]+ transactions in $NUM s, [0-9]+ transactions/sec, request [0-9]+ bytes, response [0-9]+ bytes$"
LAT="p50 $NUM us, p90 $NUM us, p99 $NUM us, p99.9 $NUM us, p99.99 $NUM us, max $NUM us, mean $NUM us, sd $NUM us"

# --- at the door ---------------------------------------------------------------
printf 'data\n' >"$TMP/a"
usage_refused "--rr with a file" "$ZCC" --rr -s 0 "$TMP/a"
usage_refused "--rr -M sendfile" "$ZCC" --rr -s 0 -M sendfile
usage_refused "--gap without --rr" "$ZCC" -s 0 --gap 1ms "$TMP/a"
usage_refused "--gap 0" "$ZCC" --rr -s 0 --gap 0
usage_refused "--gap 1xs" "$ZCC" --rr -s 0 --gap 1xs
usage_refused "--response 2M" "$ZCC" --rr -s 0 --response 2M
usage_refused "-C --rr" "$ZCC" -C --rr

zcs_start || { not_ok "zcs starts: $(cat "$TMP/zcs.err")"; finish; }

# --- closed loop: exactly -n transactions, the lines' shapes ------------------
for b in 1 200; do
	run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 1000 -b "$b" --budget 20us
	check "-b $b -n 1000: exit 0, 1000 transactions: $(cat "$TMP/out" "$TMP/err")" \
		eval '[ "$RC" -eq 0 ] && grep -q "^rr: 1000 transactions in .*request $b bytes, response $b bytes$" "$TMP/out"'
	check "-b $b: the rr: line's shape" has_line "$TMP/out" "$RR_LINE"
	check "-b $b: the latency: line's shape, with the budget" \
		has_line "$TMP/out" "^latency: $LAT, over 20 us: [0-9]+ of 1000, $NUM%$"
	check "-b $b: nothing on stderr" [ ! -s "$TMP/err" ]
	check "-b $b: zcs answered 1000" wait_for "$TMP/zcs.out" "^answered: 1000 requests in $NUM s, [0-9]+ requests/sec$"
	: >"$TMP/zcs.out"
done
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 300 -P 2 -b 100 --response 1K
check "-P 2 -n 300: 600 transactions: $(head -n 1 "$TMP/out")" \
	eval '[ "$RC" -eq 0 ] && grep -q "^rr: 600 transactions .*request 100 bytes, response 1024 bytes$" "$TMP/out"'
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 100 -J
check "-J: rr and latency events with their keys" eval '[ "$RC" -eq 0 ] &&
	grep -q "\"event\":\"rr\".*\"transactions\":100," "$TMP/out" &&
	grep -q "\"event\":\"latency\".*\"p99_us\":.*\"p99_99_us\":.*\"sd_us\":" "$TMP/out"'

# --- the same zcs still takes a 2001 stream -----------------------------------
: >"$TMP/zcs.out"
run_zcc -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a"
check "a stream to the same zcs: sent: $(cat "$TMP/out" "$TMP/err")" \
	eval '[ "$RC" -eq 0 ] && grep -q "^sent: 17 bytes" "$TMP/out"'
check "zcs: done: 13 bytes" wait_for "$TMP/zcs.out" '^done: 17 bytes in'

# --- open loop: the schedule kept to within one request -----------------------
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 200 --gap 1ms -b 64
check "--gap 1ms -n 200: 200 transactions: $(head -n 1 "$TMP/out")" \
	eval '[ "$RC" -eq 0 ] && grep -q "^rr: 200 transactions" "$TMP/out"'
check "--gap: both latency lines and the schedule: $(tail -n 3 "$TMP/out" | tr '\n' '|')" eval '
	grep -Eq "^latency from due: $LAT$" "$TMP/out" &&
	grep -Eq "^latency from send: $LAT$" "$TMP/out" &&
	grep -Eq "^schedule: 200 of 200 requests sent, behind by at most $NUM us" "$TMP/out"'
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -t 1 --gap 2ms -J
sent=$(sed -n 's/.*"event":"schedule".*"requests":\([0-9]*\),"due":\([0-9]*\).*/\1 \2/p' "$TMP/out")
check "--gap 2ms -t 1: requests sent and due within 1 ($sent), about 500" eval '
	[ "$RC" -eq 0 ] && set -- $sent && [ $(($1 - $2)) -le 1 ] && [ $(($2 - $1)) -le 1 ] &&
	[ "$2" -ge 400 ] && [ "$2" -le 501 ]'

# --- Ctrl-C: the summary of what was measured, marked -------------------------
for gap in "" "--gap 1ms"; do
	# shellcheck disable=SC2086
	bg env --default-signal=INT "$ZCC" --rr -s 127.0.0.1 -p "$ZCS_PORT" -t 60 -d $gap \
		>"$TMP/out" 2>"$TMP/err"
	zpid=$!
	wait_for "$TMP/err" 'requests of 1 bytes' 100
	kill -INT "$zpid"
	within 50 proc_ended "$zpid"
	kill -KILL "$zpid" 2>/dev/null
	wait "$zpid"
	RC=$?
	forget_bg "$zpid"
	check "SIGINT ${gap:-closed loop}: exit $RC (130), the lines marked: $(cat "$TMP/out")" eval '
		[ "$RC" -eq 130 ] && grep -Eq "^rr: [0-9]+ transactions .* \(interrupted\)$" "$TMP/out" &&
		grep -q "^latency" "$TMP/out"'
done

# --- a stopped sender in open loop: the due time shows it, the send time not --
bg "$ZCC" --rr -s 127.0.0.1 -p "$ZCS_PORT" -t 2 --gap 5ms -d -J >"$TMP/out" 2>"$TMP/err"
zpid=$!
wait_for "$TMP/err" 'open loop' 100
kill -STOP "$zpid"
sleep 0.3	# the stop itself is what is measured
kill -CONT "$zpid"
wait "$zpid"
RC=$?
forget_bg "$zpid"
due=$(sed -n 's/.*"event":"latency",.*"p99_us":\([0-9]*\).*/\1/p' "$TMP/out")
sent=$(sed -n 's/.*"event":"latency_sent",.*"p90_us":\([0-9]*\).*/\1/p' "$TMP/out")
# The burst sent after the stop queues at zcs: the send-time tail is the
# server's queue, so its p90 is judged, the due time's p99.
check "stopped 0.3 s at --gap 5ms: due p99 $due us >= 100 ms, sent p90 $sent us < 50 ms" \
	eval '[ "$RC" -eq 0 ] && [ "${due:-0}" -ge 100000 ] && [ "${sent:-99999}" -lt 50000 ] &&
	grep -q "\"pauses\":[1-9]" "$TMP/out"'

# --- UDP: the same zcs port, counted by number, no amplifier -----------------
usage_refused "--proto udp -b 1" "$ZCC" --rr --proto udp -s 0 -b 1
usage_refused "--proto udp --response above -b" "$ZCC" --rr --proto udp -s 0 -b 64 --response 65
usage_refused "--proto without --rr" "$ZCC" -s 0 --proto udp "$TMP/a"
usage_refused "--proto sctp" "$ZCC" --rr -s 0 --proto sctp
run_zcc --rr --proto udp -s 127.0.0.1 -p "$ZCS_PORT" -n 1000 -P 2 -b 200 --response 100
check "UDP -P 2 -n 1000: 2000 transactions, none lost: $(cat "$TMP/out" "$TMP/err")" eval '
	[ "$RC" -eq 0 ] && grep -Eq "^rr: 2000 transactions in $NUM s, [0-9]+ transactions/sec, request 200 bytes, response 100 bytes, lost 0, duplicated 0, reordered 0$" "$TMP/out" &&
	grep -Eq "^latency: $LAT$" "$TMP/out"'
"$ZC_TESTBIN/rrpeer" udpfoe "$ZCS_PORT" >"$TMP/foe" 2>&1
check "UDP: foreign datagrams unanswered, a hello for larger answers refused by 48-byte acks: $(cat "$TMP/foe")" \
	eval 'grep -Eq "^other replies: 0, acks of 48 bytes: ([1-9][0-9]*), refused: \1$" "$TMP/foe"' 
check "zcs: one line for the refusal" \
	wait_for "$TMP/zcs.err" "UDP request/response refused: the hello is a field out of range"
run_zcc --rr --proto udp -s 127.0.0.1 -p "$ZCS_PORT" -n 100 --gap 1ms
# A busy machine may hold zcs past zcc's wait for the last answers: a few
# may count as lost (one at most here), none may go missing from the count.
got=$(sed -n 's/^rr: \([0-9]*\) transactions .*lost \([0-9]*\),.*/\1 \2/p' "$TMP/out")
check "UDP --gap 1ms -n 100, after the abuse: answered and lost make 100 ($got), the schedule kept" eval '
	[ "$RC" -eq 0 ] && set -- $got && [ $(($1 + $2)) -eq 100 ] && [ "$1" -ge 99 ] &&
	grep -q "^schedule: 100 of 100 requests sent" "$TMP/out"'
stop_bg "$ZCS_PID"

# --- -c: the CPU per transaction, at each end ----------------------------------
meter_slot
zcs_start || { not_ok "zcs starts: $(cat "$TMP/zcs.err")"; finish; }
metered "$TMP/err" run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -t 1 -c -r
check "zcc -c: the cpu: line per transaction: $(grep cpu: "$TMP/out") $(cat "$TMP/err")" eval '[ "$RC" -eq 0 ] &&
	grep -Eq "^cpu: load $NUM% of [0-9]+ CPUs, $NUM us/Tran, zcc itself $NUM us/Tran$" "$TMP/out"'
stop_bg "$ZCS_PID"
if zcs_metered -c -r; then
	run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 20000
	check "zcs -c: the answered: line per transaction: $(cat "$TMP/zcs.out")" wait_for "$TMP/zcs.out" \
		"^answered: 20000 requests in $NUM s, [0-9]+ requests/sec, load $NUM% of [0-9]+ CPUs, $NUM us/Tran, zcs itself $NUM us/Tran$"
	stop_bg "$ZCS_PID"
else
	not_ok "zcs -c starts: $(cat "$TMP/zcs.err")"
fi
meter_slot_free

# --- clients zcs closes: one line each naming the peer ------------------------
zcs_start -T 1 || { not_ok "zcs -T 1 starts: $(cat "$TMP/zcs.err")"; finish; }
# client HOW ACK LINE: rrpeer's bad client HOW gets ack status ACK and is
# closed, and zcs says LINE (grep -E) about it, once.
client() {
	cl_ack=$2 cl_line=$3 cl_n=$(($(grep -c "" "$TMP/zcs.err") + 1))
	timeout 20 "$PEER" client "$ZCS_PORT" "$1" >"$TMP/cl" 2>&1
	check "a client $1: ack $cl_ack, closed: $(tr '\n' ' ' <"$TMP/cl")" \
		eval '[ "$(tr "\n" " " <"$TMP/cl")" = "ack: $cl_ack closed " ]'
	within 50 count_is "$TMP/zcs.err" "" "$cl_n"
	check "zcs: one line: $(tail -n 1 "$TMP/zcs.err")" eval '
		[ "$(grep -c "" "$TMP/zcs.err")" -eq "$cl_n" ] &&
		tail -n 1 "$TMP/zcs.err" | grep -Eq "^zcs: 127\.0\.0\.1 port [0-9]+: $cl_line"'
}
client foreign 0 'request 1 is from another run or flow, closed$'
client short 0 'the request ended after 50 bytes of it, after 0 requests$'
client silent 0 'stalled: no request in the last 1 s \(-T\), closed after 0 requests$'
client version 4 'request/response refused: the hello is another version of the protocol$'
client greedy 0 'stalled: the answer to request [0-9]+ not taken in 1 s \(-T\), closed$'
stop_bg "$ZCS_PID"

# --- servers that do not answer as they should --------------------------------
peer_start "$SINK" || not_ok "sink starts"
t0=$(now_ms)
run_zcc --rr -s 127.0.0.1 -p "$PEER_PORT" -n 10
ms=$(($(now_ms) - t0))
check "a stream-only server: one line, exit 1, within 10 s ($ms ms): $(cat "$TMP/err")" eval '
	[ "$RC" -eq 1 ] && [ "$ms" -lt 10000 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ] &&
	grep -q "^zcc: 127.0.0.1 port $PEER_PORT: no answer: the server does not speak request/response (a 2001 zcs?)$" "$TMP/err"'
stop_bg "$PEER_PID"

# bad MODE PATTERN ARGS...: rrpeer MODE makes zcc ARGS fail with one line
bad() {
	mode=$1 want=$2
	shift 2
	peer_start "$PEER" "$mode" || not_ok "rrpeer $mode starts"
	run_zcc --rr -s 127.0.0.1 -p "$PEER_PORT" "$@"
	check "a server that answers $mode: exit 1, one line: $(cat "$TMP/err")" eval '
		[ "$RC" -eq 1 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ] && grep -q "$want" "$TMP/err"'
	stop_bg "$PEER_PID"
}
peer_start "$SINK" || not_ok "sink starts"
run_zcc --rr --proto udp -s 127.0.0.1 -p "$PEER_PORT" -n 10
check "UDP to a TCP-only server: one line, exit 1: $(cat "$TMP/err")" eval '
	[ "$RC" -eq 1 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ] &&
	grep -q "no answer over UDP: the server does not speak request/response" "$TMP/err"'
stop_bg "$PEER_PID"
bad noack 'no answer: the server does not speak request/response' -n 10
bad never 'stalled: ' -n 10 -T 1
bad short 'closed the connection in answer 1 (50 of 100 bytes came)' -n 10 -b 100
bad long 'answer 1 is too long' -n 10 -b 100
bad long 'answered more than asked' -n 1

finish
