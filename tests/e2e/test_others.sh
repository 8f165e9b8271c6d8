#!/bin/sh
# needs: meter-long long
# Other processes' share of the machine (lib/meter/others.h) as zcc -c,
# zcs -c and cyclesoak say it: beside a busy loop of a distinctive name
# (tests/tools/loadgen copied, about 30% of one CPU), each names it with a
# share within 5 points of what its /proc/PID/stat says it used over the
# same stretch (cyclesoak's command too, busy beside it); and a line
# said on a machine without the loop names no zc program and claims no
# more than the machine's whole non-soaker work (other tests run beside
# this one, so a line is not a false alarm in itself). A comparison, and
# the demo's, says under its table which runs it touched.
. "$ZC_TOP/tests/lib.sh"
meter_slot
meter_wait_others

hz=$(getconf CLK_TCK)
ncpus=$(getconf _NPROCESSORS_ONLN)
busy=$TMP/zcothersbusy
mine=$TMP/zcotherscmd
cp "$ZC_TESTBIN/loadgen" "$busy" && cp "$ZC_TESTBIN/loadgen" "$mine" ||
	die "cannot copy loadgen"
make_files "$TMP/files" 4 4194304

# ticks PID: utime + stime of PID, in clock ticks.
ticks() {
	awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

# truth_start / truth_share: the busy loop's share of the machine between
# the two, in percent.
truth_start() {
	T_TICKS=$(ticks "$BUSY")
	T_MS=$(now_ms)
}
truth_share() {
	awk -v t="$(($(ticks "$BUSY") - T_TICKS))" -v ms="$(($(now_ms) - T_MS))" \
		-v hz="$hz" -v n="$ncpus" 'BEGIN { printf "%.1f\n", 100 * t / hz / n / (ms / 1000) }'
}

# named FILE NAME: the share the others: line of FILE gives NAME ("" when none).
named() {
	sed -n 's/^others: [^(]*(\(.*\)); .*/\1/p' "$1" | tail -n 1 | tr ',' '\n' |
		awk -v n="$2" '$1 == n { sub(/%/, "", $2); print $2 }'
}

# judge WHAT FILE: FILE's others: line names the busy loop within 5 points
# of the truth since truth_start.
judge() {
	_truth=$(truth_share)
	_said=$(named "$2" zcothersbusy)
	if [ -n "$_said" ] && awk -v a="$_said" -v b="$_truth" \
	    'BEGIN { d = a - b; exit !(d <= 5 && d >= -5) }'; then
		ok "$1: names the busy loop, $_said% (its /proc/PID/stat: $_truth%)"
	else
		not_ok "$1: busy loop $_said% (its /proc/PID/stat: $_truth%): $(grep -h '^others:' "$2")"
	fi
}

start_bg "$busy" -k -l 30 -n 1 -p 10 -t 600 >/dev/null
BUSY=$!
within 50 test -r "/proc/$BUSY/stat" || die "the busy loop did not start"

# --- zcc -c -----------------------------------------------------------------
zcs_up zcs
truth_start
run_metered "$TMP/zcc.err" "$ZC_BIN/zcc" -c -t 3 -s 127.0.0.1 -p "$ZCS_PORT" \
	"$TMP"/files/f* >"$TMP/zcc.out"
check "zcc -c: exit 0 ($(cat "$TMP/zcc.err"))" [ $? -eq 0 ]
judge "zcc -c" "$TMP/zcc.out"
check "zcc -c: the line comes after the cpu: line" \
	sh -c "grep -A1 '^cpu: ' '$TMP/zcc.out' | grep -q '^others: .*the service demand includes it$'"
check "zcc -c: zc's programs not among others" \
	[ -z "$(named "$TMP/zcc.out" zcc)$(named "$TMP/zcc.out" zcs)" ]
run_metered "$TMP/zcc.err" "$ZC_BIN/zcc" -J -c -t 1 -s 127.0.0.1 -p "$ZCS_PORT" \
	"$TMP"/files/f* >"$TMP/zcc.json"
check "zcc -c -J: others_pct and others on the cpu event" \
	"$ZC_TESTBIN/jsoncheck" -E cpu -k others_pct -k others "$TMP/zcc.json"
run_metered "$TMP/cmp.err" "$ZC_BIN/zcc" -c -t 1 -R 2 -M sendfile,send -s 127.0.0.1 \
	-p "$ZCS_PORT" "$TMP"/files/f* >"$TMP/cmp.out"
check "zcc -c -M: under the table, the runs it touched and the busy loop: $(grep '^others: over' "$TMP/cmp.out")" \
	grep -Eq '^others: over 3% of the machine in [1-4] of 4 runs \(sendfile [0-2] of 2, send [0-2] of 2\), up to [0-9.]+% \((.*, )?zcothersbusy [0-9.]+%' "$TMP/cmp.out"
check "zcc -c -M: the line comes after the table" \
	sh -c "sed -n '/^compare: /,\$p' '$TMP/cmp.out' | grep -q '^others: over'"
over=$(sed -n 's/^others: over 3% of the machine in \([0-9]*\) of 4 runs.*/\1/p' "$TMP/cmp.out")
check "zcc -c -M: each round it touched marked, as many as the line counts ($over): $(grep -m1 '\[others' "$TMP/cmp.out")" \
	eval '[ -n "$over" ] && [ "$(grep -Ec "^round [12]/2 (sendfile|send): .* \[others [0-9.]+%\]$" "$TMP/cmp.out")" -eq "$over" ]'
run_metered "$TMP/cmp.err" "$ZC_BIN/zcc" -J -c -t 1 -R 2 -M sendfile,send -s 127.0.0.1 \
	-p "$ZCS_PORT" "$TMP"/files/f* >"$TMP/cmp.json"
check "zcc -c -M -J: every round event has others_pct" \
	"$ZC_TESTBIN/jsoncheck" -E round -k others_pct "$TMP/cmp.json"
stop_bg "$ZCS_PID"

# --- the demo -----------------------------------------------------------------
TMPDIR=$TMP ZC_DEMO_QUICK=1 ZC_DEMO_PLOT=$TMP/demo.svg ZC_DEMO_RR_PLOT=$TMP/demo-rr.svg sh "$ZC_TOP/tests/demo.sh" \
	>"$TMP/demo.out" 2>"$TMP/demo.err"
check "the demo: exit 0 ($(tail -n 3 "$TMP/demo.err"))" [ $? -eq 0 ]
check "the demo: the line under its table names the busy loop" \
	grep -Eq '^others: over .*[(] ?(.*, )?zcothersbusy [0-9.]+%' "$TMP/demo.out"

# --- zcs -c -----------------------------------------------------------------
# zcs_metered ARGS...: zcs -c ARGS listening, again while another meter
# refuses it.
zcs_metered() {
	for _try in $(seq 600); do
		start_bg "$ZC_BIN/zcs" -c -p 0 "$@" >"$TMP/zcs.out" 2>"$TMP/zcs.err"
		ZCS_PID=$!
		within 300 zcs_said
		if has_line "$TMP/zcs.out" "$ZCS_LISTENING"; then
			ZCS_PORT=$(zcs_port "$TMP/zcs.out")
			return 0
		fi
		reap_pid "$ZCS_PID" 0
		forget_bg "$ZCS_PID"
		grep -q 'another meter is running' "$TMP/zcs.err" || break
		sleep 0.1
	done
	die "zcs -c did not start: $(cat "$TMP/zcs.err")"
}
zcs_said() {
	has_line "$TMP/zcs.out" "$ZCS_LISTENING" || proc_ended "$ZCS_PID"
}
truth_start
zcs_metered -1 -t 60
run_fg "$ZC_BIN/zcc" -t 3 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP"/files/f* >/dev/null 2>&1
reap_pid "$ZCS_PID" 100
forget_bg "$ZCS_PID"
judge "zcs -c's done line" "$TMP/zcs.out"
zcs_metered -M read,splice -t 60
for _i in 1 2 3 4; do
	run_fg "$ZC_BIN/zcc" -t 1 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP"/files/f* >/dev/null 2>&1
done
# The table after the fourth turn: the one after the second says 2 runs.
wait_for "$TMP/zcs.out" '^others: over .* of 4 runs' 100
stop_bg "$ZCS_PID"
check "zcs -c -M: under the table, the turns it touched and the busy loop: $(grep '^others: over' "$TMP/zcs.out" | tail -n 1)" \
	grep -Eq '^others: over 3% of the machine in [1-4] of 4 runs \(read [0-2] of 2, splice [0-2] of 2\), up to [0-9.]+% \((.*, )?zcothersbusy [0-9.]+%' "$TMP/zcs.out"

# --- cyclesoak ----------------------------------------------------------------
truth_start
run_cs -d -1 -m 3000 >"$TMP/cs.out"
judge "cyclesoak -d" "$TMP/cs.out"
check "cyclesoak -d: the load includes it" grep -q '^others: .*the load includes it$' "$TMP/cs.out"
truth_start
run_cs -- "$mine" -l 30 -n 1 -p 10 -t 3 >"$TMP/cmd.out"
judge "cyclesoak -- command" "$TMP/cmd.out"

stop_bg "$BUSY"

# --- without it ---------------------------------------------------------------
k0=$(cpu_ticks)
run_cs -J -d -1 -m 3000 >"$TMP/quiet.json"
whole=$(cpu_share "$k0" "$(cpu_ticks)")
eval "$("$ZC_TESTBIN/jsoncheck" -E load -s q_ "$TMP/quiet.json" | tail -n 1)"
check "quiet: a figure (${q_others_pct:-none}%)" [ -n "${q_others_pct:-}" ]
# Processes at a positive nice are others but not in /proc/stat's figure:
# on a busy machine, such work may pass it.
if awk -v a="${q_others_pct:-0}" -v w="$whole" 'BEGIN { exit !(a <= w + 2) }'; then
	ok "quiet: no more than the machine's non-soaker work (${q_others_pct:-}% of $whole%)"
elif ! busy_skip "quiet: others $q_others_pct%" 25 "$k0"; then
	not_ok "quiet: others $q_others_pct%, more than the machine's non-soaker work ($whole%)"
fi
check "quiet: the busy loop, gone, not named" \
	sh -c "! grep -q zcothersbusy '$TMP/quiet.json'"
finish
