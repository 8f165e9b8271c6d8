# The script's life: its $TMP and cleanup, the verdicts, background
# processes, waits. Part of tests/lib.sh (sourced through it).

ZC_BIN=${ZC_BIN:-$ZC_TOP}
ZC_TESTBIN=${ZC_TESTBIN:-$ZC_TOP/build/tests}
HARNESS_GRACE=${HARNESS_GRACE:-0}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/zc-test.XXXXXX") || exit 1
WORK=$TMP
BG_PIDS=
CLEANUP_HOOKS=
FAILED=0
SENT_TOTAL=0
SENT_RUNS=0

cleanup() {
	# A second signal must not cut cleanup short: timeout(1) sends its
	# SIGTERM to the script and then to the script's whole group, so the
	# script may get it twice (seen: killed with its processes left over).
	trap '' INT TERM HUP PIPE
	trap - EXIT
	together_stop
	if [ "$HARNESS_GRACE" -gt 0 ]; then
		for _p in $BG_PIDS; do kill -TERM "$_p" 2>/dev/null; done
	fi
	for _p in $BG_PIDS; do reap_pid "$_p" "$HARNESS_GRACE"; done
	BG_PIDS=
	for _h in $CLEANUP_HOOKS; do "$_h"; done
	rm -rf "$TMP"
}
trap cleanup EXIT
# The trap may fire inside a redirected function call: fd 9 keeps the
# script's own stderr for its message (and is closed for every child).
exec 9>&2
trap 'echo >&9; echo "interrupted: cleaning up" >&9; exit 130' INT TERM HUP
# The reader of stdout gone (make demo | head -1): end, cleaning up, with
# the status SIGPIPE itself gives. Where SIGPIPE was ignored before the
# script began (no trap can catch it then), say's failed write does it.
trap 'exit 141' PIPE

# say TEXT...: a line on stdout; a write that fails ends the script.
say() {
	printf '%s\n' "$*" 2>/dev/null || exit 141
}

# on_cleanup FUNCTION: run FUNCTION too when the script ends.
on_cleanup() {
	CLEANUP_HOOKS="$CLEANUP_HOOKS $1"
}

# netns_new NAME: make the network namespace NAME, deleted when the script
# ends, however it ends; false when it cannot be made (not root, no ip).
NETNS_MADE=
netns_new() {
	ip netns add "$1" 2>/dev/null || return 1
	[ -n "$NETNS_MADE" ] || on_cleanup netns_remove
	NETNS_MADE="$NETNS_MADE $1"
}
netns_remove() {
	for _ns in $NETNS_MADE; do ip netns delete "$_ns" 2>/dev/null; done
}

# two_hosts TX RX: namespaces TX (192.0.2.1, veth vt) and RX (192.0.2.2,
# vr) linked by a veth pair, removed at the end; false (after a skip line
# saying why) when they cannot be made.
two_hosts() {
	if ! netns_new "$1" || ! netns_new "$2"; then
		skip "cannot make network namespaces (not root, or no ip)"
		return 1
	fi
	if ! { ip -n "$1" link add vt type veth peer name vr netns "$2" &&
		ip -n "$1" addr add 192.0.2.1/24 dev vt && ip -n "$2" addr add 192.0.2.2/24 dev vr &&
		ip -n "$1" link set vt up && ip -n "$2" link set vr up &&
		ip -n "$2" link set lo up; } 2>"$TMP/two_hosts.err"; then
		skip "cannot link the namespaces: $(cat "$TMP/two_hosts.err")"
		return 1
	fi
}

# --- test verdicts ----------------------------------------------------------
ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; FAILED=1; }
skip() { echo "skip - $*"; }

# check WHAT COMMAND...: ok when the command succeeds.
check() {
	_what=$1
	shift
	if "$@"; then ok "$_what"; else not_ok "$_what"; fi
}

# finish: the exit status run.sh expects.
finish() {
	exit "$FAILED"
}

# plain_only WHAT: in another pass than the plain one (ZC_PASS), say so and
# end the script: for a test that runs nothing of the build under test
# (the runner, make's targets), which a sanitizer pass would only repeat.
plain_only() {
	[ "${ZC_PASS:-plain}" = plain ] && return 0
	skip "$1: only in the plain pass (this is '$ZC_PASS': nothing of its build runs here)"
	finish
}

