#!/bin/sh
# make bench's driver: bad parts and bad repetition counts stop it at once
# with one line, and one cheap part runs for real end to end (a table, its
# CSV rows, every byte counted, nothing left behind).
. "$ZC_TOP/tests/lib.sh"

bench=$ZC_TOP/tests/bench.sh
mkdir -p "$TMP/tmp" "$TMP/out"

# refused WHAT STATUS "VAR=VALUE..." PART: one line on stderr, no table.
refused() {
	# shellcheck disable=SC2086
	env $3 TMPDIR="$TMP/tmp" ZC_BENCH_OUT="$TMP/out" ZC_BIN="$ZC_BIN" ZC_TESTBIN="$ZC_TESTBIN" \
		sh "$bench" "$4" >"$TMP/out.txt" 2>"$TMP/err.txt"
	_rc=$?
	_lines=$(wc -l <"$TMP/err.txt")
	check "$1: exit $2 (got $_rc), one line: $(cat "$TMP/err.txt")" \
		sh -c "[ $_rc -eq $2 ] && [ $_lines -eq 1 ] && ! grep -q '^===' '$TMP/out.txt'"
}

refused "unknown part" 2 "" nosuchpart
check "the line names the part" grep -q "nosuchpart" "$TMP/err.txt"
refused "ZC_BENCH_LINK_REPS=1 (the paired statistics need 2)" 1 ZC_BENCH_LINK_REPS=1 link
refused "ZC_BENCH_REPS=x" 1 ZC_BENCH_REPS=x loopback
refused "ZC_BENCH_PEER_REPS=0" 1 ZC_BENCH_PEER_REPS=0 peers
check "refusals leave no work directory behind" sh -c "[ -z \"\$(ls -A '$TMP/tmp')\" ]"

# One real part, the cheapest: calibration, then the three modes once each.
if [ "$ZC_PASS" != plain ]; then
	skip "bench loopback run: only in the plain pass (this is '$ZC_PASS'; it measures, not checks memory)"
	finish
fi
TMPDIR="$TMP/tmp" ZC_BENCH_OUT="$TMP/out" ZC_BENCH_REPS=1 ZC_BIN="$ZC_BIN" ZC_TESTBIN="$ZC_TESTBIN" \
	timeout 120 sh "$bench" loopback >"$TMP/run.txt" 2>&1
rc=$?
check "bench loopback: exit 0 (got $rc)" [ $rc -eq 0 ]
for m in 'sendfile' 'read+send (-S)' 'read+write (-S -w)'; do
	row=$(grep -F "  $m " "$TMP/run.txt" | tail -n 1)
	# ... kbytes/sec, load %, us/KB, min-max: the last four fields. The
	# load, and with it the service demand, may be below 0 when other work
	# ran beside the calibration (the meter measures against it).
	echo "$row" | awk '{ exit !(NF >= 5 && $(NF - 3) + 0 > 0 && $(NF - 2) ~ /^-?[0-9.]+$/ &&
		$(NF - 1) ~ /^-?[0-9.]+$/ && $NF ~ /^[0-9.]+-[0-9.]+$/) }'
	check "a table row for $m: '$row'" [ $? -eq 0 ]
done
check "every byte counted: $(grep '^  bytes:' "$TMP/run.txt")" \
	grep -q '^  bytes: zcc sent [0-9]* in [0-9]* connections, zcs received the same' "$TMP/run.txt"
n=$(grep -c '^loopback,' "$TMP/out/bench.csv" 2>/dev/null)
check "the CSV has the 9 loopback rows (got ${n:-none})" [ "${n:-0}" -eq 9 ]
check "the CSV's header line" sh -c "head -n 1 '$TMP/out/bench.csv' | grep -qx 'part,case,metric,value,unit'"
check "nothing left in the work directory" sh -c "[ -z \"\$(ls -A '$TMP/tmp')\" ]"
finish
