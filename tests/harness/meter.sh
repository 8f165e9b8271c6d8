# One meter at a time, the machine's CPU time, the calibration. Part of
# tests/lib.sh.

# --- one meter at a time ------------------------------------------------------
# tests/run.sh runs tests side by side, and a machine has room for one meter
# (the programs refuse a second; lib/meter/lock.h says why). So a test takes
# the run's meter slot before it starts a meter (cyclesoak, zcc -c or -C,
# zcs -c) and gives it back after, and a test that wants it waits its turn.
# The slot is a directory in ZC_SLOT_DIR holding the holder's PID (run.sh
# frees it if the holder dies without cleaning up); without ZC_SLOT_DIR (a
# test run by hand) these do nothing. Up to 3 minutes' wait, then the test
# goes on, and the program's own refusal names the meter in the way.
# Each take and give says how long it waited and how long it held the
# slot ("# waited N s ...", "# held ... N s", to the nearest second: two
# whole-second clock readings would call a take that straddles a second
# "waited 1 s"): run.sh adds them up in the test's report line, so a test
# that keeps others waiting shows.
METER_SLOT=
METER_SLOT_T0=

meter_slot() {
	[ -n "$ZC_SLOT_DIR" ] && [ -z "$METER_SLOT" ] || return 0
	# run.sh schedules by the needs a test declares (ZC_CLASS): one that
	# takes the slot undeclared would be started beside a meter-long test
	# and wait out its whole run.
	[ "${ZC_CLASS:-}" = any ] &&
		not_ok "$(basename "$0") takes the meter slot: it needs a line '# needs: meter' (or meter-long, alone; tests/run.sh)"
	_ms0=$(now_ms)
	if within 1800 mkdir "$ZC_SLOT_DIR/meter" 2>/dev/null; then
		echo $$ >"$ZC_SLOT_DIR/meter/pid"
		METER_SLOT_T0=$(now_ms)
		echo "# waited $(((METER_SLOT_T0 - _ms0 + 500) / 1000)) s for the meter slot"
		METER_SLOT=$ZC_SLOT_DIR/meter
		on_cleanup meter_slot_free
	else
		echo "# the meter slot is still taken after 3 min: $(cat "$ZC_SLOT_DIR/meter/pid" 2>/dev/null)"
	fi
}

meter_slot_free() {
	[ -n "$METER_SLOT" ] || return 0
	rm -rf "$METER_SLOT"
	METER_SLOT=
	echo "# held the meter slot $((($(now_ms) - METER_SLOT_T0 + 500) / 1000)) s"
}

# metered ERRFILE COMMAND...: run COMMAND, which leaves its stderr in
# ERRFILE, again while another meter on the machine (a user's, another
# test run's, another test's) refuses it, every tenth of a second (within)
# for up to a minute: a refusal by a meter not ours is a wait, not a
# failure. Its status is COMMAND's last.
metered() {
	_mef=$1
	shift
	within 600 metered_once "$@"
	return "$_merc"
}
metered_once() {
	"$@"
	_merc=$?
	[ "$_merc" -eq 0 ] || ! grep -qs 'another meter is running' "$_mef"
}

# run_cs ARGS...: cyclesoak ARGS (60 s at most), metered; its stderr is
# passed on.
run_cs() {
	metered "$TMP/cs.err" cs_once "$@"
	_rc=$?
	cat "$TMP/cs.err" >&2
	return "$_rc"
}
cs_once() {
	timeout 60 "$ZC_BIN/cyclesoak" "$@" 2>"$TMP/cs.err"
}

# meter_wait_others: a meter not of this run (a user's, another test run's)
# would refuse most of a meter test. Wait up to a minute for it to end; if
# it does not, go on (the checks then fail with its PID).
meter_wait_others() {
	metered "$TMP/lock" cs_probe
}
cs_probe() {
	"$ZC_BIN/cyclesoak" -r -1 -m 10 -N 1 >/dev/null 2>"$TMP/lock"
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

# busy_skip WHAT [PCT [T0]]: for a test that measures (a time, a load)
# and whose figure means nothing when other work held the CPUs: whether
# others (cpu_ticks's OTHERS) held over PCT percent (default 25) of the
# machine, between the cpu_ticks sample T0 and now, or without T0 over
# the next 0.3 s. Busy: it says "skip - WHAT: machine busy: N% ..." and is
# true, so that a check reads
#   if [ figure fits ]; then ok ...; elif ! busy_skip WHAT; then not_ok ...; fi
# A failure on a quiet machine is a failure: tests/run.sh runs nothing again.
busy_skip() {
	_bs0=${3:-$(cpu_ticks)}
	# Without T0 there is no check to look over: a sample of now.
	[ -n "$3" ] || sleep 0.3
	_bs=$(cpu_share "$_bs0" "$(cpu_ticks)")
	awk -v b="$_bs" -v p="${2:-25}" 'BEGIN { exit !(b > p) }' || return 1
	skip "$1: machine busy: others held $_bs% of the CPUs (over ${2:-25}%)"
}

# --- wall-time checks ----------------------------------------------------------
# A check of how long something took (-t 3 lasts about 3 s, -T closes a
# silent connection in time, a rate line comes every interval) keeps one
# rule, here and nowhere else: its bounds are widened by the CPU time that
# other work (all but this script and what it started) took over the check
# itself, the most it could have taken from the check, and a miss beyond
# them is a skip, not a failure, when that work held over half the
# machine meanwhile (so busy a machine says nothing of the program).

# own_ticks: the CPU time of this script and of all it started, in
# /proc/stat's ticks: the live ones' own and their reaped children's.
own_ticks() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v root=$$ '
		{ pid = $1; sub(/.*\) /, ""); parent[pid] = $2; t[pid] = $12 + $13 + $14 + $15 }
		END {
			for (p in t) {
				q = p
				while (q != root && q in parent && q > 1)
					q = parent[q]
				if (q == root)
					s += t[p]
			}
			printf "%d\n", s
		}'
}

