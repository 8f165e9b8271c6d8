#!/bin/sh
# needs: long
# Bad option values, systematically: every numeric option of every program
# gets an empty value, a word, trailing garbage, hexadecimal, a fraction, a
# negative number, zero (where zero means nothing), one past its maximum and
# a huge number. Each must be refused at the door: exit 2, exactly one line
# on stderr, naming the option and the value (a usage error, as every -h says).
#
# A value that is wrongly accepted must not start real work: each program
# gets arguments that make it fail fast or wait (zcc: a closed port, zcs: a
# kernel-chosen port, cyclesoak: a missing calibration file, run_rr: `true`),
# and every run is wrapped in `timeout 5`; a timeout counts as a failure.
. "$ZC_TOP/tests/lib.sh"
# Every run here is refused at the door or fails fast (a closed port, no
# calibration file) and exits: no leak check in the sanitizer pass (it
# would double the test's time); the transfers' tests keep it.
no_leak_check "every run is refused or fails fast, then exits"

cd "$TMP" || exit 1
echo data >"$TMP/file"
cpus_conf=$(getconf _NPROCESSORS_CONF)
huge=99999999999999999999

# refused WHAT OPT VALUE COMMAND...: the command must be a usage error that
# says which option (and, when given, which value) was wrong.
refused() {
	_what=$1 _opt=$2 _val=$3
	shift 3
	timeout 5 "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	_lines=$(grep -c '' "$TMP/err")
	if [ "$_rc" -eq 124 ]; then
		not_ok "$_what: accepted and started work (killed after 5 s)"
	elif [ "$_rc" -ne 2 ]; then
		not_ok "$_what: exit $_rc, want 2: $(head -c 200 "$TMP/err")"
	elif [ "$_lines" -ne 1 ]; then
		not_ok "$_what: $_lines lines on stderr, want 1: $(head -c 200 "$TMP/err")"
	elif ! grep -q -e "$_opt" "$TMP/err"; then
		not_ok "$_what: message does not name $_opt: $(cat "$TMP/err")"
	elif [ -n "$_val" ] && ! grep -qF -e "$_val" "$TMP/err"; then
		not_ok "$_what: message does not show '$_val': $(cat "$TMP/err")"
	else
		ok "$_what: exit 2, one line: $(cat "$TMP/err")"
	fi
}

# try PROG OPT VALUE WHY: run PROG with OPT VALUE, plus arguments that keep
# a wrongly accepted value from doing real work; it must be refused.
try() {
	_prog=$1 _opt=$2 _val=$3 _why=$4
	case $_prog in
	zcc)	set -- "$ZC_BIN/zcc" -s 127.0.0.1
		[ "$_opt" = -p ] || set -- "$@" -p 1
		set -- "$@" "$TMP/file" ;;
	zcs)	set -- "$ZC_BIN/zcs" -1
		[ "$_opt" = -p ] || set -- "$@" -p 0 ;;
	cyclesoak) set -- "$ZC_BIN/cyclesoak" -1 -f "$TMP/no-calibration" ;;
	run_rr)	set -- "$ZC_BIN/run_rr" ;;
	esac
	set -- "$@" "$_opt" "$_val"
	[ "$_prog" = run_rr ] && set -- "$@" true
	refused "$_prog $_opt '$_val' ($_why)" "$_opt" "$_val" "$@"
}

# The table. zero: "bad" when zero means nothing for that option, "ok" when
# it is a valid value (that row is then left out). max: the largest valid
# value from the spec or the program's help, "cpu" for the last CPU this
# kernel knows, or "?" to take the maximum the program itself states when
# it refuses a huge value ("out of range (MIN..MAX)").
while read -r prog opt zero max; do
	case $prog in ''|'#'*) continue ;; esac
	try "$prog" "$opt" "" "empty"
	try "$prog" "$opt" abc "not a number"
	try "$prog" "$opt" 12x "trailing garbage"
	try "$prog" "$opt" 0x10 "hexadecimal"
	try "$prog" "$opt" 1.5 "fraction"
	try "$prog" "$opt" -1 "negative"
	if [ "$zero" = bad ]; then
		try "$prog" "$opt" 0 "zero"
	fi
	try "$prog" "$opt" "$huge" "huge"
	case $max in
	cpu) past=$cpus_conf ;;
	'?') past=$(sed -n 's/.*\.\.\([0-9][0-9]*\)[ a-z]*).*/\1/p' "$TMP/err" | head -n 1)
	     [ -n "$past" ] && past=$((past + 1)) ;;
	*) past=$((max + 1)) ;;
	esac
	if [ -n "$past" ]; then
		try "$prog" "$opt" "$past" "one past the maximum"
	else
		skip "$prog $opt: one past the maximum: the program states no range"
	fi
done <<'EOF'
# prog     opt  zero max
zcc        -b   bad  ?
# -B 0 is CPU 0.
zcc        -B   ok   cpu
zcc        -i   bad  ?
zcc        -o   bad  ?
zcc        -n   bad  ?
zcc        -N   bad  ?
zcc        -p   bad  65535
zcc        -R   bad  ?
zcs        -b   bad  ?
zcs        -B   ok   cpu
zcs        -i   bad  ?
zcs        -o   bad  ?
# zcs -p 0: the kernel picks a port.
zcs        -p   ok   65535
zcs        -m   bad  ?
cyclesoak  -N   bad  ?
cyclesoak  -p   bad  ?
cyclesoak  -m   bad  ?
run_rr     -p   bad  99
run_rr     -l   bad  86400000
EOF

