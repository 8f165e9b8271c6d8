#!/bin/sh
# zcs's receive path under seeded random streams (tests/tools/mutstream): bits
# flipped, cut short, bytes appended, huge lengths, zero files, 0xffffffff
# loops, noise, some sent in small pieces, from three clients at once. With
# every receive method (-M) the server has, and with reads of 7 bytes, a zcs
# must take them all: a "done:" line for each whole stream, exactly one line
# on stderr ("zcs: PEER port N: ...") for each bad one, no sanitizer report
# (the san pass runs this under ASan+UBSan), still alive at the end, and
# gone with its children on SIGTERM.
#
# The judging is first shown to fail: on a zcs killed by SIGSEGV, and on
# doctored copies of a good run's output (a line missing, a line without
# the prefix, a sanitizer report).
#
# Fixed seed (1); ZC_FUZZ_SEED=N tries another, ZC_FUZZ_SCALE=K sends K
# times the streams.
. "$ZC_TOP/tests/lib.sh"

MUT=$ZC_TESTBIN/mutstream
SEED=${ZC_FUZZ_SEED:-1}
STREAMS=$((60 * ${ZC_FUZZ_SCALE:-1}))
[ "$ZC_PASS" = san ] && STREAMS=$((STREAMS / 2))

# kids PID: the PIDs of PID's children.
kids() { proc_children "$1" | awk '{ print $1 }'; }

# none_left PID...: none of them runs ($_left: those that do).
none_left() {
	_left=
	for _k in "$@"; do
		proc_alive "$_k" && _left="$_left $_k"
	done
	[ -z "$_left" ]
}

# verdict PID OUT ERR WHOLE BAD: what is wrong with a run, or nothing.
verdict() {
	_done=$(grep -c '^done: ' "$2")
	_msgs=$(grep -Ec '^zcs: [^ ]+ port [0-9]+: ' "$3")
	_lines=$(grep -c '' "$3")
	if ! kill -0 "$1" 2>/dev/null; then
		echo "zcs is gone"
	elif grep -Eq 'Sanitizer|runtime error:' "$3"; then
		echo "sanitizer: $(grep -E -m 1 'ERROR|runtime error:' "$3")"
	elif [ "$_done" -ne "$4" ]; then
		echo "$_done done lines for $4 whole streams"
	elif [ "$_msgs" -ne "$5" ] || [ "$_lines" -ne "$5" ]; then
		echo "$_msgs messages ($_lines lines) on stderr for $5 bad streams"
	elif grep -vq '^zcs: ' "$3"; then
		echo "a line without the prefix: $(grep -v -m 1 '^zcs: ' "$3")"
	fi
}

# settle PID OUT ERR WHOLE BAD: wait (up to 10 s) for the lines to come.
settle() {
	within 100 judged_whole "$@"
}

judged_whole() {
	[ -z "$(verdict "$@")" ]
}

# The judging, shown to fail.
zcs_start || { not_ok "zcs did not start: $(cat "$TMP/zcs.err")"; finish; }
kill -SEGV "$ZCS_PID"
within 50 proc_ended "$ZCS_PID"
wait "$ZCS_PID"
forget_bg "$ZCS_PID"
check "the judging sees a zcs that died: $(verdict "$ZCS_PID" "$TMP/zcs.out" "$TMP/zcs.err" 0 0)" \
	[ -n "$(verdict "$ZCS_PID" "$TMP/zcs.out" "$TMP/zcs.err" 0 0)" ]

