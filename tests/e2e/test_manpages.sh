#!/bin/sh
# The manual pages (man/*.1), -h and the options each program accepts are
# one set per program: an option one of them has and another lacks fails
# here, short or long, and so does an option that takes a value in one and
# none in another. Then the long forms: each gives what its short form
# gives, and an unknown, ambiguous or misspelt one is one usage line naming
# it, exit 2.
. "$ZC_TOP/tests/lib.sh"
# The programs here print -h or --version, refuse an option, or make two
# small transfers that test_zcc.sh makes under the leak check too: no leak
# check in the sanitizer pass (it would triple the test's time).
no_leak_check "help, refusals and transfers the zcc tests leak-check"

progs="zcc zcs cyclesoak run_rr"

# Options the manual pages describe that the programs are still to gain
# (their rows are commented out in the programs' option tables until the
# work that adds them is merged): PROG:SHORT:LONG. Once a program has one,
# this test fails until it is taken off this list.
PENDING=""

# help_opts PROG: "-s --server =" per option of PROG -h ("=": takes a value;
# "-": takes none; a long-only option has "--" for its short form).
help_opts() {
	"$ZC_BIN/$1" -h 2>/dev/null | sed -n \
		-e 's/^  \(-[^ ,]\), \(--[a-z0-9-]*\) [A-Z][A-Z_]*\( .*\)*$/\1 \2 =/p' \
		-e 's/^  \(-[^ ,]\), \(--[a-z0-9-]*\)\(  .*\)*$/\1 \2 -/p' \
		-e 's/^      \(--[a-z0-9-]*\) [A-Z][A-Z_]*\( .*\)*$/-- \1 =/p' \
		-e 's/^      \(--[a-z0-9-]*\)\(  .*\)*$/-- \1 -/p' | sort
}

# man_opts PAGE: the same from a page's option headings,
#   .TP / \fB\-s\fR, \fB\-\-server\fR \fIHOST\fR   (or \fB\-\-version\fR alone)
man_opts() {
	sed -n 's/\\-/-/g; /^\\fB-/p' "$1" | sed -n \
		-e 's/^\\fB\(-.\)\\fR, \\fB\(--[a-z0-9-]*\)\\fR \\fI.*$/\1 \2 =/p' \
		-e 's/^\\fB\(-.\)\\fR, \\fB\(--[a-z0-9-]*\)\\fR$/\1 \2 -/p' \
		-e 's/^\\fB\(--[a-z0-9-]*\)\\fR \\fI.*$/-- \1 =/p' \
		-e 's/^\\fB\(--[a-z0-9-]*\)\\fR$/-- \1 -/p' | sort
}

