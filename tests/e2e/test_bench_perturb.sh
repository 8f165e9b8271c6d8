#!/bin/sh
# needs: meter-long long
# make bench PART=perturb, short (1 round, the default meter and the A/A
# control): its knobs refused at the door; per case (loopback sendfile and
# send, pinned and not; veth as root) the unmetered row, the default's row
# with its two verdicts, the A/A row (unmetered twice), the CSV's rows,
# and no namespace left behind.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

bench=$ZC_TOP/tests/bench/run.sh
mkdir -p "$TMP/tmp" "$TMP/out"
NUM='[0-9]+\.[0-9]{3}'

bench_refused perturb "ZC_BENCH_PERTURB_REPS=0" ZC_BENCH_PERTURB_REPS=0
bench_refused perturb "ZC_BENCH_PERTURB_METHODS=-x" ZC_BENCH_PERTURB_METHODS=-x
grep -q "'-x' is not -K, -r, -L or aa" "$TMP/err.txt" && ok "it names the methods" ||
	not_ok "names the methods: $(cat "$TMP/err.txt")"
bench_refused perturb "ZC_BENCH_PERTURB_METHODS=' '" "ZC_BENCH_PERTURB_METHODS= "

bench_run_here "bench perturb run"
ns_before=$(ip netns list 2>/dev/null | sed 's/ .*//' | grep '^zcpt-' | sort)
meter_slot
TMPDIR="$TMP/tmp" ZC_BENCH_OUT="$TMP/out" ZC_BENCH_PERTURB_REPS=1 ZC_BENCH_PERTURB_METHODS="-K aa" \
	ZC_BIN="$ZC_BIN" ZC_TESTBIN="$ZC_TESTBIN" timeout 300 sh "$bench" perturb >"$TMP/pt.txt" 2>&1
rc=$?
meter_slot_free
check "bench perturb, 1 round: exit 0 (got $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/pt.txt"
cases="loopback sendfile -B|loopback sendfile|loopback send -B|loopback send"
n=4
if [ "$(id -u)" = 0 ]; then
	cases="$cases|veth sendfile|veth send"
	n=6
fi
check "an unmetered row per case ($n)" \
	[ "$(grep -Ec "^  ($cases) +none +rate 1 +$NUM " "$TMP/pt.txt")" -eq $n ]
check "the default's row per case, rate and demand ratios" \
	[ "$(grep -Ec "^  ($cases) +-K +$NUM \[$NUM-$NUM\] +$NUM +$NUM \[$NUM-$NUM\]$" "$TMP/pt.txt")" -eq $n ]
check "the A/A row per case" \
	[ "$(grep -Ec "^  ($cases) +A/A +$NUM \[$NUM-$NUM\] +\(unmetered twice: the noise floor\)$" "$TMP/pt.txt")" -eq $n ]
check "two verdicts per case on the default" \
	[ "$(grep -Ec '^  -> (target met|TARGET NOT MET): the default meter beside ' "$TMP/pt.txt")" -eq $((2 * n)) ]
check "the CSV's rows" sh -c "grep -q '^perturb,lo-send-K,rate_ratio,' '$TMP/out/bench.csv' &&
	grep -q '^perturb,lo-send-aa,rate_ratio_lo,' '$TMP/out/bench.csv'"
ns_after=$(ip netns list 2>/dev/null | sed 's/ .*//' | grep '^zcpt-' | sort)
check "no namespace left behind" [ "$ns_after" = "$ns_before" ]
finish
