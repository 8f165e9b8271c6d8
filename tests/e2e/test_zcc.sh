#!/bin/sh
# needs: meter
# zcc on its own: options, bad input, file handling and runtime errors.
# The receiver is tests/tools/sink (one connection; can stall or vanish),
# so these checks do not depend on zcs. End-to-end transfers:
# test_transfer.sh.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

ZCC=$ZC_BIN/zcc
SINK=$ZC_TESTBIN/sink

# sink_start [SINK OPTIONS...]: a sink on a kernel-chosen port, output in
# $TMP/sink.out; sets SINK_PID and SINK_PORT.
sink_start() {
	: >"$TMP/sink.out"
	bg "$SINK" "$@" >"$TMP/sink.out" 2>"$TMP/sink.err"
	SINK_PID=$!
	wait_for "$TMP/sink.out" '^listening on port [0-9]+' || return 1
	SINK_PORT=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/sink.out")
}

# run_zcc ARGS...: zcc with stdout/stderr in $TMP/out, $TMP/err; $RC.
run_zcc() {
	captured 20 "$ZCC" "$@"
}

lines() { wc -l <"$1" | tr -d ' '; }

# usage_fails WHAT ARGS...: zcc ARGS is a usage error (lib.sh).
usage_fails() {
	_w=$1
	shift
	usage_refused "$_w" "$ZCC" "$@"
}

head -c 100000 /dev/urandom >"$TMP/a"
printf 'odd' >"$TMP/b"
A_B=100003
# stream bytes of one loop of a and b, for N loops
stream() { echo $((4 + $1 * (4 + 4 * 2) + $1 * A_B)); }

J=$ZC_TESTBIN/jsoncheck

# --- -c ----------------------------------------------------------------------
# First: the run's meter slot is then taken early, before the tests that
# hold it long have started (this test's "needs: meter", tests/run.sh).
# With -J -c: the sent object says "interrupted": true, and the cpu object
# of the part that ran follows it.
sink_start -g "$TMP/never"
: >"$TMP/sr"
meter_slot
bg "$ZC_TESTBIN/subreaper" -s -o "$TMP/sr" "$ZCC" -J -c -r -d -n 1000 -s 127.0.0.1 \
	-p "$SINK_PORT" "$TMP/a" >"$TMP/out" 2>"$TMP/err"
srpid=$!
wait_for "$TMP/sink.out" '^accepted'
wait_for "$TMP/sr" '^child '
# Mid-run: what zcc sent waits unread at the sink.
within 50 tcp_queued "$SINK_PORT"
kill -INT "$(sed -n 's/^child //p' "$TMP/sr")"
wait "$srpid"
RC=$?
meter_slot_free
kill "$SINK_PID" 2>/dev/null; wait "$SINK_PID" 2>/dev/null
if [ "$RC" -eq 130 ] && "$J" -k program -k event -k time "$TMP/out" \
   && [ "$("$J" -E sent -g interrupted "$TMP/out")" = true ] \
   && [ "$("$J" -E cpu -g meter "$TMP/out")" = "run time" ]; then
	ok "SIGINT mid-run with -J -c: exit 130, sent with interrupted true, then cpu"
elif grep -q 'another meter is running' "$TMP/err"; then
	skip "SIGINT mid-run with -J -c: another meter runs on this machine: $(cat "$TMP/err")"
else
	not_ok "SIGINT mid-run with -J -c: exit $RC, $(cat "$TMP/out" "$TMP/err")"
fi

# --- help and usage errors ---------------------------------------------------
run_zcc -h
if [ "$RC" -eq 0 ] && grep -q '^usage: zcc' "$TMP/out" && [ ! -s "$TMP/err" ]; then
	ok "-h: usage on stdout, exit 0"
else
	not_ok "-h: exit $RC"
fi
usage_fails "missing -s" "$TMP/a"
grep -q -- '-s' "$TMP/err" || not_ok "missing -s: the message names -s"
usage_fails "-w without -S" -s 127.0.0.1 -w "$TMP/a"
usage_fails "-s with an empty host" -s '' "$TMP/a"
usage_fails "no file named" -s 127.0.0.1
usage_fails "-n abc" -s 127.0.0.1 -n abc "$TMP/a"
grep -q -- "-n: 'abc'" "$TMP/err" || not_ok "-n abc: the message names option and value"
usage_fails "-n 0" -s 127.0.0.1 -n 0 "$TMP/a"
usage_fails "-p 65536" -s 127.0.0.1 -p 65536 "$TMP/a"
usage_fails "-b 0" -s 127.0.0.1 -S -b 0 "$TMP/a"
usage_fails "-B 100000" -s 127.0.0.1 -B 100000 "$TMP/a"
usage_fails "-o -5" -s 127.0.0.1 -o -5 "$TMP/a"
usage_fails "-N 0" -s 127.0.0.1 -N 0 "$TMP/a"
usage_fails "unknown option -x" -s 127.0.0.1 -x "$TMP/a"
# Options that mean nothing together are refused at the door.
usage_fails "-b with sendfile" -s 127.0.0.1 -b 4096 "$TMP/a"
usage_fails "-b with -M sendfile" -s 127.0.0.1 -M sendfile -b 4096 "$TMP/a"
usage_fails "-n with -t" -s 127.0.0.1 -n 2 -t 1 "$TMP/a"
usage_fails "-S with -M mmap" -s 127.0.0.1 -S -M mmap "$TMP/a"
usage_fails "-S -w with -M send" -s 127.0.0.1 -S -w -M send "$TMP/a"
usage_fails "-w with -M write but no -S" -s 127.0.0.1 -w -M write "$TMP/a"
usage_fails "-M nonesuch" -s 127.0.0.1 -M nonesuch "$TMP/a"
grep -q "sendfile, send, write, mmap, splice" "$TMP/err" ||
	not_ok "-M nonesuch: the message lists the methods: $(cat "$TMP/err")"
