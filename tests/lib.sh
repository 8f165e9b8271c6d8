# The one shell harness of the tests, make demo and make bench: sourced,
# not run. POSIX sh.
#
# The sourcing script sets ZC_TOP (tests/run.sh exports it; demo and bench
# work it out from their own path). Everything a script starts goes through
# bg / start_bg / run_fg, so that cleanup kills it by PID however the script
# ends (Ctrl-C included); every file it makes lives under $TMP (also called
# $WORK), removed at the end. Tests print "ok - what", "not ok - what" or
# "skip - why" for tests/run.sh to count.
#
# HARNESS_GRACE: tenths of a second cleanup gives its processes to end on
# SIGTERM before SIGKILL (tests: 0, straight to SIGKILL; bench: 10).

: "${ZC_TOP:?ZC_TOP: the top directory of zc}"
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
	trap '' INT TERM HUP
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

# on_cleanup FUNCTION: run FUNCTION too when the script ends.
on_cleanup() {
	CLEANUP_HOOKS="$CLEANUP_HOOKS $1"
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

# die MESSAGE: one line naming the script, exit 1 (bench and demo).
die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
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

# --- processes, from /proc --------------------------------------------------
# proc_table: "PID PPID STATE" of every process, one a line, from
# /proc/*/stat. A command name (in brackets) may hold spaces and brackets,
# so the fields are counted after its last ") ". The one /proc scanner of
# the tests and the bench; the helpers below filter it.
proc_table() {
	cat /proc/[0-9]*/stat 2>/dev/null |
		awk '{ pid = $1; sub(/.*\) /, ""); print pid, $2, $1 }'
}

# proc_children PID: "PID STATE" of each child of PID, zombies included.
proc_children() {
	proc_table | awk -v p="$1" '$2 == p { print $1, $3 }'
}

# proc_descendants PID...: every process whose parent chain leads to one
# of the PIDs.
proc_descendants() {
	proc_table | awk -v roots="$*" '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) root[r[i]] = 1 }
		{ parent[$1] = $2 }
		END {
			for (p in parent) {
				q = parent[p]
				while (!(q in root) && q in parent && q > 1)
					q = parent[q]
				if (q in root)
					print p
			}
		}'
}

# proc_state PID: PID's state letter (R, S, T, Z...), empty once it is gone.
proc_state() {
	_st=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	_st=${_st##*) }
	echo "${_st%% *}"
}

# proc_alive PID: PID exists and is not a zombie.
proc_alive() {
	_st=$(proc_state "$1")
	[ -n "$_st" ] && [ "$_st" != Z ]
}

# proc_ended PID: PID has exited (gone, or a zombie not yet reaped).
proc_ended() {
	! proc_alive "$1"
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

# --- one meter at a time ------------------------------------------------------
# tests/run.sh runs tests side by side, and a machine has room for one meter:
# the programs refuse a second, and two would each read the other's soakers
# as load. So a test takes the run's meter slot before it starts a meter
# (cyclesoak, zcc -c or -C, zcs -c) and gives it back after, and a test
# that wants it waits its turn. The slot is a directory in ZC_SLOT_DIR
# holding the holder's PID (run.sh frees it if the holder dies without
# cleaning up); without ZC_SLOT_DIR (a test run by hand) these do nothing.
# Up to 3 minutes' wait, then the test goes on, and the program's own
# refusal names the meter in the way.
METER_SLOT=

meter_slot() {
	[ -n "$ZC_SLOT_DIR" ] && [ -z "$METER_SLOT" ] || return 0
	_ms0=$(date +%s)
	if within 1800 mkdir "$ZC_SLOT_DIR/meter" 2>/dev/null; then
		echo $$ >"$ZC_SLOT_DIR/meter/pid"
		echo "# waited $(($(date +%s) - _ms0)) s for the meter slot"
		METER_SLOT=$ZC_SLOT_DIR/meter
		on_cleanup meter_slot_free
	else
		echo "# the meter slot is still taken after 3 min: $(cat "$ZC_SLOT_DIR/meter/pid" 2>/dev/null)"
	fi
}

meter_slot_free() {
	[ -n "$METER_SLOT" ] && rm -rf "$METER_SLOT"
	METER_SLOT=
}

# run_cs ARGS...: cyclesoak ARGS (60 s at most), run again while another
# meter on the machine (a user's, another test run's) refuses it, for up to
# 30 s: a refusal by a meter that is not ours is a retry, not a failure.
run_cs() {
	_tries=0
	while :; do
		timeout 60 "$ZC_BIN/cyclesoak" "$@" 2>"$TMP/cs.err"
		_rc=$?
		if [ "$_rc" -eq 1 ] && [ "$_tries" -lt 30 ] &&
			grep -q 'another meter is running' "$TMP/cs.err"; then
			_tries=$((_tries + 1))
			sleep 1
			continue
		fi
		cat "$TMP/cs.err" >&2
		return "$_rc"
	done
}

# meter_wait_others: a meter not of this run (a user's, another test run's)
# would refuse most of a meter test. Wait up to a minute for it to end; if
# it does not, say so once and go on (the checks then fail with its PID).
meter_wait_others() {
	_n=0
	while [ "$_n" -lt 60 ] &&
		! "$ZC_BIN/cyclesoak" -r -1 -m 10 -N 1 >/dev/null 2>"$TMP/lock" &&
		grep -q 'another meter is running' "$TMP/lock"; do
		[ "$_n" -eq 0 ] && echo "# waiting for another meter to end: $(cat "$TMP/lock")"
		sleep 1
		_n=$((_n + 1))
	done
}

# --- cases side by side -----------------------------------------------------
# together NAME FUNCTION [ARGS...]: run FUNCTION in the background, in a
# subshell whose $TMP is a directory of its own, $TMP/NAME ($WORK stays the
# script's, for files the cases share), its output kept for gather. For
# checks that spend their time waiting (for a timeout to fire, a trickle
# to be cut off) and need nothing from each other. What a case starts with
# bg is killed when it ends, and with it should the script be interrupted.
# gather: wait for every case, then print their output in the order they
# were started; a "not ok" among them fails the script.
TOGETHER=

together() {
	_name=$1
	shift
	mkdir "$TMP/$_name" || return 1
	(
		TMP=$TMP/$_name BG_PIDS= CLEANUP_HOOKS=
		trap 'for _p in $BG_PIDS; do reap_pid "$_p" 0; done; exit 143' TERM
		"$@"
		for _p in $BG_PIDS; do reap_pid "$_p" 0; done
	) >"$TMP/$_name.out" 2>&1 9>&- &
	BG_PIDS="$BG_PIDS $!"
	TOGETHER="$TOGETHER $_name:$!"
}

# together_stop: end the cases now (cleanup, should the script be stopped):
# SIGTERM to each, which it acts on once what it runs is killed, by then
# reaping what it started: a case killed outright would leave those to a
# PID 1 that may never reap them.
together_stop() {
	[ -n "$TOGETHER" ] || return 0
	_cases=
	for _t in $TOGETHER; do _cases="$_cases ${_t#*:}"; done
	# shellcheck disable=SC2086
	kill -TERM $_cases 2>/dev/null
	# Not yet waited for, the cases' PIDs are still theirs.
	# shellcheck disable=SC2086
	for _p in $(proc_descendants $_cases); do kill -KILL "$_p" 2>/dev/null; done
	for _p in $_cases; do
		wait "$_p" 2>/dev/null
		forget_bg "$_p"
	done
	TOGETHER=
}

gather() {
	for _t in $TOGETHER; do
		wait "${_t#*:}"
		forget_bg "${_t#*:}"
		cat "$TMP/${_t%%:*}.out"
		grep -q '^not ok - ' "$TMP/${_t%%:*}.out" && FAILED=1
	done
	TOGETHER=
}

# has_line FILE PATTERN: FILE has a line matching PATTERN (grep -E).
has_line() {
	grep -Eq "$2" "$1" 2>/dev/null
}

# wait_for FILE PATTERN [TENTHS]: wait until FILE has a line matching
# PATTERN (grep -E), at most TENTHS tenths of a second (default 50).
wait_for() {
	within "${3:-50}" has_line "$1" "$2"
}

# --- the machine's CPU time ---------------------------------------------------
# cpu_ticks [FILE]: "OTHERS BUSY TOTAL" jiffies of the whole machine from
# the cpu line of /proc/stat (or of a copy of it in FILE). BUSY is all but
# idle and iowait; OTHERS leaves out nice too, so the meter's soakers (nice
# 19) are not in it: it is user, system, irq, softirq and steal.
cpu_ticks() {
	awk '/^cpu / { o = $2 + $4 + $7 + $8 + $9; print o, o + $3, o + $3 + $5 + $6; exit }' \
		"${1:-/proc/stat}"
}

# cpu_share T0 T1 [FIELD]: percent of the machine between two cpu_ticks
# samples in FIELD (1 OTHERS, the default; 2 BUSY), to two decimals.
cpu_share() {
	echo "$1 $2" | awk -v f="${3:-1}" '{ t = $6 - $3; printf "%.2f\n", (t > 0 ? 100 * ($(f + 3) - $f) / t : 0) }'
}

# --- the programs' output -------------------------------------------------------
# json_get FILE EVENT KEY: KEY's value in every EVENT object of a -J
# output file, one a line.
json_get() {
	"$ZC_TESTBIN/jsoncheck" -E "$2" -g "$3" "$1" 2>/dev/null
}

# is_json FILE: FILE is JSON Lines (the program took -J).
is_json() {
	[ "$(head -c 1 "$1" 2>/dev/null)" = "{" ]
}

# zcs_port FILE: the port of zcs's listening line (text or JSON).
zcs_port() {
	if is_json "$1"; then
		json_get "$1" listening port | head -n 1
	else
		sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$1"
	fi
}

# zcs_start [ZCS OPTIONS...]: start zcs on a kernel-chosen port with output
# in $TMP/zcs.out and $TMP/zcs.err; sets ZCS_PID and ZCS_PORT.
zcs_start() {
	: >"$TMP/zcs.out"
	bg "$ZC_BIN/zcs" -p 0 "$@" >"$TMP/zcs.out" 2>"$TMP/zcs.err"
	ZCS_PID=$!
	wait_for "$TMP/zcs.out" '^listening on port [0-9]+|"event": *"listening"' || return 1
	ZCS_PORT=$(zcs_port "$TMP/zcs.out")
}

# zcs_up NAME [ZCS OPTIONS...]: start zcs on a kernel-chosen port, output in
# $WORK/NAME.out and .err; sets ZCS_PID and ZCS_PORT, or dies. ZCS_PREFIX,
# when set, goes before zcs (ip netns exec NS).
zcs_up() {
	_name=$1
	shift
	: >"$WORK/$_name.out"
	# shellcheck disable=SC2086
	start_bg $ZCS_PREFIX "$ZC_BIN/zcs" -p 0 "$@" >"$WORK/$_name.out" 2>"$WORK/$_name.err"
	ZCS_PID=$!
	if ! wait_for "$WORK/$_name.out" '^listening on port [0-9]+|"event": *"listening"'; then
		cat "$WORK/$_name.err" >&2
		die "zcs did not start"
	fi
	ZCS_PORT=$(zcs_port "$WORK/$_name.out")
}

# --- demo and bench: files, zcc runs, the calibration -------------------------
# make_files DIR COUNT SIZE: COUNT files of about SIZE bytes (each a little
# different, as real files are), random data so nothing compresses.
make_files() {
	mkdir -p "$1"
	_i=0
	while [ $_i -lt "$2" ]; do
		head -c $(($3 + (_i * 4099) % ($3 / 8 + 1))) /dev/urandom >"$1/f$_i"
		_i=$((_i + 1))
	done
}

# parse_zcc OUTFILE: from zcc's output (-J or text) set SENT_BYTES
# SENT_SECS SENT_RATE (and with -J SENT_OWN, zcc's own CPU per KB), and
# with -c CPU_LOAD CPU_N CPU_SD (service demand)
# and OWN_USKB (zcc's own CPU per KB); the last run's figures.
parse_zcc() {
	if is_json "$1"; then
		SENT_BYTES=$(json_get "$1" sent bytes | tail -n 1)
		SENT_SECS=$(json_get "$1" sent seconds | tail -n 1)
		SENT_RATE=$(json_get "$1" sent kbytes_per_sec | tail -n 1)
		SENT_OWN=$(json_get "$1" sent own_us_per_kb | tail -n 1)
		CPU_LOAD=$(json_get "$1" cpu load_pct | tail -n 1)
		CPU_N=$(json_get "$1" cpu ncpus | tail -n 1)
		CPU_SD=$(json_get "$1" cpu service_demand_us_per_kb | tail -n 1)
		OWN_USKB=$(json_get "$1" cpu own_us_per_kb | tail -n 1)
		return 0
	fi
	SENT_BYTES=$(sed -n 's/^sent: \([0-9]*\) bytes in .*/\1/p' "$1" | tail -n 1)
	SENT_SECS=$(sed -n 's/^sent: [0-9]* bytes in \([0-9.]*\) s,.*/\1/p' "$1" | tail -n 1)
	SENT_RATE=$(sed -n 's/^sent: .*, \([0-9.]*\) kbytes\/sec.*/\1/p' "$1" | tail -n 1)
	CPU_LOAD=$(sed -n 's/^cpu: load \(-\{0,1\}[0-9.]*\)% of .*/\1/p' "$1" | tail -n 1)
	CPU_N=$(sed -n 's/^cpu: load .* of \([0-9]*\) CPUs.*/\1/p' "$1" | tail -n 1)
	CPU_SD=$(sed -n 's/.*service demand \(-\{0,1\}[0-9.]*\) us\/KB.*/\1/p' "$1" | tail -n 1)
	OWN_USKB=$(sed -n 's/.*zcc itself \(-\{0,1\}[0-9.]*\) us\/KB.*/\1/p' "$1" | tail -n 1)
}

# zcc_has FLAG: this zcc knows the option (its -h lists it).
zcc_has() {
	"$ZC_BIN/zcc" -h 2>&1 | grep -q -- "^ *$1 "
}

# zcc_methods: the transmit methods this zcc has, from zcc itself: its
# refusal of an unknown -M lists them in brackets, "unknown method (a, b)".
# "sendfile send write" from the options of a zcc without -M.
zcc_methods() {
	if ! zcc_has -M; then
		echo "sendfile send write"
		return 0
	fi
	_ms=$("$ZC_BIN/zcc" -M help -s 0 /dev/null 2>&1 | sed -n 's/.*unknown method[^(]*(\([^)]*\)).*/\1/p' |
		head -n 1 | tr -d ',')
	[ -n "$_ms" ] || die "zcc -M help listed no methods"
	echo $_ms
}

# method_flags METHOD: zcc's options for a transmit method.
method_flags() {
	if zcc_has -M; then
		echo "-M $1"
		return 0
	fi
	case $1 in
	sendfile) echo "" ;;
	send) echo "-S" ;;
	write) echo "-S -w" ;;
	esac
}

