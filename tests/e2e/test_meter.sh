#!/bin/sh
# needs: meter-long long
# The meter end to end through cyclesoak: the method chosen by machine and
# the line that says so, a soaker killed or stopped under a running meter,
# one meter per machine, a calibration refused on a busy machine, a command
# that cannot run (126, 127), nohup, and a stdout that cannot be written.
#
# The meter lock is one per machine. This test holds the run's meter slot
# (other tests wait for it), but other work on this machine (a user's
# cyclesoak) may hold the lock at moments: a check refused by a meter that
# is not ours is a skip naming its PID, never a failure.
. "$ZC_TOP/tests/lib.sh"
meter_slot

cs=$ZC_BIN/cyclesoak
ncpus=$(getconf _NPROCESSORS_ONLN)
# The using line counts them: "using 2 CPUs", "using 1 CPU".
# shellcheck disable=SC2034 # read in method's eval
using="using $ncpus CPU$([ "$ncpus" -eq 1 ] || echo s)"
cal=$TMP/cal
printf '100000000\nncpus %s\n' "$ncpus" >"$cal"

# others_meter FILE: the PID named by a refusal in FILE, if one is there.
others_meter() {
	sed -n 's/.*another meter is running (PID \([0-9]*\)).*/\1/p' "$1" | head -n 1
}

# mcheck ERRFILE WHAT COMMAND...: check, unless ERRFILE says another meter
# (not one of ours) refused the run: then a skip naming it.
mcheck() {
	_pid=$(others_meter "$1")
	shift
	if [ -n "$_pid" ]; then
		skip "$1: another meter (PID $_pid) runs now"
	else
		check "$@"
	fi
}

# --- the method line ------------------------------------------------------

printf 'processor\t: 0\nflags\t\t: fpu vme sse2\n\n' >"$TMP/bare"
printf 'processor\t: 0\nflags\t\t: fpu vme sse2 hypervisor\n\n' >"$TMP/vm"

# method WHAT WANT [OPTIONS...]: the line after the using line is WANT.
method() {
	_what=$1 _want=$2
	shift 2
	timeout 10 "$cs" -1 -m 100 "$@" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	_pid=$(others_meter "$TMP/err")
	if [ -n "$_pid" ]; then
		skip "$_what: another meter (PID $_pid) runs now"
		return
	fi
	_line=$(sed -n 2p "$TMP/out")
	check "$_what: '$_line' ($_rc$(head -c 200 "$TMP/err"))" \
		eval '[ "$_rc" -eq 0 ] && [ "$_line" = "method: $_want" ] &&
		[ "$(sed -n 1p "$TMP/out")" = "$using" ]'
}

if is_vm; then
	method "this virtual machine" "run time (virtual machine; -L for loop counts)" -f "$TMP/none"
else
	method "this bare metal" "loop counts (bare metal; -r for run time)" -f "$cal"
fi
ZC_CPUINFO=$TMP/vm method "a cpuinfo with 'hypervisor'" \
	"run time (virtual machine; -L for loop counts)" -f "$TMP/none"
ZC_CPUINFO=$TMP/bare method "a cpuinfo without 'hypervisor'" \
	"loop counts (bare metal; -r for run time)" -f "$cal"
ZC_CPUINFO=$TMP/bare method "bare metal, -r" "run time (-r)" -r -f "$cal"
ZC_CPUINFO=$TMP/vm method "a virtual machine, -L" "loop counts (-L)" -L -f "$cal"
# The harness decides as the meter does (the demo and the bench calibrate
# by it), reading the same file.
check "the harness's is_vm reads ZC_CPUINFO as the meter does" \
	eval '(ZC_CPUINFO=$TMP/vm; is_vm) && ! (ZC_CPUINFO=$TMP/bare; is_vm)'
"$cs" -r -L -1 >"$TMP/out" 2>"$TMP/err"
rc=$?
check "-r with -L: usage error ($rc: $(cat "$TMP/err"))" \
	eval '[ "$rc" -eq 2 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ]'

# --- a soaker killed or stopped ----------------------------------------------

