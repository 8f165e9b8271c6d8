#!/bin/sh
# A peer that vanishes or stalls mid-run. zcs killed (by PID): zcc prints
# the sent: line of what it sent, marked (peer reset), before its error
# line, and exits 1; with -J the sent event says "ended"; -P too. zcs's
# connection stopped (SIGSTOP) and zcc -T 2: the line is marked (stalled),
# and zcc's connections close with a reset, so ss shows no socket of the
# port afterwards (one stream and -P 2); the same when the server holds
# the connection open after the last byte. zcc stopped and zcs -T 2: zcs
# closes with a reset, and nothing of the connection is left either.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
head -c 4000000 /dev/urandom >"$TMP/a"

# kids_of PID: PID's children (zcs's connections), one PID a line.
kids_of() {
	proc_children "$1" | awk '{ print $1 }'
}
# Whatever the test stopped is let go and ended when the script ends.
STOPPED=
release() {
	for _k in $STOPPED; do kill -CONT "$_k" 2>/dev/null; kill -KILL "$_k" 2>/dev/null; done
}
on_cleanup release

# all_ended PID...: none of them runs any more.
all_ended() {
	for _k; do proc_alive "$_k" && return 1; done
	return 0
}

# no_socket PORT: ss shows no TCP socket of PORT but its listener.
no_socket() {
	[ -z "$(ss -Htan "( sport = :$1 or dport = :$1 )" 2>/dev/null | grep -v '^LISTEN')" ]
}

# sent_then_error FILE MARK: FILE's first line is a sent: line marked
# (MARK), a zcc: error line after it.
sent_then_error() {
	head -n 1 "$1" | grep -Eq "^sent: [0-9]+ bytes in [0-9.]+ s, [0-9]+ kbytes/sec \($2\)" &&
		sed -n '2,$p' "$1" | grep -q '^zcc: '
}

# zcc_start ZCS_T ZCC_OPTIONS...: zcs -T ZCS_T and zcc -t 60 sending to
# it, its PID in ZCC_PID, once zcs has read 1 MB.
zcc_start() {
	zcs_start -T "$1"
	shift
	bg "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -t 60 "$@" "$TMP/a" >"$TMP/out" 2>"$TMP/err"
	ZCC_PID=$!
	within 100 tcp_read "$ZCS_PORT" 1000000
}

# zcc_end PID TENTHS: zcc (PID) ends by itself within TENTHS (else it is
# killed); its status in RC, its stdout then stderr in $TMP/both.
zcc_end() {
	within "$2" proc_ended "$1"
	kill -KILL "$1" 2>/dev/null
	wait "$1"
	RC=$?
	forget_bg "$1"
	cat "$TMP/out" "$TMP/err" >"$TMP/both"
}

# --- zcs killed mid-run ---------------------------------------------------------
# killed WHAT ZCC_OPTIONS...: zcc -t 60 against a zcs killed (SIGTERM, by
# PID) once it has read 1 MB; zcc's stdout then stderr in $TMP/both.
killed() {
	_case=$1
	shift
	zcc_start 0 "$@"
	kill -TERM "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
	zcc_end "$ZCC_PID" 100
	check "$_case: zcc exits 1 ($RC: $(head -c 400 "$TMP/both"))" [ "$RC" -eq 1 ]
}

killed "zcs killed"
check "zcs killed: sent: marked (peer reset), then the error line" \
	sent_then_error "$TMP/both" "peer reset"
got=$(sed -n 's/^done: \([0-9]*\) bytes.*/\1/p' "$TMP/zcs.out")
sent=$(sed -n 's/^sent: \([0-9]*\) bytes.*/\1/p' "$TMP/out")
check "zcs killed: zcc sent at least what zcs took (${sent:-none} >= ${got:-none})" \
	eval '[ "${sent:-0}" -ge "${got:-1}" ] && [ "${got:-0}" -gt 0 ]'

