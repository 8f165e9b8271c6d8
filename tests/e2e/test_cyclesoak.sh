#!/bin/sh
# needs: meter-long long
# cyclesoak end to end: options and errors, output formats, the calibration
# file as read, "-- command", the soaker loop at -O0/-O2/-O3, and no soaker
# outliving cyclesoak (or zcc -c) however it is killed. Calibrating and
# agreement with a load of known size are tests/e2e/test_accuracy.sh's, which
# runs alone; this one runs beside other tests, holding the run's meter
# slot, with a made-up calibration (its figures are not judged here).
. "$ZC_TOP/tests/lib.sh"
meter_slot

cs=$ZC_BIN/cyclesoak
ncpus=$(getconf _NPROCESSORS_ONLN)
meter_wait_others
cal=$TMP/cal
load_re='^System load: -?[0-9]+\.[0-9]%$'

# --- options and errors -----------------------------------------------

"$cs" -h >"$TMP/out" 2>&1
check "-h: exit 0, usage on stdout" [ $? -eq 0 ]
check "-h: mentions -- command" grep -q -- '-- command' "$TMP/out"
check "-h: mentions -n" grep -q -- '-n, --nice ' "$TMP/out"

# usage WHAT ARGS...: cyclesoak ARGS is a usage error (lib.sh).
usage() {
	_w=$1
	shift
	usage_refused "$_w" "$cs" "$@"
}
usage "-p with -m" -f "$TMP/none" -p 1 -m 100
usage "-N 0" -f "$TMP/none" -N 0
usage "-N beyond the CPUs" -f "$TMP/none" -N 100000
usage "-m abc" -f "$TMP/none" -m abc
usage "-p -1" -f "$TMP/none" -p -1
usage "unknown option" -f "$TMP/none" -Z
usage "operand without --" -f "$TMP/none" true
usage "-C with a command" -C -f "$TMP/none" -- true

run_cs -L -1 -f "$TMP/none" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "-L, missing calibration file: exit 1 ($rc)" [ "$rc" -eq 1 ]
check "-L, missing calibration file: says to run cyclesoak -C: $(cat "$TMP/err")" \
	grep -qx "cyclesoak: loop counts: $TMP/none: no calibration file: run cyclesoak -C (or zcc -C) on an idle machine first" "$TMP/err"

# --- a calibration for the checks below ----------------------------------

rate=100000000
printf '%s\nncpus %s\n' "$rate" "$ncpus" >"$cal"

# -- measurement and formats ---------------------------------------------

run_cs -1 -m 200 -f "$cal" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "-1: exit 0 ($rc)" [ "$rc" -eq 0 ]
check "-1: one 'System load: xx.x%' line: $(grep System "$TMP/out")" \
	[ "$(grep -Ec "$load_re" "$TMP/out")" -eq 1 ]

run_cs -1 -B -d -m 200 -f "$cal" >"$TMP/out" 2>"$TMP/err"
free_re='^System load: -?[0-9]+\.[0-9]% \|\| Free:'
i=0
while [ "$i" -lt "$ncpus" ]; do
	free_re="$free_re -?[0-9]+\.[0-9]%\($i\)"
	i=$((i + 1))
done
check "-B: free share of each CPU: $(grep System "$TMP/out")" \
	grep -Eq "$free_re\$" "$TMP/out"
check "-d: both methods and per-CPU loads on stderr: $(head -n 1 "$TMP/err")" \
	grep -Eq "^cyclesoak: [0-9.]+ s: loop counts -?[0-9.]+%, run time -?[0-9.]+%; per CPU: -?[0-9.]+%/-?[0-9.]+%\(0\)" "$TMP/err"

run_cs -L -N 1 -1 -m 100 -f "$cal" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ "$ncpus" -gt 1 ]; then
	check "-N 1 against a $ncpus-CPU calibration: refused, exit 1 ($rc)" [ "$rc" -eq 1 ]
	check "-N mismatch: the message names both counts: $(cat "$TMP/err")" \
		grep -q "calibrated with $ncpus CPUs, this run has 1: run with -N $ncpus, or calibrate again with -C -N 1\$" "$TMP/err"
else
	skip "-N mismatch: needs 2 CPUs"
fi
# The meter says what is wrong with the file; the program adds the fix.
printf 'x\n' >"$TMP/bad"
run_cs -L -1 -m 100 -f "$TMP/bad" >"$TMP/out" 2>"$TMP/err"
check "-L with a bad calibration file: calibrate again: $(cat "$TMP/err")" \
	grep -q "^cyclesoak: loop counts: $TMP/bad:1: 'x', expected .*; run cyclesoak -C again\$" "$TMP/err"
