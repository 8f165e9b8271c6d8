#!/bin/sh
# needs: meter
# zcs end to end over loopback, driven by the raw sender tests/tools/zc_send:
# whole, cut and overlong streams, -1's exit status, rate lines during a
# stall, the idle timeout, the connection cap, resets, reaping, -a and
# dual-stack listening, and stopping with children alive.
. "$ZC_TOP/tests/lib.sh"

SEND=$ZC_TESTBIN/zc_send
ZCS=$ZC_BIN/zcs

# send ARGS...: zc_send to the running zcs; output in $TMP/send.out.
send() {
	"$SEND" -p "$ZCS_PORT" "$@" >"$TMP/send.out" 2>"$TMP/send.err"
}

# err_lines: lines zcs has written on stderr so far.
err_lines() {
	wc -l <"$TMP/zcs.err"
}

# new_err_lines N: how many lines stderr gained since it had N.
new_err_lines() {
	echo $(($(err_lines) - $1))
}

# children_are PID N: PID has N children, zombies included.
children_are() {
	[ "$(proc_children "$1" | wc -l)" -eq "$2" ]
}

# expect WHAT CONDITION: ok when the shell condition (a string) holds.
expect() {
	_ew=$1
	shift
	if eval "$*"; then ok "$_ew"; else not_ok "$_ew"; fi
}

have_ipv6() {
	grep -q '^00000000000000000000000000000001 ' /proc/net/if_inet6 2>/dev/null
}

JC=$ZC_TESTBIN/jsoncheck

# --- -c: the receiving machine's load --------------------------------------
# First: the run's meter slot is then taken early, before the tests that
# hold it long have started (this test's "needs: meter", tests/run.sh).

for bad in "-r" "-L" "-f x" "-N 1" "-c -r -L"; do
	"$ZCS" -p 0 $bad >/dev/null 2>"$TMP/c.err"
	rc=$?
	expect "zcs $bad: exit 2, one line ($(cat "$TMP/c.err"))" \
		'[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/c.err")" -eq 1 ]'
done

# meter_zcs ARGS...: zcs -c -r -t 1 ARGS started, waiting out another
# meter (another test's): one meter at a time.
meter_zcs() {
	zcs_metered -c -r -t 1 "$@"
}

LOAD=', load -?[0-9]+\.[0-9]% of [0-9]+ CPUs, -?[0-9]+\.[0-9]{3} us/KB'
meter_slot
meter_zcs
rc=$?
if [ "$rc" -eq 0 ]; then
	# A period's demand needs 64 KiB behind it: the first has 100000 bytes.
	send w1 w1 w300000 d100000 s2200 d200000
	check "-c: rate lines carry the load and service demand" \
		wait_for "$TMP/zcs.out" "^[0-9]+ kbytes/sec$LOAD\$"
	check "-c: so does the done line" \
		wait_for "$TMP/zcs.out" "^done: 300012 bytes in [0-9.]+ s, [0-9]+ kbytes/sec$LOAD\$"
	soaker=$(proc_children "$ZCS_PID" | awk 'NR == 1 { print $1 }')
	kill -KILL "$soaker"
	timed_start
	wait "$ZCS_PID"
	rc=$?
	timed_end
	timed_check "-c: a soaker killed with no connection: zcs exits 1 ($rc) within 2 periods" \
		'[ "$rc" -eq 1 ] && [ "$TIMED_MS" -le $((2500 + SLACK_MS)) ]'
	expect "-c: with one line naming the soaker ($(tail -n 1 "$TMP/zcs.err"))" \
		'[ "$(grep -c "soaker for CPU" "$TMP/zcs.err")" -eq 1 ] && grep -q "PID $soaker.*SIGKILL" "$TMP/zcs.err"'
elif grep -q 'another meter is running' "$TMP/zcs.err"; then
	skip "-c: another meter held the machine for a minute"
else
	not_ok "zcs -c -r starts: $(cat "$TMP/zcs.err")"
fi

meter_zcs -J
rc=$?
if [ "$rc" -eq 0 ]; then
	soaker=$(proc_children "$ZCS_PID" | awk 'NR == 1 { print $1 }')
	bg "$SEND" -p "$ZCS_PORT" w1 w1 w3000 d1000 s4000 d2000 >/dev/null 2>&1
	wait_for "$TMP/zcs.out" '"event":"rate"' 30
	check "-c -J: rate lines have load_pct, ncpus, service_demand_us_per_kb" \
		"$JC" -E rate -k load_pct -k ncpus -k service_demand_us_per_kb "$TMP/zcs.out"
	kill -STOP "$soaker"
	wait "$ZCS_PID"
	rc=$?
	kill -CONT "$soaker" 2>/dev/null
	expect "-c: a soaker stopped while serving: zcs exits 1 ($rc), one line ($(grep soaker "$TMP/zcs.err"))" \
		'[ "$rc" -eq 1 ] && [ "$(grep -c "soaker for CPU" "$TMP/zcs.err")" -eq 1 ] &&
		grep -q "PID $soaker.*stopped" "$TMP/zcs.err"'
	check "-c: no figure printed after it" [ -z "$(grep '"event":"done"' "$TMP/zcs.out")" ]
elif grep -q 'another meter is running' "$TMP/zcs.err"; then
	skip "-c -J: another meter held the machine for a minute"
else
	not_ok "zcs -c -r -J starts: $(cat "$TMP/zcs.err")"
fi
meter_slot_free

# --- options that end before any socket --------------------------------

"$ZCS" -h >"$TMP/h.out" 2>"$TMP/h.err"
rc=$?
expect "-h exits 0 with the usage on stdout and nothing on stderr" \
	'[ "$rc" -eq 0 ] && grep -q "^usage: zcs " "$TMP/h.out" && [ ! -s "$TMP/h.err" ]'
