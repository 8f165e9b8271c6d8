#!/bin/sh
# needs: meter
# Both ends in one table: with --receiver-report, zcc's comparison (text,
# round and compare events) carries zcs's figures beside its own, -R's
# summary too; --decide picks the figure (sender, receiver, path), and
# both ends on one machine are said, never added. Over a veth pair with
# zcs -c metering: the receiver's columns are zcs's own done lines.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

ZCC=$ZC_BIN/zcc
J=$ZC_TESTBIN/jsoncheck
PEER=$ZC_TESTBIN/rxpeer

head -c 100000 /dev/urandom >"$TMP/f"

# --- bad input -------------------------------------------------------------------
usage_refused "--decide without --receiver-report" "$ZCC" -s 0 -M send,sendfile --decide path "$TMP/f"
grep -q "give it" "$TMP/err" && ok "it asks for --receiver-report" || not_ok "says why: $(cat "$TMP/err")"
usage_refused "--decide without variants" "$ZCC" -s 0 --receiver-report --decide receiver "$TMP/f"
usage_refused "--decide with another word" "$ZCC" -s 0 -M send,sendfile --receiver-report \
	--decide both "$TMP/f"
grep -q "sender, receiver or path" "$TMP/err" && ok "it names the three" || not_ok "names them: $(cat "$TMP/err")"

# --- one machine -----------------------------------------------------------------
zcs_start || { not_ok "zcs started"; finish; }
zc() {
	run_fg timeout 120 "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 20 "$@" "$TMP/f"
}
zc -J -M sendfile,send -R 2 --receiver-report >"$TMP/j" 2>"$TMP/jerr"
check "-J: valid JSON Lines, nothing on stderr ($(cat "$TMP/jerr"))" \
	sh -c "'$J' '$TMP/j' && [ ! -s '$TMP/jerr' ]"
check "round events carry the receiver's own us/KB" "$J" -E round -k rx_own_us_per_kb "$TMP/j"
check "compare events carry its median" "$J" -E compare -k rx_own_us_per_kb_median "$TMP/j"
check "the deciding figure is still the sender's by default" \
	[ "$(grep -o '"figure":"[^"]*"' "$TMP/j")" = '"figure":"own_us_per_kb"' ]

zc -M sendfile,send -R 2 --receiver-report --decide receiver >"$TMP/t" 2>"$TMP/terr"
check "--decide receiver: the table decides on the receiver's own CPU time" \
	grep -q "^compare: 2 rounds, each variant against sendfile on the receiver's own CPU time (us/KB)" "$TMP/t"
check "the receiver's column" grep -Eq '^variant +kbytes/sec +zcc us/KB +rcv us/KB +ratio' "$TMP/t"
check "round lines name the receiver's figure" \
	grep -Eq '^round 1/2 sendfile: [0-9]+ kbytes/sec, zcc itself [0-9.]+ us/KB; receiver [0-9.]+ us/KB$' "$TMP/t"
check "one machine is said, not added" grep -q '^both ends are one machine (one boot id)' "$TMP/t"

zc -J -M sendfile,send -R 2 --receiver-report --decide path >"$TMP/p" 2>"$TMP/perr"
check "--decide path on one machine: one line says so ($(cat "$TMP/perr"))" \
	sh -c "[ \$(grep -c '' '$TMP/perr') -eq 1 ] && grep -q 'both ends are one machine' '$TMP/perr'"
check "and zcc's figure decides" [ "$(grep -o '"figure":"[^"]*"' "$TMP/p")" = '"figure":"own_us_per_kb"' ]

zc -R 2 --receiver-report >"$TMP/s" 2>&1
check "-R 2: the summary carries the receiver's median" \
	grep -Eq '^summary receiver: zcs itself median [0-9.]+ us/KB$' "$TMP/s"
stop_bg "$ZCS_PID"

# A receiver that never reports: --decide receiver falls back, and says so.
bg "$PEER" -c 4 >"$TMP/peer" 2>&1
peer=$!
wait_for "$TMP/peer" '^listening on port' || not_ok "rxpeer started"
port=$(sed -n 's/^listening on port //p' "$TMP/peer")
run_fg timeout 60 "$ZCC" -s 127.0.0.1 -p "$port" -n 2 -M sendfile,send -R 2 --receiver-report \
	--decide receiver "$TMP/f" >"$TMP/n" 2>"$TMP/nerr"
check "no reports: exit 0 and the table on zcc's own figure" \
	sh -c "[ $? -eq 0 ] && grep -q \"on zcc's own CPU time\" '$TMP/n'"
check "said once that no report came, once that the receiver cannot decide ($(cat "$TMP/nerr"))" \
	sh -c "[ \$(grep -c 'no report' '$TMP/nerr') -eq 1 ] && [ \$(grep -c 'deciding on zcc' '$TMP/nerr') -eq 1 ]"
reap_pid "$peer" 50
forget_bg "$peer"

# --- two namespaces, zcs metering ------------------------------------------------------
tx=zc-rxb-t$$
rx=zc-rxb-r$$
zcs_across "$tx" "$rx" ns -c -r || finish
run_fg ip netns exec "$tx" timeout 120 "$ZCC" -J --receiver-report -M sendfile,send -R 2 -t 1 \
	-s 192.0.2.2 -p "$ZCS_PORT" "$TMP/f" >"$TMP/ns.j" 2>"$TMP/ns.err"
within 50 sh -c "[ \$(grep -c '^done:' '$WORK/ns.out') -ge 4 ]"
meter_slot_free
stop_bg "$ZCS_PID"
check "the receiver's load and demand in every round event" \
	"$J" -E round -k rx_load_pct -k rx_service_demand_us_per_kb "$TMP/ns.j"
check "and their medians in the compare events" \
	"$J" -E compare -k rx_load_pct_median -k rx_service_demand_us_per_kb_median "$TMP/ns.j"
json_get "$TMP/ns.j" round rx_service_demand_us_per_kb >"$TMP/zcc.d"
sed -n 's/^done: .*, \([0-9.]*\) us\/KB$/\1/p' "$WORK/ns.out" >"$TMP/zcs.d"
check "each round's receiver demand is zcs's done line's, within 5% ($(tr '\n' ' ' <"$TMP/zcc.d")/ $(tr '\n' ' ' <"$TMP/zcs.d"))" \
	sh -c "[ \$(grep -c '' '$TMP/zcc.d') -eq 4 ] && paste '$TMP/zcc.d' '$TMP/zcs.d' |
		awk '{ d = \$1 - \$2; if (d < 0) d = -d; if (\$2 <= 0 || d > 0.05 * \$2) bad = 1 } END { exit bad }'"
finish
