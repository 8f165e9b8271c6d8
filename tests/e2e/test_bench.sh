#!/bin/sh
# needs: meter-long long
# make bench's driver and its statistics: zcstat's figures and verdicts;
# bad parts, repetition counts, run lengths and link rates stop the bench at once
# with one line; one cheap part runs for real end to end (a table with a
# row per method, its CSV rows, every byte counted, nothing left behind).
# The peers part's short run is test_bench_peers.sh.
. "$ZC_TOP/tests/lib.sh"

bench=$ZC_TOP/tests/bench/run.sh
stat=$ZC_TESTBIN/zcstat
mkdir -p "$TMP/tmp" "$TMP/out"

# --- zcstat -------------------------------------------------------------------
got=$(echo "3 1 2 10 4" | "$stat" | tr '\n' ' ')
check "zcstat: n, median, min, max, mean ($got)" \
	sh -c "echo '$got' | grep -q '^n 5 median 3 min 1 max 10 mean 4 '"
eval "$(printf '1 3\n1.1 3.2\n0.9 2.9\n1 3.1\n' | "$stat" -c -s x_)"
check "zcstat -c: clear difference is 'less' ($x_verdict, below $x_below)" \
	[ "$x_verdict" = less ] && [ "$x_below" = 4 ]
eval "$(printf '1 3\n1.1 3.2\n3.5 2.9\n1 3.1\n' | "$stat" -c -s x_)"
check "zcstat -c: one round the other way is unresolved ($x_verdict: $x_why)" \
	[ "$x_verdict" = unresolved ] && [ "$x_why" = "rounds disagree in sign" ]
eval "$(printf '3 1\n2 1\n4 2\n1 2\n5 1\n' | "$stat" -r -s x_)"
check "zcstat -r: median ratio, least..most at 93.75% for 5 rounds, 4 above 1 ($x_median [$x_lo, $x_hi] $x_conf, $x_above/$x_below)" \
	[ "$x_median" = 2 ] && [ "$x_lo" = 0.5 ] && [ "$x_hi" = 5 ] && [ "$x_conf" = 0.9375 ] &&
	[ "$x_above" = 4 ] && [ "$x_below" = 1 ]
check "zcstat -r: the interval holds 1, unresolved; 4 rounds agree ($x_verdict, $x_agree)" \
	[ "$x_verdict $x_agree" = "unresolved 4" ]
eval "$(printf '3 1\n2 1\n4 2\n1.5 1\n5 1\n' | "$stat" -r -s x_)"
check "zcstat -r: every ratio above 1 is 'more' ($x_verdict, $x_agree)" \
	[ "$x_verdict $x_agree" = "more 5" ]
got=$(printf 'a 3 x\nb 5 y\na 1 z\na 4 w\n' | "$stat" -g median | tr '\n' ' ')
check "zcstat -g median: per key, in the order keys came ($got)" [ "$got" = "a 3 b 5 " ]
got=$(printf 'r1 64 3 9\nr1 128 4 8\nr2 64 5 7\n' | "$stat" -g min -k 3 | tr '\n' ' ')
check "zcstat -g min -k 3: the value from field 3 ($got)" [ "$got" = "r1 3 r2 5 " ]
eval "$(printf 'r1 64 3 9\nr1 128 4 8\nr2 64 5 6\n' | "$stat" -w 2=64 -k 3,4 -r -s x_)"
check "zcstat -w 2=64 -k 3,4 -r: the pairs of the lines with 64 in field 2 ($x_n rounds, median $x_median)" \
	[ "$x_n" = 2 ] && [ "$x_median" = 0.583333 ]
echo "1 2" | "$stat" -k 3 >/dev/null 2>"$TMP/err"
rc=$?
check "zcstat -k 3 on a line of 2 fields: exit 1, named ($(cat "$TMP/err"))" \
	sh -c "[ $rc -eq 1 ] && grep -q 'line 1: no field 3' '$TMP/err'"
for bad in "-k 0" "-k 1,2,3" "-g mode" "-w x" "-g min -k 1,2" "-g min -c"; do
	# shellcheck disable=SC2086
	"$stat" $bad </dev/null >/dev/null 2>"$TMP/err"
	rc=$?
	check "zcstat $bad: a usage error, one line ($rc: $(cat "$TMP/err"))" \
		eval '[ "$rc" -eq 2 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ]'
done
"$stat" -c -r </dev/null >/dev/null 2>&1
check "zcstat: -c with -r is a usage error" [ $? -eq 2 ]
echo "1 x" | "$stat" >/dev/null 2>"$TMP/err"
rc=$?
check "zcstat: a word that is no number: exit 1, named ($(cat "$TMP/err"))" \
	sh -c "[ $rc -eq 1 ] && grep -q \"'x': not a finite number\" '$TMP/err'"
"$stat" -s 'a b' </dev/null >/dev/null 2>&1
check "zcstat: a bad prefix is a usage error" [ $? -eq 2 ]

# --- refusals -------------------------------------------------------------------
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
refused "ZC_BENCH_LOOPBACK_SECS=0" 1 ZC_BENCH_LOOPBACK_SECS=0 loopback
refused "ZC_BENCH_PEER_REPS=0" 1 ZC_BENCH_PEER_REPS=0 peers
if [ "$(id -u)" = 0 ] && command -v tc >/dev/null 2>&1; then
	refused "ZC_BENCH_LINK_RATES=4xbit (tc refuses it)" 1 ZC_BENCH_LINK_RATES=4xbit link
	check "the line is tc's, naming the rate" grep -q "'4xbit'" "$TMP/err.txt"
	check "no namespace of ours left" sh -c "! ip netns list | grep -q 'zcb-'"
