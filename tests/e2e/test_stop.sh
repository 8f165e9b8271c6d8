#!/bin/sh
# needs: meter-long
# A stop signal ends every wait promptly: calibration (cyclesoak -C, zcc -C)
# and the meter's start (cyclesoak, zcc -c), whenever the signal comes: while
# the soakers start, during the warm-up, between samples. Each run must end
# within 2 s of SIGTERM (a period is 1 s; the rest is room for a busy
# machine, by the harness's wall-time rule), die of SIGTERM (143), and
# leave no soaker behind. Every such wait goes through lib/base/stop.c's
# stop_wait_until, which cannot miss a signal that came before it: a wait
# of its own would miss one that came while the soakers started, and run
# the calibration to its end.
. "$ZC_TOP/tests/lib.sh"

meter_slot
mkdir "$TMP/files"
head -c 65536 /dev/urandom >"$TMP/files/f"

# stopped_in WHAT DELAY COMMAND...: start COMMAND, SIGTERM after DELAY s;
# it must exit 143 within 2 s of the signal, no child of it left. The
# delay is the test's own: where in the program's life the signal lands.
stopped_in() {
	_what=$1 _delay=$2
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err" &
	_pid=$!
	sleep "$_delay"
	_kids=$(proc_children $_pid | awk '{ print $1 }')
	timed_start
	if ! kill -TERM $_pid 2>/dev/null; then
		# The signal came too late: on a loaded machine the sleep and
		# proc_children can outlast zcc -c's 0.4 s to its connect.
		wait $_pid
		_rc=$?
		if grep -q 'another meter is running' "$TMP/err"; then
			skip "$_what: $(cat "$TMP/err")"
		elif grep -q 'Connection refused' "$TMP/err"; then
			skip "$_what, SIGTERM after $_delay s: it had ended (rc $_rc) before the signal came: $(cat "$TMP/err")"
		else
			not_ok "$_what, SIGTERM after $_delay s: it ended first (rc $_rc): $(cat "$TMP/err")"
		fi
		return
	fi
	within 50 proc_ended $_pid
	timed_end
	if proc_alive $_pid; then
		kill -KILL $_pid
		wait $_pid
		not_ok "$_what, SIGTERM after $_delay s: still running 5 s later"
		return
	fi
	wait $_pid
	_rc=$?
	if grep -q 'another meter is running' "$TMP/err"; then
		skip "$_what: $(cat "$TMP/err")"
		return
	fi
	# Signalled while already on its way out of a refused connect.
	if [ "$_rc" -eq 1 ] && grep -q 'Connection refused' "$TMP/err"; then
		skip "$_what, SIGTERM after $_delay s: it was ending (rc 1) when the signal came: $(cat "$TMP/err")"
		return
	fi
	timed_check "$_what, SIGTERM after $_delay s: ended within 2 s" \
		'[ "$TIMED_MS" -le $((2000 + SLACK_MS)) ]'
	check "$_what, SIGTERM after $_delay s: exit 143 (got $_rc)" [ "$_rc" -eq 143 ]
	_left=
	for _k in $_kids; do
		proc_alive "$_k" && _left="$_left $_k"
	done
	check "$_what: no soaker left (${_left:-none})" [ -z "$_left" ]
}

# Whole seconds land where a sample ends (the warm-up and each sample are
# a period): the old code missed about one signal in eight there.
for d in 1 2 3; do
	stopped_in "cyclesoak -C" $d "$ZC_BIN/cyclesoak" -C -f "$TMP/cal"
done
for d in 0.01 0.05 0.2 1.5; do
	stopped_in "cyclesoak -C" $d "$ZC_BIN/cyclesoak" -C -f "$TMP/cal"
	stopped_in "zcc -C" $d "$ZC_BIN/zcc" -C -f "$TMP/cal"
done
for d in 0.01 0.05; do
	stopped_in "cyclesoak -r" $d "$ZC_BIN/cyclesoak" -r
	# zcc -c to a port nobody listens on: the meter starts before connecting.
	stopped_in "zcc -c" $d "$ZC_BIN/zcc" -c -r -s 127.0.0.1 -p 1 "$TMP/files/f"
done
check "no calibration file was written" [ ! -e "$TMP/cal" ]

finish
