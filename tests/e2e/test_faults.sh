#!/bin/sh
# needs: meter
# Faults (issue 6): the server killed mid-transfer, the client killed
# mid-transfer, a file truncated while it is being sent, and Ctrl-C of
# every long-running program leaving no process behind.
#
# Timing: the spec wants zcc to notice a dead server "within a second";
# on a loaded 2-CPU machine under the sanitizers we allow 3 s.
. "$ZC_TOP/tests/lib.sh"

cd "$TMP" || exit 1
DEAD_SERVER_MS=3000
# Sparse, so it costs no disk; the largest file the protocol can describe,
# so that one pass over it outlasts the test's reaction time.
BIG=$TMP/big
truncate -s 4294967295 "$BIG"

# ended_within PID MS: wait until PID has exited (a zombie of ours counts).
ended_within() {
	within $(($2 / 100)) proc_ended "$1"
}

# has_descendants PID N: wait (up to 5 s) until PID has N descendants.
has_descendants() {
	within 50 descendants_at_least "$1" "$2"
}

no_descendants() {
	[ -z "$(proc_descendants "$1")" ]
}

descendants_at_least() {
	[ "$(proc_descendants "$1" | wc -l)" -ge "$2" ]
}

# stop PID: kill one process of ours for good, by PID.
stop() { kill -9 "$1" 2>/dev/null; wait "$1" 2>/dev/null; }

# zcc_fails WHAT PID MS [TEXT]: zcc (PID, stderr in zcc.err) must exit 1
# within MS ms, with one line "zcc: what: why" (that contains TEXT).
zcc_fails() {
	_what=$1 _pid=$2 _ms=$3 _text=${4:-': '}
	_t0=$(now_ms)
	if ! ended_within "$_pid" "$_ms"; then
		not_ok "$_what: zcc still running after $_ms ms"
		stop "$_pid"
		return
	fi
	_elapsed=$(($(now_ms) - _t0))
	wait "$_pid"
	_rc=$?
	if [ "$_rc" -eq 1 ] && [ "$(grep -c '' "$TMP/zcc.err")" -eq 1 ] &&
	   grep -q '^zcc: .*: ' "$TMP/zcc.err" && grep -qF -e "$_text" "$TMP/zcc.err"; then
		ok "$_what: exit 1 after $_elapsed ms: $(cat "$TMP/zcc.err")"
	else
		not_ok "$_what: exit $_rc, want 1 and one line with '$_text': $(head -c 300 "$TMP/zcc.err")"
	fi
}

# --- zcs killed in the middle of a transfer, in every send mode -------------
for mode in "" "-S" "-S -w"; do
	what="zcs killed mid-transfer (zcc ${mode:-sendfile})"
	zcs_start || { not_ok "$what: zcs starts"; continue; }
	bg "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -n 1000 $mode "$BIG" \
		>"$TMP/zcc.out" 2>"$TMP/zcc.err"
	zcc_pid=$!
	has_descendants "$ZCS_PID" 1 && within 50 tcp_read "$ZCS_PORT" 1
	serving=$(proc_descendants "$ZCS_PID")
	if [ -z "$serving" ] || ! proc_alive "$zcc_pid"; then
		not_ok "$what: no transfer under way: $(cat "$TMP/zcc.err")"
		stop "$zcc_pid"
		stop "$ZCS_PID"
		continue
	fi
	kill -9 "$ZCS_PID" $serving
	zcc_fails "$what" "$zcc_pid" "$DEAD_SERVER_MS"
	wait "$ZCS_PID" 2>/dev/null
done

# --- the client killed in the middle: zcs reports a truncated stream -------
zcs_start || { not_ok "zcs starts"; finish; }
bg "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -n 1000 "$BIG" >/dev/null 2>&1
zcc_pid=$!
has_descendants "$ZCS_PID" 1 && within 50 tcp_read "$ZCS_PORT" 1
stop "$zcc_pid"
if wait_for "$TMP/zcs.err" 'bytes' 30; then
	# Let the child finish, so that anything it says after that line counts.
	within 30 no_descendants "$ZCS_PID"
	# Only zcs's own lines: test_hostile.sh judges anything else on stderr.
	line=$(grep '^zcs: ' "$TMP/zcs.err")
	got=$(echo "$line" | sed -n 's/.*[^0-9]\([0-9][0-9]*\) bytes.*/\1/p')
	if [ "$(grep -c '^zcs: ' "$TMP/zcs.err")" -eq 1 ] &&
	   echo "$line" | grep -Eq '(truncat|ended|early)' && [ "${got:-0}" -gt 0 ]; then
		ok "zcc killed mid-transfer: zcs: $line"
	else
		not_ok "zcc killed mid-transfer: want one truncation line with the byte count: $line"
	fi
else
	not_ok "zcc killed mid-transfer: zcs said nothing within 3 s: $(cat "$TMP/zcs.err")"
fi
check "zcs keeps serving after a client died" kill -0 "$ZCS_PID"

# --- a file truncated while zcc sends it ------------------------------------
for mode in "" "-S"; do
	what="file truncated during the run (zcc ${mode:-sendfile})"
	truncate -s 4294967295 "$BIG"
	bg "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -n 2 $mode "$BIG" \
		>"$TMP/zcc.out" 2>"$TMP/zcc.err"
	zcc_pid=$!
	# zcs reading means zcc has sized its files and is sending.
	has_descendants "$ZCS_PID" 1 && within 50 tcp_read "$ZCS_PORT" 1
	truncate -s 1048576 "$BIG"
	zcc_fails "$what" "$zcc_pid" 10000 "$BIG"
