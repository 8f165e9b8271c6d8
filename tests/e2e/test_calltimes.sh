#!/bin/sh
# --call-times: zcc times every system call that hands data to the socket
# and zcs every receive step, each into a histogram, printed after the
# run's lines (zcc) or each done line (zcs). The count is the calls the
# socket saw (tests/shim_sockcalls.so counts them apart), --budget counts
# the calls over a time exactly (1ns: all of them; 1000s: none), the
# percentiles are in order, and without the option nothing is timed.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

ZCC=$ZC_BIN/zcc
ZCS=$ZC_BIN/zcs
J=$ZC_TESTBIN/jsoncheck
shim_ready sockcalls

head -c 300000 /dev/urandom >"$TMP/f"

# --- at the door ------------------------------------------------------------
usage_refused "zcc --budget without --call-times or --rr" "$ZCC" -s 0 --budget 1ms "$TMP/f"
grep -q 'give one' "$TMP/err" && ok "it says to give --rr or --call-times" ||
	not_ok "names what --budget needs: $(cat "$TMP/err")"
usage_refused "zcc --budget 5x" "$ZCC" -s 0 --call-times --budget 5x "$TMP/f"
usage_refused "zcc --budget 0" "$ZCC" -s 0 --call-times --budget 0 "$TMP/f"
usage_refused "zcs --budget without --call-times" "$ZCS" --budget 1ms
grep -q 'give --call-times' "$TMP/err" && ok "zcs says to give --call-times" ||
	not_ok "zcs names what --budget needs: $(cat "$TMP/err")"
usage_refused "zcs --budget 10 parsecs" "$ZCS" --call-times --budget 10pc
usage_refused "zcs --call-times with a value" "$ZCS" --call-times=1

# --- zcc: the calls a method makes, timed -------------------------------------
zcs_start -J --call-times || { not_ok "zcs started"; finish; }

# timed METHOD [ZCC OPTIONS]: zcc -J --call-times -M METHOD under the shim.
timed() {
	_m=$1
	shift
	: >"$TMP/count"
	LD_PRELOAD=$SHIM ZC_SHIM_SOCKCALLS=$TMP/count timeout 30 "$ZCC" -J -M "$_m" --call-times \
		"$@" -s 127.0.0.1 -p "$ZCS_PORT" -n 3 "$TMP/f" >"$TMP/j" 2>"$TMP/err"
}

for m in send write mmap sendfile splice; do
	timed $m
	check "-M $m --call-times: exit 0 ($(head -c 200 "$TMP/err"))" [ $? -eq 0 ]
	calls=$(json_get "$TMP/j" call_times calls)
	seen=$(awk '{ n += $6 } END { print n + 0 }' "$TMP/count")
	check "-M $m: a call timed for every call on the socket ($calls timed, $seen seen)" \
		eval '[ -n "$calls" ] && [ "$calls" -eq "$seen" ] && [ "$calls" -gt 0 ]'
	check "-M $m: its method, and the count of the histogram" \
		eval '[ "$(json_get "$TMP/j" call_times method)" = $m ] &&
		[ "$(json_get "$TMP/j" call_times count)" = "$calls" ]'
	eval "$("$J" -E call_times -s c_ "$TMP/j")"
	# shellcheck disable=SC2154
	check "-M $m: p50 <= p90 <= p99 <= p99.9 <= max ($c_p50_us $c_p90_us $c_p99_us $c_p99_9_us $c_max_us)" \
		awk -v a="$c_p50_us" -v b="$c_p90_us" -v c="$c_p99_us" -v d="$c_p99_9_us" -v e="$c_max_us" \
		'BEGIN { exit !(a > 0 && a <= b && b <= c && c <= d && d <= e) }'
done
check "no budget asked: no budget keys" sh -c "! grep -q budget_us '$TMP/j'"