# show_cmd COMMAND...: print a command the way it is about to be run, the
# names of files in a directory under $WORK folded into "DIR/... (N files)".
show_cmd() {
	_show= _nf=0 _dir=
	for _a in "$@"; do
		case $_a in
		"$WORK"/*/*) _nf=$((_nf + 1)) _dir=${_a%/*} ;;
		*) _show="$_show $_a" ;;
		esac
	done
	[ $_nf -eq 1 ] && _show="$_show ${_dir#"$WORK"/}/... (1 file)"
	[ $_nf -gt 1 ] && _show="$_show ${_dir#"$WORK"/}/... ($_nf files)"
	echo "  \$${_show}"
}

# in_work COMMAND...: run COMMAND in $WORK, where ./counts_per_sec is.
in_work() {
	cd "$WORK" && exec "$@"
}

# run_zcc OUTFILE ZCC-ARGS...: run zcc in $WORK (where -c finds
# counts_per_sec), with -J when it has it; print the command unless QUIET
# is set; parse its figures. Fails (with zcc's own message) when zcc fails
# or prints no sent figures. ZCC_PREFIX, when set, goes before zcc (ip
# netns exec NS).
run_zcc() {
	_out=$1
	shift
	_json=
	zcc_has -J && _json=-J
	# shellcheck disable=SC2086
	[ -z "${QUIET:-}" ] && show_cmd $ZCC_PREFIX zcc $_json "$@"
	# shellcheck disable=SC2086
	run_metered "$_out.err" in_work $ZCC_PREFIX "$ZC_BIN/zcc" $_json "$@" >"$_out"
	_rc=$?
	parse_zcc "$_out"
	SENT_TOTAL=$((${SENT_TOTAL:-0} + ${SENT_BYTES:-0}))
	SENT_RUNS=$((${SENT_RUNS:-0} + 1))
	if [ $_rc -ne 0 ] || [ -z "$SENT_RATE" ]; then
		sed 's/^/  /' "$_out.err" >&2
		echo "  zcc exited with status $_rc" >&2
		return 1
	fi
}

# run_metered ERRFILE COMMAND...: run_fg with stderr to ERRFILE; while the
# command is refused because another meter runs on the machine (one meter
# per machine: two would read each other's soakers as load), wait and try
# again, up to a minute.
run_metered() {
	_ef=$1
	shift
	_tries=60
	while :; do
		run_fg "$@" 2>"$_ef"
		_mrc=$?
		[ $_mrc -ne 0 ] && [ $_tries -gt 0 ] && grep -q 'another meter is running' "$_ef" || return $_mrc
		_tries=$((_tries - 1))
		sleep 1
	done
}

# loops_for SECONDS_WANTED PROBE_SECONDS PROBE_LOOPS: loops for a run of
# about the wanted length, judging by a probe run; at least 1.
loops_for() {
	awk -v want="$1" -v secs="$2" -v n="$3" 'BEGIN {
		per = secs / n; if (per <= 0) per = 0.0001
		l = int(want / per + 0.5); if (l < 1) l = 1; if (l > 1000000) l = 1000000
		print l }'
}

# probe_loops SECONDS ZCC-ARGS...: set LOOPS so that zcc with these
# arguments runs about SECONDS: short runs, each aimed at 0.4 s by the one
# before (but at most 64 times as many loops, as a short run is mostly the
# connection's set-up), until one lasts 0.3 s or reaches 65536 loops; then
# scaled. Doubling from 1 took 10 runs a method where this takes 3 or 4.
probe_loops() {
	_want=$1
	shift
	_pl=1
	while :; do
		_quiet=${QUIET:-}
		QUIET=1
		run_zcc "$WORK/probe" -n $_pl "$@" || die "probe run failed: zcc -n $_pl $*"
		QUIET=$_quiet
		_next=$(awk -v s="$SENT_SECS" -v l=$_pl 'BEGIN {
			if (s >= 0.3 || l >= 65536) exit 1
			f = s > 0 ? 0.4 / s : 64; if (f < 2) f = 2; if (f > 64) f = 64
			l = int(l * f); if (l > 65536) l = 65536
			print l }') || break
		_pl=$_next
	done
	LOOPS=$(loops_for "$_want" "$SENT_SECS" $_pl)
}

# zcs_tally NAME: ZCS_DONE_BYTES, ZCS_DONE_RUNS from zcs's done lines.
zcs_tally() {
	if is_json "$WORK/$1.out"; then
		json_get "$WORK/$1.out" done bytes >"$WORK/$1.done"
	else
		sed -n 's/^done: \([0-9]*\) bytes.*/\1/p' "$WORK/$1.out" >"$WORK/$1.done"
	fi
	ZCS_DONE_RUNS=$(wc -l <"$WORK/$1.done")
	ZCS_DONE_BYTES=$(awk '{ s += $1 } END { printf "%.0f\n", s }' "$WORK/$1.done")
}