check "-h documents -T" grep -q -- '-T, --stall-timeout SECS' "$TMP/h.out"
check "-h documents -m" grep -q -- '-m, --max-conns MAX' "$TMP/h.out"

expect "-h lists every receive method" \
	'grep -q "^ *read " "$TMP/h.out" && grep -q "^ *discard " "$TMP/h.out" &&
	grep -q "^ *splice " "$TMP/h.out" && grep -q "^ *zerocopy " "$TMP/h.out"'
check "-h says what the exit statuses mean" grep -q '^Exit status' "$TMP/h.out"
"$ZCS" --version >"$TMP/v.out" 2>&1
rc=$?
expect "--version: 'zcs VERSION', exit 0" '[ "$rc" -eq 0 ] && grep -Eq "^zcs [0-9]" "$TMP/v.out"'
"$ZCS" -p 0 -M nonesuch >/dev/null 2>"$TMP/m.err"
rc=$?
expect "-M nonesuch: exit 2, one line listing the methods ($(cat "$TMP/m.err"))" \
	'[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/m.err")" -eq 1 ] &&
	grep -q "nonesuch.*read, discard, splice, zerocopy" "$TMP/m.err"'
"$ZCS" -p 0 >/dev/full 2>"$TMP/full.err"
rc=$?
expect "stdout on /dev/full: exit 1 with one line ($(cat "$TMP/full.err"))" \
	'[ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/full.err")" -eq 1 ] &&
	grep -q "^zcs: write to stdout: No space left on device" "$TMP/full.err"'

"$ZCS" -p 65536 >"$TMP/p.out" 2>"$TMP/p.err"
rc=$?
expect "-p 65536: exit 2 with one line naming -p" \
	'[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/p.err")" -eq 1 ] && grep -q -- "-p" "$TMP/p.err"'
"$ZCS" -p 0 extra >/dev/null 2>"$TMP/x.err"
rc=$?
expect "an extra argument: exit 2, one line naming it" \
	'[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/x.err")" -eq 1 ] && grep -q "extra" "$TMP/x.err"'
"$ZCS" -p 0 -a '' >/dev/null 2>"$TMP/a.err"
rc=$?
expect "-a '': a usage error, exit 2, one line ($(cat "$TMP/a.err"))" \
	'[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/a.err")" -eq 1 ] && grep -q -- "-a" "$TMP/a.err"'
"$ZCS" -p 0 -b 0 >/dev/null 2>"$TMP/b.err"
rc=$?
expect "-b 0: exit 2 naming -b" '[ "$rc" -eq 2 ] && grep -q -- "-b" "$TMP/b.err"' 

"$ZCS" -p 0 >&- 2>"$TMP/c.err"
rc=$?
expect "stdout closed: exit 1 with one line, not a silent server" \
	'[ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/c.err")" -eq 1 ] &&
	grep -q "^zcs: write to stdout: " "$TMP/c.err"'

# Cannot listen: one line saying where and why, exit 1 (no packet is sent:
# 192.0.2.1 is a documentation address, only bind() is tried on it).
zcs_start || not_ok "zcs starts"
timeout 5 "$ZCS" -p "$ZCS_PORT" >/dev/null 2>"$TMP/l.err"
rc=$?
expect "a port already in use: exit 1, one line ($(cat "$TMP/l.err"))" \
	'[ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/l.err")" -eq 1 ] && grep -q "port $ZCS_PORT: bind: Address already in use" "$TMP/l.err"'
kill "$ZCS_PID"; wait "$ZCS_PID" 2>/dev/null
timeout 5 "$ZCS" -p 0 -a 192.0.2.1 >/dev/null 2>"$TMP/l.err"
rc=$?
expect "-a with an address not on this machine: exit 1, one line ($(cat "$TMP/l.err"))" \
	'[ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/l.err")" -eq 1 ] && grep -q "192.0.2.1.*bind" "$TMP/l.err"'
timeout 5 "$ZCS" -p 0 -a no-such-host.invalid >/dev/null 2>"$TMP/l.err"
rc=$?
expect "-a with a name that does not resolve: exit 1, one line ($(cat "$TMP/l.err"))" \
	'[ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/l.err")" -eq 1 ] && grep -q "resolve no-such-host.invalid" "$TMP/l.err"'

# The kernel caps SO_RCVBUF at net.core.rmem_max.
if [ "$(cat /proc/sys/net/core/rmem_max 2>/dev/null || echo 0)" -lt 1000000000 ]; then
	"$ZCS" -p 0 -i 1000000000 >/dev/null 2>"$TMP/i.err"
	rc=$?
	expect "-i beyond what the kernel gives: exit 1 with one line saying so" \
		'[ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/i.err")" -eq 1 ] &&
		grep -q "^zcs: .*SO_RCVBUF: asked for 1000000000, the kernel allowed" "$TMP/i.err"'
else
	skip "net.core.rmem_max is 1000000000 or more: -i cannot be refused here"
fi

if zcs_start -B 0 -i 65536 -o 65536; then
	cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/"$ZCS_PID"/status)
	check "-B 0: zcs runs on CPU 0 only (Cpus_allowed_list $cpus)" [ "$cpus" = 0 ]
	kill "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
else
	not_ok "zcs -B 0 -i 65536 -o 65536 starts"
fi

# --- one server for the stream checks -----------------------------------

if ! zcs_start -t 3600; then
	not_ok "zcs -p 0 prints 'listening on port N'"
	finish
fi
check "-p 0: 'listening on port N' with the kernel's port ($ZCS_PORT)" \
	[ "$ZCS_PORT" -gt 0 ]
fd_before=$(ls /proc/"$ZCS_PID"/fd | wc -l)

# 3 loops of 5 files of 1000 bytes: 4 + 3 * (4 + 5 * 4) + 3 * 5000 bytes.
send f3,5,1000
check "a whole stream: done: with every byte counted (15076)" \
	wait_for "$TMP/zcs.out" '^done: 15076 bytes in [0-9.]+ s, [0-9]+ kbytes/sec$'
