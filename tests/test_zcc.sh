#!/bin/sh
# zcc on its own: options, bad input, file handling and runtime errors.
# The receiver is tests/sink (one connection; can stall or vanish), so these
# checks do not depend on zcs. End-to-end transfers: test_transfer.sh.
. "$(dirname "$0")/lib.sh"

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
	timeout 20 "$ZCC" "$@" >"$TMP/out" 2>"$TMP/err"
	RC=$?
}

lines() { wc -l <"$1" | tr -d ' '; }

# usage_fails WHAT ARGS...: exit 2, one line on stderr, nothing on stdout.
usage_fails() {
	_what=$1; shift
	run_zcc "$@"
	if [ "$RC" -eq 2 ] && [ "$(lines "$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ]; then
		ok "$_what: exit 2, one line: $(cat "$TMP/err")"
	else
		not_ok "$_what: exit $RC, stderr: $(cat "$TMP/err")"
	fi
}

head -c 100000 /dev/urandom >"$TMP/a"
printf 'odd' >"$TMP/b"
A_B=100003
# stream bytes of one loop of a and b, for N loops
stream() { echo $((4 + $1 * (4 + 4 * 2) + $1 * A_B)); }

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
sleep 0.3
if grep -q '^accepted' "$TMP/sink.out"; then
	not_ok "4 GiB file: zcc connected before refusing"
else
	ok "4 GiB file: refused before connecting (the sink saw no connection)"
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
for mode in "" "-S"; do
	rm -f "$TMP/go"
	truncate -s 64M "$TMP/shrink"
	sink_start -r 65536 -g "$TMP/go"
	bg "$ZCC" -s 127.0.0.1 -p "$SINK_PORT" -o 65536 $mode "$TMP/shrink" \
		>"$TMP/out" 2>"$TMP/err"
	zpid=$!
	wait_for "$TMP/sink.out" '^accepted'
	sleep 0.2
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
for mode in "" "-S" "-S -w"; do
	sink_start -x 1000000
	t0=$(date +%s%N)
	timeout 10 "$ZCC" -s 127.0.0.1 -p "$SINK_PORT" -n 100 $mode "$TMP/sparse" \
		>"$TMP/out" 2>"$TMP/err"
	RC=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	wait "$SINK_PID"
	if [ "$RC" -eq 1 ] && [ "$ms" -lt 2000 ] && [ "$(lines "$TMP/err")" -eq 1 ] \
	   && grep -Eq "^zcc: (sendfile|send|write) to 127.0.0.1 port $SINK_PORT: (Connection reset by peer|Broken pipe)\$" "$TMP/err"; then
		ok "server vanishing${mode:+ ($mode)}: exit 1 in $ms ms: $(cat "$TMP/err")"
	else
		not_ok "server vanishing${mode:+ ($mode)}: exit $RC in $ms ms: $(cat "$TMP/err")"
	fi
done

# --- -c without a usable calibration ------------------------------------------
mkdir "$TMP/cal" && cd "$TMP/cal" || exit 1
runtime_fails "-c without counts_per_sec" "zcc -C" -c -s 127.0.0.1 -p 1 "$TMP/a"
printf '1000000\nncpus 999\n' >counts_per_sec
runtime_fails "-c with a calibration for another CPU count" "calibrated with 999 CPUs, this run has" \
	-c -s 127.0.0.1 -p 1 "$TMP/a"
cd "$TMP" || exit 1

finish
