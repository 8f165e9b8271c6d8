#!/bin/sh
# tests/run.sh itself, on made-up tests in a directory of their own: the
# tally, a failure and a timeout counted, two tests side by side (and one at
# a time with ZC_JOBS=1, or when one declares it needs to run alone, or
# when both take the meter slot and one holds it long), a test taking the
# slot undeclared failed, a failure beside others counted and not run
# again, a bad ZC_JOBS refused.
# Side by side or not is read from the fakes' own marks, not from the
# clock, so a busy machine cannot fail it.
. "$ZC_TOP/tests/lib.sh"
plain_only "tests/run.sh on made-up tests"

RUN_SH=$ZC_TOP/tests/run.sh
mkdir "$TMP/bin"

# fake NAME BODY: an executable test_zzfake_NAME running the shell BODY.
fake() {
	printf '#!/bin/sh\n%s\n' "$2" >"$TMP/bin/test_zzfake_$1"
	chmod +x "$TMP/bin/test_zzfake_$1"
}

# runner [VAR=VALUE...]: run.sh over the fakes, as a pass named $PASS
# (fake unless set); output in $TMP/out, $RC, wall time in $MS.
PASS=fake
runner() {
	rm -f "$TMP"/*.here "$TMP"/*.t0 "$TMP"/*.t1
	_t0=$(date +%s%N)
	# Under make check LOAD=1 this test runs beside a load: its own runs
	# have none unless asked.
	env -u ZC_LOAD ZC_TESTS=zzfake "$@" sh "$RUN_SH" "$PASS:$ZC_BIN:$TMP/bin" >"$TMP/out" 2>&1
	RC=$?
	MS=$((($(date +%s%N) - _t0) / 1000000))
}

# meet NAME OTHER [NEEDS]: a fake that marks its start and waits (30 s at
# most) for OTHER's mark: "ok - NAME" when they met, "not ok" when not.
meet() {
	fake "$1" "$3
. \"\$ZC_TOP/tests/lib.sh\"
: >'$TMP/$1.here'
within 300 test -e '$TMP/$2.here' && echo 'ok - $1' || echo 'not ok - $1 ran without $2'"
}

# span NAME [NEEDS]: a fake that notes when it started and ended ($TMP/NAME.t0,
# .t1) around 0.3 s of sleep: a length of run for another to overlap, were
# they run together; nothing it could wait for.
span() {
	fake "$1" "$2
date +%s%N >'$TMP/$1.t0'; sleep 0.3; date +%s%N >'$TMP/$1.t1'; echo 'ok - $1'"
}

# apart: the spans of a and b did not overlap.
apart() {
	[ "$(cat "$TMP/a.t1")" -le "$(cat "$TMP/b.t0")" ] || [ "$(cat "$TMP/b.t1")" -le "$(cat "$TMP/a.t0")" ]
}

# A need the runner does not know fails the run, named.
fake a '# needs: aloen
echo "ok - a"'
runner
check "an unknown need fails the run, named ($RC: $(tail -n 1 "$TMP/out"))" \
	eval '[ "$RC" -ne 0 ] && grep -q "^not ok - test_zzfake_a: unknown need .aloen." "$TMP/out"'

# Two tests that wait for each other pass only side by side.
meet a b
meet b a
runner
check "two tests side by side: exit 0, '2 passed, 0 failed' ($RC: $(tail -n 1 "$TMP/out"))" \
	eval '[ "$RC" -eq 0 ] && [ "$(tail -n 1 "$TMP/out")" = "2 passed, 0 failed" ]'
check "a report line per test" \
	eval '[ "$(grep -c "^\[fake\] test_zzfake_[ab]: [0-9]* ok (" "$TMP/out")" -eq 2 ]'

span a
span b
runner ZC_JOBS=1
check "ZC_JOBS=1: one at a time ($RC: $(tail -n 1 "$TMP/out"))" eval '[ "$RC" -eq 0 ] && apart'

# A test that says it needs the machine alone runs with nothing beside it.
span b '# needs: alone'
runner
check "a test declaring 'needs: alone' runs by itself ($RC)" eval '[ "$RC" -eq 0 ] && apart'

# One that judges the meter in the plain pass only is alone there, and in
# another pass runs beside others, but not beside one that takes the slot.
span a
span b '# needs: alone-plain'
PASS=plain
runner
check "'needs: alone-plain' in the pass named plain: by itself ($RC)" eval '[ "$RC" -eq 0 ] && apart'
meet a b
meet b a '# needs: alone-plain'
PASS=san
runner
check "'needs: alone-plain' in another pass: side by side ($RC: $(tail -n 1 "$TMP/out"))" \
	eval '[ "$RC" -eq 0 ] && [ "$(tail -n 1 "$TMP/out")" = "2 passed, 0 failed" ]'
span a '# needs: meter'
span b '# needs: alone-plain'
runner
PASS=fake
check "'needs: alone-plain' in another pass: not beside 'needs: meter' ($RC)" \
	eval '[ "$RC" -eq 0 ] && apart'

# Two tests that hold the meter slot long are not started side by side.
span a '# needs: meter-long'
span b '# needs: meter-long'
runner
check "two tests declaring 'needs: meter-long' run one after the other ($RC)" \
	eval '[ "$RC" -eq 0 ] && apart'
# One that waits runs in a lane of its own, beside the ZC_JOBS others;
# two that wait do not share it.
meet a b
meet b a '# needs: waits'
runner ZC_JOBS=1
check "ZC_JOBS=1: a test declaring 'needs: waits' runs beside another ($RC: $(tail -n 1 "$TMP/out"))" \
	eval '[ "$RC" -eq 0 ] && [ "$(tail -n 1 "$TMP/out")" = "2 passed, 0 failed" ]'
span a '# needs: waits'
span b '# needs: waits'
runner
check "two tests declaring 'needs: waits' run one after the other ($RC)" eval '[ "$RC" -eq 0 ] && apart'
span a '# needs: alone'
runner
check "... and one that waits does not run beside one that needs to be alone ($RC)" \
	eval '[ "$RC" -eq 0 ] && apart'
span b '# needs: meter-long'
# Nor is one that takes it for a while beside one that holds it long.
span a '# needs: meter'
runner
check "'needs: meter' and 'needs: meter-long' run one after the other ($RC)" \
	eval '[ "$RC" -eq 0 ] && apart'
# Two that take it for a while wait for each other only that while.
meet a b '# needs: meter'
meet b a '# needs: meter'
runner
check "two tests declaring 'needs: meter' run side by side ($RC: $(tail -n 1 "$TMP/out"))" \
	eval '[ "$RC" -eq 0 ] && [ "$(tail -n 1 "$TMP/out")" = "2 passed, 0 failed" ]'
# A test that takes the slot must say so, or it would be run as if it did
# not (beside a meter-long test, waiting out its run).
rm "$TMP/bin"/test_zzfake_*
fake a '. "$ZC_TOP/tests/lib.sh"; meter_slot; echo "ok - a"; finish'
runner
check "a test taking the meter slot undeclared fails, named ($RC: $(grep -m 1 '^    not ok' "$TMP/out"))" \
	eval '[ "$RC" -ne 0 ] && grep -q "^    not ok - test_zzfake_a takes the meter slot: it needs a line" "$TMP/out"'
# It holds the slot a second: a time held for the report to show (in whole
# seconds), not a wait.
fake a '# needs: meter
. "$ZC_TOP/tests/lib.sh"; meter_slot; sleep 1; echo "ok - a"; finish'
runner
check "... and passes declared ($RC: $(tail -n 1 "$TMP/out"); $(grep -m 1 '^\[fake\] test_zzfake_a' "$TMP/out"))" \
	eval '[ "$RC" -eq 0 ] && [ "$(tail -n 1 "$TMP/out")" = "1 passed, 0 failed" ] &&
	grep -q "^\[fake\] test_zzfake_a: 1 ok ([0-9]* s, [0-9]* holding it)\$" "$TMP/out"'
rm "$TMP/bin"/test_zzfake_*
fake a 'echo "ok - a"'
fake b 'echo "ok - b"; echo "ok - b2"'

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

# A failure is a failure: a test that fails beside others is not run
# again, and the summary has no "passed alone".
rm "$TMP/bin"/test_zzfake_*
fake a 'echo "ok - a"'
fake f "echo run >>'$TMP/f.runs'; echo 'not ok - f squeezed'"
rm -f "$TMP/f.runs"
runner
check "failed beside another: '1 passed, 1 failed', run once ($RC: $(tail -n 1 "$TMP/out"), $(grep -c '' "$TMP/f.runs") runs)" \
	eval '[ "$RC" -ne 0 ] && [ "$(tail -n 1 "$TMP/out")" = "1 passed, 1 failed" ] &&
	[ "$(grep -c "" "$TMP/f.runs")" -eq 1 ] && ! grep -q alone "$TMP/out"'

rm "$TMP/bin"/test_zzfake_*
fake e 'sleep 30'
runner ZC_TEST_TIMEOUT=1
check "a test past ZC_TEST_TIMEOUT is stopped and counted (exit $RC, $MS ms)" \
	eval '[ "$RC" -ne 0 ] && [ "$MS" -lt 20000 ] && grep -q "exited with status 124" "$TMP/out"'

# A test left where tests lived before the folders is named and fails.
mkdir -p "$TMP/tree/tests"
cp "$RUN_SH" "$TMP/tree/tests/run.sh"
printf 'echo "ok - stray"\n' >"$TMP/tree/tests/test_stray.sh"
env -u ZC_LOAD ZC_TESTS=zznone sh "$TMP/tree/tests/run.sh" "fake:$ZC_BIN:$TMP/bin" >"$TMP/out" 2>&1
RC=$?
check "a test at the top of tests/ fails the run, named ($RC: $(tail -n 1 "$TMP/out"))" \
	eval '[ "$RC" -ne 0 ] && grep -q "test_stray.sh: not run" "$TMP/out" &&
	grep -q "^failed: test_stray.sh" "$TMP/out"'

# busy_skip (tests/harness/meter.sh): over any share, a skip line naming
# what and why, and true; under 100%, quiet and false.
busy_skip "made-up figure" -1 >"$TMP/bs"
RC=$?
check "busy_skip over -1%: true, 'skip - made-up figure: machine busy: ...' ($RC: $(cat "$TMP/bs"))" \
	eval '[ "$RC" -eq 0 ] && grep -Eqx "skip - made-up figure: machine busy: others held [0-9.]+% of the CPUs \(over -1%\)" "$TMP/bs"'
busy_skip "made-up figure" 100 >"$TMP/bs"
RC=$?
check "busy_skip over 100%: false and quiet ($RC: $(cat "$TMP/bs"))" eval '[ "$RC" -ne 0 ] && [ ! -s "$TMP/bs" ]'

# ZC_LOAD (make check LOAD=1): a load runs beside the tests, named, and
# is gone once the run is over, a failing one too.
rm "$TMP/bin"/test_zzfake_*
ln -s "$ZC_TESTBIN/loadgen" "$TMP/bin/loadgen"
fake a "kill -0 \"\$ZC_LOAD_PID\" && echo \"\$ZC_LOAD_PID\" >'$TMP/load.seen'; echo 'ok - a'"
fake b 'echo "not ok - b broke"'
rm -f "$TMP/load.seen"
runner ZC_LOAD=1
lpid=$(sed -n 's/^# load beside the tests: loadgen (PID \([0-9]*\)).*/\1/p' "$TMP/out")
check "ZC_LOAD=1: the tests ran beside loadgen (PID ${lpid:-?}; a test saw $(cat "$TMP/load.seen" 2>/dev/null))" \
	eval '[ -n "$lpid" ] && [ "$(cat "$TMP/load.seen" 2>/dev/null)" = "$lpid" ]'
check "ZC_LOAD=1: the load is gone when the run ends, one test failing ($RC)" \
	eval '[ "$RC" -ne 0 ] && [ -n "$lpid" ] && ! kill -0 "$lpid" 2>/dev/null'
rm "$TMP/bin/loadgen"

# timed_check (tests/harness/meter.sh), the one rule of the wall-time
# checks: a miss is a failure, unless other work held over half the
# machine over the check (a skip); the bounds may use SLACK_MS.
TIMED_MS=1000 SLACK_MS=600 TIMED_BUSY=no
( timed_check "made-up time" '[ "$TIMED_MS" -le 500 ]' ) >"$TMP/tc"
check "timed_check, a miss on a quiet machine: not ok ($(cat "$TMP/tc"))" grep -q '^not ok - made-up time' "$TMP/tc"
( timed_check "made-up time" '[ "$TIMED_MS" -le $((500 + SLACK_MS)) ]' ) >"$TMP/tc"
check "timed_check, within the bound widened by the others' CPU: ok ($(cat "$TMP/tc"))" grep -q '^ok - made-up time' "$TMP/tc"
TIMED_BUSY=yes
( timed_check "made-up time" '[ "$TIMED_MS" -le 500 ]' ) >"$TMP/tc"
check "timed_check, a miss on a machine over half busy: skip ($(cat "$TMP/tc"))" \
	grep -q '^skip - made-up time .*: machine busy' "$TMP/tc"

for bad in 0 x -1; do
	runner ZC_JOBS="$bad"
	check "ZC_JOBS=$bad: exit 2, one line ($(cat "$TMP/out"))" \
		eval '[ "$RC" -eq 2 ] && [ "$(grep -c "" "$TMP/out")" -eq 1 ] && grep -q ZC_JOBS "$TMP/out"'
done

finish