check "the sender agrees on 15076 bytes" grep -q '^sent: 15076 bytes' "$TMP/send.out"

n=$(err_lines)
send w1 w1 x0000
wait_for "$TMP/zcs.err" 'truncated: ended inside the length word of file 1 of 1, loop 1 of 1 \(2 of 4 bytes\); 10 bytes received'
check "cut inside a header word: one line saying where, with the byte count" \
	[ "$(new_err_lines "$n")" -eq 1 ]
check "that line names the peer" grep -q '^zcs: 127\.0\.0\.1 port [0-9]*: truncated' "$TMP/zcs.err"

n=$(err_lines)
send w2 w1 w100 d50
wait_for "$TMP/zcs.err" 'truncated: ended in file 1 of 1, loop 1 of 2, 50 of 100 bytes; 62 bytes received'
check "cut inside a file: one line saying where, with the byte count" \
	[ "$(new_err_lines "$n")" -eq 1 ]

n=$(err_lines)
send f1,1,10 d5
wait_for "$TMP/zcs.err" 'excess data: [0-9]+ bytes beyond the end; 27 bytes received'
check "more data than announced: one excess line" [ "$(new_err_lines "$n")" -eq 1 ]

n=$(err_lines)
send w1 w1 w100 d10 R
wait_for "$TMP/zcs.err" 'receive failed after 22 bytes.*Connection reset by peer$'
check "a client that resets: one line with the reason" [ "$(new_err_lines "$n")" -eq 1 ]
send f1,2,300
check "after all that the server still serves (done: 616 bytes)" \
	wait_for "$TMP/zcs.out" '^done: 616 bytes in '

# Twenty at once, then reaping: no child is left, zombie or not.
"$SEND" -p "$ZCS_PORT" -c 20 f1,1,1000 >/dev/null 2>&1
check "20 concurrent whole streams: 20 done: lines" \
	within 50 count_is "$TMP/zcs.out" '^done: 1012 bytes' 20
check "no child left after every connection ended (no zombie)" \
	within 30 children_are "$ZCS_PID" 0
fd_after=$(ls /proc/"$ZCS_PID"/fd | wc -l)
check "no descriptor leaked in the parent ($fd_before before, $fd_after after)" \
	[ "$fd_before" -eq "$fd_after" ]
check "nothing on stdout but listening, done and rate lines" \
	[ -z "$(grep -Ev '^(listening on port|done:|[0-9]+ kbytes/sec$)' "$TMP/zcs.out")" ]

# Dual-stack by default: the same port answers on 127.0.0.1 and ::1.
if have_ipv6; then
	"$SEND" -a ::1 -p "$ZCS_PORT" f1,1,5 >/dev/null 2>&1
	check "default listening accepts ::1 too" wait_for "$TMP/zcs.out" '^done: 17 bytes'
	"$SEND" -a ::1 -p "$ZCS_PORT" w1 >/dev/null 2>&1
	check "an IPv6 peer is named as such" \
		wait_for "$TMP/zcs.err" '^zcs: ::1 port [0-9]+: truncated' 
else
	skip "::1 is not configured on lo: dual-stack not checked"
fi
kill "$ZCS_PID"
wait "$ZCS_PID" 2>/dev/null

# --- -1: the exit status tells whole from broken ------------------------

one() {	# one EXPECTED-STATUS WHAT SENDER-STEPS...
	_want=$1 _desc=$2
	shift 2
	zcs_start -1 || { not_ok "zcs -1 starts"; return; }
	send "$@"
	wait "$ZCS_PID"
	_rc=$?
	check "-1 with $_desc: exit $_want (got $_rc)" [ "$_rc" -eq "$_want" ]
}
one 0 "a whole stream" f2,2,100
check "-1 with a whole stream: the done: line" grep -q '^done: 428 bytes' "$TMP/zcs.out"
one 1 "a stream cut in a header word" w1 x00
one 1 "a stream cut in a file" w1 w1 w100 d99
one 1 "excess data" f1,1,10 x00
one 1 "nothing at all" s1
check "-1 with nothing: says it ended before the first header word" \
	grep -q 'truncated: ended before the first header word; 0 bytes received' "$TMP/zcs.err"

# --- time and the cap on connections: cases side by side ------------------
# Each case has a zcs of its own and spends its time waiting (a stall, a
# timeout, a trickle), so they run together (lib.sh together). Their
# bounds on time keep the harness's one rule (timed_check); the flood,
# which keeps a CPU busy, runs after them, not beside them.

# -t during a stall
case_stall() {
	zcs_start -t 1 -T 0
	timed_start
	"$SEND" -p "$ZCS_PORT" w1 w1 w100 d10 s3500 d90 >/dev/null 2>&1
	timed_end
	# 3.5 s of silence with -t 1 should give 3 lines; allow 2 to 5, and
	# a line less for each second tasks waited for a CPU.
	rates=$(grep -Ec '^[0-9]+ kbytes/sec$' "$TMP/zcs.out")
	timed_check "-t 1: rate lines keep coming while the stream stalls ($rates in 3.5 s)" \
		'[ "$rates" -ge $((2 - SLACK_MS / 1000)) ] && [ "$rates" -le 5 ]'
	check "-t 1: the stalled stream still ends with done:" \
		wait_for "$TMP/zcs.out" '^done: 112 bytes in 3\.[0-9]+ s'
	kill "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
}