# zcs_agrees NAME: wait until zcs has logged as many connections as zcc
# runs were made (SENT_RUNS), then compare its byte total with SENT_TOTAL.
zcs_agrees() {
	_n=50
	while :; do
		zcs_tally "$1"
		[ "$ZCS_DONE_RUNS" -ge "$SENT_RUNS" ] || [ $_n -eq 0 ] && break
		sleep 0.1
		_n=$((_n - 1))
	done
	[ "$ZCS_DONE_RUNS" -eq "$SENT_RUNS" ] && [ "$ZCS_DONE_BYTES" = "$SENT_TOTAL" ]
}

# is_vm: the CPU flags say "hypervisor".
is_vm() {
	grep -q '^flags.* hypervisor' /proc/cpuinfo 2>/dev/null
}

# meter_needs_calibration: zcc -c will read ./counts_per_sec: a zcc whose
# meter has no run-time method (-r), or a machine where the default is the
# loop counts (not a virtual machine).
meter_needs_calibration() {
	! zcc_has -r || ! is_vm
}

# calib_ready: make sure $WORK/counts_per_sec exists when the meter needs
# one. Use CALIB_FILE (default: counts_per_sec in the top directory, the
# user's own calibration) when there is one and CALIB_FRESH is not set;
# otherwise calibrate now and, unless CALIB_KEEP=no, save the result as
# CALIB_FILE for next time.
calib_ready() {
	if ! meter_needs_calibration; then
		echo "meter: run time (a virtual machine): no calibration needed"
		return 0
	fi
	_cf=${CALIB_FILE:-$ZC_TOP/counts_per_sec}
	if [ -z "${CALIB_FRESH:-}" ] && [ -s "$_cf" ]; then
		cp "$_cf" "$WORK/counts_per_sec" || die "cannot copy $_cf"
		echo "using the calibration in $_cf (delete it to recalibrate)"
		return 0
	fi
	echo "calibrating the CPU meter (zcc -C): this needs an idle machine, a few seconds..."
	if ! run_fg in_work "$ZC_BIN/zcc" -C >"$WORK/calib.out" 2>"$WORK/calib.err"; then
		cat "$WORK/calib.err" >&2
		die "calibration failed"
	fi
	grep -v '^calibrating:' "$WORK/calib.out" | sed 's/^/  /'
	sed 's/^/  /' "$WORK/calib.err"
	[ -s "$WORK/counts_per_sec" ] || die "zcc -C wrote no counts_per_sec"
	[ "${CALIB_KEEP:-yes}" = yes ] || return 0
	if grep -q warning "$WORK/calib.err"; then
		# A calibration taken on a busy machine would spoil every later run.
		echo "  not saved: the next run calibrates again"
	elif cp "$WORK/counts_per_sec" "$_cf.tmp$$" && mv "$_cf.tmp$$" "$_cf"; then
		echo "  saved as $_cf for next time (delete it to recalibrate)"
	fi
}