# broken SIG WANT: under a running cyclesoak -m 300, SIG one soaker; it
# must exit 1 within 2 periods (600 ms; 2.5 s allowed, as beside another
# test the soaker may wait for a CPU) with one line naming the soaker, its
# PID and WANT.
broken() {
	_sig=$1 _want=$2
	: >"$TMP/b.out"
	bg "$cs" -m 300 -f "$cal" >"$TMP/b.out" 2>"$TMP/b.err"
	_cs=$!
	if ! wait_for "$TMP/b.out" 'System load' 50; then
		_pid=$(others_meter "$TMP/b.err")
		if [ -n "$_pid" ]; then
			skip "SIG$_sig of a soaker: another meter (PID $_pid) runs now"
		else
			not_ok "SIG$_sig of a soaker: cyclesoak did not start: $(head -c 300 "$TMP/b.err")"
		fi
		return
	fi
	_kid=$(cat "/proc/$_cs/task/$_cs/children" 2>/dev/null | awk '{ print $NF }')
	if [ -z "$_kid" ]; then
		not_ok "SIG$_sig of a soaker: cyclesoak $_cs has no soaker"
		return
	fi
	timed_start
	_lines0=$(grep -c 'System load' "$TMP/b.out")
	kill -"$_sig" "$_kid"
	within 40 proc_ended "$_cs"
	timed_end
	# Still measuring 4 s on: it did not notice; stop it to go on.
	kill -0 "$_cs" 2>/dev/null && kill -KILL "$_cs" "$_kid" 2>/dev/null
	wait "$_cs"
	_rc=$?
	_lines1=$(grep -c 'System load' "$TMP/b.out")
	check "SIG$_sig of soaker $_kid: exit 1 ($_rc)" [ "$_rc" -eq 1 ]
	timed_check "SIG$_sig of soaker $_kid: cyclesoak ends within 2 periods" \
		'[ "$TIMED_MS" -le $((2500 + SLACK_MS)) ]'
	# Besides it, only the meter's warnings of the run (the host's steal,
	# the soakers' presence), which a busy machine may bring.
	check "SIG$_sig: one line naming it: $(cat "$TMP/b.err")" \
		eval 'grep -Eq "^cyclesoak: soaker for CPU [0-9]+ \(PID $_kid\) $_want\$" "$TMP/b.err" &&
		[ "$(grep -vc -e "warning: the host took" -e "warning: the meter.s presence" "$TMP/b.err")" -eq 1 ]'
	check "SIG$_sig: at most one figure after it ($_lines0 -> $_lines1)" \
		[ "$_lines1" -le $((_lines0 + 1)) ]
	check "SIG$_sig: no soaker left" \
		eval '! kill -0 "$_kid" 2>/dev/null'
}
broken KILL 'was killed by SIGKILL'
broken STOP 'was stopped \(SIGSTOP\)'

# --- one meter per machine ---------------------------------------------------

bg "$cs" -m 200 -f "$cal" >"$TMP/first.out" 2>"$TMP/first.err"
first=$!
if wait_for "$TMP/first.out" 'System load' 50; then
	timeout 10 "$cs" -1 -m 100 -f "$cal" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "a second meter is refused, exit 1 ($rc), naming the first ($first): $(cat "$TMP/err")" \
		eval '[ "$rc" -eq 1 ] && grep -q "another meter is running (PID $first)" "$TMP/err"'
	kill -KILL "$first"
	wait "$first"
	timeout 10 "$cs" -1 -m 100 -f "$cal" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	pid=$(others_meter "$TMP/err")
	if [ -n "$pid" ] && [ "$pid" != "$first" ]; then
		skip "after SIGKILL of the first, another meter (PID $pid) runs now"
	else
		check "after SIGKILL of the first, the next is accepted ($rc: $(cat "$TMP/err"))" \
			[ "$rc" -eq 0 ]
	fi
	# In another network namespace the lock is the same file.
	ns=zc-meter-$$
	if ip netns add "$ns" 2>/dev/null; then
		bg "$cs" -m 200 -f "$cal" >"$TMP/first.out" 2>"$TMP/first.err"
		first=$!
		if wait_for "$TMP/first.out" 'System load' 50; then
			timeout 10 ip netns exec "$ns" "$cs" -1 -m 100 -f "$cal" >"$TMP/out" 2>"$TMP/err"
			rc=$?
			check "a second meter in another network namespace is refused ($rc): $(cat "$TMP/err")" \
				eval '[ "$rc" -eq 1 ] && grep -q "another meter is running (PID $first)" "$TMP/err"'
		fi
		kill "$first"
		wait "$first"
		ip netns delete "$ns"
	else
		skip "a second meter in another network namespace: cannot make one (not root?)"
	fi
else
	pid=$(others_meter "$TMP/first.err")
	skip "one meter per machine: another meter (PID ${pid:-?}) runs now"
fi

# --- the warnings, each said once ------------------------------------------