# timed_start: a wall-time check begins.
timed_start() {
	TIMED_K0=$(cpu_ticks)
	TIMED_O0=$(own_ticks)
	TIMED_T0=$(now_ms)
}

# timed_end: it ends: TIMED_MS, how long it took; SLACK_MS, the CPU time
# other work took meanwhile; TIMED_BUSY, yes when that was over half the
# machine.
timed_end() {
	TIMED_MS=$(($(now_ms) - TIMED_T0))
	# shellcheck disable=SC2046 # the samples, word by word
	set -- $TIMED_K0 $(cpu_ticks) $(own_ticks)
	SLACK_MS=$(awk -v b="$(($5 - $2))" -v t="$(($6 - $3))" -v o="$(($7 - TIMED_O0))" \
		-v hz="$(getconf CLK_TCK)" 'BEGIN { x = b - o; if (x < 0) x = 0
		printf "%d %s\n", x * 1000 / hz, (t > 0 && x * 2 > t) ? "yes" : "no" }')
	TIMED_BUSY=${SLACK_MS#* }
	SLACK_MS=${SLACK_MS% *}
}

# timed_check WHAT CONDITION: after timed_end, ok when the shell condition
# (a string, which widens its bounds by $SLACK_MS) holds; else a skip when
# TIMED_BUSY, else not ok.
timed_check() {
	_tcw="$1 ($TIMED_MS ms; other work took $SLACK_MS ms of CPU meanwhile)"
	if eval "$2"; then
		ok "$_tcw"
	elif [ "$TIMED_BUSY" = yes ]; then
		skip "$_tcw: machine busy: other work held over half of it"
	else
		not_ok "$_tcw"
	fi
}

# is_vm: the CPU flags say "hypervisor", in the file the programs read
# (ZC_CPUINFO when set, else /proc/cpuinfo; lib/meter/meter.c).
is_vm() {
	grep -Eq '^flags.*[[:space:]]hypervisor([[:space:]]|$)' "${ZC_CPUINFO:-/proc/cpuinfo}" 2>/dev/null
}

# meter_needs_calibration: zcc -c will read ./counts_per_sec: a zcc whose
# meter has neither kernel idle time (-K, its default) nor run time (-r),
# or whose default is the loop counts (not a virtual machine).
meter_needs_calibration() {
	! zcc_has -K && { ! zcc_has -r || ! is_vm; }
}

# calib_ready: make sure $WORK/counts_per_sec exists when the meter needs
# one. Use CALIB_FILE (default: counts_per_sec in the top directory, the
# user's own calibration) when there is one and CALIB_FRESH is not set;
# otherwise calibrate now and, unless CALIB_KEEP=no, save the result as
# CALIB_FILE for next time.
calib_ready() {
	if zcc_has -K; then
		say "meter: kernel idle time (zcc -c's default): no calibration needed"
		return 0
	elif ! meter_needs_calibration; then
		say "meter: run time (a virtual machine): no calibration needed"
		return 0
	fi
	_cf=${CALIB_FILE:-$ZC_TOP/counts_per_sec}
	if [ -z "${CALIB_FRESH:-}" ] && [ -s "$_cf" ]; then
		cp "$_cf" "$WORK/counts_per_sec" || die "cannot copy $_cf"
		say "using the calibration in $_cf (delete it to recalibrate)"
		return 0
	fi
	say "calibrating the CPU meter (zcc -C): this needs an idle machine, a few seconds..."
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
		say "  not saved: the next run calibrates again"
	elif cp "$WORK/counts_per_sec" "$_cf.tmp$$" && mv "$_cf.tmp$$" "$_cf"; then
		say "  saved as $_cf for next time (delete it to recalibrate)"
	fi
}