# -T 1, silent and bursty
case_idle() {
	zcs_start -T 1
	timed_start
	send w1 w1 W
	timed_end
	ms=$(sed -n 's/^closed by peer after \([0-9]*\) ms/\1/p' "$TMP/send.out")
	# Closed after 1 to 1.25 s of silence, by the design; allow 0.9 to 3 s.
	timed_check "-T 1: a silent connection is closed after about a second (${ms:-?} ms)" \
		'[ -n "$ms" ] && [ "$ms" -ge 900 ] && [ "$ms" -le $((3000 + SLACK_MS)) ]'
	check "-T 1: with one line" [ "$(grep -c 'stalled: only 8 bytes moved in the last 1 s (under 1 KiB, -T), closed after 8 bytes' "$TMP/zcs.err")" -eq 1 ]
	n=$(err_lines)
	# 2000 bytes, then 0.6 s of silence, four times: never 1 s without 1 KiB.
	"$SEND" -p "$ZCS_PORT" w1 w1 w8000 d2000 s600 d2000 s600 d2000 s600 d2000 >/dev/null 2>&1
	check "-T 1: a bursty sender that moves 1 KiB in every second is not cut off" \
		wait_for "$TMP/zcs.out" '^done: 8012 bytes'
	kill "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
}

# -t and -T take fractions, as zcc's -I and -T do.
case_fractions() {
	zcs_start -t 0.25 -T 0.5
	timed_start
	send w1 w1 W
	timed_end
	# The sender's own count from its last write to the close, as for -T 1
	# above: the time to the close, not the sender's start-up as well.
	ms=$(sed -n 's/^closed by peer after \([0-9]*\) ms/\1/p' "$TMP/send.out")
	timed_check "-T 0.5: a silent connection is closed after about half a second (${ms:-?} ms)" \
		'[ -n "$ms" ] && [ "$ms" -ge 400 ] && [ "$ms" -le $((2500 + SLACK_MS)) ]'
	check "-T 0.5: the line says 0.5 s" grep -q 'in the last 0.5 s (under 1 KiB, -T)' "$TMP/zcs.err"
	timed_start
	"$SEND" -p "$ZCS_PORT" w1 w1 w100 d10 s1200 d90 >/dev/null 2>&1
	timed_end
	rates=$(grep -Ec '^[0-9]+ kbytes/sec$' "$TMP/zcs.out")
	timed_check "-t 0.25: about four rate lines a second ($rates in 1.2 s; 2 to 8)" \
		'[ "$rates" -ge $((2 - SLACK_MS / 250)) ] && [ "$rates" -le 8 ]'
	kill "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
}

# zcs stopped (SIGSTOP) for 3 s with -T 1 while a sender keeps sending:
# the time it did not run is not the sender's stall.
case_stopped() {
	zcs_start -T 1
	bg "$SEND" -p "$ZCS_PORT" w1 w1 w100000 d20000 s500 d20000 s500 d20000 s500 d20000 s500 d20000 >"$TMP/send.out" 2>&1
	spid=$!
	# Stopped once the first 20000 bytes are read: mid-stream.
	within 100 tcp_read "$ZCS_PORT" 20012
	kill -STOP "$ZCS_PID"
	for k in $(proc_children "$ZCS_PID" | awk '{ print $1 }'); do kill -STOP "$k"; done
	# The stop's length is what is under test (3 x -T): a stopped process
	# shows nothing to wait for.
	sleep 3
	for k in $(proc_children "$ZCS_PID" | awk '{ print $1 }'); do kill -CONT "$k"; done
	kill -CONT "$ZCS_PID"
	wait "$spid"
	check "-T 1, zcs stopped for 3 s: the stream ends whole (no stall): $(cat "$TMP/zcs.err")" \
		wait_for "$TMP/zcs.out" '^done: 100012 bytes'
	kill "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
}

# A trickle, a byte a second, is not idle but is still closed: -T asks for
# 1 KiB in every SECS. Within 2 x -T (6 s); the trickle alone lasts 12 s.
case_trickle() {
	zcs_start -T 3
	timed_start
	send w1 w1 w100 p1000 d12
	timed_end
	timed_check "-T 3: a byte-a-second trickle is closed within 2 x -T" \
		'[ "$TIMED_MS" -ge 2500 ] && [ "$TIMED_MS" -le $((7000 + SLACK_MS)) ] &&
		grep -q "cut off by the server" "$TMP/send.out"'
	check "-T 3: with one line saying how little came" \
		grep -Eq '^zcs: 127\.0\.0\.1 port [0-9]+: stalled: only [0-9]+ bytes moved in the last 3 s \(under 1 KiB, -T\), closed after [0-9]+ bytes$' "$TMP/zcs.err"
	kill "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
}

# -m 2. The two held connections last 5 s, far longer than a fork can lag
# its sender on a busy machine: the third must come while both are held.
case_cap() {
	zcs_start -m 2
	bg "$SEND" -p "$ZCS_PORT" w1 w1 w10 s5000 d10 >/dev/null 2>&1
	bg "$SEND" -p "$ZCS_PORT" w1 w1 w10 s5000 d10 >/dev/null 2>&1
	if within 30 children_are "$ZCS_PID" 2; then
		n=$(err_lines)
		timed_start
		send W
		timed_end
		ms=$(sed -n 's/^closed by peer after \([0-9]*\) ms/\1/p' "$TMP/send.out")
		timed_check "-m 2: a third connection is closed at once (${ms:-?} ms)" \
			'[ -n "$ms" ] && [ "$ms" -lt $((1000 + SLACK_MS)) ]'
		expect "-m 2: with one line" '[ "$(new_err_lines "$n")" -eq 1 ] &&
			grep -q "refused: already serving 2 connections (-m 2)" "$TMP/zcs.err"' 
		check "-m 2: the first two still finish" \
			within 100 count_is "$TMP/zcs.out" '^done: 22 bytes' 2
		within 30 children_are "$ZCS_PID" 0
		send f1,1,1
		check "-m 2: once they are done a new one is served" \
			wait_for "$TMP/zcs.out" '^done: 13 bytes'
	else
		not_ok "-m 2: two connections get a child each"
	fi
	kill "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
}

