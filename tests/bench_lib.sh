# Shared by tests/demo.sh and tests/bench.sh: sourced, not run. POSIX sh.
#
# Everything the measurement starts goes through start_bg, so that cleanup
# kills it by PID however the script ends (Ctrl-C included); every file it
# makes lives under $WORK, removed at the end. bench.sh adds its own clean-up
# steps (network namespaces) with on_cleanup.

TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/common.sh"
ZC_BIN=${ZC_BIN:-$TOP}
ZC_TESTBIN=${ZC_TESTBIN:-$TOP/build/tests}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/zc-bench.XXXXXX") || exit 1
BG_PIDS=
CLEANUP_HOOKS=
SENT_TOTAL=0
SENT_RUNS=0

cleanup() {
	trap - EXIT INT TERM HUP
	for _p in $BG_PIDS; do kill -TERM "$_p" 2>/dev/null; done
	for _p in $BG_PIDS; do reap_pid "$_p" 10; done
	BG_PIDS=
	for _h in $CLEANUP_HOOKS; do "$_h"; done
	rm -rf "$WORK"
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

die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

# start_bg COMMAND...: start in the background; its PID is in $!.
start_bg() {
	"$@" 9>&- &
	BG_PIDS="$BG_PIDS $!"
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

# in_work COMMAND...: run COMMAND in $WORK, where ./counts_per_sec is.
in_work() {
	cd "$WORK" && exec "$@"
}

# reap_pid PID TENTHS: give PID that long to end by itself, then kill it
# (SIGKILL); reap it either way.
reap_pid() {
	_n=$2
	while [ "$_n" -gt 0 ] && kill -0 "$1" 2>/dev/null; do
		sleep 0.1
		_n=$((_n - 1))
	done
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

# zcs_up NAME [ZCS OPTIONS...]: start zcs on a kernel-chosen port, output in
# $WORK/NAME.out and .err; sets ZCS_PID and ZCS_PORT. ZCS_PREFIX, when set,
# goes before zcs (ip netns exec NS).
zcs_up() {
	_name=$1
	shift
	: >"$WORK/$_name.out"
	start_bg $ZCS_PREFIX "$ZC_BIN/zcs" -p 0 "$@" >"$WORK/$_name.out" 2>"$WORK/$_name.err"
	ZCS_PID=$!
	if ! wait_for "$WORK/$_name.out" '^listening on port [0-9]+'; then
		cat "$WORK/$_name.err" >&2
		die "zcs did not start"
	fi
	ZCS_PORT=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$WORK/$_name.out")
}

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

# parse_zcc OUTFILE: set SENT_BYTES SENT_SECS SENT_RATE from the "sent:"
# line and, when there is one, CPU_LOAD CPU_N CPU_SD from the "cpu:" line.
parse_zcc() {
	SENT_BYTES=$(sed -n 's/^sent: \([0-9]*\) bytes in .*/\1/p' "$1" | tail -n 1)
	SENT_SECS=$(sed -n 's/^sent: [0-9]* bytes in \([0-9.]*\) s,.*/\1/p' "$1" | tail -n 1)
	SENT_RATE=$(sed -n 's/^sent: .*, \([0-9.]*\) kbytes\/sec.*/\1/p' "$1" | tail -n 1)
	CPU_LOAD=$(sed -n 's/^cpu: load \(-\{0,1\}[0-9.]*\)% of .*/\1/p' "$1" | tail -n 1)
	CPU_N=$(sed -n 's/^cpu: load .* of \([0-9]*\) CPUs.*/\1/p' "$1" | tail -n 1)
	CPU_SD=$(sed -n 's/.*service demand \(-\{0,1\}[0-9.]*\) us\/KB.*/\1/p' "$1" | tail -n 1)
}

# run_zcc OUTFILE ZCC-ARGS...: run zcc in $WORK (where -c finds
# counts_per_sec), print the command unless QUIET is set (file names
# folded into "DIR/... (N files)"), parse its figures. Fails (with zcc's
# own message) when zcc fails or prints no summary. ZCC_PREFIX, when set,
# goes before zcc (ip netns exec NS).
run_zcc() {
	_out=$1
	shift
	if [ -z "${QUIET:-}" ]; then
		_show= _nf=0 _dir=
		for _a in "$@"; do
			if [ -f "$_a" ]; then
				_nf=$((_nf + 1)) _dir=${_a%/*}
			else
				_show="$_show $_a"
			fi
		done
		[ $_nf -eq 1 ] && _show="$_show ${_dir#"$WORK"/}/... (1 file)"
		[ $_nf -gt 1 ] && _show="$_show ${_dir#"$WORK"/}/... ($_nf files)"
		echo "  \$ ${ZCC_PREFIX:+$ZCC_PREFIX }zcc$_show"
	fi
	# shellcheck disable=SC2086
	run_fg in_work $ZCC_PREFIX "$ZC_BIN/zcc" "$@" >"$_out" 2>"$_out.err"
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

# probe_loops SECONDS ZCC-ARGS...: set LOOPS so that zcc with these
# arguments runs about SECONDS: short runs, doubling until one lasts 0.3 s
# (or a cap of 65536 loops), then scaled.
probe_loops() {
	_want=$1
	shift
	_pl=1
	while :; do
		_quiet=${QUIET:-}
		QUIET=1
		run_zcc "$WORK/probe" -n $_pl "$@" || die "probe run failed: zcc -n $_pl $*"
		QUIET=$_quiet
		awk -v s="$SENT_SECS" -v l=$_pl 'BEGIN { exit !(s < 0.3 && l < 65536) }' || break
		_pl=$((_pl * 2))
	done
	LOOPS=$(loops_for "$_want" "$SENT_SECS" $_pl)
}

# zcs_tally NAME: ZCS_DONE_BYTES, ZCS_DONE_RUNS from zcs's "done:" lines.
zcs_tally() {
	ZCS_DONE_RUNS=$(grep -c '^done: ' "$WORK/$1.out")
	ZCS_DONE_BYTES=$(sed -n 's/^done: \([0-9]*\) bytes.*/\1/p' "$WORK/$1.out" |
		awk '{ s += $1 } END { printf "%.0f\n", s }')
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

# calib_ready: make sure $WORK/counts_per_sec exists. Use CALIB_FILE
# (default: counts_per_sec in the top directory, the user's own
# calibration) when there is one and CALIB_FRESH is not set; otherwise
# calibrate now and, unless CALIB_KEEP=no, save the result as CALIB_FILE
# for next time.
calib_ready() {
	_cf=${CALIB_FILE:-$TOP/counts_per_sec}
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

# median VALUE...: the middle value (mean of the two middle ones when even).
median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) exit 1
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# least VALUE... / most VALUE...: the smallest / largest of some numbers.
least() {
	printf '%s\n' "$@" | sort -g | head -n 1
}
most() {
	printf '%s\n' "$@" | sort -g | tail -n 1
}

# loops_for SECONDS_WANTED PROBE_SECONDS PROBE_LOOPS: loops for a run of
# about the wanted length, judging by a probe run; at least 1.
loops_for() {
	awk -v want="$1" -v secs="$2" -v n="$3" 'BEGIN {
		per = secs / n; if (per <= 0) per = 0.0001
		l = int(want / per + 0.5); if (l < 1) l = 1; if (l > 1000000) l = 1000000
		print l }'
}