# A calibration far below what the soakers do: loop counts read far below
# -2% (a fresh -C is due) and far from run time (they disagree).
printf '1000\nncpus %s\n' "$ncpus" >"$TMP/slow"
bg "$cs" -L -d -m 100 -f "$TMP/slow" >"$TMP/w.out" 2>"$TMP/w.err"
pid=$!
if wait_for "$TMP/w.out" 'System load' 50; then
	wait_for "$TMP/w.out" 'System load' 30
	# Up to 5 s for the disagreement warning: 5 periods in a row apart
	# take 0.5 s, but only when the soakers get the CPU (work beside this
	# test may hold it for a while).
	within 50 has_line "$TMP/w.err" 'disagree by over 5 points for 5 periods'
	# Three periods more, in which it must not be said again.
	n=$(grep -c 'System load' "$TMP/w.out")
	within 50 eval '[ "$(grep -c "System load" "$TMP/w.out")" -ge $((n + 3)) ]'
	kill "$pid"
	wait "$pid"
	n=$(grep -c 'System load' "$TMP/w.out")
	check "-L below -2%: said once over $n periods: $(grep 'faster' "$TMP/w.err")" \
		[ "$(grep -c 'run faster than calibrated; a fresh -C is due' "$TMP/w.err")" -eq 1 ]
	# The longest run of periods apart by over 5 points, from -d's lines:
	# when others' work held every CPU the soakers got none, and both
	# methods read 100% alike; fewer than 5 in a row is then a skip.
	streak=$(sed -n 's/.*loop counts \(-*[0-9.]*\)%, run time \(-*[0-9.]*\)%.*/\1 \2/p' "$TMP/w.err" |
		awk '{ d = $1 - $2; if (d < 0) d = -d; run = d > 5 ? run + 1 : 0; if (run > most) most = run }
		END { print most + 0 }')
	warned=$(grep -c "disagree by over 5 points for 5 periods" "$TMP/w.err")
	if [ "$streak" -lt 5 ] && [ "$warned" -eq 0 ]; then
		skip "the two methods apart for 5 periods: at most $streak in a row here (the soakers got no CPU)"
	else
		check "the two methods apart for 5 periods ($streak in a row): one warning ($warned)" \
			[ "$warned" -eq 1 ]
	fi
else
	pid=$(others_meter "$TMP/w.err")
	skip "the warnings: cyclesoak did not start (another meter: ${pid:-none}): $(head -c 200 "$TMP/w.err")"
fi

# --- a refused calibration leaves the old file as it was -------------------

printf '123456789\nncpus %s\n' "$ncpus" >"$TMP/old"
cp "$TMP/old" "$TMP/old.copy"
bg "$ZC_TESTBIN/loadgen" -l 60 -t 30 >/dev/null 2>&1
lg=$!
timeout 60 "$cs" -C -m 200 -f "$TMP/old" >"$TMP/out" 2>"$TMP/err"
rc=$?
kill "$lg"
wait "$lg" 2>/dev/null
pid=$(others_meter "$TMP/err")
if [ -n "$pid" ]; then
	skip "a noisy calibration: another meter (PID $pid) runs now"
else
	# Why, as the machine was: the samples spread, other work seen, or
	# (the loop and whatever else runs holding every CPU) no sample at all.
	check "-C beside a busy loop: refused, exit 1 ($rc), one line saying why: $(cat "$TMP/err")" \
		eval '[ "$rc" -eq 1 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ] &&
		grep -Eq "refused.*(spread [0-9.]*%|other work used [0-9.]*%|soakers did not count)" "$TMP/err"'
	check "-C refused: the old file is byte for byte as it was" cmp -s "$TMP/old" "$TMP/old.copy"
	check "-C refused: no temporary file left" [ "$(ls "$TMP" | grep -c '^old\.')" -eq 1 ]
fi

# --- a command that cannot run ---------------------------------------------

"$cs" -f "$cal" -- "$TMP/no-such-command" >"$TMP/out" 2>"$TMP/err"
rc=$?
mcheck "$TMP/err" "-- a command not found: 127 ($rc: $(cat "$TMP/err"))" [ "$rc" -eq 127 ]
printf '#!/bin/sh\necho ran\n' >"$TMP/noexec"
chmod 644 "$TMP/noexec"
"$cs" -f "$cal" -- "$TMP/noexec" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ "$(id -u)" -eq 0 ] && [ -x "$TMP/noexec" ]; then
	skip "-- a command that cannot be executed: root may execute anything here"
else
	mcheck "$TMP/err" "-- a command that exists but cannot be executed: 126 ($rc: $(cat "$TMP/err"))" \
		[ "$rc" -eq 126 ]
fi

# --- nohup: an ignored SIGHUP stays ignored ------------------------------------