run_cs -r -N 1 -1 -m 100 >"$TMP/out" 2>"$TMP/err"
if [ "$ncpus" -gt 1 ]; then
	check "-N 1: 'using 1 of $ncpus CPUs (CPU 0 of cpuset ...)' ($(head -n 1 "$TMP/out"))" \
		grep -Eqx "using 1 of $ncpus CPUs \(CPU [0-9]+ of cpuset [0-9,-]+\)" "$TMP/out"
else
	check "-N 1: 'using 1 CPU' ($(head -n 1 "$TMP/out"))" grep -qx 'using 1 CPU' "$TMP/out"
fi
run_cs -r -N 1 -1 -m 100 -J >"$TMP/out" 2>"$TMP/err"
check "-N 1 -J: a using event with ncpus 1" \
	eval '[ "$("$ZC_TESTBIN/jsoncheck" -E using -g ncpus "$TMP/out")" = 1 ]'

# One vocabulary for the method, as zcc's cpu event has it.
check "-J -r: the method event says meter 'run time'" \
	eval '[ "$("$ZC_TESTBIN/jsoncheck" -E method -g meter "$TMP/out")" = "run time" ]'

# No calibration: -d says so instead of 'nan', and -J has the key null.
run_cs -r -d -1 -m 100 -f "$TMP/none" >"$TMP/out" 2>"$TMP/err"
check "-d without a calibration: 'loop counts none (no calibration)', no nan: $(head -n 1 "$TMP/err")" \
	eval 'grep -q "loop counts none (no calibration)" "$TMP/err" && ! grep -qi nan "$TMP/err"'
run_cs -r -d -J -1 -m 100 -f "$TMP/none" >"$TMP/out" 2>"$TMP/err"
# (The env event may hold nulls: what the machine does not say.)
check "-d -J without a calibration: load_counts_pct null, no other null" \
	eval 'grep -q "\"load_counts_pct\":null" "$TMP/out" &&
		! grep -v "\"event\":\"env\"" "$TMP/out" | sed "s/\"load_counts_pct\":null//" | grep -q null &&
		grep -q load_runtime_pct "$TMP/out"'

# -C into a directory that does not exist: refused before calibrating.
timed_start
run_cs -C -f "$TMP/no/such/dir/cal" >"$TMP/out" 2>"$TMP/err"
rc=$?
timed_end
check "-C -f in a missing directory: exit 1 ($rc): $(cat "$TMP/err")" \
	eval '[ "$rc" -eq 1 ] && grep -q "cannot write in $TMP/no/such/dir" "$TMP/err"'
timed_check "-C -f in a missing directory: at once (2 s at most)" \
	'[ "$TIMED_MS" -lt $((2000 + SLACK_MS)) ]'
check "-C -f in a missing directory: no 'calibrating' line" [ "$(grep -c calibrating "$TMP/out")" -eq 0 ]

# The 2001 program's file: the number alone. Accepted.
echo "$rate" >"$TMP/old"
run_cs -L -1 -m 100 -f "$TMP/old" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "-L: a bare-number file is accepted ($rc)" \
	eval '[ "$rc" -eq 0 ] && grep -Eq "$load_re" "$TMP/out"'
check "-L: ... with a warning that it does not say its CPU count: $(cat "$TMP/err")" \
	grep -q "warning: $TMP/old does not say how many CPUs it was calibrated with; assuming $ncpus" "$TMP/err"

# Several periods, then Ctrl-C. A command started with & from a script
# has SIGINT ignored, and cyclesoak keeps an ignored signal ignored (nohup),
# so it gets SIGINT back as a terminal would give it.
bg env --default-signal=INT "$cs" -m 100 -f "$cal" >"$TMP/out" 2>"$TMP/err"
pid=$!
within 50 eval '[ "$(grep -Ec "$load_re" "$TMP/out")" -ge 3 ]'
kill -INT "$pid"
wait "$pid"
rc=$?
n=$(grep -Ec "$load_re" "$TMP/out")
check "-m 100: a line per period until SIGINT ($n lines)" [ "$n" -ge 3 ]
check "SIGINT: cyclesoak dies by SIGINT ($rc)" [ "$rc" -eq 130 ]

# --- -- command -----------------------------------------------------------