done
kill "$ZCS_PID"
wait "$ZCS_PID" 2>/dev/null
truncate -s 4294967295 "$BIG"

# --- Ctrl-C leaves no process behind -----------------------------------------
# Each program runs under tests/tools/subreaper, so that whatever it orphans
# comes back to the subreaper (not to a PID 1 that may never reap) and is
# counted. A shell script's background jobs ignore SIGINT; env restores the
# default a terminal would give. Only the program itself gets the signal (a
# harder case than a terminal's Ctrl-C, which signals its children too): it
# must take them down. The subreaper allows them 3 s.

# reaped NAME COMMAND...: start COMMAND under the subreaper, its report in
# $TMP/NAME.reap; sets REAPER_PID and PROG_PID (the command's PID).
reaped() {
	_name=$1
	shift
	bg "$ZC_TESTBIN/subreaper" -o "$TMP/$_name.reap" -t 3000 \
		env --default-signal=INT "$@"
	REAPER_PID=$!
	wait_for "$TMP/$_name.reap" '^child [0-9]+$'
	PROG_PID=$(sed -n 's/^child \([0-9]*\)$/\1/p' "$TMP/$_name.reap")
	# Should the test die early, cleanup kills the program too, by PID.
	BG_PIDS="$BG_PIDS $PROG_PID"
}

# interrupt WHAT NAME KIDS: once the program has KIDS descendants, SIGINT
# it; it must end within 5 s and leave nothing behind.
interrupt() {
	_what=$1 _report=$TMP/$2.reap _kids=$3
	if [ -z "$PROG_PID" ] || ! has_descendants "$PROG_PID" "$_kids"; then
		if grep -qs 'another meter is running' "$TMP/$2.err"; then
			skip "$_what: $(cat "$TMP/$2.err")"
		else
			not_ok "$_what: never had $_kids child processes to clean up"
		fi
		[ -n "$PROG_PID" ] && kill -9 "$PROG_PID" $(proc_descendants "$PROG_PID")
		stop "$REAPER_PID"
		return
	fi
	kill -INT "$PROG_PID"
	if ! ended_within "$PROG_PID" 5000; then
		not_ok "$_what: still running 5 s after SIGINT"
		kill -9 "$PROG_PID"
	fi
	if ! ended_within "$REAPER_PID" 5000; then
		not_ok "$_what: the subreaper did not finish"
		stop "$REAPER_PID"
		return
	fi
	wait "$REAPER_PID"
	_rc=$?
	if [ "$_rc" -eq 0 ] && grep -q '^gone after' "$_report"; then
		ok "$_what: ended, and its $_kids+ descendants with it: $(grep -E '^(status|gone)' "$_report" | tr '\n' ' ')"
	else
		not_ok "$_what: subreaper exit $_rc: $(tr '\n' ' ' <"$_report")"
	fi
}

# A calibration for the soakers: the figures they print do not matter here.
NCPUS=$(getconf _NPROCESSORS_ONLN)
printf '1000000\nncpus %s\n' "$NCPUS" >"$TMP/counts_per_sec"
# zcs below runs no meter; zcc -c and cyclesoak do, so from there on this
# test holds the run's meter slot.

: >"$TMP/zcs.out"
reaped zcs "$ZC_BIN/zcs" -p 0 >"$TMP/zcs.out" 2>"$TMP/zcs.err"
if wait_for "$TMP/zcs.out" '^listening on port [0-9]+'; then
	ZCS_PORT=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/zcs.out")
	bg "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -n 1000 "$BIG" >/dev/null 2>&1
	zcc_pid=$!
	interrupt "Ctrl-C of zcs serving a connection" zcs 1
	stop "$zcc_pid"
else
	not_ok "zcs starts for Ctrl-C"
	stop "$REAPER_PID"
fi

meter_slot
if "$ZC_BIN/zcc" -h 2>/dev/null | grep -q '^ *-c[ ,]'; then
	zcs_start || { not_ok "zcs starts for zcc -c"; finish; }
	reaped zcc "$ZC_BIN/zcc" -c -r -s 127.0.0.1 -p "$ZCS_PORT" -n 1000 "$BIG" \
		>"$TMP/zcc.out" 2>"$TMP/zcc.err"
	interrupt "Ctrl-C of zcc -c -r" zcc "$NCPUS"
	kill "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
else
	skip "Ctrl-C of zcc -c: this zcc has no -c"
fi

reaped soak "$ZC_BIN/cyclesoak" -f "$TMP/counts_per_sec" >"$TMP/soak.out" 2>"$TMP/soak.err"
interrupt "Ctrl-C of cyclesoak" soak "$NCPUS"

# Measuring a command: the command is a child too (run_rr has none: it
# execs its command).
reaped cmd "$ZC_BIN/cyclesoak" -f "$TMP/counts_per_sec" -- sleep infinity \
	>"$TMP/cmd.out" 2>"$TMP/cmd.err"
interrupt "Ctrl-C of cyclesoak -- sleep infinity" cmd $((NCPUS + 1))

finish
