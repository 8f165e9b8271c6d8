#!/bin/sh
# Runs every test of every pass and ends with one line "N passed, N failed".
#
#   sh tests/run.sh NAME:PROGRAM_DIR:TEST_BIN_DIR ...
#
# A test is a program $TEST_BIN_DIR/test_* built from tests/unit/test_*.c or
# a script tests/e2e/test_*.sh. Each prints "ok - ", "not ok - " or "skip - "
# lines; a test that dies, times out or exits non-zero without saying why
# counts as one failure. ZC_TESTS=pattern runs only matching tests.
#
# Most of the tests' time is waiting (for a timeout to fire, a trickle to
# be cut off), so ZC_JOBS tests (default 2; 1 for one at a time) run side
# by side, the passes mixed, and beside them one that declares it waits
# (below). A test that starts a meter takes the run's
# meter slot first and waits its turn (why: tests/harness/meter.sh,
# meter_slot); the slot lives in ZC_SLOT_DIR.
#
# A test says what it needs in its first lines, a comment "# needs: WORDS"
# (in C "/* needs: WORDS */"); no word, no need:
#
#   alone       it judges the meter's accuracy or calibrates, which other
#               work beside it spoils (a calibration is refused): run last,
#               one at a time, with nothing else running.
#   meter-long  it holds the meter slot most of its run: never started
#               beside another test that takes the slot (meter-long or
#               meter), so that a lane is not spent waiting for it.
#   meter       it takes the meter slot for a while, not most of its run:
#               started first, and never beside a meter-long test (whose
#               whole run it would wait out).
#   long        it runs long: started early, so that the lanes end together.
#   alone-plain alone in the pass named plain, meter-long in the others:
#               it judges the meter's accuracy in the plain pass only (a
#               sanitized build is there to check memory, and its slower
#               programs would only blur the figures); in the others it
#               skips those checks, saying so, and needs only the slot.
#   waits       it spends its run waiting (on a slow link, for timeouts),
#               next to none of it on the CPU: it runs in a lane of its
#               own beside the ZC_JOBS others, one such test at a time.
#
# ZC_LOAD=1 (make check LOAD=1) runs a busy load of about one CPU beside
# the tests, as a busy CI machine gives them: tests/tools/loadgen, two
# threads each busy half of every 10 ms (on average), which ends by itself
# after 30 minutes or when the runner dies, and is killed by its PID when
# the run ends, however it ends. Its PID is in ZC_LOAD_PID.
#
# A test's report is printed when it ends, so reports come in the order the
# tests end. Each test runs once and a failure is a failure: nothing is run
# again. A test that measures, and finds the machine too busy for its
# figure to mean anything, says "skip - ... machine busy" instead
# (tests/harness/meter.sh, busy_skip).

top=$(cd "$(dirname "$0")/.." && pwd)
# The tests write calibration files by hand: one made group-writable by a
# umask of 002 would be refused as untrusted (lib/meter/calib_file.c).
umask 022
per_test_timeout=${ZC_TEST_TIMEOUT:-240}
njobs=${ZC_JOBS:-2}
case $njobs in
'' | *[!0-9]* | 0) echo "run.sh: ZC_JOBS=$njobs: want a count of 1 or more" >&2; exit 2 ;;
esac

RUN=$(mktemp -d "${TMPDIR:-/tmp}/zc-run.XXXXXX") || exit 1
export ZC_SLOT_DIR="$RUN/slots"
mkdir "$ZC_SLOT_DIR"
passed=0
failed=0
skipped=0
failures=
running=	# "N:PID" of each test running now

# A test at the top of tests/ (where they lived before the folders) would
# never run: name it and count it as a failure.
for t in "$top"/tests/test_*; do
	[ -e "$t" ] || continue
	echo "not ok - $t: not run; a test goes in tests/unit (C) or tests/e2e (sh)"
	failed=$((failed + 1))
	failures="$failures ${t##*/}"
