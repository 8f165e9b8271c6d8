#!/bin/sh
# make demo | head -1: the reader of the demo's output goes after one
# line. The demo ends at its next line (status 141, as SIGPIPE gives),
# removes its work folder and leaves no process behind (tests/tools/
# subreaper -s catches any it orphaned: exit 125). The same where SIGPIPE
# was ignored before the demo began (no trap can catch it then): its
# failed write ends it.
. "$ZC_TOP/tests/lib.sh"

for p in "$ZC_BIN/zcc" "$ZC_BIN/zcs" "$ZC_TESTBIN/subreaper"; do
	[ -x "$p" ] || { not_ok "$p built"; finish; }
done
mkdir "$TMP/work"

# piped WHAT PREFIX...: the demo run by PREFIX..., its stdout into head -1;
# the demo's status in $TMP/rc, head's line in $TMP/line.
piped() {
	_case=$1
	shift
	{
		"$@" env TMPDIR="$TMP/work" ZC_DEMO_QUICK=1 ZC_DEMO_CALIB="$TMP/calib" \
			ZC_DEMO_PLOT="$TMP/demo.svg" ZC_DEMO_RR_PLOT="$TMP/demo-rr.svg" "$ZC_TESTBIN/subreaper" -s -t 2000 -o "$TMP/reap" \
			sh "$ZC_TOP/tests/demo.sh" 2>"$TMP/err"
		echo $? >"$TMP/rc"
	} | head -n 1 >"$TMP/line"
	rc=$(cat "$TMP/rc")
	check "$_case: head got the demo's first line ($(cat "$TMP/line"))" grep -q '^zc demo: ' "$TMP/line"
	check "$_case: the demo ended with status 141 ($rc: $(head -c 300 "$TMP/err"))" [ "$rc" -eq 141 ]
	check "$_case: its work folder removed ($(ls -A "$TMP/work"))" [ -z "$(ls -A "$TMP/work")" ]
	check "$_case: nothing left running ($(grep -c '^left' "$TMP/reap" 2>/dev/null) found)" \
		[ "$rc" -ne 125 ]
}
piped "make demo | head -1"
piped "SIGPIPE ignored, | head -1" sh -c 'trap "" PIPE; exec "$@"' sh
finish