# A flood over -m: at most about one "refused" line a second, each
# counting the refusals it did not show, so that the counts add up. Four
# bursts of 50, each sent once a line says the one before was seen (the
# first at once, the others a second apart, when the line the limiter
# held back comes out), so that the flood spans several seconds.
refused_lines() {
	grep -c 'refused: already serving 1 connections (-m 1)' "$TMP/zcs.err"
}
refused_more() {
	lines=$(refused_lines)
	shown_more=$(sed -n 's/.*; \([0-9]*\) more refused since the last such line$/\1/p' "$TMP/zcs.err" |
		awk '{ s += $1 } END { print s + 0 }')
	[ "$lines" -gt "$1" ]
}
case_flood() {
	zcs_start -m 1
	bg "$SEND" -p "$ZCS_PORT" w1 w1 w10 s10000 d10 >/dev/null 2>&1
	if within 30 children_are "$ZCS_PID" 1; then
		t0=$(date +%s)
		for i in 1 2 3 4; do
			n=$(refused_lines)
			"$SEND" -p "$ZCS_PORT" -c 50 R >/dev/null 2>&1
			within 50 refused_more "$n"
		done
		secs=$(( $(date +%s) - t0 + 1 ))
		within 50 eval 'refused_more 0 && [ $((lines + shown_more)) -ge 200 ]'
		expect "-m 1: a flood of 200 in about $secs s leaves $lines lines (at most $((secs + 1)))" \
			'[ "$lines" -ge 2 ] && [ "$lines" -le $((secs + 1)) ]'
		expect "-m 1: the lines count every refusal ($lines shown + $shown_more counted = 200)" \
			'[ $((lines + shown_more)) -eq 200 ]'
	else
		not_ok "-m 1: the first connection gets a child"
	fi
	kill "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
}

together stall case_stall
together idle case_idle
together trickle case_trickle
together cap case_cap
together fractions case_fractions
together stopped case_stopped
gather
case_flood

# --- -d: what each connection announced ---------------------------------

zcs_start -ddd
send f2,3,7
check "-ddd: the stream is still received whole" wait_for "$TMP/zcs.out" '^done: 78 bytes'
expect "-ddd: the peer, the loop count, each loop's file count and each length" \
	'grep -q "^zcs: 127.0.0.1 port [0-9]*: connected$" "$TMP/zcs.err" &&
	grep -q ": 2 loops$" "$TMP/zcs.err" &&
	[ "$(grep -c ": loop [12] of 2: 3 files$" "$TMP/zcs.err")" -eq 2 ] &&
	[ "$(grep -c ": loop [12], file [123] of 3: 7 bytes$" "$TMP/zcs.err")" -eq 6 ]'
kill "$ZCS_PID"
wait "$ZCS_PID" 2>/dev/null

# -d at speed: a few lines a connection, however many loops; -dd a line a loop.
zcs_start -d
send f3000,1,10
check "-d: 3000 loops received whole" wait_for "$TMP/zcs.out" '^done: '
within 50 has_line "$TMP/zcs.err" ': closed$'
expect "-d: 3000 loops, a bounded few lines ($(grep -c '' "$TMP/zcs.err"))" \
	'[ "$(grep -c "" "$TMP/zcs.err")" -le 6 ] && grep -q ": 3000 loops$" "$TMP/zcs.err"'
kill "$ZCS_PID"
wait "$ZCS_PID" 2>/dev/null
zcs_start -dd
send f3,1,10
check "-dd: received whole" wait_for "$TMP/zcs.out" '^done: '
expect "-dd: a line per loop, none per file" \
	'[ "$(grep -c ": loop [123] of 3: 1 files$" "$TMP/zcs.err")" -eq 3 ] &&
	! grep -q ", file " "$TMP/zcs.err"'
kill "$ZCS_PID"
wait "$ZCS_PID" 2>/dev/null

# --- -a: one address only -----------------------------------------------

zcs_start -a 127.0.0.1
send f1,0,0
check "-a 127.0.0.1 accepts 127.0.0.1" wait_for "$TMP/zcs.out" '^done: 8 bytes'
if have_ipv6; then
	"$SEND" -a ::1 -p "$ZCS_PORT" f1,0,0 >/dev/null 2>&1
	rc=$?
	check "-a 127.0.0.1 does not accept ::1" [ "$rc" -ne 0 ]
else
	skip "::1 is not configured on lo"
fi
kill "$ZCS_PID"
wait "$ZCS_PID" 2>/dev/null

if have_ipv6; then
	zcs_start -a ::1
	"$SEND" -a ::1 -p "$ZCS_PORT" f1,0,0 >/dev/null 2>&1
	check "-a ::1 accepts ::1" wait_for "$TMP/zcs.out" '^done: 8 bytes'
	send f1,0,0
	rc=$?
	check "-a ::1 does not accept 127.0.0.1" [ "$rc" -ne 0 ]
	kill "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
else
	skip "::1 is not configured on lo: -a ::1 not checked"
fi

# --- a kernel without IPv6 -------------------------------------------------

# tests/tools/shim_noipv6.so makes socket(AF_INET6) fail with EAFNOSUPPORT, as
# on a kernel without IPv6: plain zcs must listen on IPv4 instead.
SHIM=$ZC_TESTBIN/shim_noipv6.so
if [ -f "$SHIM" ]; then
	: >"$TMP/zcs.out"
	bg env LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$ZCS" -p 0 -1 >"$TMP/zcs.out" 2>"$TMP/zcs.err"
	ZCS_PID=$!
	if wait_for "$TMP/zcs.out" '^listening on port [0-9]+'; then
		ok "no IPv6 in the kernel: zcs still listens"
		ZCS_PORT=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/zcs.out")
		head -c 100000 /dev/urandom >"$TMP/f6"
		"$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -n 2 "$TMP/f6" >"$TMP/zcc6.out" 2>&1
		wait "$ZCS_PID"
		rc=$?
		expect "no IPv6: a zcc over 127.0.0.1 is served whole (200020 bytes, exit $rc)" \
			'[ "$rc" -eq 0 ] && grep -q "^done: 200020 bytes" "$TMP/zcs.out" &&
			grep -q "^sent: 200020 bytes" "$TMP/zcc6.out"'
	else
		not_ok "no IPv6 in the kernel: zcs listens ($(cat "$TMP/zcs.err"))"
	fi