bg sh -c 'trap "" HUP; exec "$0" -m 100 -f "$1"' "$cs" "$cal" >"$TMP/out" 2>"$TMP/err"
pid=$!
if wait_for "$TMP/out" 'System load' 50; then
	# A SIGHUP, then a SIGTERM: it dies of the second (143), not the
	# first (129).
	kill -HUP "$pid"
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	check "SIGHUP ignored at start: cyclesoak survives it, and dies by the SIGTERM after it ($rc)" \
		[ "$rc" -eq 143 ]
else
	skip "nohup: cyclesoak did not start: $(head -c 200 "$TMP/err")"
fi
# The command waits for a line from a FIFO, written after the SIGHUP.
# (Opened both ways here, the FIFO's opening blocks neither end.)
mkfifo "$TMP/hup"
exec 8<>"$TMP/hup"
bg sh -c 'trap "" HUP; exec "$0" -f "$1" -- sh -c "echo started; read x; echo survived"' \
	"$cs" "$cal" <"$TMP/hup" >"$TMP/out" 2>"$TMP/err" 8>&-
pid=$!
if wait_for "$TMP/out" '^started' 50; then
	kill -HUP "$pid"
	echo go >&8
	wait "$pid"
	rc=$?
	check "SIGHUP ignored at start: not passed to the command, which finishes ($rc, $(grep -c survived "$TMP/out"))" \
		eval '[ "$rc" -eq 0 ] && grep -qx survived "$TMP/out"'
else
	skip "nohup with a command: cyclesoak did not start: $(head -c 200 "$TMP/err")"
fi
exec 8>&-

# --- a stop signal as the command starts: passed on, not lost --------------

t0=$(now_ms)
timeout 20 "$cs" -f "$cal" -- sh -c 'kill -TERM $PPID; exec sleep infinity' >"$TMP/out" 2>"$TMP/err"
rc=$?
ms=$(($(now_ms) - t0))
mcheck "$TMP/err" "SIGTERM to cyclesoak as its command starts: passed on, the command dies of it ($rc, $ms ms)" \
	eval '[ "$rc" -eq 143 ] && [ "$ms" -lt 8000 ]'

# --- JSON Lines ------------------------------------------------------------

"$cs" -h >"$TMP/out" 2>&1
check "-h lists the exit statuses" grep -q 'exit status: 0' "$TMP/out"
jc=$ZC_TESTBIN/jsoncheck
if [ -x "$jc" ]; then
	timeout 10 "$cs" -J -1 -B -d -m 100 -f "$cal" >"$TMP/j" 2>"$TMP/err"
	rc=$?
	pid=$(others_meter "$TMP/err")
	if [ -n "$pid" ]; then
		skip "-J: another meter (PID $pid) runs now"
	else
		check "-J: exit 0 ($rc), every line a JSON object: $("$jc" "$TMP/j" 2>&1)" \
			eval '[ "$rc" -eq 0 ] && "$jc" "$TMP/j"'
		check "-J: using {ncpus}" "$jc" -E using -k program -k time -k ncpus "$TMP/j"
		check "-J: method {meter, why}: $("$jc" -E method -g meter "$TMP/j" 2>&1)" \
			eval '"$jc" -E method -k why -g meter "$TMP/j" | grep -Eqx "run time|loop counts"'
		check "-J -B -d: load {load_pct, load_counts_pct, load_runtime_pct, free_pct}" \
			"$jc" -E load -k load_pct -k load_counts_pct -k load_runtime_pct -k free_pct "$TMP/j"
		check "-J: nothing but JSON on stdout" \
			[ "$(grep -vc '^{' "$TMP/j")" -eq 0 ]
	fi
	timeout 10 "$cs" -J -f "$cal" -- sh -c 'exit 3' >"$TMP/j" 2>"$TMP/err"
	rc=$?
	st=$("$jc" -E command -k load_pct -k seconds -g status "$TMP/j" 2>&1)
	mcheck "$TMP/err" "-J -- command: command {load_pct, seconds, status 3} ($rc, $st)" \
		eval '[ "$rc" -eq 3 ] && [ "$st" = 3 ]'
else
	skip "-J: no tests/tools/jsoncheck built"
fi

# --- stdout that cannot be written ---------------------------------------------

if [ -w /dev/full ]; then
	timeout 10 "$cs" -1 -m 100 -f "$cal" >/dev/full 2>"$TMP/err"
	rc=$?
	mcheck "$TMP/err" "stdout on /dev/full: exit 1 with a line ($rc: $(cat "$TMP/err"))" \
		eval '[ "$rc" -eq 1 ] && grep -q "stdout" "$TMP/err"'
else
	skip "no /dev/full"
fi

finish
