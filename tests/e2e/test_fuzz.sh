#!/bin/sh
# needs: meter-long long
# Every option parser under seeded random command lines (tests/tools/argvfuzz):
# no crash, hang, stray exit status, silent failure, usage error on more
# than one line, stderr line without the program's name, sanitizer report,
# death by a SIGHUP that was ignored when it started (nohup),
# process left behind, file left in the working directory or prepared file
# replaced; and cyclesoak's calibration reader under random and mutated
# files, accepting exactly what the format allows.
#
# First each detector is shown to fire, on tests/tools/fuzzvictim's deliberate
# faults, and to stay quiet on its well-behaved mode.
#
# The seed is fixed (1) so a pass is repeatable; ZC_FUZZ_SEED=N tries
# another and ZC_FUZZ_SCALE=K runs K times the cases, for longer hunts. The
# sanitizer pass runs two fifths of the cases: each start of an ASan
# program costs several times a plain one.
# A finding prints the argv to replay it and the argvfuzz line that runs
# that one case again (-o).
. "$ZC_TOP/tests/lib.sh"

# LeakSanitizer stops every thread at exit to scan memory (stop-the-world
# by ptrace), and now and then that hangs (google/sanitizers#1330): in one
# full make check here, zcc -h under it printed nothing for 10 s and the
# case was judged a hang. A hang here must be the program's; leaks are
# checked by the tests that run real transfers (test_zcc, test_zcs...).
no_leak_check "a hang judged here must be the program's, not LeakSanitizer's exit scan"

FUZZ=$ZC_TESTBIN/argvfuzz
VICTIM=$ZC_TESTBIN/fuzzvictim
SEED=${ZC_FUZZ_SEED:-1}
SCALE=${ZC_FUZZ_SCALE:-1}

# cases N: how many cases of a plain pass's N this pass runs.
cases() {
	case $ZC_PASS in
	san) echo $(($1 * SCALE * 2 / 5)) ;;
	*) echo $(($1 * SCALE)) ;;
	esac
}

# detects KIND MODE [ARGVFUZZ FLAGS...]: argvfuzz finds KIND in the victim's
# MODE. A case still running after 5 s is a hang (1 s for the hang itself):
# 1 s was too short for the ASan victim once, beside another test.
detects() {
	_kind=$1 _mode=$2
	shift 2
	"$FUZZ" -n 1 -t 5000 -T 1000 -O 'ab:x:' "$@" -- "$VICTIM" "$_mode" >"$TMP/v.out" 2>&1
	_rc=$?
	if [ "$_rc" -eq 3 ] && grep -q "^finding: $_kind: " "$TMP/v.out"; then
		ok "argvfuzz detects $_kind (fuzzvictim $_mode)"
	else
		not_ok "argvfuzz misses $_kind (fuzzvictim $_mode): exit $_rc: $(head -c 400 "$TMP/v.out")"
	fi
}

detects crash segv
detects hang hang -t 1000
detects status exit3
detects silent silent
detects lines twolines
detects prefix noprefix
detects sanitizer asan
detects leftover leftover
detects created created
detects changed changed
detects term noterm -k
detects nohup hup -k -H 1
detects accepted accept -c -n 20
"$FUZZ" -n 1 -O 'ab:x:' -j "$ZC_TESTBIN/jsoncheck" -- "$VICTIM" badjson -J >"$TMP/v.out" 2>&1
rc=$?
[ "$rc" -eq 3 ] && grep -q "^finding: json: " "$TMP/v.out"
check "argvfuzz detects json (fuzzvictim badjson -J): exit $rc: $(grep -m 1 '^finding' "$TMP/v.out" | cut -c 1-120)" \
	[ $? -eq 0 ]

"$FUZZ" -n 20 -O 'ab:x:' -- "$VICTIM" good >"$TMP/v.out" 2>&1
rc=$?
check "argvfuzz finds nothing in a well-behaved program (exit $rc): $(tail -n 1 "$TMP/v.out")" \
	[ "$rc" -eq 0 ]