zcs_start || { not_ok "zcs did not start: $(cat "$TMP/zcs.err")"; finish; }
"$MUT" -s "$SEED" -n 20 -p "$ZCS_PORT" >"$TMP/mut.out" 2>&1
set -- $(sed -n 's/.*: \([0-9]*\) whole, \([0-9]*\) bad;.*/\1 \2/p' "$TMP/mut.out")
whole=${1:-0} bad=${2:-0}
settle "$ZCS_PID" "$TMP/zcs.out" "$TMP/zcs.err" "$whole" "$bad"
why=$(verdict "$ZCS_PID" "$TMP/zcs.out" "$TMP/zcs.err" "$whole" "$bad")
[ -z "$why" ] && [ "$bad" -gt 0 ]
check "a good run judged good: $whole whole, $bad bad${why:+: $why}" [ $? -eq 0 ]
sed 1d "$TMP/zcs.err" >"$TMP/e1"
{ cat "$TMP/zcs.err"; echo "stray"; } >"$TMP/e2"
{ cat "$TMP/zcs.err"; echo "==9==ERROR: AddressSanitizer: pretend"; } >"$TMP/e3"
for e in e1 e2 e3; do
	why=$(verdict "$ZCS_PID" "$TMP/zcs.out" "$TMP/$e" "$whole" "$bad")
	check "the judging sees a doctored log ($e): $why" [ -n "$why" ]
done
kill "$ZCS_PID"

# fuzz_method METHOD|default STREAMS [ZCS OPTIONS...]: one zcs with that -M
# taking STREAMS streams from three clients at once (seeds SEED, SEED+1000,
# SEED+2000), so that connections overlap and their lines could tangle.
fuzz_method() {
	_label=$1 _streams=$2
	shift 2
	[ "$_label" = default ] || set -- -M "$_label" "$@"
	_label="$_label${3:+ $3 $4}"
	zcs_start "$@" || { not_ok "zcs $* did not start: $(head -n 2 "$TMP/zcs.err")"; return; }
	_rc=0
	for _c in 0 1 2; do
		"$MUT" -s $((SEED + 1000 * _c)) -n $((_streams / 3)) -p "$ZCS_PORT" >"$TMP/mut$_c.out" 2>&1 &
		eval "_pid$_c=\$!"
	done
	for _c in 0 1 2; do
		eval "wait \$_pid$_c" || _rc=$?
	done
	_whole=0 _bad=0
	for _c in 0 1 2; do
		set -- $(sed -n 's/.*: \([0-9]*\) whole, \([0-9]*\) bad;.*/\1 \2/p' "$TMP/mut$_c.out")
		_whole=$((_whole + ${1:-0})) _bad=$((_bad + ${2:-0}))
	done
	settle "$ZCS_PID" "$TMP/zcs.out" "$TMP/zcs.err" "$_whole" "$_bad"
	_why=$(verdict "$ZCS_PID" "$TMP/zcs.out" "$TMP/zcs.err" "$_whole" "$_bad")
	if [ "$_rc" -ne 0 ]; then
		not_ok "zcs -M $_label: mutstream failed ($_rc): $(cat "$TMP"/mut?.out | grep -v '^stream' | head -c 300; cat "$TMP"/mut?.out | grep -m 3 '^stream')"
	elif [ -n "$_why" ]; then
		not_ok "zcs -M $_label under $_streams mutated streams (seed $SEED): $_why"
		sed 's/^/    zcs: /' "$TMP/zcs.err" | grep -E -m 5 'ERROR|runtime|#[0-9] '
	else
		ok "zcs -M $_label under $_streams mutated streams from 3 clients (seed $SEED): $_whole whole, $_bad bad, each judged once"
	fi
	_kids=$(kids "$ZCS_PID")
	kill "$ZCS_PID" 2>/dev/null
	_ended=0
	within 50 proc_ended "$ZCS_PID" && _ended=1
	within 50 none_left $_kids
	[ "$_ended" = 1 ] && [ -z "$_left" ]
	check "zcs -M $_label: gone on SIGTERM with its children${_left:+ (left:$_left)}" [ $? -eq 0 ]
}

# Each method twice: reads of the default size, and of 7 bytes, so that
# every header word is taken in pieces.
if "$ZC_BIN/zcs" -h | grep -q -- '-M '; then
	for m in read discard splice zerocopy; do
		fuzz_method "$m" "$STREAMS"
		fuzz_method "$m" $((STREAMS / 3)) -b 7
	done
else
	skip "zcs has no -M yet: the default receive method only"
	fuzz_method default "$STREAMS"
fi

finish
