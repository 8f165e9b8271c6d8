#!/bin/sh
# The one-meter lock (lib/meter/lock.c) lives in /tmp, where anyone can lock it:
# a holder that is no meter (no soakers, children at nice 19) is ignored,
# one that is a meter refuses us, naming it; another user's file that we
# may not open blocks only when a meter holds it. Each case uses a lock
# file of its own (ZC_METER_LOCK), so no other meter is disturbed.
. "$ZC_TOP/tests/lib.sh"

CS=$ZC_BIN/cyclesoak
HOLD=$ZC_TESTBIN/lockhold

# hold [-s] PATH: a lockhold in the background; sets HOLD_PID.
hold() {
	: >"$TMP/hold.out"
	bg "$HOLD" "$@" >"$TMP/hold.out" 2>"$TMP/hold.err"
	HOLD_PID=$!
	wait_for "$TMP/hold.out" '^locked ' || not_ok "lockhold took the lock: $(cat "$TMP/hold.err")"
}

# meter_runs WHAT LOCKFILE: cyclesoak -1 with that lock; sets RC.
meter_runs() {
	ZC_METER_LOCK=$2 timeout 30 "$CS" -r -1 -m 200 >"$TMP/out" 2>"$TMP/err"
	RC=$?
}

# A holder with no soakers: ignored (after a second's grace).
hold "$TMP/l1"
meter_runs "no-meter holder" "$TMP/l1"
check "a lock held by a process with no soakers is ignored: exit 0 ($RC: $(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && grep -q "^System load: " "$TMP/out"'
reap_pid "$HOLD_PID" 0

# A holder with a soaker-like child: a meter, refused by name.
hold -s "$TMP/l2"
meter_runs "meter holder" "$TMP/l2"
check "a lock held by a meter refuses us, naming its PID ($RC: $(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 1 ] && grep -q "another meter is running (PID $HOLD_PID)" "$TMP/err"'
reap_pid "$HOLD_PID" 0

# A real meter holding it: refused too.
bg env ZC_METER_LOCK="$TMP/l3" "$CS" -r -m 200 >"$TMP/m.out" 2>"$TMP/m.err"
mpid=$!
if wait_for "$TMP/m.out" '^System load'; then
	meter_runs "a real meter" "$TMP/l3"
	check "a running cyclesoak refuses a second ($RC: $(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 1 ] && grep -q "another meter is running (PID $mpid)" "$TMP/err"'
else
	not_ok "the first meter started: $(cat "$TMP/m.err")"
fi
reap_pid "$mpid" 0

# Another user's lock file, mode 0600, that we (not root) cannot open.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && id daemon >/dev/null 2>&1; then
	chmod 755 "$TMP"
	: >"$TMP/l4"
	chmod 600 "$TMP/l4"
	ZC_METER_LOCK=$TMP/l4 timeout 30 setpriv --reuid=daemon --regid=daemon --clear-groups "$CS" -r -1 -m 200 >"$TMP/out" 2>"$TMP/err"
	RC=$?
	check "another user's unopenable lock file, no holder: ignored ($RC: $(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 0 ] && grep -q "^System load: " "$TMP/out"'
	hold -s "$TMP/l4"
	ZC_METER_LOCK=$TMP/l4 timeout 30 setpriv --reuid=daemon --regid=daemon --clear-groups "$CS" -r -1 -m 200 >"$TMP/out" 2>"$TMP/err"
	RC=$?
	check "the same file held by a meter: refused ($RC: $(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 1 ] && grep -q "another meter is running (PID $HOLD_PID)" "$TMP/err"'
	reap_pid "$HOLD_PID" 0
else
	skip "another user's lock file: needs root, setpriv and the user daemon"
fi

finish