timed send --budget 1ns
n=$(json_get "$TMP/j" call_times count)
check "--budget 1ns: every call over it ($(json_get "$TMP/j" call_times over) of $n)" \
	eval '[ -n "$n" ] && [ "$(json_get "$TMP/j" call_times over)" = "$n" ] &&
	[ "$(json_get "$TMP/j" call_times over_pct)" = 100.00 ]'
timed send --budget 1000s
check "--budget 1000s: none over it" eval '[ "$(json_get "$TMP/j" call_times over)" = 0 ] &&
	[ "$(json_get "$TMP/j" call_times budget_us)" = 1000000000.000 ]'

NUM='[0-9]+(\.[0-9]+)?'
timeout 30 "$ZCC" -M sendfile,send -R 1 --call-times --budget 20us -s 127.0.0.1 -p "$ZCS_PORT" \
	-n 2 "$TMP/f" >"$TMP/t" 2>"$TMP/err"
check "text, a comparison: exit 0" [ $? -eq 0 ]
check "a call-times: line per run, each after its sent: line" \
	[ "$(awk '/^sent:/ { s = 1 } /^call-times:/ && s { n++; s = 0 } END { print n }' "$TMP/t")" = 2 ]
check "the line's form: $(grep -m1 '^call-times: [0-9]* send ' "$TMP/t")" grep -Eq \
	"^call-times: [0-9]+ send calls, p50 $NUM us, p90 $NUM us, p99 $NUM us, p99.9 $NUM us, p99.99 $NUM us, max $NUM us, mean $NUM us, sd $NUM us, over 20 us: [0-9]+ of [0-9]+, $NUM%$" "$TMP/t"

timeout 30 "$ZCC" -J -M send -s 127.0.0.1 -p "$ZCS_PORT" -n 1 "$TMP/f" >"$TMP/j" 2>"$TMP/err"
check "without --call-times: no call_times event" sh -c "! grep -q call_times '$TMP/j'"

# --- zcs: each connection's receive steps ---------------------------------------
stop_bg "$ZCS_PID"
check "zcs: valid JSON Lines" "$J" "$TMP/zcs.out"
dones=$(json_get "$TMP/zcs.out" done bytes | wc -l)
check "zcs: a call_times event for each done one ($dones)" \
	eval '[ "$dones" -gt 0 ] && [ "$(json_get "$TMP/zcs.out" call_times calls | wc -l)" -eq "$dones" ]'
check "zcs: each right after its done event" \
	[ "$(grep -o '"event":"[a-z_]*"' "$TMP/zcs.out" | awk '/"done"/ { d = 1; next }
		/"call_times"/ { if (d) n++; d = 0; next } { d = 0 } END { print n + 0 }')" -eq "$dones" ]
check "zcs: the read method's steps, each took data" \
	eval '[ "$(json_get "$TMP/zcs.out" call_times method | sort -u)" = read ] &&
	[ "$(json_get "$TMP/zcs.out" call_times calls | sort -n | head -n 1)" -gt 0 ]'
check "zcs: the peer named" "$J" -E call_times -k peer -k p50_us -k max_us "$TMP/zcs.out"

zcs_start || { not_ok "zcs without --call-times started"; finish; }
timeout 30 "$ZCC" -M send -s 127.0.0.1 -p "$ZCS_PORT" -n 1 "$TMP/f" >/dev/null 2>&1
stop_bg "$ZCS_PID"
check "zcs without --call-times: a done: line, no call-times: line" \
	eval 'grep -q "^done:" "$TMP/zcs.out" && ! grep -q "^call-times:" "$TMP/zcs.out"'
zcs_start --call-times --budget 1ns || { not_ok "zcs --budget 1ns started"; finish; }
timeout 30 "$ZCC" -M send -s 127.0.0.1 -p "$ZCS_PORT" -n 1 "$TMP/f" >/dev/null 2>&1
stop_bg "$ZCS_PID"
check "zcs --budget 1ns: every step over it: $(grep '^call-times' "$TMP/zcs.out")" \
	grep -Eq '^call-times: ([0-9]+) read calls, .*, over 0.001 us: ([0-9]+) of \2, 100.00%$' "$TMP/zcs.out"
finish
