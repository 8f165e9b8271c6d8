#!/bin/sh
# Runs every test of every pass and ends with one line "N passed, N failed".
#
#   sh tests/run.sh NAME:PROGRAM_DIR:TEST_BIN_DIR ...
#
# A test is a program $TEST_BIN_DIR/test_* built from tests/test_*.c or a
# script tests/test_*.sh. Each prints "ok - ", "not ok - " or "skip - "
# lines; a test that dies, times out or exits non-zero without saying why
# counts as one failure. ZC_TESTS=pattern runs only matching tests.

top=$(cd "$(dirname "$0")/.." && pwd)
per_test_timeout=${ZC_TEST_TIMEOUT:-240}
passed=0
failed=0
skipped=0
failures=

run_one() {	# pass-name label command...
	_pass=$1 _label=$2
	shift 2
	_log=$(mktemp)
	_t0=$(date +%s)
	timeout -k 5 "$per_test_timeout" "$@" >"$_log" 2>&1
	_rc=$?
	_t1=$(date +%s)
	_ok=$(grep -c '^ok - ' "$_log")
	_bad=$(grep -c '^not ok - ' "$_log")
	_skip=$(grep -c '^skip - ' "$_log")
	if [ "$_rc" -ne 0 ] && [ "$_bad" -eq 0 ]; then
		_bad=1
		echo "not ok - $_label exited with status $_rc" >>"$_log"
	fi
	passed=$((passed + _ok))
	failed=$((failed + _bad))
	skipped=$((skipped + _skip))
	if [ "$_bad" -gt 0 ]; then
		echo "[$_pass] $_label: $_ok ok, $_bad FAILED ($((_t1 - _t0)) s)"
		sed 's/^/    /' "$_log"
		failures="$failures $_pass/$_label"
	else
		echo "[$_pass] $_label: $_ok ok ($((_t1 - _t0)) s)"
		grep '^skip - ' "$_log" | sed 's/^/    /'
	fi
	rm -f "$_log"
}

for spec in "$@"; do
	name=${spec%%:*}
	rest=${spec#*:}
	bindir=$(cd "$top" && cd "${rest%%:*}" && pwd)
	testbin=$(cd "$top" && cd "${rest#*:}" && pwd)
	export ZC_BIN="$bindir" ZC_TESTBIN="$testbin" ZC_PASS="$name" ZC_TOP="$top"
	for t in "$testbin"/test_* "$top"/tests/test_*.sh; do
		[ -f "$t" ] || continue
		label=$(basename "$t")
		if [ -n "$ZC_TESTS" ]; then
			case "$label" in *$ZC_TESTS*) ;; *) continue ;; esac
		fi
		case "$t" in
		*.sh) run_one "$name" "$label" sh "$t" ;;
		*) run_one "$name" "$label" "$t" ;;
		esac
	done
done

[ -n "$failures" ] && echo "failed:$failures"
[ "$skipped" -gt 0 ] && echo "($skipped checks skipped, reasons above)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