usage_fails "-t abc" -s 127.0.0.1 -t abc "$TMP/a"
usage_fails "-I 0" -s 127.0.0.1 -I 0 "$TMP/a"
usage_fails "-T -1" -s 127.0.0.1 -T -1 "$TMP/a"
usage_fails "-R 0" -s 127.0.0.1 -R 0 "$TMP/a"
# -C only calibrates; -f and -N only serve the meter.
usage_fails "-C with -n" -C -n 3
usage_fails "-C with -M" -C -M send
usage_fails "-C with -R" -C -R 2
usage_fails "-C with -t" -C -t 1
usage_fails "-C with -s" -C -s 127.0.0.1
usage_fails "-C with a file" -C "$TMP/a"
usage_fails "-f without -c" -s 127.0.0.1 -f "$TMP/cal" "$TMP/a"
usage_fails "-N without -c" -s 127.0.0.1 -N 1 "$TMP/a"
usage_fails "-s ''" -s '' "$TMP/a"
# -i and -o take 1G, as -h says the G suffix does (the kernel may then
# allow less: a runtime error, not a usage one).
for o in -i -o; do
	run_zcc -s 127.0.0.1 -p 1 $o 1G "$TMP/a"
	check "$o 1G: not a usage error (exit $RC: $(cat "$TMP/err"))" [ "$RC" -ne 2 ]
done
# The kernel keeps double what it allows: asking for more than wmem_max
# must be refused, although the doubled figure read back is larger.
wmax=$(cat /proc/sys/net/core/wmem_max 2>/dev/null)
if [ -n "$wmax" ] && [ "$wmax" -lt $((1 << 29)) ]; then
	run_zcc -s 127.0.0.1 -p 1 -o $((wmax + wmax / 2)) "$TMP/a"
	check "-o 1.5 x wmem_max ($wmax): exit 1, the kernel allowed less: $(cat "$TMP/err")" \
		eval '[ "$RC" -eq 1 ] && grep -q "SO_SNDBUF: asked for $((wmax + wmax / 2)), the kernel allowed $wmax" "$TMP/err"'
else
	skip "-o over wmem_max: net.core.wmem_max unreadable or huge (${wmax:-none})"
fi
run_zcc -h
for m in sendfile send write mmap splice; do
	grep -q "^ *$m " "$TMP/out" || not_ok "-h lists the method $m"
done
grep -q '^Exit status: ' "$TMP/out" && grep -q '130' "$TMP/out" ||
	not_ok "-h: the exit statuses, 130 among them"

# --- runtime failures ----------------------------------------------------------
# runtime_fails WHAT PATTERN ARGS...: exit 1, one line matching PATTERN.
runtime_fails() {
	_what=$1 _pat=$2; shift 2
	run_zcc "$@"
	if [ "$RC" -eq 1 ] && [ "$(lines "$TMP/err")" -eq 1 ] && grep -Eq "$_pat" "$TMP/err" \
	   && [ ! -s "$TMP/out" ]; then
		ok "$_what: exit 1, $(cat "$TMP/err")"
	else
		not_ok "$_what: exit $RC, stderr: $(cat "$TMP/err")"
	fi
}

runtime_fails "unknown host" '^zcc: resolve no-such-host\.invalid: ' \
	-s no-such-host.invalid "$TMP/a"

# A port that was just listened on and closed: nothing answers there.
sink_start
kill "$SINK_PID"; wait "$SINK_PID" 2>/dev/null
runtime_fails "connection refused" '^zcc: connect to 127\.0\.0\.1 port [0-9]+: Connection refused$' \
	-s 127.0.0.1 -p "$SINK_PORT" "$TMP/a"

# --- files -------------------------------------------------------------------
mkdir "$TMP/dir"
mkfifo "$TMP/fifo"
sink_start
run_zcc -s 127.0.0.1 -p "$SINK_PORT" "$TMP/missing" "$TMP/a" "$TMP/dir" "$TMP/fifo" \
	/dev/null "$TMP/b"
wait "$SINK_PID"
if [ "$RC" -eq 0 ] && [ "$(grep -c '^zcc: skipping ' "$TMP/err")" -eq 4 ] \
   && grep -q "skipping $TMP/missing: No such file" "$TMP/err" \
   && grep -q "skipping $TMP/fifo: not a regular file" "$TMP/err" \
   && grep -q "^received: $(stream 1) bytes" "$TMP/sink.out"; then
	ok "missing file, directory, FIFO, /dev/null skipped with a warning each; the rest sent"
else
	not_ok "skipping: exit $RC, stderr: $(cat "$TMP/err"), sink: $(cat "$TMP/sink.out")"
fi

sink_start
run_zcc -s 127.0.0.1 -p "$SINK_PORT" "$TMP/missing" "$TMP/dir"
if [ "$RC" -eq 1 ] && [ "$(tail -n 1 "$TMP/err")" = "zcc: no files to send" ] \
   && [ "$(lines "$TMP/err")" -eq 3 ] && [ ! -s "$TMP/out" ]; then
	ok "no file left to send: two warnings, then 'zcc: no files to send', exit 1"
else
	not_ok "no file left to send: exit $RC, stderr: $(cat "$TMP/err")"
fi

# 4 GiB cannot be described by a u32 length: refused before connecting.
truncate -s 4G "$TMP/huge"
runtime_fails "4 GiB file refused" "^zcc: $TMP/huge: 4294967296 bytes: .*4 GiB" \
	-s 127.0.0.1 -p "$SINK_PORT" "$TMP/a" "$TMP/huge"
