#!/bin/sh
# needs: alone
# The calibration file end to end: `cyclesoak -C -f PATH` and `zcc -C`
# (./counts_per_sec) refuse a PATH that is not a regular file with the same
# one line, exit 1, the thing at PATH left exactly as it was; and a file
# that is not what we write is refused when read; and a calibration that
# is let through, as zcc -J -C's JSON lines. tests/unit/test_calib.c checks the
# library itself; this checks that the programs say it. It calibrates, so
# it needs the machine alone.
. "$ZC_TOP/tests/lib.sh"

cs=$ZC_BIN/cyclesoak
# cyclesoak reads the file only for the loop-count method; -L forces it
# where that option exists and run time would be the default.
lflag=
"$cs" -h 2>&1 | grep -q -- '^ *-L[ ,]' && lflag=-L

# state PATH: what lstat says, and a symlink's target, on one line.
state() {
	stat -c '%d %i %f %t:%T %s %N' "$1" 2>&1
}

# another_meter FILE: another meter held the machine (not ours to judge).
another_meter() {
	grep -q 'another meter is running' "$1"
}

# no_cpu FILE: work at nice 0 held every CPU, so the idle-priority soakers
# never counted and the calibration ended before it came to the file.
no_cpu() {
	grep -q 'soakers did not count' "$1"
}

# refused WHAT KIND PATH: cyclesoak -C -f PATH exits 1 with the one line.
refused() {
	_before=$(state "$3")
	timeout 30 "$cs" -C -m 100 -f "$3" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	check "-C -f $1: left as it was ($(state "$3"))" [ "$(state "$3")" = "$_before" ]
	check "-C -f $1: no file left beside it" \
		[ "$(ls "$(dirname "$3")" | grep -c "^$(basename "$3")\.")" -eq 0 ]
	if another_meter "$TMP/err" || no_cpu "$TMP/err"; then
		skip "-C -f $1: the calibration ended before the file ($(cat "$TMP/err"))"
		return
	fi
	check "-C -f $1: exit 1 ($_rc)" [ "$_rc" -eq 1 ]
	check "-C -f $1: one line: $(cat "$TMP/err")" [ "$(wc -l <"$TMP/err")" -eq 1 ]
	check "-C -f $1: it says $2 and that it refuses" \
		grep -qx "cyclesoak: $3: $2, not a regular file: refusing to replace it" "$TMP/err"
}

mkdir "$TMP/d"
echo "1234567" >"$TMP/real"
mkfifo "$TMP/d/fifo"
refused "a FIFO" "a FIFO" "$TMP/d/fifo"
ln -s "$TMP/real" "$TMP/d/link"
refused "a symlink to a regular file" "a symlink" "$TMP/d/link"
check "the symlink's target is untouched" [ "$(cat "$TMP/real")" = 1234567 ]
ln -s nowhere "$TMP/d/dangling"
refused "a dangling symlink" "a symlink" "$TMP/d/dangling"
mkdir "$TMP/d/dir"
refused "a directory" "a directory" "$TMP/d/dir"
if mknod "$TMP/d/null" c 1 3 2>/dev/null; then
	refused "a device node (1:3, as /dev/null)" "a character device" "$TMP/d/null"
elif [ ! -w /dev ]; then
	refused "/dev/null (an unwritable /dev)" "a character device" /dev/null
else
	skip "-C -f a device node: mknod refused and /dev is writable"
fi

# zcc -C writes ./counts_per_sec through the same code: the same line.
(
	cd "$TMP/d" && mkfifo counts_per_sec &&
	timeout 60 "$ZC_BIN/zcc" -C >"$TMP/zout" 2>"$TMP/zerr"
	echo $? >"$TMP/zrc"
)
check "zcc -C onto a FIFO: it is still a FIFO" [ -p "$TMP/d/counts_per_sec" ]
if another_meter "$TMP/zerr" || no_cpu "$TMP/zerr"; then
	skip "zcc -C: the calibration ended before the file ($(cat "$TMP/zerr"))"
else
	check "zcc -C onto a FIFO: exit 1 ($(cat "$TMP/zrc"))" [ "$(cat "$TMP/zrc")" -eq 1 ]
	check "zcc -C onto a FIFO: cyclesoak's line: $(cat "$TMP/zerr")" \
		[ "$(cat "$TMP/zerr")" = "zcc: counts_per_sec: a FIFO, not a regular file: refusing to replace it" ]
fi

# zcc -J -C: the lines and file of cyclesoak -C, as JSON (parsed line by
# line); a machine too busy to calibrate is refused, which is a skip here
# (with the file left absent).
mkdir "$TMP/j"
(cd "$TMP/j" && timeout 90 "$ZC_BIN/zcc" -J -C >"$TMP/cal.out" 2>"$TMP/cal.err")
rc=$?
J=$ZC_TESTBIN/jsoncheck
rate=$("$J" -E calibrated -g loops_per_sec "$TMP/cal.out" 2>/dev/null)
if [ "$rc" -eq 0 ] && "$J" -k program -k event -k time "$TMP/cal.out" \
   && [ "$("$J" -E calibrating -g loops_per_sec "$TMP/cal.out" | grep -c '^[0-9][0-9]*$')" -ge 1 ] \
   && [ -n "$rate" ] && [ "$(head -n 1 "$TMP/j/counts_per_sec")" = "$rate" ]; then
	ok "zcc -J -C: calibrating objects, calibrated $rate loops/sec, counts_per_sec starts with it"
elif [ "$rc" -eq 1 ] && { grep -q '^zcc: calibration refused' "$TMP/cal.err" || no_cpu "$TMP/cal.err" ||
	another_meter "$TMP/cal.err"; } && [ ! -e "$TMP/j/counts_per_sec" ]; then
	# Refused for a spread, for soakers that never got a CPU, or for a
	# meter of someone else's: each a busy machine, none of them ours.
	skip "zcc -J -C: refused on this busy machine, no file written: $(cat "$TMP/cal.err")"
else
	not_ok "zcc -J -C: exit $rc, $(cat "$TMP/cal.out" "$TMP/cal.err")"
fi

# read_refused: the last run exited 1 with one line naming $TMP/bad.
read_refused() {
	[ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "$TMP/bad:" "$TMP/err"
}

# Reading: what we did not write is refused with a line naming the file.
# (| stands for a newline)
for text in '0x10' '1e-300' '-5' '5000000.5' '5000000|ncpus 0' '5000000|5000000'; do
	printf '%s\n' "$text" | tr '|' '\n' >"$TMP/bad"
	timeout 10 "$cs" $lflag -1 -m 100 -f "$TMP/bad" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if another_meter "$TMP/err"; then
		skip "reading '$text': $(cat "$TMP/err")"
		continue
	fi
	check "reading '$text': exit 1, one line naming the file ($rc: $(cat "$TMP/err"))" \
		read_refused
done

finish
