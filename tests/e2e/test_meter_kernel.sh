#!/bin/sh
# needs: meter
# zcc -c and zcs -c meter by the kernel's idle time unless told otherwise:
# their method line says so, no soaker runs; -r and -L still start the
# soakers; -K with another method is refused. The meter's warnings reach
# zcc and zcs as they reach cyclesoak: once a run, on stderr and as a
# warning event with -J (a calibration far below the machine's rate
# provokes two of them).
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
ZCS=$ZC_BIN/zcs
JC=$ZC_TESTBIN/jsoncheck
ncpus=$(getconf _NPROCESSORS_ONLN)
head -c 4000000 /dev/urandom >"$TMP/f"
printf '1000\nncpus %s\n' "$ncpus" >"$TMP/slow"

# --- options -----------------------------------------------------------------
for bad in "-c -K -r" "-c -L -K" "-K"; do
	# shellcheck disable=SC2086
	"$ZCC" $bad -s 127.0.0.1 "$TMP/f" >/dev/null 2>"$TMP/e"
	rc=$?
	check "zcc $bad: a usage error, exit 2 ($rc: $(cat "$TMP/e"))" \
		eval '[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ]'
done
"$ZCS" -K >/dev/null 2>"$TMP/e"
rc=$?
check "zcs -K without -c: exit 2 ($rc: $(cat "$TMP/e"))" eval '[ "$rc" -eq 2 ] && grep -q -- "-K chooses" "$TMP/e"'

# zcc_metered ARGS...: zcc -c -J ARGS to a plain zcs, started for each try,
# out in $TMP/zcc.out and .err.
zcc_metered() {
	metered "$TMP/zcc.err" zcc_once "$@"
}
zcc_once() {
	zcs_start -1 || die "zcs did not start: $(cat "$TMP/zcs.err")"
	timeout 60 "$ZCC" -c -J -s 127.0.0.1 -p "$ZCS_PORT" "$@" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
	_zrc=$?
	stop_bg "$ZCS_PID"
	return $_zrc
}

meter_slot
if zcc_metered -t 1 "$TMP/f"; then
	check "zcc -c: the method event names kernel idle time" \
		eval '[ "$("$JC" -E method -g meter "$TMP/zcc.out")" = "kernel idle time" ]'
	check "zcc -c: it says why and what it cannot see" \
		eval '"$JC" -E method -g why "$TMP/zcc.out" | grep -q "the default: no soakers.*-r or -L for those"'
	check "zcc -c: the cpu event's meter is kernel idle time" \
		eval '[ "$("$JC" -E cpu -g meter "$TMP/zcc.out")" = "kernel idle time" ]'
	check "zcc -c: no meter warning by default ($(cat "$TMP/zcc.err"))" \
		eval '! grep -q "\"event\":\"warning\"" "$TMP/zcc.out"'
else
	not_ok "zcc -c: $(cat "$TMP/zcc.err")"
fi
check "zcc -c: no soaker switches to count (null)" \
	eval '[ "$("$JC" -E cpu -g soaker_switches_per_sec "$TMP/zcc.out")" = null ]'
if zcc_metered -r -t 1 "$TMP/f"; then
	check "zcc -c -r: run time" eval '[ "$("$JC" -E cpu -g meter "$TMP/zcc.out")" = "run time" ]'
	# The meter's presence: how often the soakers were put back on their
	# CPUs, the figure meter_presence's rule charges.
	sw=$("$JC" -E cpu -g soaker_switches_per_sec "$TMP/zcc.out")
	check "zcc -c -r: soaker_switches_per_sec a number ($sw)" eval 'echo "$sw" | grep -Eq "^[0-9]+$"'
fi

# The soakers' calibrated rate far below the machine's: loop counts read far
# below zero, and apart from run time over the whole reading of over 5 s.
if zcc_metered -L -f "$TMP/slow" -t 6 "$TMP/f"; then
	check "zcc -c -L: loop counts" eval '[ "$("$JC" -E cpu -g meter "$TMP/zcc.out")" = "loop counts" ]'
	check "zcc -c -L, a slow calibration: 'faster than calibrated' said once on stderr" \
		eval '[ "$(grep -c "warning: loop counts read .*faster than calibrated" "$TMP/zcc.err")" -eq 1 ]'
	check "... and once as a warning event" \
		eval '[ "$("$JC" -E warning -g warning "$TMP/zcc.out" | grep -c faster_than_calibrated)" -eq 1 ]'
	check "zcc -c -L over 5 s apart from run time: the disagreement said once: $(grep disagree "$TMP/zcc.err")" \
		eval '[ "$(grep -c "disagree by over 5 points" "$TMP/zcc.err")" -eq 1 ] &&
		[ "$("$JC" -E warning -g warning "$TMP/zcc.out" | grep -c methods_disagree)" -eq 1 ]'
else
	not_ok "zcc -c -L: $(cat "$TMP/zcc.err")"
fi

# zcs -c: the default, then -L's warning, against a plain zcc.
if zcs_metered -c -1 -J; then
	check "zcs -c: no soaker runs" [ -z "$(proc_children "$ZCS_PID")" ]
	"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -t 1 "$TMP/f" >/dev/null 2>&1
	wait "$ZCS_PID"
	forget_bg "$ZCS_PID"
	check "zcs -c: the method event names kernel idle time" \
		eval '[ "$("$JC" -E method -g meter "$TMP/zcs.out")" = "kernel idle time" ]'
	check "zcs -c: a done line with the load" "$JC" -E done -k load_pct "$TMP/zcs.out"
else
	not_ok "zcs -c: $(cat "$TMP/zcs.err")"
fi
if zcs_metered -c -L -f "$TMP/slow" -1; then
	check "zcs -c -L: soakers run" [ -n "$(proc_children "$ZCS_PID")" ]
	"$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -t 1 "$TMP/f" >/dev/null 2>&1
	wait "$ZCS_PID"
	forget_bg "$ZCS_PID"
	check "zcs -c -L: 'method: loop counts (-L)'" grep -qx 'method: loop counts (-L)' "$TMP/zcs.out"
	check "zcs -c -L, a slow calibration: 'faster than calibrated' once: $(cat "$TMP/zcs.err")" \
		eval '[ "$(grep -c "faster than calibrated" "$TMP/zcs.err")" -eq 1 ]'
else
	not_ok "zcs -c -L: $(cat "$TMP/zcs.err")"
fi
meter_slot_free

finish
