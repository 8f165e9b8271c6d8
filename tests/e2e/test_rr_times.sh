#!/bin/sh
# zcc --rr's times beyond the round trip: one-way times where both ends
# read one clock (over loopback, and between two network namespaces,
# which share the kernel's boot id), none where the boot ids differ
# unless --clocks-synced (tests/tools/rrpeer foreign: another boot id and
# clock error; tests/tools/shim_adjtimex.so: this machine's clock
# synchronised), answers whose clocks disagree counted apart; -I lines
# with each interval's percentiles; --log's CSV; --plot's distribution.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

ZCC=$ZC_BIN/zcc
PEER=$ZC_TESTBIN/rrpeer
NUM='[0-9]+(\.[0-9]+)?'
# a busy machine may preempt zcc between its two clocks' reads often enough
# to leave an answer out (counted, said)
LEFT="(, [0-9]+ left out: the clocks disagreed or one stepped)?"
LAT="p50 $NUM us, p90 $NUM us, p99 $NUM us, p99.9 $NUM us, p99.99 $NUM us, max $NUM us, mean $NUM us, sd $NUM us"

run_zcc() {
	captured 30 "$@"
}

shim_ready adjtimex

# --- at the door ---------------------------------------------------------------
printf 'data\n' >"$TMP/a"
usage_refused "--clocks-synced without --rr" "$ZCC" -s 0 --clocks-synced "$TMP/a"
usage_refused "--log without --rr" "$ZCC" -s 0 --log "$TMP/l.csv" "$TMP/a"
usage_refused "--log ''" "$ZCC" --rr -s 0 --log ''
: >"$TMP/mine.csv"
usage_refused "--log FILE that exists" "$ZCC" --rr -s 0 --log "$TMP/mine.csv"
check "the file that exists is left as it was" eval '[ ! -s "$TMP/mine.csv" ]'
ln -s "$TMP/elsewhere" "$TMP/link.csv"
usage_refused "--log on a symbolic link" "$ZCC" --rr -s 0 --log "$TMP/link.csv"
check "nothing made through the link" eval '[ ! -e "$TMP/elsewhere" ]'

zcs_start || { not_ok "zcs starts: $(cat "$TMP/zcs.err")"; finish; }
S="-s 127.0.0.1 -p $ZCS_PORT"