# The sink takes one connection, the first to come: a run of our own
# after the refusal is that one only if the refused zcc never connected.
run_zcc -n 1 -s 127.0.0.1 -p "$SINK_PORT" "$TMP/a" "$TMP/b"
if wait_for "$TMP/sink.out" "^received: $(stream 1) bytes"; then
	ok "4 GiB file: refused before connecting (the sink's one connection was the next run)"
else
	not_ok "4 GiB file: zcc connected before refusing: $(cat "$TMP/sink.out")"
fi
kill "$SINK_PID"; wait "$SINK_PID" 2>/dev/null
rm -f "$TMP/huge"

# Options after the file names, also when POSIXLY_CORRECT asks getopt to stop
# at the first non-option.
for env in "" "POSIXLY_CORRECT=1"; do
	sink_start
	env $env "$ZCC" "$TMP/a" -s 127.0.0.1 "$TMP/b" -n 3 -p "$SINK_PORT" \
		>"$TMP/out" 2>"$TMP/err"
	RC=$?
	wait "$SINK_PID"
	if [ "$RC" -eq 0 ] && grep -q "^sent: $(stream 3) bytes in " "$TMP/out" \
	   && grep -q "^received: $(stream 3) bytes" "$TMP/sink.out"; then
		ok "options after file names${env:+ ($env)}: $(stream 3) bytes sent and received"
	else
		not_ok "options after file names${env:+ ($env)}: exit $RC, $(cat "$TMP/out" "$TMP/err")"
	fi
done

# After "--" a name that looks like an option is a file.
cp "$TMP/b" "$TMP/-n"
sink_start
(cd "$TMP" && "$ZCC" -s 127.0.0.1 -p "$SINK_PORT" a -- -n >"$TMP/out" 2>"$TMP/err")
RC=$?
wait "$SINK_PID"
if [ "$RC" -eq 0 ] && grep -q "^received: $(stream 1) bytes" "$TMP/sink.out"; then
	ok "-- ends the options: a file named -n is sent"
else
	not_ok "-- ends the options: exit $RC, $(cat "$TMP/out" "$TMP/err")"
fi

# -d: debug on stderr only; stdout keeps its one line.
sink_start
run_zcc -d -d -s 127.0.0.1 -p "$SINK_PORT" "$TMP/a" "$TMP/b"
wait "$SINK_PID"
if [ "$RC" -eq 0 ] && [ "$(lines "$TMP/out")" -eq 1 ] && grep -q '^zcc: connected to ' "$TMP/err" \
   && grep -q "^zcc: $TMP/b: 3 bytes" "$TMP/err"; then
	ok "-d -d: debug lines on stderr, stdout only the sent: line"
else
	not_ok "-d -d: exit $RC, stdout $(cat "$TMP/out"), stderr $(cat "$TMP/err")"
fi

# --- a file that shrinks while being sent -------------------------------------
# The sink reads nothing until $TMP/go exists, and small socket buffers on
# both ends hold at most a few hundred KB in flight, so zcc is blocked well
# inside the 64 MiB file when the test cuts it to 4 MiB. Deterministic.
for mode in "" "-S" "-M mmap" "-M splice"; do
	rm -f "$TMP/go"
	truncate -s 64M "$TMP/shrink"
	sink_start -r 65536 -g "$TMP/go"
	bg "$ZCC" -s 127.0.0.1 -p "$SINK_PORT" -o 65536 $mode "$TMP/shrink" \
		>"$TMP/out" 2>"$TMP/err"
	zpid=$!
	wait_for "$TMP/sink.out" '^accepted'
	within 50 tcp_queued "$SINK_PORT"
	truncate -s 4M "$TMP/shrink"
	touch "$TMP/go"
	wait "$zpid"
	RC=$?
	wait "$SINK_PID"
	if [ "$RC" -eq 1 ] && grep -q "^zcc: $TMP/shrink: file shrank while being sent (4194304 of 67108864 bytes)$" "$TMP/err" \
	   && [ ! -s "$TMP/out" ]; then
		ok "file shrinking while sent${mode:+ ($mode)}: exit 1, $(cat "$TMP/err")"
	else
		not_ok "file shrinking while sent${mode:+ ($mode)}: exit $RC, $(cat "$TMP/out" "$TMP/err")"
	fi
done
rm -f "$TMP/shrink"

# --- the server vanishing mid-stream -----------------------------------------
# The sink resets the connection after 1 MB of a stream of 100 x 64 MiB.
# zcc must say so and exit 1: not die of SIGPIPE (141), not hang.
truncate -s 64M "$TMP/sparse"
for mode in "" "-S" "-S -w" "-M mmap" "-M splice" "-M zerocopy" "-M uring" "-M uring-zc"; do
	if [ "${mode#-M }" != "$mode" ] && method_refused "${mode#-M }"; then
		skip "server vanishing ($mode): $REFUSED"
		continue
	fi
	sink_start -x 1000000
	timed_start
	timeout 10 "$ZCC" -s 127.0.0.1 -p "$SINK_PORT" -n 100 $mode "$TMP/sparse" \
		>"$TMP/out" 2>"$TMP/err"
	RC=$?
	timed_end
	wait "$SINK_PID"
	if [ "$RC" -eq 1 ] && [ "$(lines "$TMP/err")" -eq 1 ] \
	   && grep -Eq "^zcc: (sendfile|send|write|splice|(zerocopy|uring|uring-zc): send) to 127.0.0.1 port $SINK_PORT: (Connection reset by peer|Broken pipe)\$" "$TMP/err"; then
		ok "server vanishing${mode:+ ($mode)}: exit 1: $(cat "$TMP/err")"
	else
		not_ok "server vanishing${mode:+ ($mode)}: exit $RC: $(cat "$TMP/err")"
	fi
	timed_check "server vanishing${mode:+ ($mode)}: ended within 2 s" \
		'[ "$TIMED_MS" -lt $((2000 + SLACK_MS)) ]'