# pending PROG: PROG's pending options, as man_opts prints them (value or
# not as the page says).
pending() {
	for _p in $PENDING; do
		_prog=${_p%%:*} _rest=${_p#*:}
		[ "$_prog" = "$1" ] || continue
		grep "^${_rest%%:*} ${_rest#*:} " "$TMP/$1.man"
	done
}

# accepted PROG LONG KIND: does PROG take --LONG? Given (with a value when
# KIND is "=") before an unknown short option, so that the program refuses
# something and exits without doing anything: an accepted --LONG leaves
# the refusal to -Z (or to its value), one it does not know is named.
accepted() {
	if [ "$3" = = ]; then set -- "$1" "$2=1"; else set -- "$1" "$2"; fi
	timeout 10 "$ZC_BIN/$1" "$2" -Z >/dev/null 2>"$TMP/acc.err" </dev/null
	! grep -q -e "${2%%=*}: unknown option" -e ": ambiguous option" \
		-e "takes no value" -e "needs a value" "$TMP/acc.err"
}

# differ A B: the lines of A not in B and of B not in A, one line.
differ() {
	{ comm -23 "$1" "$2" | sed 's/^/+/'; comm -13 "$1" "$2" | sed 's/^/-/'; } | tr '\n' ' '
}

for prog in $progs; do
	help_opts "$prog" >"$TMP/$prog.help"
	man_opts "$ZC_TOP/man/$prog.1" >"$TMP/$prog.man"
	pending "$prog" >"$TMP/$prog.pending"
	check "$prog: -h lists options ($(wc -l <"$TMP/$prog.help"))" \
		[ "$(wc -l <"$TMP/$prog.help")" -ge 4 ]
	check "$prog: the manual page lists options ($(wc -l <"$TMP/$prog.man"))" \
		[ "$(wc -l <"$TMP/$prog.man")" -ge 4 ]

	# Pending options: in the page, and not yet in the program.
	while read -r s l k; do
		if grep -q "^$s $l " "$TMP/$prog.help"; then
			not_ok "$prog $s $l is in -h now: take $prog:$s:$l off PENDING in $0"
		else
			skip "$prog $s $l: in the manual page, not yet in $prog (pending a merge)"
		fi
	done <"$TMP/$prog.pending"
	sort "$TMP/$prog.help" "$TMP/$prog.pending" | uniq >"$TMP/$prog.expect"
	d=$(differ "$TMP/$prog.man" "$TMP/$prog.expect")
	check "$prog: the manual page and -h list the same options, each with or without a value (page +, -h -: $d)" \
		[ -z "$d" ]

	# What the program takes: every long option of -h and of the page.
	: >"$TMP/$prog.acc"
	cat "$TMP/$prog.help" "$TMP/$prog.man" | sort -u | while read -r s l k; do
		if accepted "$prog" "$l" "$k"; then
			echo "$s $l $k" >>"$TMP/$prog.acc"
		fi
	done
	sort -o "$TMP/$prog.acc" "$TMP/$prog.acc"
	d=$(differ "$TMP/$prog.acc" "$TMP/$prog.help")
	check "$prog: it accepts exactly the long options -h lists (accepted +, -h -: $d)" \
		[ -z "$d" ]
	# And each short one -h lists: refused only for -Z after it.
	bad=
	while read -r s l k; do
		[ "$s" = -- ] && continue
		if [ "$k" = = ]; then set -- "$s" 1; else set -- "$s"; fi
		timeout 10 "$ZC_BIN/$prog" "$@" -Z >/dev/null 2>"$TMP/acc.err" </dev/null
		grep -q -e "$s: unknown option" -e "$s: needs a value" "$TMP/acc.err" && bad="$bad $s"
	done <"$TMP/$prog.help"
	check "$prog: it accepts every short option -h lists (refused:$bad)" [ -z "$bad" ]
done

# Each page: the version its program prints, and clean under the
# formatters (make lint runs them too; here they guard make check).
for prog in $progs; do
	v=$("$ZC_BIN/$prog" --version | sed 's/^[^ ]* //')
	check "$prog.1 says zc $v, as $prog --version does" \
		grep -Eq "^\.TH [A-Z_]+ 1 \"[0-9]{4}-[0-9]{2}-[0-9]{2}\" \"zc $v\" " "$ZC_TOP/man/$prog.1"
	for tool in "groff -ww -z -man" "mandoc -T lint"; do
		if command -v "${tool%% *}" >/dev/null; then
			# shellcheck disable=SC2086
			$tool "$ZC_TOP/man/$prog.1" >"$TMP/lint" 2>&1
			check "$tool $prog.1: nothing to say ($(head -c 200 "$TMP/lint"))" [ ! -s "$TMP/lint" ]
		else
			skip "$tool $prog.1: ${tool%% *} is not installed"
		fi
	done
done

# The comparison itself: a row one side has and the other lacks is seen.
cp "$ZC_TOP/man/zcs.1" "$TMP/fake.1"
printf '.TP\n\\fB\\-Q\\fR, \\fB\\-\\-quux\\fR \\fIN\\fR\nA fake option.\n' >>"$TMP/fake.1"
man_opts "$TMP/fake.1" >"$TMP/fake.man"
d=$(differ "$TMP/fake.man" "$TMP/zcs.expect")
check "a fake row added to a copy of zcs.1 is seen as missing from -h ($d)" [ "$d" = "+-Q --quux = " ]
grep -v -e '--once' "$TMP/zcs.man" >"$TMP/fake.man"
d=$(differ "$TMP/fake.man" "$TMP/zcs.expect")
check "a row missing from a copy of zcs.1 is seen ($d)" [ "$d" = "--1 --once - " ]
sed 's/^\(-t --period\) =/\1 -/' "$TMP/zcs.man" >"$TMP/fake.man"
d=$(differ "$TMP/fake.man" "$TMP/zcs.expect")
check "a value the page forgets is seen ($d)" [ -n "$d" ]

# ---- each long form gives what its short form gives --------------------------
# same WHAT PROG "SHORT ARGS" "LONG ARGS": the same exit status, stdout and
# stderr, once the option names in the messages are made alike.
echo data >"$TMP/file"
same() {
	_what=$1 _prog=$2
	# shellcheck disable=SC2086
	timeout 20 "$ZC_BIN/$_prog" $3 >"$TMP/s.out" 2>"$TMP/s.err" </dev/null
	_rs=$?
	# shellcheck disable=SC2086
	timeout 20 "$ZC_BIN/$_prog" $4 >"$TMP/l.out" 2>"$TMP/l.err" </dev/null
	_rl=$?
	# "--port: 'x'" and "-p: 'x'" say the same; so do two port numbers.
	for _f in s l; do
		sed -e 's/--[a-z-]*: /-X: /' -e 's/^-[A-Za-z1]: /-X: /' -e 's/: -[A-Za-z1]: /: -X: /' \
			-e 's/port [0-9]*/port N/' "$TMP/$_f.err" >"$TMP/$_f.norm"
	done
	if [ "$_rs" -eq "$_rl" ] && cmp -s "$TMP/s.out" "$TMP/l.out" &&
		cmp -s "$TMP/s.norm" "$TMP/l.norm"; then
		ok "$_what: $3 and $4 both exit $_rs ($(head -c 120 "$TMP/s.err"))"
	else
		not_ok "$_what: $3 exits $_rs ($(head -c 150 "$TMP/s.err")), $4 exits $_rl ($(head -c 150 "$TMP/l.err"))"
	fi
}

same "zcc: a bad port" zcc "-s 0 -p 0 $TMP/file" "--server=0 --port=0 $TMP/file"
same "zcc: a bad loop count" zcc "-s 0 -n abc $TMP/file" "--server 0 --loops abc $TMP/file"
same "zcc: no server refuses" zcc "-s 127.0.0.1 -p 1 -T 1 $TMP/file" \
	"--server 127.0.0.1 --port 1 --stall-timeout 1 $TMP/file"
same "zcc: -w without -S" zcc "-s 0 -w $TMP/file" "--server 0 --write $TMP/file"
same "zcc: -S with another method" zcc "-s 0 -S -M mmap $TMP/file" \
	"--server 0 --copy --method mmap $TMP/file"
same "zcc: -b with sendfile" zcc "-s 0 -b 4K $TMP/file" "--server 0 --chunk-size=4K $TMP/file"
same "zcc: -n with -t" zcc "-s 0 -n 1 -t 1 $TMP/file" "--server 0 --loops 1 --time 1 $TMP/file"
same "zcc: -C with -c" zcc "-C -c" "--calibrate --cpu-load"
same "zcc: -r without -c" zcc "-s 0 -r $TMP/file" "--server 0 --run-time $TMP/file"
same "zcc: -B out of range" zcc "-s 0 -B 99999 $TMP/file" "--server 0 --cpu 99999 $TMP/file"
same "zcc: -h" zcc "-h" "--help"
same "zcs: a bad period" zcs "-1 -p 0 -t 0" "--once --port 0 --period=0"
same "zcs: an unknown method" zcs "-M nonesuch" "--method nonesuch"
same "zcs: -f without -c" zcs "-f x" "--calibration-file x"
same "zcs: -N without -c" zcs "-N 1" "--cpus=1"
same "zcs: -m 0" zcs "-m 0" "--max-conns 0"
same "cyclesoak: -p and -m" cyclesoak "-p 1 -m 5" "--period 1 --period-ms 5"
same "cyclesoak: -C with -1" cyclesoak "-C -1" "--calibrate --once"
same "cyclesoak: a bad -N" cyclesoak "-N 0" "--cpus 0"
same "run_rr: a bad priority" run_rr "-p 0 true" "--priority=0 true"
same "run_rr: a bad limit" run_rr "-l 0 true" "--rt-limit 0 true"
if [ "$(id -u)" = 0 ]; then
	same "run_rr: a command under SCHED_RR" run_rr "-p 1 -l 5000 true" "--priority 1 --rt-limit=5000 true"
else
	skip "run_rr under SCHED_RR, short and long: not root"
fi

# A real transfer: the same bytes, the same line but for the figures.
if zcs_start -1; then
	run_fg "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -n 3 -b 1K -M send "$TMP/file" \
		>"$TMP/s.out" 2>&1
	rs=$?
	wait "$ZCS_PID" 2>/dev/null
	forget_bg "$ZCS_PID"
	zcs_start --once
	run_fg "$ZC_BIN/zcc" --server=127.0.0.1 --port "$ZCS_PORT" --loops=3 --chunk-size 1K \
		--method=send "$TMP/file" >"$TMP/l.out" 2>&1
	rl=$?
	wait "$ZCS_PID" 2>/dev/null
	forget_bg "$ZCS_PID"
	bs=$(sed -n 's/^sent: \([0-9]*\) bytes.*/\1/p' "$TMP/s.out")
	bl=$(sed -n 's/^sent: \([0-9]*\) bytes.*/\1/p' "$TMP/l.out")
	check "zcc: a transfer by short and by long options sends the same bytes ($rs: $bs, $rl: $bl)" \
		eval '[ "$rs" -eq 0 ] && [ "$rl" -eq 0 ] && [ -n "$bs" ] && [ "$bs" = "$bl" ]'
else
	not_ok "zcs did not start: $(cat "$TMP/zcs.err")"
fi

# ---- unknown, ambiguous, misspelt ------------------------------------------
# refused_as WHAT WANT PROG ARGS...: exit 2 and stderr is one line holding WANT.
refused_as() {
	_what=$1 _want=$2
	shift 2
	timeout 10 "$ZC_BIN/$@" >"$TMP/r.out" 2>"$TMP/r.err" </dev/null
	_rc=$?
	check "$_what: exit 2 ($_rc), one line naming it ($(head -c 200 "$TMP/r.err"))" \
		eval '[ "$_rc" -eq 2 ] && [ "$(wc -l <"$TMP/r.err")" -eq 1 ] &&
			grep -qF -- "$_want" "$TMP/r.err" && [ ! -s "$TMP/r.out" ]'
}

for prog in $progs; do
	refused_as "$prog --bogus" "$prog: --bogus: unknown option" $prog --bogus
	refused_as "$prog --bogus=1" "$prog: --bogus: unknown option" $prog --bogus=1
	refused_as "$prog --version=1" "$prog: --version: takes no value" $prog --version=1
done
refused_as "zcc --s (ambiguous)" "zcc: --s: ambiguous option (--server," zcc --s 0 "$TMP/file"
refused_as "zcc --loo (ambiguous)" "zcc: --loo: ambiguous option (--loops, --loop-counts)" \
	zcc --loo 2 -s 0 "$TMP/file"
refused_as "zcs --s (ambiguous)" "zcs: --s: ambiguous option" zcs --s 1
refused_as "cyclesoak --per (ambiguous)" "cyclesoak: --per: ambiguous option" cyclesoak --per
refused_as "run_rr --r (ambiguous? one: --rt-limit)" "run_rr: --rt-limit: needs a value" run_rr --r
refused_as "zcc --sever (misspelt)" "zcc: --sever: unknown option" zcc --sever 0 "$TMP/file"
refused_as "zcc --jsno (misspelt)" "zcc: --jsno: unknown option" zcc -s 0 --jsno "$TMP/file"
refused_as "zcs --max-con=0 (a prefix, a bad value)" "zcs: --max-conns: '0': out of range" \
	zcs --max-con=0
refused_as "zcs --json=yes" "zcs: --json: takes no value" zcs --json=yes
refused_as "cyclesoak --cpus (no value)" "cyclesoak: --cpus: needs a value" cyclesoak --cpus
refused_as "run_rr --priorty (misspelt)" "run_rr: --priorty: unknown option" run_rr --priorty 1 true
refused_as "zcc --port= (empty)" "zcc: --port: '': empty value" zcc -s 0 --port= "$TMP/file"

# What a reader met in the output and the pages did not explain: -W's
# unattributed share below 0, a stall's close with a reset.
# page_says PAGE TEXT: the page, its lines joined, holds TEXT (grep -E).
page_says() {
	tr '\n' ' ' <"$ZC_TOP/man/$1.1" | grep -Eq "$2"
}
for p in zcc zcs cyclesoak; do
	check "$p.1 says -W's unattributed share can be negative, and why" \
		page_says "$p" 'unattributed[^.]*share[^.]*(can be|be slightly) *negative'
done
for p in zcc zcs; do
	check "$p.1 says a stalled connection closes with a reset (SO_LINGER 0)" \
		page_says "$p" '(stall|gives up on)[^.]*reset \(SO_LINGER 0\)'
done
finish