done

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
	_slot=$(sed -n -e 's/^# waited \([0-9]*\) s for the meter slot$/w \1/p' \
		-e 's/^# held the meter slot \([0-9]*\) s$/h \1/p' "$_log" |
		awk '{ s[$1] += $2 } END {
			if (s["w"] > 0) printf ", %d of them waiting for the meter slot", s["w"]
			if (s["h"] > 0) printf ", %d holding it", s["h"] }')
	if [ "$_rc" -ne 0 ] && [ "$_bad" -eq 0 ]; then
		_bad=1
		echo "not ok - $_label exited with status $_rc" >>"$_log"
	fi
	{
		if [ "$_bad" -gt 0 ]; then
			echo "[$_pass] $_label: $_ok ok, $_bad FAILED ($((_t1 - _t0)) s$_slot)"
			sed 's/^/    /' "$_log"
		else
			echo "[$_pass] $_label: $_ok ok ($((_t1 - _t0)) s$_slot)"
			grep '^skip - ' "$_log" | sed 's/^/    /'
		fi
	} >"$RUN/$_n.report"
	echo "$_ok $_bad $_skip $_pass/$_label" >"$RUN/$_n.count"
	echo "$_n" >"$RUN/ended"
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

# reap_ended: collect every test that has ended; the rest stay in $running
# ("N:PID:CLASS" each).
reap_ended() {
	_still=
	for _j in $running; do
		_n=${_j%%:*} _rest=${_j#*:}
		if [ -f "$RUN/$_n.count" ]; then
			collect "$_n" "${_rest%%:*}"
		else
			_still="$_still $_j"
		fi
	done
	running=$_still
}

# may_start CLASS: whether a test of CLASS may start beside those running.
may_start() {
	set -- "$1" $running
	_class=$1
	shift
	# The lanes in use: all running tests but one that waits.
	_busy=$#
	case " $* " in *:waits\ *) _busy=$((_busy - 1)) ;; esac
	case $_class in
	alone) [ $# -eq 0 ] ;;
	waits) case " $* " in *:waits\ * | *:alone\ *) false ;; *) true ;; esac ;;
	meter-long) [ $_busy -lt "$njobs" ] && case " $* " in *:meter-long\ * | *:meter\ *) false ;; *) true ;; esac ;;
	meter) [ $_busy -lt "$njobs" ] && case " $* " in *:meter-long\ *) false ;; *) true ;; esac ;;
	*) [ $_busy -lt "$njobs" ] ;;
	esac
}

# pick: take out of $queue the first test that may start now, its line in
# $picked; false when none may. No process is started: while an alone test
# runs, what the runner does is other work to its calibration.
pick() {
	picked=
	_left=
	_ifs=$IFS
	IFS=$NL
	for _line in $queue; do
		IFS=$_ifs
		# shellcheck disable=SC2086
		if [ -z "$picked" ] && may_start $_line; then
			picked=$_line
		else
			_left="$_left$_line$NL"
		fi
	done
	IFS=$_ifs
	queue=$_left
	[ -n "$picked" ]
}

load_pid=
load_start() {
	case ${ZC_LOAD:-0} in 0 | '') return 0 ;; esac
	_lg=$(cd "$top" && cd "${1#*:*:}" && pwd)/loadgen
	[ -x "$_lg" ] || { echo "run.sh: ZC_LOAD: no $_lg (make tests builds it)" >&2; exit 2; }
	"$_lg" -k -l 50 -n 2 -p 10 -t 1800 >"$RUN/load.out" 2>&1 &
	load_pid=$!
	export ZC_LOAD_PID=$load_pid
	echo "# load beside the tests: loadgen (PID $load_pid), two threads busy half of every 10 ms"
}
load_stop() {
	[ -n "$load_pid" ] || return 0
	kill "$load_pid" 2>/dev/null
	wait "$load_pid" 2>/dev/null
	load_pid=
}