run_cs -f "$cal" -- sh -c 'sleep 0.2; exit 3' >"$TMP/out" 2>"$TMP/err"
rc=$?
check "-- command: exits with the command's status ($rc)" [ "$rc" -eq 3 ]
check "-- command: one load line: $(grep System "$TMP/out")" \
	[ "$(grep -Ec "$load_re" "$TMP/out")" -eq 1 ]
run_cs -f "$cal" -- sh -c 'kill -TERM $$' >"$TMP/out" 2>"$TMP/err"
rc=$?
check "-- command killed by SIGTERM: exit 128+15 ($rc)" [ "$rc" -eq 143 ]
run_cs -f "$cal" -- "$TMP/no-such-command" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "-- command that cannot run: exit 127 ($rc)" [ "$rc" -eq 127 ]
check "-- command that cannot run: says why: $(cat "$TMP/err")" \
	grep -q 'no-such-command: No such file' "$TMP/err"
run_cs -f "$cal" -- sh -c 'echo "$1 $2"' sh "a b" -x >"$TMP/out" 2>"$TMP/err"
check "-- command: arguments and their options pass through untouched" \
	grep -qx 'a b -x' "$TMP/out"

# --- the soaker loop survives the optimiser -------------------------------

if [ "$ZC_PASS" = san ]; then
	skip "the soaker at -O0/-O2/-O3: only in the plain pass (it is rebuilt without sanitizers)"
elif command -v "${CC:-cc}" >/dev/null 2>&1; then
	rates=
	# The soakers' code (lib/meter/soak*.c) at each level; the rest of
	# the library as the tree's build has it (the library once a level
	# was a minute of compiling on a 2-CPU machine, the meter slot held).
	for o in -O0 -O2 -O3; do
		if "${CC:-cc}" -std=gnu11 -D_GNU_SOURCE -I"$ZC_TOP/lib" $o \
			-o "$TMP/soakcount$o" "$ZC_TOP/tests/tools/soakcount.c" \
			"$ZC_TOP"/lib/meter/soak*.c "$ZC_TESTBIN/../libzc.a" -pthread -lm 2>"$TMP/err"; then
			"$TMP/soakcount$o" 1 200 >"$TMP/out" 2>&1
			r=$(sed -n 's/^rate: \([0-9]*\).*/\1/p' "$TMP/out")
			check "soaker counts at $o (${r:-none} loops/sec)" [ -n "$r" ]
			p=$(sed -n 's/^per cpu second: \([0-9]*\) loops$/\1/p' "$TMP/out")
			[ -n "$p" ] && rates="$rates $p"
		else
			not_ok "build soakcount at $o: $(head -c 300 "$TMP/err")"
		fi
	done
	# Memory touches per count are the same at every level, so the counts
	# per second of the soaker's own CPU time stay within a small factor; a
	# loop optimised to nothing would not. Per CPU second, not per wall
	# second: work at nice 0 can take a SCHED_IDLE soaker's CPU for the
	# whole 200 ms.
	set -- $rates
	if [ $# -eq 3 ]; then
		check "-O3 count per CPU second is within 20x of -O0 ($1 vs $3)" [ "$3" -lt $(($1 * 20)) ]
		least=$(printf '%s\n' $rates | sort -n | head -n 1)
		check "... and above 0 at every level ($rates)" [ "$least" -gt 0 ]
	else
		skip "count per CPU second at -O0/-O2/-O3: a soaker got no CPU at all (busy machine): ($rates)"
	fi
else
	skip "no C compiler to rebuild the soaker at -O0/-O2/-O3"
fi

# --- lifecycle: no soaker outlives its parent -----------------------------

# killed SIG NAME COMMAND...: run COMMAND under tests/tools/subreaper, wait
# until it has soakers, send SIG to it, and check that every soaker is gone
# and reaped, within 1 s. A SCHED_IDLE soaker needs the CPU to die, though,
# and when work at nice 0 holds every CPU it gets next to none: the 1 s
# bound keeps the harness's wall-time rule (timed_check). With a
# catchable signal, the program itself must have reaped them (no orphan for
# anyone else).
killed() {
	_sig=$1 _name=$2 _ready=$3
	shift 3
	: >"$TMP/sr.out"
	: >"$TMP/sr"
	bg "$ZC_TESTBIN/subreaper" -o "$TMP/sr" -t 10000 "$@" >"$TMP/sr.out" 2>&1
	_sr=$!
	if ! wait_for "$TMP/sr.out" "$_ready" 100; then
		if grep -q 'another meter is running' "$TMP/sr.out"; then
			skip "$_name, SIG$_sig: $(grep -m 1 'another meter' "$TMP/sr.out")"
		else
			not_ok "$_name: did not start: $(head -c 300 "$TMP/sr.out")"
		fi
		return
	fi
	_pid=$(sed -n 's/^child //p' "$TMP/sr")
	_kids=$(proc_children "$_pid" | wc -l)
	timed_start
	kill -"$_sig" "$_pid"
	wait "$_sr"
	_rc=$?
	timed_end
	_left=$(grep -c '^left' "$TMP/sr")
	_orphans=$(grep -c '^orphan' "$TMP/sr")
	_gone=$(sed -n 's/^gone after \([0-9]*\) ms/\1/p' "$TMP/sr")
	_w="$_name, SIG$_sig with $_kids soakers"
	_clean=0
	[ "$_rc" -eq 0 ] && [ "$_left" -eq 0 ] && [ -n "$_gone" ] && _clean=1
	check "$_w: none left after 10 s ($(tr '\n' ' ' <"$TMP/sr"))" [ "$_clean" -eq 1 ]
	timed_check "$_w: all gone within 1 s (${_gone:-?} ms)" \
		'[ "${_gone:-99999}" -le $((1000 + SLACK_MS)) ]'
	check "$_w: it had soakers running" [ "$_kids" -ge "$ncpus" ]
	case "$_name:$_sig" in
	*:KILL) ;;
	*) check "$_w: it reaped its own soakers (orphans: $_orphans)" \
		[ "$_orphans" -eq 0 ] ;;
	esac
}