done

# --- -T and signals: cases side by side ----------------------------------------
# Each case has a sink of its own and spends its time waiting for zcc to
# give up or be stopped, so they all run together (lib.sh together); the
# file they send is the script's, $WORK/a.

# -T 2: each must end with exit 1 and one line within -T + a few seconds.
# 100 x 100 KB is more than the socket buffers of both ends hold. The
# bounds are wide: under ASan, the cases side by side and other work on
# the machine, zcc took 5.1 to 6.4 s to end (a -T that never fires is
# run_zcc's 20 s timeout, still a failure).
T_MS=10000
case_T2() {	# case_T2 stall|hold SINK-ARGS...
	what=$1
	shift
	sink_start "$@"
	t0=$(date +%s%N)
	run_zcc -T 2 -n 1000 -s 127.0.0.1 -p "$SINK_PORT" "$WORK/a"
	ms=$((($(date +%s%N) - t0) / 1000000))
	kill "$SINK_PID" 2>/dev/null; wait "$SINK_PID" 2>/dev/null
	case $what in
	stall) pat="^zcc: 127.0.0.1 port $SINK_PORT: stalled: no data moved for 2 s \(-T\)\$" ;;
	hold) pat="^zcc: 127.0.0.1 port $SINK_PORT: has not closed the connection 2 s after the last byte \(-T\)\$" ;;
	esac
	if [ "$RC" -eq 1 ] && [ "$ms" -ge 1900 ] && [ "$ms" -lt "$T_MS" ] \
	   && [ "$(lines "$TMP/err")" -eq 1 ] && grep -Eq "$pat" "$TMP/err"; then
		ok "-T 2, server $what: exit 1 after $ms ms: $(cat "$TMP/err")"
	else
		not_ok "-T 2, server $what: exit $RC after $ms ms: $(cat "$TMP/err")"
	fi
}
together T2-stall case_T2 stall -g "$WORK/never"
together T2-hold case_T2 hold -H

# -T must stop every method, however it blocks. The sink never reads, yet
# the kernel may still take a few bytes as its ACKs free send-buffer room
# (uring-zc, under the sanitizers: "only 8 bytes moved in the last 1 s"):
# either form of the stall line is the stall.
case_T1() {	# case_T1 METHOD
	sink_start -g "$WORK/never"
	t0=$(date +%s%N)
	run_zcc -T 1 -n 1000 -M "$1" -s 127.0.0.1 -p "$SINK_PORT" "$WORK/a"
	ms=$((($(date +%s%N) - t0) / 1000000))
	kill "$SINK_PID" 2>/dev/null; wait "$SINK_PID" 2>/dev/null
	if [ "$RC" -eq 1 ] && [ "$ms" -lt "$T_MS" ] && [ "$(lines "$TMP/err")" -eq 1 ] \
	   && grep -Eq "stalled: (no data moved for 1 s \(|only [0-9]+ bytes moved in the last 1 s \(under 1 KiB, )-T\)\$" "$TMP/err"; then
		ok "-T 1 -M $1, server stalled: exit 1 after $ms ms"
	else
		not_ok "-T 1 -M $1, server stalled: exit $RC after $ms ms: $(cat "$TMP/err")"
	fi
}
for m in send write mmap splice zerocopy uring uring-zc; do
	if method_refused "$m"; then
		skip "-T 1 -M $m, server stalled: $REFUSED"
		continue
	fi
	together "T1-$m" case_T1 "$m"
done

# resumed_ok WHAT: SIGCONT to the stopped zcc $zpid, then it ends on its
# own with exit 0 and no -T line; the sink is stopped after it.
resumed_ok() {
	kill -CONT $zpid
	within 200 proc_ended $zpid
	wait $zpid
	RC=$?
	kill "$SINK_PID" 2>/dev/null; wait "$SINK_PID" 2>/dev/null
	check "$1, exit 0 (exit $RC: $(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 0 ] && ! grep -q "(-T)" "$TMP/err"'
}

# Stopped (SIGSTOP) for 4 s mid-run with -T 2: the time zcc itself did not
# run is not the server's stall; after SIGCONT it goes on to its end.
case_stopped() {
	sink_start
	bg "$ZCC" -T 2 -I 1 -M uring -n 400 -s 127.0.0.1 -p "$SINK_PORT" "$WORK/a" >"$TMP/out" 2>"$TMP/err"
	zpid=$!
	within 50 tcp_read "$SINK_PORT" 1
	kill -STOP $zpid
	# The stop's length (twice -T) is what is under test: a stopped
	# process shows nothing to wait for.
	sleep 4
	resumed_ok "-T 2, zcc stopped for 4 s: no stall"
}
if method_refused uring; then
	skip "-T 2, zcc stopped for 4 s (-M uring): $REFUSED"
else
	together stopped case_stopped
fi

# Stopped for 4 s with -T 2 while waiting for the server to close, and the
# server closed meanwhile: the stop is zcc's own, and the close is there
# when it runs again. A sink that reads nothing until told holds the
# stream; zcc has handed its 1000 bytes to the kernel and waits.
case_stopped_close() {
	head -c 1000 /dev/urandom >"$TMP/small"
	sink_start -g "$TMP/go"
	bg "$ZCC" -T 2 -n 1 -s 127.0.0.1 -p "$SINK_PORT" "$TMP/small" >"$TMP/out" 2>"$TMP/err"
	zpid=$!
	wait_for "$TMP/sink.out" '^accepted'
	within 50 tcp_peer_done "$SINK_PORT"
	kill -STOP $zpid
	: >"$TMP/go"
	wait_for "$TMP/sink.out" '^received: '
	# As above: the stop's length is what is under test.
	sleep 4
	resumed_ok "-T 2, zcc stopped 4 s waiting for the close"
}
together stopped-close case_stopped_close

