#!/bin/sh
# Runs every test of every pass and ends with one line "N passed, N failed".
#
#   sh tests/run.sh NAME:PROGRAM_DIR:TEST_BIN_DIR ...
#
# A test is a program $TEST_BIN_DIR/test_* built from tests/test_*.c or a
# script tests/test_*.sh. Each prints "ok - ", "not ok - " or "skip - "
# lines; a test that dies, times out or exits non-zero without saying why
# counts as one failure. ZC_TESTS=pattern runs only matching tests.
#
# Most of the tests' time is waiting (for a timeout to fire, a trickle to
# be cut off), so ZC_JOBS tests (default 2; 1 for one at a time) run side
# by side, the passes mixed. Two kinds of test are kept apart:
#
#   alone   it judges the meter's accuracy or calibrates, which other work
#           beside it spoils (a calibration is refused): these run last,
#           one at a time, with nothing else running.
#   meter   only one meter fits a machine (the programs refuse a second,
#           and each would read the other's soakers as load): a test that
#           starts one takes the run's meter slot first (tests/lib.sh
#           meter_slot) and waits its turn. The slot lives in ZC_SLOT_DIR.
#
# A test's report is printed when it ends, so reports come in the order the
# tests end.

top=$(cd "$(dirname "$0")/.." && pwd)
per_test_timeout=${ZC_TEST_TIMEOUT:-240}
njobs=${ZC_JOBS:-2}
case $njobs in
'' | *[!0-9]* | 0) echo "run.sh: ZC_JOBS=$njobs: want a count of 1 or more" >&2; exit 2 ;;
esac

# The tests that must run alone (see above).
ALONE="test_accuracy.sh test_meter test_calib.sh"
# Started first: the longest, so that the lanes end close together.
LONG="test_zcs.sh test_zcc.sh test_hostile.sh test_fuzz.sh test_demo.sh test_cyclesoak.sh test_meter.sh test_badinput.sh"

RUN=$(mktemp -d "${TMPDIR:-/tmp}/zc-run.XXXXXX") || exit 1
export ZC_SLOT_DIR="$RUN/slots"
mkdir "$ZC_SLOT_DIR"
passed=0
failed=0
skipped=0
failures=
running=	# "N:PID" of each test running now

# run_one N PASS LABEL COMMAND...: run one test (in the background: its
# shell is a subshell), its report in $RUN/N.report and its counts in
# $RUN/N.count. $RUN/N.pid holds the PID of its timeout, to be stopped.
run_one() {
	_n=$1 _pass=$2 _label=$3
	shift 3
	_log=$RUN/$_n.log
	_t0=$(date +%s)
	# HUP back to its default: a test that sends it to a program expects
	# it to act, even when `make check` itself runs under nohup.
	timeout -k 5 "$per_test_timeout" env --default-signal=HUP "$@" >"$_log" 2>&1 &
	echo $! >"$RUN/$_n.pid"
	wait $!
	_rc=$?
	_t1=$(date +%s)
	_ok=$(grep -c '^ok - ' "$_log")
	_bad=$(grep -c '^not ok - ' "$_log")
	_skip=$(grep -c '^skip - ' "$_log")
	if [ "$_rc" -ne 0 ] && [ "$_bad" -eq 0 ]; then
		_bad=1
		echo "not ok - $_label exited with status $_rc" >>"$_log"
	fi
	{
		if [ "$_bad" -gt 0 ]; then
			echo "[$_pass] $_label: $_ok ok, $_bad FAILED ($((_t1 - _t0)) s)"
			sed 's/^/    /' "$_log"
		else
			echo "[$_pass] $_label: $_ok ok ($((_t1 - _t0)) s)"
			grep '^skip - ' "$_log" | sed 's/^/    /'
		fi
	} >"$RUN/$_n.report"
	echo "$_ok $_bad $_skip $_pass/$_label" >"$RUN/$_n.count"
}

# collect N PID: the test has ended; print its report, add up its counts.
collect() {
	wait "$2"
	[ -f "$RUN/$1.report" ] && cat "$RUN/$1.report"
	if read -r _o _b _s _name <"$RUN/$1.count"; then
		passed=$((passed + _o))
		failed=$((failed + _b))
		skipped=$((skipped + _s))
		[ "$_b" -gt 0 ] && failures="$failures $_name"
	else
		failed=$((failed + 1))
		failures="$failures test-$1"
		echo "test $1: no count (the runner was interrupted?)"
	fi
	# A meter slot left by a test that was killed outright is freed here.
	_holder=$(cat "$ZC_SLOT_DIR/meter/pid" 2>/dev/null)
	if [ -n "$_holder" ] && ! kill -0 "$_holder" 2>/dev/null; then
		rm -rf "$ZC_SLOT_DIR/meter"
	fi
}

# reap_ended: collect every test that has ended; the rest stay in $running.
reap_ended() {
	_still=
	for _j in $running; do
		if [ -f "$RUN/${_j%%:*}.count" ]; then
			collect "${_j%%:*}" "${_j#*:}"
		else
			_still="$_still $_j"
		fi
	done
	running=$_still
}

# slots_below N: wait until fewer than N tests run.
slots_below() {
	while :; do
		reap_ended
		set -- "$1" $running
		[ $# -le "$1" ] && return 0
		sleep 0.2
	done
}

stop_all() {
	for _j in $running; do
		_p=$(cat "$RUN/${_j%%:*}.pid" 2>/dev/null)
		[ -n "$_p" ] && kill -TERM "$_p" 2>/dev/null
	done
	for _j in $running; do wait "${_j#*:}" 2>/dev/null; done
	rm -rf "$RUN"
	echo "run.sh: interrupted" >&2
	exit 130
}
trap stop_all INT TERM HUP

# The queue: "N PASS LABEL PATH BINDIR TESTBIN" a line, long tests first,
# the passes interleaved; alone tests in a queue of their own.
n=0
for spec in "$@"; do
	name=${spec%%:*}
	rest=${spec#*:}
	bindir=$(cd "$top" && cd "${rest%%:*}" && pwd)
	testbin=$(cd "$top" && cd "${rest#*:}" && pwd)
	for t in "$testbin"/test_* "$top"/tests/test_*.sh; do
		[ -f "$t" ] || continue
		label=$(basename "$t")
		if [ -n "$ZC_TESTS" ]; then
			case "$label" in *$ZC_TESTS*) ;; *) continue ;; esac
		fi
		n=$((n + 1))
		rank=2
		case " $LONG " in *" $label "*) rank=1 ;; esac
		case " $ALONE " in *" $label "*) rank=3 ;; esac
		echo "$rank $n $name $label $t $bindir $testbin"
	done
done | sort -k1,1n -k2,2n >"$RUN/queue"

while read -r rank n name label t bindir testbin <&3; do
	if [ "$rank" = 3 ]; then
		slots_below 1
	else
		slots_below "$njobs"
	fi
	case "$t" in
	*.sh) set -- sh "$t" ;;
	*) set -- "$t" ;;
	esac
	(
		export ZC_BIN="$bindir" ZC_TESTBIN="$testbin" ZC_PASS="$name" ZC_TOP="$top"
		run_one "$n" "$name" "$label" "$@" 3<&- </dev/null
	) &
	running="$running $n:$!"
	# An alone test ends before anything else starts.
	[ "$rank" = 3 ] && slots_below 1
done 3<"$RUN/queue"
slots_below 1
rm -rf "$RUN"

[ -n "$failures" ] && echo "failed:$failures"
[ "$skipped" -gt 0 ] && echo "($skipped checks skipped, reasons above)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