# Isolated (a network namespace and a /tmp of its own) the cases reach no
# other program's port, name server or meter lock; otherwise zcc gets a
# closed local port and no random -s or -p.
isolate=-N
zcc_fixed="-s 127.0.0.1 data"
zcc_exclude=C
if "$FUZZ" -N -n 0 -O a -- "$VICTIM" good | grep -q '^# not isolated'; then
	isolate=
	zcc_fixed="-s 127.0.0.1 -p 1 data"
	zcc_exclude=Csp
	skip "no private network namespace (not root?): zcc's -s and -p left out"
fi

# fuzz PROG CASES [ARGVFUZZ FLAGS...] -- [FIXED ARGS]: one program's run.
fuzz() {
	_prog=$1 _n=$(cases "$2")
	shift 2
	"$FUZZ" $isolate -t 10000 -s "$SEED" -n "$_n" "$@" >"$TMP/f.out" 2>&1
	_rc=$?
	_sum=$(grep '^argvfuzz: ' "$TMP/f.out" | tail -n 1)
	if [ "$_rc" -eq 0 ]; then
		ok "$_prog under $_n random command lines: $_sum"
	else
		not_ok "$_prog under random command lines: exit $_rc: $_sum"
		grep -v '^argvfuzz: ' "$TMP/f.out" | head -n 20 | sed 's/^/    /'
		echo "    (one case again: $FUZZ $isolate -s $SEED -o CASE -v $*)"
	fi
}

# A case that has not ended after 10 s is a hang (only a broken program
# waits that long: the machine may be busy). -C calibrates for seconds:
# left out. zcs and cyclesoak serve or measure until stopped: once they
# have written to stdout they get 100 ms, then SIGTERM (-k); with -H 4 one
# case in four starts with SIGHUP ignored, as under nohup, and is first
# sent a SIGHUP that must change nothing. run_rr runs `true` (after the
# random part, -A); run_rr and `cyclesoak -- command` pass on 126 and 127
# for a command that cannot be executed or found. Random options include
# -c, and cyclesoak meters: these hold the run's meter slot.
meter_slot
fuzz zcc 100 -x "$zcc_exclude" -j "$ZC_TESTBIN/jsoncheck" -- "$ZC_BIN/zcc" $zcc_fixed
fuzz zcs 60 -k -H 4 -j "$ZC_TESTBIN/jsoncheck" -- "$ZC_BIN/zcs"
fuzz cyclesoak 60 -k -H 4 -j "$ZC_TESTBIN/jsoncheck" -x C -e 126,127 -- "$ZC_BIN/cyclesoak"
fuzz run_rr 100 -A -e 126,127 -- "$ZC_BIN/run_rr" true

# The calibration reader: valid files, mutated ones and noise, read by the
# loop-count meter (-L where the program has it) for one 50 ms period.
force=-L
"$FUZZ" $isolate -c -n 1 -- "$ZC_BIN/cyclesoak" -L -1 -m 50 -f cal >"$TMP/c.out" 2>&1
if grep -q '^finding: status: .*usage error' "$TMP/c.out"; then
	force=
fi
ncal=$(cases 40)
"$FUZZ" $isolate -t 10000 -c -s "$SEED" -n "$ncal" -- "$ZC_BIN/cyclesoak" $force -1 -m 50 -f cal \
	>"$TMP/c.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "cyclesoak -f under $ncal random calibration files: $(tail -n 1 "$TMP/c.out")"
else
	not_ok "cyclesoak -f under random calibration files: exit $rc"
	head -n 20 "$TMP/c.out" | sed 's/^/    /'
fi
meter_slot_free