# Stopped for 1.5 s in a -t 3 run: the sent: line says so after its 2001
# fields (which a 2001 parser still reads), and JSON has stopped_seconds.
case_stopped_said() {
	zcs_start -T 0
	bg "$ZCC" -t 3 -I 0.1 -s 127.0.0.1 -p "$ZCS_PORT" "$WORK/a" >"$TMP/out" 2>"$TMP/err"
	zpid=$!
	# Stopped once it sends (an -I line), not while it starts up.
	wait_for "$TMP/out" 'kbytes/sec$' 100
	s0=$(now_ms)
	kill -STOP $zpid
	# The stop's length is the figure under test.
	sleep 1.5
	kill -CONT $zpid
	# How long it was stopped at most, however late the CONT came.
	s1=$(now_ms)
	wait $zpid
	RC=$?
	bg "$ZCC" -J -t 1 -s 127.0.0.1 -p "$ZCS_PORT" "$WORK/a" >"$TMP/json" 2>>"$TMP/err"
	wait $!
	kill "$ZCS_PID" 2>/dev/null; wait "$ZCS_PID" 2>/dev/null
	said=$(sed -n 's/^sent: [0-9]* bytes in [0-9.]* s, [0-9]* kbytes\/sec (\([0-9.]*\) s stopped)$/\1/p' "$TMP/out")
	check "stopped 1.5 s: the sent: line says ($said s, 1.3..$(((s1 - s0) / 1000)).$(((s1 - s0) % 1000 / 100)) + 0.2; exit $RC: $(cat "$TMP/out" "$TMP/err"))" \
		eval '[ "$RC" -eq 0 ] && [ -n "$said" ] &&
		awk -v s="$said" -v m="$((s1 - s0))" "BEGIN { exit !(s >= 1.3 && s <= m / 1000 + 0.2) }"'
	check "not stopped: no word of it, JSON stopped_seconds 0 ($(cat "$TMP/json"))" \
		eval '[ "$("$ZC_TESTBIN/jsoncheck" -E sent -k stopped_seconds -g stopped_seconds "$TMP/json")" = 0.000 ]'
}
together stopped-said case_stopped_said

# -T bounds connecting: in a namespace of our own, a neighbour whose MAC
# nobody owns (the other end of a veth pair, with no address) never
# answers a SYN (the kernel alone would give up after about two minutes).
case_connect() {
	ns=zcc-t$$
	if ! ip netns add "$ns" 2>/dev/null; then
		skip "-T while connecting: cannot make a network namespace (not root, or no ip)"
		return
	fi
	ip -n "$ns" link add v0 type veth peer name v1 && ip -n "$ns" addr add 192.0.2.1/24 dev v0 &&
		ip -n "$ns" link set v0 up && ip -n "$ns" link set v1 up &&
		ip -n "$ns" neigh add 192.0.2.2 lladdr 02:00:00:00:00:99 dev v0 nud permanent
	timed_start
	timeout 30 ip netns exec "$ns" "$ZCC" -T 2 -s 192.0.2.2 "$WORK/a" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	timed_end
	ip netns delete "$ns"
	check "-T 2, connecting to nobody: exit 1: $(cat "$TMP/err")" \
		eval '[ "$RC" -eq 1 ] && grep -q "no answer within 2 s (-T)" "$TMP/err"'
	timed_check "-T 2, connecting to nobody: given up after 1900..6000 ms" \
		'[ "$TIMED_MS" -ge 1900 ] && [ "$TIMED_MS" -lt $((6000 + SLACK_MS)) ]'
}
together connect case_connect

# Stopped during a -t run: what was sent is reported, not lost.
case_timed_stopped() {
	sink_start -g "$WORK/never"
	bg "$ZCC" -t 30 -s 127.0.0.1 -p "$SINK_PORT" "$WORK/a" >"$TMP/out" 2>"$TMP/err"
	zpid=$!
	wait_for "$TMP/sink.out" '^accepted'
	within 50 tcp_queued "$SINK_PORT"
	kill -TERM $zpid
	wait $zpid
	RC=$?
	kill "$SINK_PID" 2>/dev/null; wait "$SINK_PID" 2>/dev/null
	check "-t, SIGTERM mid-run: exit 143 and the sent: line ($RC: $(cat "$TMP/out" "$TMP/err"))" \
		eval '[ "$RC" -eq 143 ] && grep -Eq "^sent: [1-9][0-9]* bytes in [0-9.]+ s, [0-9]+ kbytes/sec \(interrupted\)\$" "$TMP/out"'
}
together timed-stopped case_timed_stopped

# Stopped during -R: the runs that ended whole still get their summary.
case_repeat_stopped() {
	zcs_start -T 0
	bg "$ZCC" -R 10000 -n 20 -s 127.0.0.1 -p "$ZCS_PORT" "$WORK/a" >"$TMP/out" 2>"$TMP/err"
	zpid=$!
	# A whole run's line ends in its rate (an interrupted one's does not).
	within 100 grep -q '^sent: .* kbytes/sec$' "$TMP/out"
	kill -TERM $zpid
	wait $zpid
	RC=$?
	whole=$(grep -Ec '^sent: .* kbytes/sec$' "$TMP/out")
	check "-R, SIGTERM after $whole whole runs: exit 143, 'summary: $whole runs' ($RC: $(tail -n 2 "$TMP/out"))" \
		eval '[ "$RC" -eq 143 ] && [ "$whole" -ge 1 ] && grep -q "^summary: $whole runs, median " "$TMP/out"'
	kill "$ZCS_PID" 2>/dev/null; wait "$ZCS_PID" 2>/dev/null
}
together repeat-stopped case_repeat_stopped

