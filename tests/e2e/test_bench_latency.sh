#!/bin/sh
# needs: meter-long long
# make bench PART=latency, short (1 s a cell, 1 round, gaps 1ms and closed):
# its knobs refused at the door; the talk's table (between namespaces as
# root, else over loopback, saying why) with a row per protocol, size and
# gap, the charts, zcc's own rounds, the load rows and their verdict, the
# call-times rows, each peer's row or why not, the CSV's rows, and nothing
# left behind (namespaces, servers, the netperf build's directory).
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

bench=$ZC_TOP/tests/bench/run.sh
mkdir -p "$TMP/tmp" "$TMP/out"

bench_refused latency "ZC_BENCH_LATENCY_SECS=0" ZC_BENCH_LATENCY_SECS=0
bench_refused latency "ZC_BENCH_LATENCY_REPS=x" ZC_BENCH_LATENCY_REPS=x
bench_refused latency "ZC_BENCH_LATENCY_GAPS=fast" ZC_BENCH_LATENCY_GAPS=fast
bench_refused latency "ZC_BENCH_LATENCY_GAPS=' '" "ZC_BENCH_LATENCY_GAPS= "

bench_run_here "bench latency run"
ns_before=$(ip netns list 2>/dev/null | sed 's/ .*//' | grep '^zcpt-' | sort)
meter_slot
TMPDIR="$TMP/tmp" ZC_BENCH_OUT="$TMP/out" ZC_BENCH_LATENCY_SECS=1 ZC_BENCH_LATENCY_REPS=1 \
	ZC_BENCH_LATENCY_GAPS="1ms closed" ZC_BIN="$ZC_BIN" ZC_TESTBIN="$ZC_TESTBIN" \
	timeout 300 setsid -w sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$TMP/sid" \
	sh "$bench" latency >"$TMP/lat.txt" 2>&1
rc=$?
meter_slot_free
check "bench latency, 1 s a cell: exit 0 (got $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/lat.txt"
if [ "$(id -u)" = 0 ]; then
	check "as root: the table between namespaces" grep -q "^  the talk's table: two namespaces over veth" "$TMP/lat.txt"
else
	check "not root: loopback, saying why" sh -c "
		grep -q '^  namespaces: skipped: not root' '$TMP/lat.txt' &&
		grep -q \"^  the talk's table: loopback\" '$TMP/lat.txt'"