killed "zcs killed, -J" -J
check "-J: the sent event has ended \"peer reset\", interrupted false ($(grep '"sent"' "$TMP/out"))" \
	eval '[ "$("$ZC_TESTBIN/jsoncheck" -E sent -g ended "$TMP/out")" = "peer reset" ] &&
		[ "$("$ZC_TESTBIN/jsoncheck" -E sent -g interrupted "$TMP/out")" = false ]'

killed "zcs killed, -P 2" -P 2
check "-P 2: sent: marked (peer reset), then the stream's error line" \
	sent_then_error "$TMP/both" "peer reset"

# --- zcs's connection stalls: zcc -T 2 gives up --------------------------------
# stalled WHAT ZCC_OPTIONS...: zcs's connections stopped once zcs has read
# 1 MB; zcc -T 2 must give up on its own.
stalled() {
	_case=$1
	shift
	zcc_start 0 -T 2 "$@"
	_kids=$(kids_of "$ZCS_PID")
	STOPPED="$STOPPED $_kids"
	for _k in $_kids; do kill -STOP "$_k"; done
	zcc_end "$ZCC_PID" 200
	check "$_case: zcc gives up, exit 1 ($RC: $(head -c 400 "$TMP/both"))" [ "$RC" -eq 1 ]
	check "$_case: sent: marked (stalled), then the stall's line" \
		eval 'sent_then_error "$TMP/both" stalled && grep -q "stalled: no data moved for 2 s" "$TMP/err"'
	# The reset comes with the close: no fixed wait, a bounded poll.
	check "$_case: no socket of the port left ($(ss -Htan "( sport = :$ZCS_PORT or dport = :$ZCS_PORT )" | grep -v '^LISTEN' | head -3))" \
		within 50 no_socket "$ZCS_PORT"
	for _k in $_kids; do kill -CONT "$_k"; done
	stop_bg "$ZCS_PID"
	within 50 all_ended $_kids
}
stalled "zcs stopped, zcc -T 2"
stalled "zcs stopped, zcc -T 2 -P 2" -P 2

# --- a server that never closes: zcc -T 2 gives up waiting ---------------------
# tests/tools/sink -H reads all, then holds the connection open.
bg "$ZC_TESTBIN/sink" -H >"$TMP/sink.out" 2>"$TMP/sink.err"
sink=$!
if wait_for "$TMP/sink.out" '^listening on port [0-9]+'; then
	port=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/sink.out")
	head -c 100000 /dev/urandom >"$TMP/small"
	timeout 30 "$ZCC" -T 2 -n 1 -s 127.0.0.1 -p "$port" "$TMP/small" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	cat "$TMP/out" "$TMP/err" >"$TMP/both"
	check "server holding the close, zcc -T 2: exit 1, sent: marked (stalled) first ($RC: $(cat "$TMP/both"))" \
		eval '[ "$RC" -eq 1 ] && sent_then_error "$TMP/both" stalled &&
			grep -q "has not closed the connection 2 s after the last byte" "$TMP/err"'
	check "server holding the close: a reset, no socket of the port left" \
		within 50 no_socket "$port"
else
	not_ok "tests/tools/sink -H listening: $(cat "$TMP/sink.err")"
fi
stop_bg "$sink"

# --- zcc stalls: zcs -T 2 closes it ---------------------------------------------
zcc_start 2
STOPPED="$STOPPED $ZCC_PID"
kill -STOP "$ZCC_PID"
check "zcc stopped: zcs -T 2 closes the connection" \
	wait_for "$TMP/zcs.err" 'stalled: .*closed after' 100
check "zcs -T 2: a reset, no socket of the port left while zcc is stopped" \
	within 50 no_socket "$ZCS_PORT"
kill -CONT "$ZCC_PID"
zcc_end "$ZCC_PID" 100
check "zcc, let go: exit 1, sent: marked (peer reset) first ($RC: $(head -c 300 "$TMP/both"))" \
	eval '[ "$RC" -eq 1 ] && sent_then_error "$TMP/both" "peer reset"'
finish