stop_all() {
	load_stop
	for _j in $running; do
		_p=$(cat "$RUN/${_j%%:*}.pid" 2>/dev/null)
		[ -n "$_p" ] && kill -TERM "$_p" 2>/dev/null
	done
	for _j in $running; do
		_rest=${_j#*:}
		wait "${_rest%%:*}" 2>/dev/null
	done
	rm -rf "$RUN"
	echo "run.sh: interrupted" >&2
	exit 130
}
trap stop_all INT TERM HUP

# needs_of FILE: the words of FILE's "needs:" line (see above).
needs_of() {
	sed -n '1,10s/^[#/*]*[[:space:]]*needs:[[:space:]]*\([a-z -]*\).*/\1/p' "$1" 2>/dev/null |
		head -n 1
}

# The queue: "CLASS N PASS LABEL PATH BINDIR TESTBIN" a line: those that
# take the meter for a moment first, then the long ones, then the rest,
# then those that run alone.
n=0
for spec in "$@"; do
	name=${spec%%:*}
	rest=${spec#*:}
	bindir=$(cd "$top" && cd "${rest%%:*}" && pwd)
	testbin=$(cd "$top" && cd "${rest#*:}" && pwd)
	for t in "$testbin"/test_* "$top"/tests/e2e/test_*.sh; do
		[ -f "$t" ] || continue
		label=${t##*/}
		if [ -n "$ZC_TESTS" ]; then
			case "$label" in *$ZC_TESTS*) ;; *) continue ;; esac
		fi
		n=$((n + 1))
		# A program's needs are in its source; a script's in itself.
		src=$top/tests/unit/$label.c
		[ -f "$src" ] || src=$t
		rank=2 class=any long=
		for need in $(needs_of "$src"); do
			case $need in
			alone-plain) if [ "$name" = plain ]; then need=alone; else need=meter-long; fi ;;
			esac
			case $need in
			alone) rank=3 class=alone ;;
			meter-long) [ "$class" = alone ] || class=meter-long ;;
			meter) [ "$rank" -eq 2 ] && rank=0
				[ "$class" = any ] && class=meter ;;
			long) long=1 ;;
			waits) [ "$class" = any ] && class=waits ;;
			*) echo "$label: unknown need '$need'" >>"$RUN/needs.bad" ;;
			esac
		done
		[ -n "$long" ] && [ "$rank" -lt 3 ] && rank=1
		echo "$rank $n $class $n $name $label $t $bindir $testbin"
	done
done | sort -k1,1n -k2,2n | cut -d ' ' -f 3- >"$RUN/queue"
NL='
'
queue=$(cat "$RUN/queue")
[ -n "$queue" ] && queue="$queue$NL"
# A need misspelt would be a test run in the wrong company: a failure.
if [ -s "$RUN/needs.bad" ]; then
	sed 's/^/not ok - /' "$RUN/needs.bad"
	failed=$((failed + $(grep -c '' "$RUN/needs.bad")))
	failures="$failures $(cut -d: -f1 "$RUN/needs.bad" | tr '\n' ' ')"
fi

# Each test says it has ended on a FIFO ($RUN/ended), which the runner
# reads when nothing more may start: it sleeps until then, no polling.
mkfifo "$RUN/ended" || exit 1
exec 4<>"$RUN/ended"
trap load_stop EXIT
load_start "$1"
while [ -n "$queue" ] || [ -n "$running" ]; do
	reap_ended
	if [ -z "$queue" ] || ! pick; then
		[ -n "$running" ] && read -r _ <&4
		continue
	fi
	# shellcheck disable=SC2086
	set -- $picked
	class=$1 n=$2 name=$3 label=$4 t=$5 bindir=$6 testbin=$7
	case "$t" in
	*.sh) set -- sh "$t" ;;
	*) set -- "$t" ;;
	esac
	(
		export ZC_BIN="$bindir" ZC_TESTBIN="$testbin" ZC_PASS="$name" ZC_TOP="$top" ZC_CLASS="$class"
		run_one "$n" "$name" "$label" "$@" </dev/null 4<&-
	) &
	running="$running $n:$!:$class"
done
load_stop
rm -rf "$RUN"

[ -n "$failures" ] && echo "failed:$failures"
[ "$skipped" -gt 0 ] && echo "($skipped checks skipped, reasons above)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
