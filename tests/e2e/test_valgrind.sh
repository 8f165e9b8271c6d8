#!/bin/sh
# valgrind finds nothing in a loopback run (issue 6): zcs -1 under valgrind
# serving a plain zcc (by the read, splice and zerocopy methods), then zcc
# under valgrind (sendfile and -S) sending to a plain zcs -1. Definite and possible leaks count as errors (valgrind's
# default --errors-for-leak-kinds), so --error-exitcode=1 makes any leak or
# memory error a non-zero exit.
. "$ZC_TOP/tests/lib.sh"

if [ "$ZC_PASS" != plain ]; then
	skip "valgrind: only in the plain pass (this is '$ZC_PASS': ASan and valgrind do not mix)"
	finish
fi
if ! command -v valgrind >/dev/null 2>&1; then
	skip "valgrind: not installed (apt-get install valgrind)"
	finish
fi

LOOPS=3
FILE_BYTES=1048576
STREAM_BYTES=$((4 + LOOPS * 8 + LOOPS * FILE_BYTES))
dd if=/dev/zero of="$TMP/payload" bs=1024 count=$((FILE_BYTES / 1024)) 2>/dev/null

VALGRIND="valgrind -q --leak-check=full --error-exitcode=1 --trace-children=no"

# ended PID SECS: wait up to SECS seconds for PID (ours) to exit.
ended() {
	within $(($2 * 10)) proc_ended "$1"
}

# --- zcs -1 under valgrind, by the receive methods ------------------------------
# Not discard: its recv(MSG_TRUNC) asks for more bytes than the buffer holds
# (the kernel writes none of them), which valgrind takes for an overrun.
for m in read splice zerocopy; do
	: >"$TMP/zcs.out"
	bg $VALGRIND --log-file="$TMP/vg-zcs.log" "$ZC_BIN/zcs" -1 -p 0 -M $m >"$TMP/zcs.out" 2>"$TMP/zcs.err"
	vg_pid=$!
	if ! wait_for "$TMP/zcs.out" '^listening on port [0-9]+' 300; then
		not_ok "valgrind zcs -1 -M $m: never said 'listening': $(head -c 300 "$TMP/zcs.err")"
		continue
	fi
	port=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/zcs.out")
	timeout 60 "$ZC_BIN/zcc" -s 127.0.0.1 -p "$port" -n "$LOOPS" "$TMP/payload" \
		>"$TMP/zcc.out" 2>&1
	rc=$?
	check "a plain zcc sends to zcs -M $m under valgrind: $(cat "$TMP/zcc.out")" [ "$rc" -eq 0 ]
	if ended "$vg_pid" 60; then
		wait "$vg_pid"
		rc=$?
		if [ "$rc" -eq 0 ] && grep -q "^done: $STREAM_BYTES bytes" "$TMP/zcs.out"; then
			ok "valgrind zcs -1 -M $m: exit 0, clean, $(grep '^done' "$TMP/zcs.out")"
		else
			not_ok "valgrind zcs -1 -M $m: exit $rc: $(cat "$TMP/zcs.err" "$TMP/vg-zcs.log" | head -n 20 | tr '\n' '|')"
		fi
	else
		not_ok "valgrind zcs -1 -M $m: still running 60 s after its one client"
	fi
done

# --- zcc under valgrind, sendfile and -S --------------------------------------
for mode in "" "-S"; do
	what="valgrind zcc ${mode:-(sendfile)}"
	zcs_start -1 || { not_ok "$what: zcs starts"; continue; }
	timeout 120 $VALGRIND --log-file="$TMP/vg-zcc.log" "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" \
		-n "$LOOPS" $mode "$TMP/payload" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q "^sent: $STREAM_BYTES bytes" "$TMP/zcc.out"; then
		ok "$what: exit 0, clean, $(cat "$TMP/zcc.out")"
	else
		not_ok "$what: exit $rc: $(cat "$TMP/zcc.err" "$TMP/vg-zcc.log" | head -n 20 | tr '\n' '|')"
	fi
	ended "$ZCS_PID" 10
	wait "$ZCS_PID"
	rc=$?
	check "$what: zcs -1 got the whole stream" [ "$rc" -eq 0 ]
done

finish