# zcc blocked on a sink that reads nothing: SIGINT / SIGTERM give the sent:
# line of what went so far, marked (interrupted), and 128 + the signal.
# tests/tools/subreaper -s runs zcc with SIGINT at its default (a background job
# of sh would have it ignored) and exits with zcc's status.
case_sig() {	# case_sig SIG STATUS METHOD
	sig=$1 want=$2 m=$3
	sink_start -g "$WORK/never"
	: >"$TMP/sr"
	bg "$ZC_TESTBIN/subreaper" -s -o "$TMP/sr" "$ZCC" -n 1000 -M "$m" -s 127.0.0.1 \
		-p "$SINK_PORT" "$WORK/a" >"$TMP/out" 2>"$TMP/err"
	srpid=$!
	wait_for "$TMP/sink.out" '^accepted'
	wait_for "$TMP/sr" '^child '
	within 50 tcp_queued "$SINK_PORT"
	kill -"$sig" "$(sed -n 's/^child //p' "$TMP/sr")"
	wait "$srpid"
	RC=$?
	kill "$SINK_PID" 2>/dev/null; wait "$SINK_PID" 2>/dev/null
	if [ "$RC" -eq "$want" ] && grep -Eq '^sent: [1-9][0-9]* bytes in [0-9.]+ s, [0-9]+ kbytes/sec \(interrupted\)$' "$TMP/out" \
	   && [ "$(lines "$TMP/out")" -eq 1 ]; then
		ok "SIG$sig mid-run, -M $m: exit $RC, $(cat "$TMP/out")"
	else
		not_ok "SIG$sig mid-run, -M $m: exit $RC, stdout $(cat "$TMP/out"), stderr $(cat "$TMP/err")"
	fi
}
for sig in INT:130:sendfile TERM:143:sendfile INT:130:write INT:130:mmap INT:130:splice \
	INT:130:zerocopy INT:130:uring INT:130:uring-zc; do
	m=${sig##*:} sig=${sig%:*}
	if method_refused "$m"; then
		skip "SIG${sig%:*} mid-run, -M $m: $REFUSED"
		continue
	fi
	together "sig-${sig%:*}-$m" case_sig "${sig%:*}" "${sig#*:}" "$m"
done
gather

# A SIGHUP ignored by the parent (nohup) stays ignored: a SIGHUP, then a
# SIGTERM, and zcc ends of the second (143), not the first (129).
sink_start -g "$TMP/never"
bg sh -c 'trap "" HUP; exec "$0" "$@"' "$ZCC" -n 1000 -s 127.0.0.1 -p "$SINK_PORT" "$TMP/a" \
	>"$TMP/out" 2>"$TMP/err"
zpid=$!
wait_for "$TMP/sink.out" '^accepted'
within 50 tcp_queued "$SINK_PORT"
kill -HUP "$zpid"
kill -TERM "$zpid"
wait "$zpid"
RC=$?
check "SIGHUP ignored at start (nohup): zcc ends of the SIGTERM after it ($RC)" [ "$RC" -eq 143 ]
kill "$SINK_PID" 2>/dev/null; wait "$SINK_PID" 2>/dev/null

# --- -t, -I, -R against zcs --------------------------------------------------------
if zcs_start; then
	n0=$(grep -c '^done: ' "$TMP/zcs.out")
	timed_start
	run_zcc -t 3 -I 0.5 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" "$TMP/b"
	timed_end
	n_int=$(grep -c '^[0-9]* kbytes/sec$' "$TMP/out")
	within 50 count_is "$TMP/zcs.out" '^done: ' $((n0 + 1))
	sent=$(sed -n 's/^sent: \([0-9]*\) bytes.*/\1/p' "$TMP/out")
	done_=$(grep '^done: ' "$TMP/zcs.out" | tail -n 1 | sed 's/^done: \([0-9]*\) bytes.*/\1/')
	n=$(($(grep -c '^done: ' "$TMP/zcs.out") - n0))
	if [ "$RC" -eq 0 ] && [ -n "$sent" ] && [ "$sent" = "$done_" ] && [ "$n" -eq 1 ]; then
		ok "-t 3: one whole stream, no probe before it: sent $sent = done $done_"
	else
		not_ok "-t 3: exit $RC, $n streams, sent '$sent' done '$done_': $(cat "$TMP/out" "$TMP/err")"
	fi
	# -t 3: the whole zcc lasts 3 s; -I 0.5: one line a half second. The
	# deadline's arithmetic is tests/unit/test_deadline.c's; here, that zcc
	# is wired to it: 2900..3600 ms, 5 to 7 lines, by the harness's rule
	# for a shared machine. make bench holds the 2% target.
	timed_check "-t 3 -I 0.5: 2900..3600 ms, $n_int interval lines (5..7)" \
		'[ "$TIMED_MS" -ge 2900 ] && [ "$TIMED_MS" -le $((3600 + SLACK_MS)) ] &&
		[ "$n_int" -ge $((5 - SLACK_MS / 500)) ] && [ "$n_int" -le 7 ]'
	run_zcc -R 3 -n 20 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a"
	if [ "$RC" -eq 0 ] && [ "$(grep -c "^sent: $(stream 20 | sed 's/.*//')" "$TMP/out")" -ge 3 ] \
	   && [ "$(grep -c '^sent: ' "$TMP/out")" -eq 3 ] \
	   && grep -Eq '^summary: 3 runs, median [0-9]+ kbytes/sec \(min [0-9]+, max [0-9]+\)$' "$TMP/out"; then
		ok "-R 3: three sent: lines and $(grep '^summary' "$TMP/out")"
	else
		not_ok "-R 3: exit $RC, $(cat "$TMP/out" "$TMP/err")"
	fi
	# -J: every line one JSON object the strict checker accepts, with the
	# keys README.zc documents.
		run_zcc -J -R 2 -I 0.01 -n 1000 -M mmap -b 4K -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a"
	if [ "$RC" -eq 0 ] && [ -s "$TMP/out" ] && "$J" -k program -k event -k time "$TMP/out" \
	   && [ "$("$J" -E sent -k bytes -k seconds -k kbytes_per_sec -k method -k interrupted \
		-g bytes "$TMP/out" | sort -u)" = "$((4 + 1000 * 8 + 1000 * 100000))" ] \
	   && [ "$("$J" -E sent -g method "$TMP/out" | sort -u)" = mmap ] \
	   && [ "$("$J" -E sent -g interrupted "$TMP/out" | sort -u)" = false ] \
	   && "$J" -E summary -k runs -k kbytes_per_sec_median -k kbytes_per_sec_min \
		-k kbytes_per_sec_max "$TMP/out" >/dev/null \
	   && [ "$("$J" -E summary -g runs "$TMP/out")" = 2 ] \
	   && "$J" -E interval -k seconds -k bytes -k kbytes_per_sec "$TMP/out" >/dev/null \
	   && [ "$(grep -c '"event":"interval"' "$TMP/out")" -ge 1 ]; then
		ok "-J -R 2 -I: $(grep -c '' "$TMP/out") JSON lines, sent, interval and summary with their keys"
	else
		not_ok "-J -R 2 -I: exit $RC: $(cat "$TMP/out" "$TMP/err")"
	fi
	# A failed write to stdout: exit 1 and a line, not a silent 0.
	timeout 20 "$ZCC" -n 2 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >/dev/full 2>"$TMP/err"
	RC=$?
	if [ "$RC" -eq 1 ] && grep -q '^zcc: write to stdout: No space left on device$' "$TMP/err"; then
		ok "stdout on /dev/full: exit 1, $(cat "$TMP/err")"
	else
		not_ok "stdout on /dev/full: exit $RC, $(cat "$TMP/err")"
	fi
	kill "$ZCS_PID"; wait "$ZCS_PID" 2>/dev/null
else
	not_ok "zcs did not start: $(cat "$TMP/zcs.err")"
fi

# -t's stream, its loops sized to the time and its loops of 0 files at the
# end, is a whole 2001 stream: zcs -1 exits 0 only for one, and counts the
# bytes zcc says it sent. An empty file and a file of 3 bytes ride along.
: >"$TMP/empty"
for m in sendfile send mmap; do
	zcs_start -1 || { not_ok "zcs -1 did not start"; continue; }
	run_zcc -t 0.5 -M "$m" -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" "$TMP/empty" "$TMP/b"
	wait "$ZCS_PID"
	zrc=$?
	sent=$(sed -n 's/^sent: \([0-9]*\) bytes.*/\1/p' "$TMP/out")
	if [ "$RC" -eq 0 ] && [ "$zrc" -eq 0 ] && [ -n "$sent" ] &&
	   grep -q "^done: $sent bytes" "$TMP/zcs.out"; then
		ok "-t 0.5 -M $m: zcs -1 takes the stream whole, $sent bytes both ends"
	else
		not_ok "-t 0.5 -M $m: zcc $RC, zcs -1 $zrc, sent '$sent': $(cat "$TMP/out" "$TMP/err" "$TMP/zcs.out" "$TMP/zcs.err")"
	fi
done

# --help and --version; K/M/G on byte sizes.
run_zcc --help
if [ "$RC" -eq 0 ] && grep -q '^usage: zcc' "$TMP/out"; then
	ok "--help: usage on stdout, exit 0"
else
	not_ok "--help: exit $RC, $(head -c 200 "$TMP/out" "$TMP/err")"
fi
run_zcc --version
if [ "$RC" -eq 0 ] && grep -Eq '^zcc [0-9]+\.[0-9]+$' "$TMP/out"; then
	ok "--version: exit 0, $(cat "$TMP/out")"
else
	not_ok "--version: exit $RC, $(cat "$TMP/out" "$TMP/err")"
fi
usage_fails "--bogus" --bogus
usage_fails "-b 2X" -s 127.0.0.1 -M send -b 2X "$TMP/a"
usage_fails "-b 2G (over 1 GiB)" -s 127.0.0.1 -M send -b 2G "$TMP/a"
sink_start
run_zcc -M send -b 1K -o 64K -i 64K -d -s 127.0.0.1 -p "$SINK_PORT" "$TMP/a"
wait "$SINK_PID"
if [ "$RC" -eq 0 ] && grep -q "^received: $((4 + 8 + 100000)) bytes" "$TMP/sink.out"; then
	ok "-b 1K -o 64K -i 64K: accepted, the file sent"
else
	not_ok "-b 1K -o 64K -i 64K: exit $RC, $(cat "$TMP/err" "$TMP/sink.out")"
fi

# --- the page cache ------------------------------------------------------------
# A set not in the page cache (dropped by tests/tools/evict) gets one
# warning line: the run times the disk too. -d says the share resident.
head -c 4194304 /dev/urandom >"$TMP/cold"
sink_start
run_zcc -d -s 127.0.0.1 -p "$SINK_PORT" "$TMP/cold"
wait "$SINK_PID"
check "a set in the page cache: no warning, -d says 100.0% ($RC: $(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && grep -q "^zcc: page cache: 100.0% of the files. bytes resident\$" "$TMP/err" &&
	! grep -q warning "$TMP/err"'
"$ZC_TESTBIN/evict" "$TMP/cold"
sink_start
run_zcc -d -s 127.0.0.1 -p "$SINK_PORT" "$TMP/cold" "$TMP/b"
wait "$SINK_PID"
share=$(sed -n 's/^zcc: page cache: \([0-9]*\)\..*/\1/p' "$TMP/err")
if [ -n "$share" ] && [ "$share" -ge 90 ]; then
	skip "a cold page cache: the file system kept $share% of the file cached (tmpfs?)"
else
	check "a cold page cache: one warning line ($RC: $(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 0 ] && [ "$(grep -c "^zcc: warning: only [0-9]*% of the files. bytes are in the page cache: the figures include reading them from the disk" "$TMP/err")" -eq 1 ]'
fi

# --- --files-from and the limits ---------------------------------------------
# 300 files named in a list (a line each; an empty line skipped), from a
# file and from standard input, after the names given as arguments.
mkdir "$TMP/many"
i=0
while [ $i -lt 300 ]; do printf x >"$TMP/many/f$i"; echo "$TMP/many/f$i"; i=$((i + 1)); done >"$TMP/list"
echo >>"$TMP/list"
want=$((4 + 4 + 301 * 4 + 3 + 300))
sink_start
(ulimit -Sn 100; exec timeout 20 "$ZCC" -s 127.0.0.1 -p "$SINK_PORT" "$TMP/b" --files-from "$TMP/list") \
	>"$TMP/out" 2>"$TMP/err"
RC=$?
wait "$SINK_PID"
check "--files-from, a soft limit of 100 raised to the hard one: 301 files, $want bytes ($RC: $(cat "$TMP/out" "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && grep -q "^received: $want bytes" "$TMP/sink.out" && [ ! -s "$TMP/err" ]'
sink_start
run_zcc -s 127.0.0.1 -p "$SINK_PORT" --files-from - "$TMP/b" <"$TMP/list"
wait "$SINK_PID"
check "--files-from -: the names from standard input ($RC: $(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && grep -q "^received: $want bytes" "$TMP/sink.out"'
runtime_fails "--files-from a missing file" "^zcc: --files-from $TMP/nonesuch: No such file or directory\$" \
	-s 127.0.0.1 -p 1 --files-from "$TMP/nonesuch"
usage_fails "-C --files-from" -C --files-from "$TMP/list"
# Beyond the open-file limit (a set, or -P's sockets and pipes): refused
# before connecting (port 1: a connect would fail otherwise), naming the
# limit, what is needed and the ulimit.
(ulimit -n 100; exec timeout 20 "$ZCC" -s 127.0.0.1 -p 1 --files-from "$TMP/list") >"$TMP/out" 2>"$TMP/err"
RC=$?
check "301 files, ulimit -n 100: refused before connecting ($RC: $(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 1 ] && [ "$(lines "$TMP/err")" -eq 1 ] &&
	grep -q "^zcc: 300 files and 1 stream need about [0-9]* open files.*the limit is 100 (RLIMIT_NOFILE, hard limit 100): raise it with ulimit -n\$" "$TMP/err"'
(ulimit -n 256; exec timeout 20 "$ZCC" -s 127.0.0.1 -p 1 -P 1024 "$TMP/a") >"$TMP/out" 2>"$TMP/err"
RC=$?
check "-P 1024, ulimit -n 256: refused before connecting ($RC: $(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 1 ] && [ "$(lines "$TMP/err")" -eq 1 ] &&
	grep -q "^zcc: 1 file and 1024 streams need about [0-9]* open files.*RLIMIT_NOFILE.*ulimit -n\$" "$TMP/err"'
# Beyond the threads a user may run (the kernel exempts root: a user
# that is not). RLIMIT_NPROC counts every process of the user on the
# machine, so the user is one of its own, no process's (not nobody, whom
# the other pass's copy of this test and others run as), chosen per run.
# uid_unused: a user ID no process runs as now ($uid), from this PID on.
uid_unused() {
	uid=$((2000000000 + $$))
	while grep -qs "^Uid:[[:space:]]*$uid[[:space:]]" /proc/[0-9]*/status; do
		uid=$((uid + 1))
	done
}
if [ "$(id -u)" -eq 0 ] && command -v prlimit >/dev/null && command -v setpriv >/dev/null; then
	uid_unused
	prlimit --nproc=20 -- setpriv --reuid="$uid" --regid="$uid" --clear-groups -- \
		timeout 20 "$ZCC" -s 127.0.0.1 -p 1 -P 50 "$TMP/a" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	check "-P 50 with 20 threads allowed: refused before connecting ($RC: $(cat "$TMP/err"))" \
		eval '[ "$RC" -eq 1 ] && [ "$(lines "$TMP/err")" -eq 1 ] &&
		grep -q "^zcc: 50 streams need 51 threads .*the limit is 20 (RLIMIT_NPROC): raise it with ulimit -u\$" "$TMP/err"'
else
	skip "-P beyond RLIMIT_NPROC: needs root, prlimit and setpriv (to run as another user)"
fi

# --- -c without a usable calibration ------------------------------------------
mkdir "$TMP/cal" && cd "$TMP/cal" || exit 1
runtime_fails "-c -L without counts_per_sec" "zcc -C" -c -L -s 127.0.0.1 -p 1 "$TMP/a"
printf '1000000\nncpus 999\n' >counts_per_sec
runtime_fails "-c -L with a calibration for another CPU count" "calibrated with 999 CPUs, this run has" \
	-c -L -s 127.0.0.1 -p 1 "$TMP/a"
runtime_fails "-c -L -f a missing file" "nonesuch: no calibration file" \
	-c -L -f nonesuch -s 127.0.0.1 -p 1 "$TMP/a"
usage_fails "-r without -c" -r -s 127.0.0.1 -p 1 "$TMP/a"
usage_fails "-r with -L" -c -r -L -s 127.0.0.1 -p 1 "$TMP/a"
usage_fails "-C with -L" -C -L
usage_fails "-C with -c" -C -c
cd "$TMP" || exit 1

finish