# no_leak_check WHY: in a sanitizer pass, LeakSanitizer off for the rest of
# the script (AddressSanitizer and UBSan stay on), WHY in a # line. Its
# check at each program's exit costs about 50 ms, several times a plain
# program's whole run: for a script that starts hundreds of programs only to
# see them refuse or print and exit, where memory still held at exit is
# freed by the exit. The tests that run transfers keep it.
no_leak_check() {
	[ "${ZC_PASS:-plain}" = plain ] && return 0
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	export ASAN_OPTIONS
	echo "# leak checks off in this pass: $1"
}

# die MESSAGE: one line naming the script, exit 1 (bench and demo).
die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

# usage_refused WHAT COMMAND...: COMMAND (stdin /dev/null, 20 s at most)
# must be a usage error: exit 2, one line on stderr, nothing on stdout.
# Leaves $TMP/out, $TMP/err and RC for further checks.
usage_refused() {
	_what=$1
	shift
	timeout 20 "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
	RC=$?
	if [ "$RC" -eq 2 ] && [ "$(grep -c '' "$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ]; then
		ok "$_what: exit 2, one line: $(cat "$TMP/err")"
	else
		not_ok "$_what: exit $RC, want 2, one line on stderr, none on stdout: $(head -c 300 "$TMP/err")"
	fi
}

# --- processes --------------------------------------------------------------
# bg / start_bg COMMAND...: start in the background; its PID is in $!.
start_bg() {
	"$@" 9>&- &
	BG_PIDS="$BG_PIDS $!"
}
bg() {
	start_bg "$@"
}

# forget_bg PID: PID has been reaped; no longer ours to kill.
forget_bg() {
	_left=
	for _p in $BG_PIDS; do [ "$_p" = "$1" ] || _left="$_left $_p"; done
	BG_PIDS=$_left
}

# captured SECS COMMAND...: COMMAND within SECS seconds (timeout), its
# stdout in $TMP/out and its stderr in $TMP/err; its status in RC, and
# returned.
captured() {
	_cs=$1
	shift
	timeout "$_cs" "$@" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	return "$RC"
}

# run_fg COMMAND...: run a command to its end, as if in the foreground, but
# as a known PID: a signal to the script then interrupts the wait at once
# and cleanup kills the command, instead of the script waiting for it.
run_fg() {
	"$@" 9>&- &
	_fg=$!
	BG_PIDS="$BG_PIDS $_fg"
	wait $_fg
	_fgrc=$?
	forget_bg $_fg
	return $_fgrc
}

# reap_pid PID TENTHS: give PID that long to end by itself, then kill it
# (SIGKILL); reap it either way.
reap_pid() {
	[ "$2" -gt 0 ] && within "$2" proc_ended "$1"
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}

# stop_bg PID: end one background process now (TERM, then KILL) and reap it.
stop_bg() {
	forget_bg "$1"
	kill -TERM "$1" 2>/dev/null
	reap_pid "$1" 20
}

# now_ms: the wall clock in milliseconds.
now_ms() {
	date +%s%3N
}

# within TENTHS COMMAND...: run COMMAND every tenth of a second until it
# succeeds, at most TENTHS times; false when it never did. The one polling
# loop of the tests and the bench: the waits below are made of it.
within() {
	_wn=$1
	shift
	while [ "$_wn" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		_wn=$((_wn - 1))
	done
	return 1
}

# has_line FILE PATTERN: FILE has a line matching PATTERN (grep -E).
has_line() {
	grep -Eq "$2" "$1" 2>/dev/null
}

# count_is FILE PATTERN N: FILE has N lines matching PATTERN (grep -E).
count_is() {
	[ "$(grep -Ec "$2" "$1" 2>/dev/null)" -eq "$3" ]
}

# wait_for FILE PATTERN [TENTHS]: wait until FILE has a line matching
# PATTERN (grep -E), at most TENTHS tenths of a second (default 50).
wait_for() {
	within "${3:-50}" has_line "$1" "$2"
}