# What the fuzz found, pinned: a value or path holding a newline or a
# terminal escape must still be one line on stderr, the value shown
# escaped (\n, \e), never raw.
# one_line RC WHAT COMMAND...: exit RC with exactly one line, no escape.
one_line() {
	_want=$1 _what=$2
	shift 2
	(cd "$TMP" && timeout 10 "$@" </dev/null >/dev/null 2>"$TMP/one.err")
	_rc=$? _n=$(grep -c '' "$TMP/one.err")
	# Shown with \ as / : lib.sh's ok is echo, which reads \n in dash.
	_shown=$(tr '\\\n\033' '/|?' <"$TMP/one.err")
	if [ "$_rc" -eq "$_want" ] && [ "$_n" -eq 1 ] && ! grep -q "$ESC" "$TMP/one.err" &&
	   grep -q 'a\\nb\|x\\e\[2Jy' "$TMP/one.err"; then
		ok "$_what: one line, the value escaped: $_shown"
	else
		not_ok "$_what: exit $_rc (want $_want), $_n lines on stderr: $_shown"
	fi
}
NL='a
b'
ESC=$(printf '\033')
one_line 2 "zcc -n 'a<newline>b'" "$ZC_BIN/zcc" -s 127.0.0.1 -p 1 -n "$NL" /dev/null
one_line 2 "zcs -b 'a<newline>b'" "$ZC_BIN/zcs" -p 0 -b "$NL"
one_line 2 "cyclesoak -p 'a<newline>b'" "$ZC_BIN/cyclesoak" -p "$NL"
one_line 2 "run_rr -p 'a<newline>b'" "$ZC_BIN/run_rr" -p "$NL" true
one_line 2 "zcs -t 'x<ESC>[2Jy'" "$ZC_BIN/zcs" -p 0 -t "x$ESC[2Jy"
one_line 2 "zcs operand 'a<newline>b'" "$ZC_BIN/zcs" -p 0 -- "$NL"
one_line 127 "run_rr 'a<newline>b' (no such command)" "$ZC_BIN/run_rr" "$NL"
printf 'x' >"$TMP/one.dat"
one_line 1 "zcc -f 'a<newline>b' (no calibration file)" \
	"$ZC_BIN/zcc" -s 127.0.0.1 -p 1 -c -L -f "$NL" one.dat

# A backslash is escaped too, so a name holding a newline and one holding
# backslash-n never print alike: in zcc's own lines (a skipped file), in
# lib's (a host that does not resolve) and in usage errors.
BS='a\nb'
# differ WHAT: $TMP/nl.err and $TMP/bs.err, one line each, are not alike.
differ() {
	_n1=$(grep -c '' "$TMP/nl.err") _n2=$(grep -c '' "$TMP/bs.err")
	_shown="$(tr '\\\n' '/|' <"$TMP/nl.err") and $(tr '\\\n' '/|' <"$TMP/bs.err")"
	if [ "$_n1" -eq 1 ] && [ "$_n2" -eq 1 ] && ! cmp -s "$TMP/nl.err" "$TMP/bs.err"; then
		ok "$1: 'a<newline>b' and 'a<backslash>nb' print differently: $_shown"
	else
		not_ok "$1: want one line each, different: $_shown"
	fi
}
(cd "$TMP" && timeout 10 "$ZC_BIN/zcc" -s 127.0.0.1 -p 1 "$NL" one.dat >/dev/null 2>"$TMP/nl.err"
 timeout 10 "$ZC_BIN/zcc" -s 127.0.0.1 -p 1 "$BS" one.dat >/dev/null 2>"$TMP/bs.err")
grep -v '^zcc: connect' "$TMP/nl.err" >"$TMP/x" && mv "$TMP/x" "$TMP/nl.err"
grep -v '^zcc: connect' "$TMP/bs.err" >"$TMP/x" && mv "$TMP/x" "$TMP/bs.err"
differ "zcc skipping a missing file"
timeout 10 "$ZC_BIN/zcc" -T 1 -s "$NL" "$TMP/one.dat" >/dev/null 2>"$TMP/nl.err"
timeout 10 "$ZC_BIN/zcc" -T 1 -s "$BS" "$TMP/one.dat" >/dev/null 2>"$TMP/bs.err"
differ "zcc -s, a host that does not resolve"
timeout 10 "$ZC_BIN/zcc" -n "$NL" -s 127.0.0.1 "$TMP/one.dat" >/dev/null 2>"$TMP/nl.err"
timeout 10 "$ZC_BIN/zcc" -n "$BS" -s 127.0.0.1 "$TMP/one.dat" >/dev/null 2>"$TMP/bs.err"
differ "zcc -n, a usage error"
(cd "$TMP" && timeout 10 "$ZC_BIN/zcc" -s 127.0.0.1 -p 1 -c -L -f "$NL" one.dat >/dev/null 2>"$TMP/nl.err"
 timeout 10 "$ZC_BIN/zcc" -s 127.0.0.1 -p 1 -c -L -f "$BS" one.dat >/dev/null 2>"$TMP/bs.err")
differ "zcc -c -L -f, a message inside another (the meter's)"

finish