# --- one-way times over loopback: one boot id ----------------------------------
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 2000 -b 200
check "-b 200: the one-way line after latency:, one clock: $(cat "$TMP/out" "$TMP/err")" eval '
	[ "$RC" -eq 0 ] && [ ! -s "$TMP/err" ] &&
	grep -Eq "^one-way: out $LAT; back $LAT$LEFT \(one clock\)$" "$TMP/out" &&
	[ "$(sed -n "2s/:.*//p;3s/:.*//p" "$TMP/out" | tr "\n" " ")" = "latency one-way " ]'
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 500 -b 100 --response 64 --proto udp --gap 1ms -J
check "UDP, --gap, -J: the one_way event with its keys in us" eval '[ "$RC" -eq 0 ] &&
	grep "\"event\":\"one_way\"" "$TMP/out" | grep "\"clock\":\"one\"" |
	grep "\"out_p50_us\":[0-9.]*,.*\"out_sd_us\":[0-9.]*,\"back_p50_us\":[0-9.]*,.*\"back_p99_99_us\":[0-9.]*,.*\"back_sd_us\":[0-9.]*,\"count\":500,\"left_out\":0" |
	grep -q "\"clock_err_us\""'
check "UDP, --gap, -J: strict JSON, every one_way key there" "$ZC_TESTBIN/jsoncheck" -E one_way \
	-k clock -k out_p50_us -k back_max_us -k count -k left_out -k clock_err_us \
	-k server_clock_err_us -k step_us "$TMP/out"
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 100
check "bare messages (-b 1): no times, said: $(grep one-way "$TMP/out")" eval '[ "$RC" -eq 0 ] &&
	grep -q "^one-way: none: messages under 64 bytes carry no times: give -b and --response of at least 64$" "$TMP/out"'

# --- -I: each interval's transactions and percentiles -------------------------
# shellcheck disable=SC2086
bg env --default-signal=INT "$ZCC" --rr $S -t 60 -I 0.2 -b 100 -J >"$TMP/iv" 2>"$TMP/err"
zpid=$!
check "-I 0.2: interval events with transactions and percentiles" \
	within 100 count_is "$TMP/iv" '"event":"interval",.*"transactions":[0-9]+,"transactions_per_sec":[0-9]+,"p50_us":.*"p99_99_us":.*"max_us":' 3
kill -INT "$zpid"
within 50 proc_ended "$zpid"
kill -KILL "$zpid" 2>/dev/null
wait "$zpid"
forget_bg "$zpid"
sum=$(sed -n 's/.*"event":"interval",.*"transactions":\([0-9]*\),.*/\1/p' "$TMP/iv" |
	awk '{ s += $1 } END { print s + 0 }')
total=$(sed -n 's/.*"event":"rr",.*"transactions":\([0-9]*\),.*/\1/p' "$TMP/iv")
check "-I -J: strict JSON" "$ZC_TESTBIN/jsoncheck" -E interval -k transactions -k p99_99_us "$TMP/iv"
check "-I: the intervals' transactions add up to the run's ($sum, $total)" \
	eval '[ -n "$total" ] && [ "$sum" = "$total" ] && [ "$total" -gt 0 ]'
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -t 1 -I 0.3
check "-I text: RATE transactions/sec and the percentiles: $(head -n 1 "$TMP/out")" eval '
	[ "$RC" -eq 0 ] && grep -Eq "^[0-9]+ transactions/sec, $LAT$" "$TMP/out"'

# --- --log: a row per answer ---------------------------------------------------
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 700 -P 2 -b 100 --log "$TMP/l.csv"
rows=$(($(grep -c '' "$TMP/l.csv") - 1))
check "--log -P 2 -n 700: a row per transaction ($rows)" eval '[ "$RC" -eq 0 ] &&
	grep -q "^rr: $rows transactions" "$TMP/out" && [ "$rows" -eq 1400 ]'
check "--log: the header names the columns with their units" eval '[ "$(head -n 1 "$TMP/l.csv")" = \
	"flow,seq,due_mono_ns,send_mono_ns,arrival_mono_ns,rtt_from_due_ns,rtt_from_send_ns,out_ns,back_ns" ]'
left=$(sed -n 's/.*, \([0-9]*\) left out: .*/\1/p' "$TMP/out")
check "--log: every row whole, round trips = arrival - due and - send, one-way times but in the ${left:-0} left out" eval '
	awk -F, -v left="${left:-0}" "NR > 1 && (NF != 9 || \$6 != \$5 - \$3 || \$7 != \$5 - \$4) { bad++ }
		NR > 1 && \$8 == \"\" { none++ } END { exit bad > 0 || none + 0 != left }" "$TMP/l.csv"'
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 50 --gap 1ms --log "$TMP/bare.csv"
check "--log, bare --gap: 50 rows, the one-way columns empty" eval '[ "$RC" -eq 0 ] &&
	[ "$(grep -c ",,$" "$TMP/bare.csv")" -eq 50 ]'
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 10 --log "$TMP/no/such/dir.csv"
check "--log where no file can be made: one line, exit 1: $(cat "$TMP/err")" eval '
	[ "$RC" -eq 1 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ] && grep -q "^zcc: --log .*dir.csv: No such file" "$TMP/err"'
# --- --plot: the distribution ---------------------------------------------------
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 500 -b 100 --plot "$TMP/d.svg"
check "--plot: an SVG of the round trip and both one-way times: $(cat "$TMP/err")" eval '
	[ "$RC" -eq 0 ] && head -n 1 "$TMP/d.svg" | grep -q "^<?xml" && tail -n 1 "$TMP/d.svg" | grep -q "^</svg>$" &&
	grep -q "<title>[0-9.]* [num]*s, round trip: [0-9.]*</title></rect>" "$TMP/d.svg" &&
	grep -q ">one-way out<" "$TMP/d.svg" && grep -q ">one-way back<" "$TMP/d.svg"'
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 50 --gap 1ms --plot "$TMP/g.svg"
check "--plot --gap: from due and from send, no one-way (bare)" eval '[ "$RC" -eq 0 ] &&
	grep -q ">round trip from due<" "$TMP/g.svg" && grep -q ">round trip from send<" "$TMP/g.svg" &&
	! grep -q "one-way" "$TMP/g.svg"'
# shellcheck disable=SC2086
run_zcc "$ZCC" --rr $S -n 10 --plot "$TMP/no/such/dir.svg"
check "--plot where no file can be made: one line, exit 1: $(cat "$TMP/err")" eval '
	[ "$RC" -eq 1 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ] && grep -q "^zcc: --plot: " "$TMP/err"'

stop_bg "$ZCS_PID"

# --- another boot id: none, unless --clocks-synced ----------------------------
peer_start "$PEER" foreign 30 || not_ok "rrpeer foreign starts"
run_zcc "$ZCC" --rr -s 127.0.0.1 -p "$PEER_PORT" -n 200 -b 100
check "another boot id: no one-way line: $(cat "$TMP/out" "$TMP/err")" eval '
	[ "$RC" -eq 0 ] && grep -q "^latency:" "$TMP/out" && ! grep -q "one-way" "$TMP/out"'
stop_bg "$PEER_PID"
peer_start "$PEER" foreign 30 || not_ok "rrpeer foreign starts"
LD_PRELOAD=$SHIM ZC_SHIM_ESTERROR=12 run_zcc "$ZCC" --rr -s 127.0.0.1 -p "$PEER_PORT" -n 200 -b 100 --clocks-synced
# every figure a multiple of 50 us (the step of the larger error, 30 us), or under it
FIG="(p50|p90|p99|p99\.9|p99\.99|max|mean|sd) (under 50|[0-9]*[05]0) us"
check "--clocks-synced: both errors stated, no figure finer than them: $(cat "$TMP/out" "$TMP/err")" eval '
	[ "$RC" -eq 0 ] && grep -q "(clocks synced: error 12 us here, 30 us at the server; figures to 50 us)$" "$TMP/out" &&
	[ "$(grep "^one-way:" "$TMP/out" | grep -Eo "(p50|p90|p99|p99\.9|p99\.99|max|mean|sd) [^,;(]* us" |
		grep -Ecv "^$FIG$")" -eq 0 ]'
stop_bg "$PEER_PID"
peer_start "$PEER" foreign unsync || not_ok "rrpeer foreign starts"
LD_PRELOAD=$SHIM run_zcc "$ZCC" --rr -s 127.0.0.1 -p "$PEER_PORT" -n 200 -b 100 --clocks-synced
check "--clocks-synced, the server unsynchronised: one line says so, the run goes on: $(cat "$TMP/out" "$TMP/err")" eval '
	[ "$RC" -eq 0 ] && grep -q "^rr: 200 transactions" "$TMP/out" &&
	grep -q "^one-way: none: the server.s clock is not synchronised (adjtimex)" "$TMP/out"'
stop_bg "$PEER_PID"
# Without the shim, this machine's own clock decides (a guest often has no NTP).
peer_start "$PEER" foreign 30 || not_ok "rrpeer foreign starts"
run_zcc "$ZCC" --rr -s 127.0.0.1 -p "$PEER_PORT" -n 200 -b 100 --clocks-synced
check "--clocks-synced, this machine's own clock: unsynchronised said, or its error stated: $(grep one-way "$TMP/out")" eval '
	[ "$RC" -eq 0 ] && grep -Eq "^one-way: (none: this machine.s clock is not synchronised|out .*\(clocks synced: error [0-9]+ us here, 30 us at the server)" "$TMP/out"'
stop_bg "$PEER_PID"
# The server's stamps a second behind ours: every one-way time below zero.
peer_start "$PEER" foreign 3 -1000 || not_ok "rrpeer foreign starts"
LD_PRELOAD=$SHIM run_zcc "$ZCC" --rr -s 127.0.0.1 -p "$PEER_PORT" -n 300 -b 100 --clocks-synced -J
check "clocks that disagree: every answer left out, counted, none recorded" eval '[ "$RC" -eq 0 ] &&
	grep "\"event\":\"one_way\"" "$TMP/out" | grep -q "\"count\":0,\"left_out\":300" &&
	grep -q "\"event\":\"latency\",.*\"count\":300" "$TMP/out"'
check "clocks that disagree: strict JSON, the figures null" eval '"$ZC_TESTBIN/jsoncheck" "$TMP/out" &&
	grep -q "\"out_p50_us\":null" "$TMP/out"'
stop_bg "$PEER_PID"

# --- two network namespaces: one kernel, one boot id ---------------------------
if two_hosts zc-rrt-a$$ zc-rrt-b$$; then
	ZCS_PREFIX="ip netns exec zc-rrt-b$$"
	zcs_up zcsns
	run_zcc ip netns exec "zc-rrt-a$$" "$ZCC" --rr -s 192.0.2.2 -p "$ZCS_PORT" -n 1000 -b 1300 --response 200
	check "between two namespaces over veth: one-way times, one clock: $(cat "$TMP/out" "$TMP/err")" eval '
		[ "$RC" -eq 0 ] && grep -q "^rr: 1000 transactions" "$TMP/out" &&
		grep -Eq "^one-way: out $LAT; back $LAT$LEFT \(one clock\)$" "$TMP/out"'
	stop_bg "$ZCS_PID"
fi

finish