for sig in INT TERM HUP KILL; do
	killed $sig cyclesoak 'System load' env --default-signal=INT "$cs" -m 100 -f "$cal"
done
killed TERM "cyclesoak -- command" '^started' "$cs" -f "$cal" -- sh -c 'echo started; exec sleep infinity'

# zcc -c -r (soakers; the default has none) mid-transfer: zcc finds
# ./counts_per_sec, so run it in $TMP.
if [ -x "$ZC_BIN/zcc" ] && [ -x "$ZC_BIN/zcs" ] && "$ZC_BIN/zcc" -h 2>&1 | grep -q -- '-c'; then
	cp "$cal" "$TMP/counts_per_sec"
	head -c 4000000 /dev/zero >"$TMP/data"
	for sig in INT TERM KILL; do
		zcs_start || { not_ok "zcs starts"; break; }
		# -d makes zcc name its meter once the soakers run.
		(cd "$TMP" && killed $sig "zcc -c" 'zcc: meter: ' \
			"$ZC_BIN/zcc" -c -r -d -s 127.0.0.1 -p "$ZCS_PORT" -n 100000 "$TMP/data")
		kill "$ZCS_PID" 2>/dev/null
		wait "$ZCS_PID" 2>/dev/null
	done
	# An error exit with soakers running (nothing listens on port 1): zcc
	# kills and reaps them itself before it goes, so the subreaper finds
	# none to adopt.
	: >"$TMP/sr"
	(cd "$TMP" && "$ZC_TESTBIN/subreaper" -o "$TMP/sr" -t 1000 \
		"$ZC_BIN/zcc" -c -r -d -s 127.0.0.1 -p 1 "$TMP/data") >"$TMP/sr.out" 2>&1
	rc=$?
	if grep -q 'another meter is running' "$TMP/sr.out"; then
		skip "zcc -c, connection refused: $(grep -m 1 'another meter' "$TMP/sr.out")"
	else
		check "zcc -c, connection refused: zcc exits 1, after starting its soakers ($(grep -c 'zcc: meter: ' "$TMP/sr.out"))" \
			eval 'grep -qx "status exit 1" "$TMP/sr" && grep -q "zcc: meter: " "$TMP/sr.out"'
		check "zcc -c, connection refused: it reaped its own soakers ($(tr '\n' ' ' <"$TMP/sr"))" \
			eval '[ "$rc" -eq 0 ] && ! grep -Eq "^(orphan|left)" "$TMP/sr"'
	fi
else
	skip "zcc -c not built yet"
fi

# --- accuracy, with wide tolerances ----------------------------------------
"$cs" -r -C >/dev/null 2>"$TMP/err"
rc=$?
check "-r with -C: usage error, exit 2 ($rc: $(cat "$TMP/err"))" \
	eval '[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]'
run_cs -r -B -1 -N 1 >"$TMP/out" 2>&1
check "-r -B -1 -N 1: a load line with CPU 0's free share: $(cat "$TMP/out")" \
	grep -Eq '^System load: -?[0-9]+\.[0-9]% \|\| Free: [0-9.]+%\(0\)$' "$TMP/out"

finish
