#!/bin/sh
# needs: alone
# The calibration file end to end: `cyclesoak -C -f PATH` and `zcc -C`
# (./counts_per_sec) refuse a PATH that is not a regular file with the same
# one line, exit 1, the thing at PATH left exactly as it was; and a file
# that is not what we write, or that is not to be trusted (a symlink, a
# file of another user's, one group or others may write), is refused when
# read; and a calibration that is let through, as zcc -J -C's JSON lines.
# tests/unit/test_calib.c checks the library itself; this checks that the
# programs say it. It calibrates, so it needs the machine alone.
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

# Trust: a calibration file is read only when it is a regular file (not a
# symlink), owned by the caller or root and writable by neither group nor
# others; otherwise one line naming it and why, exit 1, for cyclesoak,
# zcc -c and zcs -c alike. The other user: daemon, or uid 1.
other=$(id -u daemon 2>/dev/null || echo 1)
# untrusted WHAT WHY PROG ARGS...: PROG exits 1 with one line naming
# $TMP/t/counts_per_sec (or ./counts_per_sec) and WHY, quoting no secret.
untrusted() {
	_w=$1 _why=$2
	shift 2
	(cd "$TMP/t" && timeout 10 "$@" >"$TMP/out" 2>"$TMP/err")
	rc=$?
	if another_meter "$TMP/err"; then
		skip "$_w: $(cat "$TMP/err")"
		return
	fi
	check "$_w: exit 1, one line naming the file and '$_why' ($rc: $(cat "$TMP/err"))" \
		eval '[ "$rc" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q "counts_per_sec: .*$_why" "$TMP/err" && ! grep -q secret "$TMP/err"'
}
if [ "$(id -u)" = 0 ]; then
	mkdir "$TMP/t"
	printf 'secret line\n' >"$TMP/secret"
	chown "$other" "$TMP/secret"
	ln -s "$TMP/secret" "$TMP/t/counts_per_sec"
	chown -h "$other" "$TMP/t/counts_per_sec"
	untrusted "./counts_per_sec a symlink of uid $other's" "a symlink" "$cs" $lflag -1 -m 100
	rm "$TMP/t/counts_per_sec"
	printf '999999999999\nncpus %s\n' "$(getconf _NPROCESSORS_ONLN)" >"$TMP/t/counts_per_sec"
	chown "$other" "$TMP/t/counts_per_sec"
	untrusted "a planted file owned by uid $other" "owned by uid $other" "$cs" $lflag -1 -m 100
	untrusted "zcc -c, the same file" "owned by uid $other" \
		"$ZC_BIN/zcc" -c $lflag -s 127.0.0.1 -p 1 "$TMP/real"
	untrusted "zcs -c, the same file" "owned by uid $other" "$ZC_BIN/zcs" -c $lflag -p 0
	chown 0:0 "$TMP/t/counts_per_sec"
	chmod 664 "$TMP/t/counts_per_sec"
	untrusted "-f a group-writable file" "writable by its group" \
		"$cs" $lflag -1 -m 100 -f "$TMP/t/counts_per_sec"
	chmod 646 "$TMP/t/counts_per_sec"
	untrusted "-f a world-writable file" "writable by others" \
		"$cs" $lflag -1 -m 100 -f "$TMP/t/counts_per_sec"
	chmod 644 "$TMP/t/counts_per_sec"
	untrusted "zcc -c -f, a world-writable file" "writable by others" \
		sh -c 'chmod 666 counts_per_sec && exec "$@"' sh "$ZC_BIN/zcc" -c $lflag \
		-f "$TMP/t/counts_per_sec" -s 127.0.0.1 -p 1 "$TMP/real"
	# Root's own file, mode 0644, is trusted by any user (uid 65534 here).
	printf '5000000\nncpus %s\n' "$(getconf _NPROCESSORS_ONLN)" >"$TMP/t/counts_per_sec"
	chmod 644 "$TMP/t/counts_per_sec"
	chmod 711 "$TMP"
	chmod 755 "$TMP/t"
	(cd "$TMP/t" && timeout 10 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$cs" $lflag -1 -m 100 >"$TMP/out" 2>"$TMP/err")
	rc=$?
	if another_meter "$TMP/err"; then
		skip "root's file read by uid 65534: $(cat "$TMP/err")"
	else
		check "root's file, mode 0644, read by uid 65534: a load figure ($rc: $(cat "$TMP/err"))" \
			eval '[ "$rc" -eq 0 ] && grep -q "^System load:" "$TMP/out"'
	fi
else
	skip "calibration file trust: not root, cannot give files to another user"
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