else
	skip "no $SHIM: the kernel without IPv6 is not played"
fi

# --- a kernel that refuses zero-copy receive ------------------------------

# tests/tools/shim_nozcrx.so fails getsockopt(TCP_ZEROCOPY_RECEIVE) as a kernel
# before 4.18 does: one line naming the method and why, exit 1, and no
# other method in its place.
SHIM=$ZC_TESTBIN/shim_nozcrx.so
if [ -f "$SHIM" ]; then
	for one in -1 ""; do
		: >"$TMP/zcs.out"
		bg env LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
			"$ZCS" -p 0 $one -M zerocopy >"$TMP/zcs.out" 2>"$TMP/zcs.err"
		ZCS_PID=$!
		if wait_for "$TMP/zcs.out" '^listening on port [0-9]+'; then
			ZCS_PORT=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/zcs.out")
			send f1,1,100000
			# ended: gone or a zombie; within 5 s, else it is killed.
			within 50 sh -c "! grep -q '^[0-9]* ([^)]*) [^Z]' /proc/$ZCS_PID/stat 2>/dev/null" ||
				kill "$ZCS_PID"
			wait "$ZCS_PID"
			rc=$?
			expect "zero-copy receive refused (zcs ${one:-without -1}): exit 1 ($rc), one line ($(cat "$TMP/zcs.err"))" \
				'[ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/zcs.err")" -eq 1 ] &&
				grep -q "zerocopy: TCP_ZEROCOPY_RECEIVE: Protocol not available" "$TMP/zcs.err" &&
				! grep -q "^done" "$TMP/zcs.out"'
		else
			not_ok "zcs -M zerocopy starts under the shim"
		fi
	done
else
	skip "no $SHIM: a kernel without zero-copy receive is not played"
fi

# --- receive methods against every zcc method ----------------------------

# Each zcs -M with -1 against each zcc -M: both ends count the same bytes
# and zcs -1 exits 0. 3 loops of 1 MiB + 1 byte and an empty file.
head -c 1048577 /dev/urandom >"$TMP/big"
: >"$TMP/empty"
want=$(( 4 + 3 * (4 + 2 * 4) + 3 * 1048577 ))
zcc_methods=$("$ZC_BIN/zcc" -M '?' -s 0 x 2>&1 | sed -n 's/.*unknown method (\(.*\))$/\1/p' | tr -d ,)
[ -n "$zcc_methods" ] || zcc_methods="sendfile send"
for m in read discard splice zerocopy; do
	for t in $zcc_methods; do
		# zcc asks the kernel before it connects: a refused method never
		# reaches the zcs -1 that would wait for it.
		if method_refused "$t"; then
			skip "zcs -M $m, zcc -M $t: the kernel refuses it here: $REFUSED"
			continue
		fi
		zcs_start -1 -d -M "$m" || { not_ok "zcs -M $m starts"; continue; }
		timeout 30 "$ZC_BIN/zcc" -M "$t" -s 127.0.0.1 -p "$ZCS_PORT" -n 3 \
			"$TMP/big" "$TMP/empty" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
		zrc=$?
		wait "$ZCS_PID"
		rc=$?
		expect "zcs -M $m, zcc -M $t: $want bytes on both ends, zcs -1 exit 0 ($rc)" \
			'[ "$rc" -eq 0 ] && [ "$zrc" -eq 0 ] &&
			grep -q "^done: $want bytes" "$TMP/zcs.out" &&
			grep -q "^sent: $want bytes" "$TMP/zcc.out"'
		if [ "$m" = zerocopy ]; then
			zc=$(sed -n 's/.*: zero-copy: \([0-9]*\) bytes mapped, \([0-9]*\) copied$/\1 \2/p' "$TMP/zcs.err")
			expect "zcs -M zerocopy, zcc -M $t: -d counts every data byte mapped or copied ($zc)" \
				'[ -n "$zc" ] && [ $(echo "$zc" | awk "{ print \$1 + \$2 }") -eq $((3 * 1048577)) ]'
		fi
	done
done

# -M discard with a broken stream: still checked, header words read.
zcs_start -1 -M discard
send w1 w1 w100 d99
wait "$ZCS_PID"
rc=$?
expect "-M discard: a stream cut in a file is caught (exit $rc)" \
	'[ "$rc" -eq 1 ] && grep -q "truncated: ended in file 1 of 1, loop 1 of 1, 99 of 100 bytes; 111 bytes received" "$TMP/zcs.err"'
zcs_start -1 -M splice
send f1,1,5000 d10
wait "$ZCS_PID"
rc=$?
expect "-M splice: excess data is caught (exit $rc)" \
	'[ "$rc" -eq 1 ] && grep -q "excess data: 10 bytes beyond the end; 5022 bytes received" "$TMP/zcs.err"'

# --- -d rate lines, -J ----------------------------------------------------

zcs_start -d -t 1
send w1 w1 w100 d10 s1600 d90
check "-d: rate lines name the peer" \
	wait_for "$TMP/zcs.out" '^127\.0\.0\.1 port [0-9]+: [0-9]+ kbytes/sec$'
kill "$ZCS_PID"
wait "$ZCS_PID" 2>/dev/null

