#!/bin/sh
# tests/run.sh itself, on made-up tests in a directory of their own: the
# tally, a failure and a timeout counted, two tests side by side (and one at
# a time with ZC_JOBS=1, or when one declares it needs to run alone), a
# retry named in the summary, a bad ZC_JOBS refused.
. "$ZC_TOP/tests/lib.sh"

RUN_SH=$ZC_TOP/tests/run.sh
mkdir "$TMP/bin"

# fake NAME BODY: an executable test_zzfake_NAME running the shell BODY.
fake() {
	printf '#!/bin/sh\n%s\n' "$2" >"$TMP/bin/test_zzfake_$1"
	chmod +x "$TMP/bin/test_zzfake_$1"
}

# runner [VAR=VALUE...]: run.sh over the fakes; output in $TMP/out, $RC,
# wall time in $MS.
runner() {
	_t0=$(date +%s%N)
	env ZC_TESTS=zzfake "$@" sh "$RUN_SH" "fake:$ZC_BIN:$TMP/bin" >"$TMP/out" 2>&1
	RC=$?
	MS=$((($(date +%s%N) - _t0) / 1000000))
}

fake a 'sleep 1; echo "ok - a"'
fake b 'sleep 1; echo "ok - b"; echo "ok - b2"'

# A need the runner does not know fails the run, named.
fake a '# needs: aloen
echo "ok - a"'
runner
check "an unknown need fails the run, named ($RC: $(tail -n 1 "$TMP/out"))" \
	eval '[ "$RC" -ne 0 ] && grep -q "^not ok - test_zzfake_a: unknown need .aloen." "$TMP/out"'
fake a 'sleep 1; echo "ok - a"'
runner
check "two passing tests: exit 0, '3 passed, 0 failed' ($RC: $(tail -n 1 "$TMP/out"))" \
	eval '[ "$RC" -eq 0 ] && [ "$(tail -n 1 "$TMP/out")" = "3 passed, 0 failed" ]'
# Each sleeps 1 s: side by side about 1 s, one after the other 2 s and more.
check "two tests side by side: $MS ms, under 1.8 s" [ "$MS" -lt 1800 ]
runner ZC_JOBS=1
check "ZC_JOBS=1: one at a time, $MS ms, at least 2 s" [ "$MS" -ge 2000 ]
check "a report line per test" \
	eval '[ "$(grep -c "^\[fake\] test_zzfake_[ab]: [0-9]* ok (" "$TMP/out")" -eq 2 ]'
check "no retry, and the summary says so" grep -qx 'run again alone: none' "$TMP/out"

# A test that says it needs the machine alone runs with nothing beside it.
fake b '# needs: alone
sleep 1; echo "ok - b"; echo "ok - b2"'
runner
check "a test declaring 'needs: alone' runs by itself: $MS ms, at least 2 s" \
	eval '[ "$RC" -eq 0 ] && [ "$MS" -ge 2000 ]'

# Two tests that hold the meter slot long are not started side by side.
fake a '# needs: meter-long
sleep 1; echo "ok - a"'
fake b '# needs: meter-long
sleep 1; echo "ok - b"; echo "ok - b2"'
runner
check "two tests declaring 'needs: meter-long' run one after the other: $MS ms" \
	eval '[ "$RC" -eq 0 ] && [ "$MS" -ge 2000 ]'
fake a 'sleep 1; echo "ok - a"'
fake b 'sleep 1; echo "ok - b"; echo "ok - b2"'

fake c 'echo "not ok - c broke"; echo "skip - c had no IPv6"'
fake d 'exit 3'
runner
check "a failure and a silent exit 3 counted: exit 1, '3 passed, 2 failed' ($(tail -n 1 "$TMP/out"))" \
	eval '[ "$RC" -ne 0 ] && [ "$(tail -n 1 "$TMP/out")" = "3 passed, 2 failed" ]'
check "the failing test's lines shown under it" grep -q '^    not ok - c broke' "$TMP/out"
check "the silent one named with its status" grep -q 'test_zzfake_d exited with status 3' "$TMP/out"
check "skips counted and shown" \
	eval 'grep -q "^(1 checks skipped" "$TMP/out" && grep -q "^    skip - c had no IPv6" "$TMP/out"'
check "the failures listed" grep -q '^failed: .*fake/test_zzfake_c' "$TMP/out"

# A test that fails beside others runs again alone, and that run counts.
rm "$TMP/bin"/test_zzfake_*
fake a 'sleep 1; echo "ok - a"'
fake f "if [ -e '$TMP/f.ran' ]; then echo 'ok - f'; else : >'$TMP/f.ran'; echo 'not ok - f squeezed'; fi"
runner
check "failed beside another, passed alone: '2 passed, 0 failed' ($RC: $(tail -n 1 "$TMP/out"))" \
	eval '[ "$RC" -eq 0 ] && [ "$(tail -n 1 "$TMP/out")" = "2 passed, 0 failed" ]'
check "... the first run's report shown, marked" \
	eval 'grep -q "^(failed beside other tests; to be run again alone" "$TMP/out" &&
	grep -q "^  |     not ok - f squeezed" "$TMP/out"'
check "... and the retry named in the summary" \
	grep -qx 'run again alone: fake/test_zzfake_f (passed alone)' "$TMP/out"

rm "$TMP/bin"/test_zzfake_*
fake e 'sleep 30'
runner ZC_TEST_TIMEOUT=1
check "a test past ZC_TEST_TIMEOUT is stopped and counted (exit $RC, $MS ms)" \
	eval '[ "$RC" -ne 0 ] && [ "$MS" -lt 10000 ] && grep -q "exited with status 124" "$TMP/out"'

# A test left where tests lived before the folders is named and fails.
mkdir -p "$TMP/tree/tests"
cp "$RUN_SH" "$TMP/tree/tests/run.sh"
printf 'echo "ok - stray"\n' >"$TMP/tree/tests/test_stray.sh"
env ZC_TESTS=zznone sh "$TMP/tree/tests/run.sh" "fake:$ZC_BIN:$TMP/bin" >"$TMP/out" 2>&1
RC=$?
check "a test at the top of tests/ fails the run, named ($RC: $(tail -n 1 "$TMP/out"))" \
	eval '[ "$RC" -ne 0 ] && grep -q "test_stray.sh: not run" "$TMP/out" &&
	grep -q "^failed: test_stray.sh" "$TMP/out"'

for bad in 0 x -1; do
	runner ZC_JOBS="$bad"
	check "ZC_JOBS=$bad: exit 2, one line ($(cat "$TMP/out"))" \
		eval '[ "$RC" -eq 2 ] && [ "$(grep -c "" "$TMP/out")" -eq 1 ] && grep -q ZC_JOBS "$TMP/out"'
done

finish