# zcc's seconds (-t, -I, -T) take a fraction, "0.5", and nothing else a
# number parser might: no exponent, hex, sign, inf or a bare point. A value
# accepted here goes on to the connection, which port 1 refuses: exit 1.
for opt in -t -I -T; do
	for v in "" abc 12x 0x10 1e1 inf nan -1 +1 " 1" "1 " 1. .5 "$huge"; do
		try zcc "$opt" "$v" "seconds"
	done
	timeout 5 "$ZC_BIN/zcc" -s 127.0.0.1 -p 1 "$opt" 0.5 "$TMP/file" >/dev/null 2>&1
	rc=$?
	check "zcc $opt 0.5: a fraction of a second is accepted (exit $rc, not 2)" [ "$rc" -eq 1 ]
done
try zcc -t 0 "zero"
try zcc -I 0 "zero"
# zcs's -t and -T take fractions too, as zcc's do.
for opt in -t -T; do
	for v in "" abc 12x 0x10 1e1 inf nan -1 +1 " 1" "1 " 1. .5 "$huge"; do
		try zcs "$opt" "$v" "seconds"
	done
	timeout 2 "$ZC_BIN/zcs" -p 0 "$opt" 0.5 >/dev/null 2>&1
	rc=$?
	check "zcs $opt 0.5: a fraction of a second is accepted (runs until killed: exit $rc)" [ "$rc" -eq 124 ]
done
try zcs -t 0 "zero"

# The spec's other usage errors.
refused "zcc -w without -S" -w "" "$ZC_BIN/zcc" -s 127.0.0.1 -p 1 -w "$TMP/file"
refused "zcc without -s" -s "" "$ZC_BIN/zcc" -p 1 "$TMP/file"
refused "cyclesoak -p with -m" -m "" "$ZC_BIN/cyclesoak" -1 -f "$TMP/no-calibration" -p 1 -m 100
refused "cyclesoak -m with -p" -p "" "$ZC_BIN/cyclesoak" -1 -f "$TMP/no-calibration" -m 100 -p 1

# What getopt refuses comes out the same way in every program: one line
# naming the option (lib/app/opt.c's opt_refused).
refused "zcc: an option missing its value" "-n: needs a value" "" "$ZC_BIN/zcc" -s 127.0.0.1 -p 1 "$TMP/file" -n
refused "zcc: an unknown option" "-Z: unknown option" "" "$ZC_BIN/zcc" -s 127.0.0.1 -p 1 -Z "$TMP/file"
refused "zcs: an option missing its value" "-t: needs a value" "" "$ZC_BIN/zcs" -1 -p 0 -t
refused "zcs: an unknown option" "-Z: unknown option" "" "$ZC_BIN/zcs" -1 -p 0 -Z
refused "zcs: an operand" "unexpected argument 'extra'" "" "$ZC_BIN/zcs" -1 -p 0 extra
refused "cyclesoak: an option missing its value" "-N: needs a value" "" "$ZC_BIN/cyclesoak" -1 -f "$TMP/no-calibration" -N
refused "cyclesoak: an unknown option" "-Z: unknown option" "" "$ZC_BIN/cyclesoak" -1 -f "$TMP/no-calibration" -Z
refused "run_rr: an option missing its value" "-p: needs a value" "" "$ZC_BIN/run_rr" -p
refused "run_rr: an unknown option" "-Z: unknown option" "" "$ZC_BIN/run_rr" -Z true
# An unknown method, in the same words in zcc and zcs, every name listed
# (lib/base/opt.c's opt_unknown).
refused "zcc: an unknown method" "^zcc: -M: 'bogus': unknown method (sendfile, send, " "" \
	"$ZC_BIN/zcc" -s 127.0.0.1 -p 1 -M bogus "$TMP/file"
refused "zcs: an unknown method" "^zcs: -M: 'bogus': unknown method (read, discard, splice, zerocopy)$" "" \
	"$ZC_BIN/zcs" -1 -p 0 -M bogus


# A help text that cannot be written: exit 1, and the line gives the
# write's own reason (the full device's), not a made-up one.
if [ -w /dev/full ]; then
	for prog in zcc zcs cyclesoak run_rr; do
		"$ZC_BIN/$prog" --help >/dev/full 2>"$TMP/err"
		rc=$?
		check "$prog --help >/dev/full: exit 1 ($rc), one line with the reason: $(cat "$TMP/err")" \
			eval '[ "$rc" -eq 1 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ] &&
			grep -qx "$prog: write to stdout: No space left on device" "$TMP/err"'
	done
else
	skip "--help >/dev/full: no writable /dev/full"
fi

# Into a pipe whose reader has gone (SIGPIPE at its default, as in a
# shell): a line and exit 1, not a silent death by SIGPIPE.
# closed_pipe COMMAND...: COMMAND's stdout is a FIFO with no reader left by
# the time it runs, its status in $rc: the FIFO is opened both ways here,
# so that the writer's open does not block; the writer says it has opened
# its end; this end is closed; only then is it told to go on.
closed_pipe() {
	rm -f "$TMP/pipe" "$TMP/opened" "$TMP/go"
	mkfifo "$TMP/pipe"
	exec 7<>"$TMP/pipe"
	(
		exec 7<&-
		: >"$TMP/opened"
		within 50 test -e "$TMP/go"
		exec "$@"
	) >"$TMP/pipe" &
	_cp=$!
	within 50 test -e "$TMP/opened"
	exec 7<&-
	: >"$TMP/go"
	wait "$_cp"
	rc=$?
}
for prog in zcc zcs cyclesoak run_rr; do
	for opt in -h --help --version; do
		closed_pipe env --default-signal=PIPE "$ZC_BIN/$prog" $opt 2>"$TMP/err"
		check "$prog $opt into a closed pipe: exit 1 ($rc), one line: $(cat "$TMP/err")" \
			eval '[ "$rc" -eq 1 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ] &&
			grep -qx "$prog: write to stdout: Broken pipe" "$TMP/err"'
	done
done

finish