zcs_start_json() {
	: >"$TMP/zcs.out"
	bg env --default-signal=INT "$ZC_BIN/zcs" -J -p 0 "$@" >"$TMP/zcs.out" 2>"$TMP/zcs.err"
	ZCS_PID=$!
	wait_for "$TMP/zcs.out" '"event":"listening"' || return 1
	ZCS_PORT=$("$JC" -E listening -g port "$TMP/zcs.out")
}
if [ -x "$JC" ] && zcs_start_json -t 1 -M zerocopy; then
	send f2,2,3000
	bg "$SEND" -p "$ZCS_PORT" w1 w1 w100 d10 s1600 >/dev/null 2>&1
	wait_for "$TMP/zcs.out" '"event":"rate"' 30
	kill -INT "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
	check "-J: every line is one valid JSON object with program, event, time" \
		"$JC" -k program -k event -k time "$TMP/zcs.out"
	check "-J: listening has the port" "$JC" -E listening -k port "$TMP/zcs.out"
	check "-J: rate lines have peer, seconds, bytes, kbytes_per_sec" \
		"$JC" -E rate -k peer -k seconds -k bytes -k kbytes_per_sec "$TMP/zcs.out"
	check "-J: done lines have peer, bytes, seconds, kbytes_per_sec, interrupted, method" \
		"$JC" -E done -k peer -k bytes -k seconds -k kbytes_per_sec -k interrupted -k method "$TMP/zcs.out"
	expect "-J: the whole stream's done: 12028 bytes, not interrupted, zc counts" \
		'grep "\"bytes\":12028," "$TMP/zcs.out" | "$JC" -E done -k zc_mapped -k zc_copied -g interrupted | grep -qx false'
	expect "-J: the interrupted one: 22 bytes, interrupted true" \
		'grep "\"bytes\":22," "$TMP/zcs.out" | "$JC" -E done -g interrupted | grep -qx true'
	check "-J: no text line on stdout" [ -z "$(grep -v '^{' "$TMP/zcs.out")" ]
else
	not_ok "zcs -J starts (jsoncheck built: $JC)"
fi

# -J: a broken stream is an event too (why, bytes, where), beside the line
# on stderr; a reset says so with every method, zerocopy included (it
# called a reset 'truncated': recv() gives 0 and SO_ERROR nothing there).
for m in read discard splice zerocopy; do
	if [ -x "$JC" ] && zcs_start_json -M "$m"; then
		send w1 w1 w100 d50
		"$SEND" -p "$ZCS_PORT" f1,1,10 d5 >/dev/null 2>&1
		"$SEND" -p "$ZCS_PORT" w1 w1 w100000 d50000 R >/dev/null 2>&1
		# Each connection is a process of zcs's own that writes its event
		# when it sees the end: wait for all three, not for the last sent
		# (once, the reset's came first, and the kill cut the other two).
		for why in truncated excess error; do
			wait_for "$TMP/zcs.out" "\"why\":\"$why\"" 30
		done
		kill "$ZCS_PID"
		wait "$ZCS_PID" 2>/dev/null
		check "-J -M $m: a truncated stream is a broken event, why truncated, 62 bytes" \
			eval '"$JC" -E broken -g why "$TMP/zcs.out" | grep -qx truncated &&
			grep "\"why\":\"truncated\"" "$TMP/zcs.out" | "$JC" -E broken -g bytes | grep -qx 62'
		check "-J -M $m: an excess one, why excess" \
			eval '"$JC" -E broken -g why "$TMP/zcs.out" | grep -qx excess'
		check "-J -M $m: a reset one, why error, 'Connection reset by peer', 50012 bytes: $(grep broken "$TMP/zcs.out" | tail -n 1)" \
			eval 'grep "\"why\":\"error\"" "$TMP/zcs.out" | "$JC" -E broken -g error | grep -q "Connection reset by peer" &&
			grep "\"why\":\"error\"" "$TMP/zcs.out" | "$JC" -E broken -g bytes | grep -qx 50012'
		check "-J -M $m: the stderr lines stay: $(wc -l <"$TMP/zcs.err")" [ "$(wc -l <"$TMP/zcs.err")" -ge 3 ]
	else
		not_ok "zcs -J -M $m starts"
	fi
done

# --- stdout lost while serving --------------------------------------------

# The reader of zcs's stdout goes away after the listening line: the
# connection's child cannot write its done line, says so, and zcs gives up
# with exit 1 rather than serve on to nobody.
mkfifo "$TMP/fifo"
( "$ZCS" -p 0 -t 3600 >"$TMP/fifo" 2>"$TMP/zcs.err"; echo "$?" >"$TMP/zcs.rc" ) &
BG_PIDS="$BG_PIDS $!"
head -n 1 <"$TMP/fifo" >"$TMP/zcs.out"
ZCS_PORT=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/zcs.out")
if [ -n "$ZCS_PORT" ]; then
	send f1,1,10
	wait_for "$TMP/zcs.rc" . 50
	expect "stdout closed under a child: zcs exits 1 ($(cat "$TMP/zcs.rc" 2>/dev/null)) with one line ($(cat "$TMP/zcs.err"))" \
		'[ "$(cat "$TMP/zcs.rc" 2>/dev/null)" = 1 ] && [ "$(wc -l <"$TMP/zcs.err")" -eq 1 ] &&
		grep -q "^zcs: write to stdout: Broken pipe" "$TMP/zcs.err"'
else
	not_ok "zcs behind a FIFO says where it listens"
fi

# --- stopping the server with a connection alive -------------------------

# zcs_start_sig [ZCS OPTIONS...]: zcs_start, with SIGINT as a terminal would
# give it: a shell starts background jobs with SIGINT ignored, and zcs keeps
# a signal that was ignored at its start ignored.
zcs_start_sig() {
	: >"$TMP/zcs.out"
	bg env --default-signal=INT "$ZC_BIN/zcs" -p 0 "$@" >"$TMP/zcs.out" 2>"$TMP/zcs.err"
	ZCS_PID=$!
	wait_for "$TMP/zcs.out" '^listening on port [0-9]+' || return 1
	ZCS_PORT=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/zcs.out")
}

