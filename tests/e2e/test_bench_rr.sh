#!/bin/sh
# needs: meter-long long
# make bench PART=rr, short (1 round of 1 s a side in 1 run, a 3 s memory run):
# its knobs refused at the door; the rows of both sizes against netperf
# TCP_RR (with NETPERF; zcs's own CPU against netserver's) or a line saying why not, sockperf at 200 bytes
# and its reason at 1 byte, each round's ratios, a verdict for each
# target, the instrument's row from its RR_BLOCK=10 build, the memory
# row, the CSV's rows, and nothing left behind (servers, the netperf
# build's directory).
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

bench=$ZC_TOP/tests/bench/run.sh
mkdir -p "$TMP/tmp" "$TMP/out"

bench_refused rr "ZC_BENCH_RR_REPS=0" ZC_BENCH_RR_REPS=0
bench_refused rr "ZC_BENCH_RR_SECS=x" ZC_BENCH_RR_SECS=x
bench_refused rr "ZC_BENCH_RR_MEM_SECS=2" ZC_BENCH_RR_MEM_SECS=2
bench_refused rr "ZC_BENCH_RR_TURNS=2 (not dividing 5 s)" ZC_BENCH_RR_TURNS=2

bench_run_here "bench rr run"
meter_slot
TMPDIR="$TMP/tmp" ZC_BENCH_OUT="$TMP/out" ZC_BENCH_RR_REPS=1 ZC_BENCH_RR_SECS=1 ZC_BENCH_RR_TURNS=1 \
	ZC_BENCH_RR_MEM_SECS=3 ZC_BIN="$ZC_BIN" ZC_TESTBIN="$ZC_TESTBIN" \
	timeout 600 sh "$bench" rr >"$TMP/rr.txt" 2>&1
rc=$?
meter_slot_free
check "bench rr, 1 round of 1 s: exit 0 (got $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/rr.txt"
for b in 1 200; do
	check "a $b-byte row" grep -q "^  $b-byte messages, closed loop, one flow, 1 rounds of 1 s a side (1 runs each, in turn):$" "$TMP/rr.txt"
done
check "zcc's own us/Tran with its spread" grep -Eq '^    zcc itself +[0-9.]+ \[[0-9.]+-[0-9.]+\] us/Tran$' "$TMP/rr.txt"
if grep -q '^    netperf: skipped: ' "$TMP/rr.txt"; then
	check "without netperf: why, in both rows" [ "$(grep -c '^    netperf: skipped: .*NETPERF' "$TMP/rr.txt")" -eq 2 ]
else
	check "netperf: rate, CPU (-c and own) and p50 verdicts in both rows" \
		[ "$(grep -Ec '^  -> (target met|TARGET NOT MET): rr (1|200) B against netperf TCP_RR: (transactions/s|CPU per transaction|own CPU per transaction|p50)' "$TMP/rr.txt")" -eq 8 ]
	check "netperf: each round's ratios" grep -Eq '^    rounds zc/netperf: rate [0-9.]+; cpu [0-9.]+; own [0-9.]+; server.s own [0-9.]+; p50 [0-9.]+$' "$TMP/rr.txt"
	check "netserver: the servers' own CPU, its verdict in both rows" sh -c "
		[ \"\$(grep -Ec '^    server.s own +zcs [0-9.]+ \\[.*\\], netserver [0-9.]+ ' '$TMP/rr.txt')\" -eq 2 ] &&
		[ \"\$(grep -Ec '^  -> (target met|TARGET NOT MET): rr (1|200) B, zcs against netserver: the server.s own CPU per transaction [0-9.]+x' '$TMP/rr.txt')\" -eq 2 ]"
fi
if command -v sockperf >/dev/null 2>&1; then
	check "sockperf at 1 byte: why not" grep -q '^    sockperf: skipped: its messages are at least 14 bytes$' "$TMP/rr.txt"
	check "sockperf at 200 bytes: p50 and its verdict" sh -c "
		grep -Eq '^    p50 us +zc [0-9.]+ \[.*\], sockperf full round trip [0-9.]+ ' '$TMP/rr.txt' &&
		grep -Eq '^  -> (target met|TARGET NOT MET): rr 200 B against sockperf ping-pong: p50 ' '$TMP/rr.txt'"
else
	check "sockperf: why not" grep -q '^    sockperf: skipped: sockperf is not installed' "$TMP/rr.txt"
fi
check "the instrument's row and verdict" sh -c "
	grep -q 'CPPFLAGS=-DRR_BLOCK=10' '$TMP/rr.txt' &&
	grep -Eq '^    transactions/s  clocked [0-9]+ \[[0-9]+-[0-9]+\], bare [0-9]+ ' '$TMP/rr.txt' &&
	grep -Eq '^    rounds: rate [0-9]\.[0-9]{3}$' '$TMP/rr.txt' &&
	grep -Eq '^  -> (target met|TARGET NOT MET): rr 1 B, clocks and histogram against none: transactions/s [0-9.]+x' '$TMP/rr.txt'"
check "the memory row and verdict" sh -c "
	grep -Eq '^    VmRSS after 1 s [0-9]+ kB, at most [0-9]+ kB over [0-9]+ transactions: grew -?[0-9]+ kB$' '$TMP/rr.txt' &&
	grep -Eq '^  -> (target met|TARGET NOT MET): rr memory: VmRSS grew ' '$TMP/rr.txt'"
check "the CSV's rows" sh -c "grep -q '^rr,memory,rss_growth_kb,' '$TMP/out/bench.csv' &&
	grep -q '^rr,instrument,rate_ratio,' '$TMP/out/bench.csv'"
check "nothing left in its TMPDIR" sh -c "[ -z \"\$(ls -A '$TMP/tmp')\" ]"
finish