else
	skip "a bad link rate: tc checks it only as root with iproute2"
fi
check "refusals leave no work directory behind" sh -c "[ -z \"\$(ls -A '$TMP/tmp')\" ]"

# --- one real part, the cheapest: each method once ---------------------------------
if [ "$ZC_PASS" != plain ]; then
	skip "bench loopback run: only in the plain pass (this is '$ZC_PASS'; it measures, not checks memory)"
	finish
fi
meter_slot
# Runs of half a second: the table's form is checked here, not its figures.
TMPDIR="$TMP/tmp" ZC_BENCH_OUT="$TMP/out" ZC_BENCH_REPS=1 ZC_BENCH_LOOPBACK_SECS=0.5 ZC_BIN="$ZC_BIN" ZC_TESTBIN="$ZC_TESTBIN" \
	timeout 200 sh "$bench" loopback >"$TMP/run.txt" 2>&1
rc=$?
check "bench loopback: exit 0 (got $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/run.txt"
check "an estimate of the time at the start" grep -q '^estimated time: about [0-9]* min' "$TMP/run.txt"
check "the machine: CPUs and whether virtual" grep -Eq '^cpu: .*[0-9]+ CPUs, (virtual machine|bare metal)' "$TMP/run.txt"
check "the machine: TCP's congestion control, loopback's qdisc, who paces" \
	grep -Eq '^tcp: +congestion control [^ ]+, qdisc on lo [^ ]+: (fq paces|the kernel paces|no pacing)' "$TMP/run.txt"
check "the machine: what a null system call costs, a figure in us" \
	grep -Eq '^syscall: [0-9]+\.[0-9]{3} us a null system call \(getppid' "$TMP/run.txt"
check "syscost: an argument is refused with its usage, exit 2" \
	sh -c "'$ZC_TESTBIN/syscost' x 2>&1 >/dev/null | grep -q '^usage: syscost' &&
		{ '$ZC_TESTBIN/syscost' x 2>/dev/null; [ \$? -eq 2 ]; }"
check "the runs' length, as asked: $(grep -o 'per run (about [0-9.]* s)' "$TMP/run.txt")" \
	grep -q 'sent [0-9]* times per run (about 0.5 s)$' "$TMP/run.txt"
check "progress: the part's start and end" \
	sh -c "grep -q '^\[part 1 of 1: loopback' '$TMP/run.txt' && grep -q '^\[part loopback done in' '$TMP/run.txt'"
# A method the kernel refuses here (io_uring switched off) is left out of
# the part in one line, and has no row.
usable_methods
methods=$USABLE
check_left_out "$TMP/run.txt" "  left out: "
# The method table is zcc's own comparison (zctable prints it from the
# run's JSON): its head, and a row per method with the rate, the load, the
# service demand and zcc's us/KB, then the ratio or "1" for the reference.
check "zcc's comparison table, a round per run asked: $(grep -m1 'compare:' "$TMP/run.txt")" \
	grep -q "^  compare: 1 rounds\{0,1\}, each variant against $(echo $methods | cut -d' ' -f1) on service demand" "$TMP/run.txt"
for m in $methods; do
	# The load (and with it the service demand) may be below 0 on a busy machine.
	# (the first row of m: the where table's rows for m follow)
	row=$(awk -v m="$m" '$1 == m && $2 ~ /^[0-9]/' "$TMP/run.txt" | head -n 1)
	echo "$row" | awk '{ exit !(NF >= 8 && $2 + 0 > 0 && $3 ~ /^-?[0-9.]+$/ &&
		$4 ~ /^-?[0-9.]+$/ && $5 ~ /^[0-9.]+$/ && $6 ~ /^[0-9.]+$/) }'
	check "zcc's table row for $m: '$row'" [ $? -eq 0 ]
done
check "every byte counted: $(grep '^  bytes:' "$TMP/run.txt")" \
	grep -q '^  bytes: zcc sent [0-9]* in [0-9]* connections, zcs received the same' "$TMP/run.txt"
n=$(grep -Ec '^loopback,[^,]*,(kbytes_per_sec|kbytes_per_sec_min|kbytes_per_sec_max|system_load|service_demand),' \
	"$TMP/out/bench.csv" 2>/dev/null)
want=$(($(echo $methods | wc -w) * 5))
check "the CSV has the $want loopback rate and load rows (got ${n:-none})" [ "${n:-0}" -eq "$want" ]
# -W: each method's split for the sender and the receiver, copy kind included.
n=$(grep -Ec '^loopback,[^,]*,(tx|rx)_kernel_copy,' "$TMP/out/bench.csv" 2>/dev/null)
want=$(($(echo $methods | wc -w) * 2))
check "the CSV has the sender's and receiver's copy share per method ($want, got ${n:-none})" \
	[ "${n:-0}" -eq "$want" ]
check "the CSV's header line" sh -c "head -n 1 '$TMP/out/bench.csv' | grep -qx 'part,case,metric,value,unit'"
check "nothing left in the work directory" sh -c "[ -z \"\$(ls -A '$TMP/tmp')\" ]"
finish