for sig_status in TERM:143 INT:130 HUP:129; do
	sig=${sig_status%:*} want=${sig_status#*:}
	zcs_start_sig
	bg "$SEND" -p "$ZCS_PORT" w1 w1 w10 s5000 >/dev/null 2>&1
	send_pid=$!
	bg "$SEND" -p "$ZCS_PORT" w1 w1 w1000 d100 s5000 >/dev/null 2>&1
	send2_pid=$!
	if within 30 children_are "$ZCS_PID" 2; then
		kids=$(proc_children "$ZCS_PID" | awk '{ print $1 }')
		# Both streams read so far (12 and 112 bytes), then the signal.
		within 50 tcp_read "$ZCS_PORT" 124
		kill -"$sig" "$ZCS_PID"
		wait "$ZCS_PID" 2>/dev/null
		rc=$?
		check "SIG$sig: zcs dies of it (status $rc, want $want)" [ "$rc" -eq "$want" ]
		gone=1
		for k in $kids; do kill -0 "$k" 2>/dev/null && gone=0; done
		check "SIG$sig: the children serving the connections are gone too" [ "$gone" -eq 1 ]
		expect "SIG$sig: a done line per open connection, marked (interrupted)" \
			'grep -Eq "^done: 12 bytes in [0-9.]+ s, [0-9]+ kbytes/sec \(interrupted\)$" "$TMP/zcs.out" &&
			grep -Eq "^done: 112 bytes in [0-9.]+ s, [0-9]+ kbytes/sec \(interrupted\)$" "$TMP/zcs.out"'
	else
		not_ok "two live connections get a child each"
	fi
	kill "$send_pid" "$send2_pid" 2>/dev/null
	wait "$send_pid" "$send2_pid" 2>/dev/null
done

zcs_start_sig -1
bg "$SEND" -p "$ZCS_PORT" w1 w1 w10 s5000 >/dev/null 2>&1
send_pid=$!
within 50 tcp_read "$ZCS_PORT" 12
kill -TERM "$ZCS_PID"
wait "$ZCS_PID" 2>/dev/null
rc=$?
expect "-1, SIGTERM mid-stream: the done line marked (interrupted), status 143 ($rc)" \
	'[ "$rc" -eq 143 ] && grep -Eq "^done: 12 bytes in .* \(interrupted\)$" "$TMP/zcs.out"'
kill "$send_pid" 2>/dev/null
wait "$send_pid" 2>/dev/null

# nohup: a SIGHUP ignored when zcs starts stays ignored, in the children too.
: >"$TMP/zcs.out"
bg sh -c 'trap "" HUP; exec "$0" -p 0' "$ZCS" >"$TMP/zcs.out" 2>"$TMP/zcs.err"
ZCS_PID=$!
if wait_for "$TMP/zcs.out" '^listening on port [0-9]+'; then
	ZCS_PORT=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/zcs.out")
	bg "$SEND" -p "$ZCS_PORT" w1 w1 w10 s1500 d10 >/dev/null 2>&1
	within 30 children_are "$ZCS_PID" 1
	kill -HUP "$ZCS_PID" $(proc_children "$ZCS_PID" | awk '{ print $1 }')
	# The done line comes 1.5 s later: zcs, had the signal killed it,
	# would be gone by then.
	check "SIGHUP ignored at start: the connection's child survives it too" \
		wait_for "$TMP/zcs.out" '^done: 22 bytes in [0-9.]+ s, [0-9]+ kbytes/sec$' 40
	check "SIGHUP ignored at start (nohup): zcs survives SIGHUP" kill -0 "$ZCS_PID"
	kill "$ZCS_PID"
	wait "$ZCS_PID" 2>/dev/null
else
	not_ok "zcs starts with SIGHUP ignored"
fi

# SIGKILL leaves no time to clean up: the children must die on their own.
# Run under a subreaper so that the orphans come back to us, not to a PID 1
# that may not reap them; subreaper -s exits 125 if anything was left running.
# The client stays connected throughout, so only zcs's death can end the
# child: it must be gone or a zombie soon after the SIGKILL (5 s at most:
# the kernel's parent-death signal does not wait for anything).
cat >"$TMP/kill9.sh" <<'END'
zcs_bin=$1 send_bin=$2 dir=$3
. "$ZC_TOP/tests/lib.sh"
"$zcs_bin" -p 0 >"$dir/k.out" 2>&1 &
zcs=$!
wait_for "$dir/k.out" "^listening" || exit 3
port=$(sed -n "s/^listening on port //p" "$dir/k.out")
"$send_bin" -p "$port" w1 w1 w10 s4000 >/dev/null 2>&1 &
sender=$!
within 50 tcp_read "$port" 12
kids=$(proc_children "$zcs" | awk '{ print $1 }')
kill -KILL $zcs
wait $zcs
# kids_gone: none of the children still runs ($alive: how many do).
kids_gone() {
	alive=0
	for k in $kids; do
		proc_alive "$k" && alive=$((alive + 1))
	done
	[ "$alive" -eq 0 ]
}
within 50 kids_gone
echo "kids=$(echo $kids | wc -w) alive=$alive" >"$dir/k.res"
kill $sender
wait $sender
exit 0
END
if [ -x "$ZC_TESTBIN/subreaper" ]; then
	"$ZC_TESTBIN/subreaper" -s -t 2000 -o "$TMP/reap" sh "$TMP/kill9.sh" "$ZCS" "$SEND" "$TMP" 2>"$TMP/kill9.err"
	rc=$?
	res=$(cat "$TMP/k.res" 2>/dev/null)
	check "SIGKILL: the child dies with zcs ($res)" [ "$res" = "kids=1 alive=0" ]
	check "SIGKILL: nothing outlives zcs (subreaper status $rc: $(grep '^left' "$TMP/reap" | tr '\n' ' '))" [ "$rc" -eq 0 ]
else
	skip "no subreaper helper built: SIGKILL case not checked"
fi

finish
