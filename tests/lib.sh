# Shared by the shell tests: sourced, not run. POSIX sh.
#
# Every check prints "ok - what", "not ok - what" or "skip - why" for
# tests/run.sh to count. Processes a test starts go through bg, so that
# cleanup kills them by PID, whatever way the test ends.

: "${ZC_BIN:?ZC_BIN: directory of the programs under test}"
: "${ZC_TESTBIN:?ZC_TESTBIN: directory of the test helper binaries}"

. "$ZC_TOP/tests/common.sh"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/zc-test.XXXXXX")
BG_PIDS=
FAILED=0

cleanup() {
	for p in $BG_PIDS; do kill -9 "$p" 2>/dev/null; done
	for p in $BG_PIDS; do wait "$p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; FAILED=1; }
skip() { echo "skip - $*"; }

# check WHAT COMMAND...: ok when the command succeeds.
check() {
	_what=$1; shift
	if "$@"; then ok "$_what"; else not_ok "$_what"; fi
}

# bg COMMAND...: start in the background, remember the PID in $!.
bg() {
	"$@" &
	BG_PIDS="$BG_PIDS $!"
}

# zcs_start [ZCS OPTIONS...]: start zcs on a kernel-chosen port with output
# in $TMP/zcs.out and $TMP/zcs.err; sets ZCS_PID and ZCS_PORT.
zcs_start() {
	: >"$TMP/zcs.out"
	bg "$ZC_BIN/zcs" -p 0 "$@" >"$TMP/zcs.out" 2>"$TMP/zcs.err"
	ZCS_PID=$!
	wait_for "$TMP/zcs.out" '^listening on port [0-9]+' || return 1
	ZCS_PORT=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/zcs.out")
}

# finish: the exit status run.sh expects.
finish() {
	exit "$FAILED"
}