fi
# A row: proto, bytes, gap, p50 p99 p99.9 max, over/sent, one-way p50 p99.
for p in tcp udp; do
	for b in 200 1300; do
		for g in 1ms closed; do
			check "a $p $b-byte row at gap $g" grep -Eq \
				"^  $p +$b +$g +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+/[0-9]+ +[0-9.]+ +[0-9.]+" "$TMP/lat.txt"
		done
	done
	check "the gaps $p could not keep, named" grep -q "^  gaps $p could not keep here: " "$TMP/lat.txt"
	if grep -q '^  run_rr: skipped: ' "$TMP/lat.txt"; then
		check "$p: the load rows (quiet, loaded; run_rr skipped, saying why)" \
			[ "$(grep -Ec "^  $p +(quiet|busy thread on CPU 0) +[0-9]+/[0-9]+ " "$TMP/lat.txt")" -eq 2 ]
	else
		check "$p: the load rows (quiet, loaded, run_rr) and a verdict" sh -c "
		[ \$(grep -Ec '^  $p +(quiet|busy thread on CPU 0|busy thread, run_rr zcc, zcs) +[0-9]+/[0-9]+ ' '$TMP/lat.txt') -eq 3 ] &&
		grep -Eq '^  -> (target met|TARGET NOT MET): latency $p 100 us gap: run_rr over [0-9]+ us ' '$TMP/lat.txt'"
	fi
	check "$p: call-times rows at each gap" \
		[ "$(grep -Ec "^  $p +(1ms|closed) +[0-9]+/[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+/[0-9]+ " "$TMP/lat.txt")" -eq 2 ]
done
if [ "$(id -u)" = 0 ] && ! grep -q 'this zcc does not take them' "$TMP/lat.txt"; then
	for p in ip packet; do
		check "$p: call-times rows at each gap (raw sockets' calls timed)" \
			[ "$(grep -Ec "^  $p +(1ms|closed) +[0-9]+/[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+/[0-9]+ " "$TMP/lat.txt")" -eq 2 ]
	done
fi
check "the load rows' budget said" grep -q '^  budget: 20 us, as the talk.s; where the quiet run.s own p50 is above it' "$TMP/lat.txt"
grep -q 'this zcc does not take them' "$TMP/lat.txt" &&
	check "ip and packet: skipped in one line, why" [ "$(grep -c '^  protocols: ip packet skipped: ' "$TMP/lat.txt")" -eq 1 ]
for s in 200 1300; do
	check "the $s-byte chart and its data" sh -c "
		grep -q '^  picture: $TMP/out/latency_p99_$s.svg' '$TMP/lat.txt' &&
		grep -q '<svg' '$TMP/out/latency_p99_$s.svg' && head -n 1 '$TMP/out/latency_p99_$s.csv' | grep -q '^gap_us,tcp,udp'"
done
check "zcc's own rounds: its compare table of the 200-byte cells" sh -c "
	grep -q '^  compare: 1 round, each variant against tcp' '$TMP/lat.txt' &&
	grep -Eq '^  udp(/1ms)? +[0-9]+ ' '$TMP/lat.txt'"
check "the talk's figures beside the call times" grep -q "^  the talk's (its machine): raw Ethernet and raw IP about 5 and 13 sends of 26,000" "$TMP/lat.txt"
# peer NAME PATTERN-OF-ITS-ROW: its row, or one line why not.
peer() {
	if grep -q "^    $1: skipped: " "$TMP/lat.txt"; then
		ok "$1: skipped, saying why: $(grep "^    $1: skipped: " "$TMP/lat.txt" | head -n 1)"
	else
		check "$1: rows with both sides' figures" grep -Eq "$2" "$TMP/lat.txt"
	fi
}
peer netperf '^  -> (target met|TARGET NOT MET): latency tcp 200 B against netperf TCP_RR .*: p99 '
peer sockperf '^  -> (target met|TARGET NOT MET): latency udp 200 B against sockperf ping-pong .*: p50 '
peer qperf '^    p50 us +zc [0-9.]+ .*qperf gives none: its mean round trip [0-9.]+'
peer irtt '^  -> (target met|TARGET NOT MET): latency udp 100 us gap .* against irtt: one-way p50 '
check "each peer row: transactions/s and own us/Tran of both sides" \
	grep -Eq '^    own us/Tran +zc [0-9.]+ \[.*\], [a-z]+ [0-9.]+ ' "$TMP/lat.txt"
check "the CSV's rows" sh -c "grep -q '^latency,tcp-200-1ms,p99_us,' '$TMP/out/bench.csv' &&
	grep -q '^latency,load-udp-loaded,over_budget,' '$TMP/out/bench.csv' &&
	[ \$(grep -c '^latency,load-tcp-quiet,over_budget,' '$TMP/out/bench.csv') -eq 1 ] &&
	grep -q '^latency,calltimes-tcp-closed,send_over_20us,' '$TMP/out/bench.csv'"
ns_after=$(ip netns list 2>/dev/null | sed 's/ .*//' | grep '^zcpt-' | sort)
check "no namespace left behind" [ "$ns_after" = "$ns_before" ]
check "nothing left in its TMPDIR" sh -c "[ -z \"\$(ls -A '$TMP/tmp')\" ]"
# The bench ran in a session of its own: whatever it started is in it.
left=$(ps -eo sid=,pid=,args= | awk -v s="$(cat "$TMP/sid")" '$1 == s { $1 = ""; print }')
check "nothing it started left running: ${left:-none}" [ -z "$left" ]
finish
