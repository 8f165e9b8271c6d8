# make bench PART=accuracy: the meter against a load that knows its own
# CPU use exactly, each method of cyclesoak separately. Sourced by run.sh.
#
# tests/tools/loadgen runs at 0, 25, 50 and 75% of the machine and prints
# its own CPU share (CLOCK_PROCESS_CPUTIME_ID, the scheduler's exact run
# time); the truth is that plus the background (other work, from
# /proc/stat): the median of ACC_BG_SAMPLES idle seconds, half just before
# the reading and half just after, printed with their spread, since one
# tick-sampled second of /proc/stat is noisier than the meter it would
# judge. Each level is measured by `cyclesoak -r` (run time), `cyclesoak
# -L` (loop counts against a calibration), `cyclesoak -K` (kernel idle
# time, zcc's and zcs's default) and plain `cyclesoak` (the method it picks
# for this machine), over two fresh calibrations; the two defaults
# ACC_DEFAULT_ROUNDS times at each level (the levels in turn within a
# round). Target: each default's worst error within 1.5 points, each level
# of each calibration judged on the median of its readings: one wild
# second of a shared host (one reading points off while the rest agree)
# moves a row, not the verdict. Every reading is printed.
#
# Then the meter where benchmarks run today (acc_today), by -r and by -K:
# under taskset -c 1 at 0 and 50% of that CPU against /proc/stat's CPU 1
# over the same period, in a cgroup with a quota of half a CPU at 25% of a
# CPU (half the quota) against the group's own usage (for -K the group's
# usage is itself the truth), both within 3 points; and each half second
# across a CPU taken offline and brought back. Every reading prints the
# host's unseen share ("taken"), which the soakers' figure counts as idle.
#
# Then -W (where the CPU went): its own cost, paired rounds of an idle
# `cyclesoak -r` with and without -W at the default period, the difference
# per round (target: under 1 point); and its classes at loadgen -u 0, 25,
# 50 and 75% (all user time; each level ACC_WHERE_ROUNDS times, judged on
# its median): they add up to the load within 2 points, the
# user class is the truth's user share within 2 points and the system class
# is under 2 points above the background's system share.

ACC_LEVELS="0 25 50 75"
ACC_SECS=3
ACC_BG_SAMPLES=4
ACC_WHERE_ROUNDS=3
ACC_DEFAULT_ROUNDS=3

# acc_background N: N idle seconds of /proc/stat, one share a line, into
# $WORK/acc.bg (appended).
acc_background() {
	_n=$1
	while [ "$_n" -gt 0 ]; do
		_t0=$(cpu_ticks)
		sleep 1
		cpu_share "$_t0" "$(cpu_ticks)" >>"$WORK/acc.bg"
		_n=$((_n - 1))
	done
}

# acc_level METHOD PCT CYCLESOAK-OPTIONS...: one reading; appends
# "METHOD PCT LOADGEN BACKGROUND TRUTH READING ERROR BG-SPREAD CAL TAKEN"
# to $WORK/acc.rows (CAL: the calibration's round, $cal; TAKEN: the host's
# unseen share, - where this cyclesoak does not say).
acc_level() {
	_m=$1 _pct=$2
	shift 2
	: >"$WORK/acc.bg"
	acc_background $((ACC_BG_SAMPLES / 2))
	run_metered "$WORK/acc.err" in_work "$ZC_BIN/cyclesoak" -J "$@" -- sh -c 'f=$1; shift; exec "$@" >"$f"' sh \
		"$WORK/acc.lg" "$ZC_TESTBIN/loadgen" -l "$_pct" -t $ACC_SECS \
		>"$WORK/acc.out" || { cat "$WORK/acc.err" >&2; die "cyclesoak $* -- loadgen failed"; }
	_read=$(acc_load "$WORK/acc.out")
	_taken=$(acc_taken "$WORK/acc.out")
	_lg=$(sed -n 's/^cpu: *\([0-9.]*\)%.*/\1/p' "$WORK/acc.lg" | tail -n 1)
	acc_background $((ACC_BG_SAMPLES - ACC_BG_SAMPLES / 2))
	stat_of "$WORK/acc.bg" bg_
	# shellcheck disable=SC2154
	_bg=$bg_median _bgs=$(calc "$bg_max - $bg_min")
	need "$_read" "$_lg" "$_bg" "$_bgs"
	_truth=$(calc "$_lg + $_bg") _err=$(calc "$_read - ($_lg + $_bg)")
	echo "$_m $_pct $_lg $_bg $_truth $_read $_err $_bgs $cal $_taken" >>"$WORK/acc.rows"
	printf '  %-8s %5s%% %9.2f %7.2f+-%-5.2f %8.2f %10.2f %+9.2f %8s\n' \
		"$_m" "$_pct" "$_lg" "$_bg" "$(calc "$_bgs / 2")" "$_truth" "$_read" "$_err" "$_taken"
}

# acc_taken FILE: the host's unseen share of a cyclesoak -J run over a
# command, or - when it does not say.
acc_taken() {
	_t=$(json_get "$1" command unseen_steal_pct | tail -n 1)
	[ "$_t" = null ] && _t=	# -K runs no soakers: it cannot tell
	echo "${_t:--}"
}

# acc_count_over FILE N LIMIT: how many lines of FILE have field N over LIMIT.
acc_count_over() {
	_co=0
	column "$1" "$2" >"$WORK/co"
	while read -r _v; do
		is_true "$_v > $3" && _co=$((_co + 1))
	done <"$WORK/co"
	echo $_co
}

part_accuracy() {
	acc_methods="-r -L -K default"
	section "accuracy: cyclesoak ($acc_methods) against loadgen's exact CPU use, 2 fresh calibrations"
	echo "  truth = loadgen's own CPU share + the background: the median of $ACC_BG_SAMPLES idle seconds"
	echo "  around the reading (half before, half after), +- half their range; the default"
	echo "  method reads each level $ACC_DEFAULT_ROUNDS times a calibration, the levels in turn"
	: >"$WORK/acc.rows"
	for cal in 1 2; do
		show "cyclesoak -C -f cal$cal"
		# A calibration refused (a busy machine) leaves -L out of this round.
		cal_f="-f $WORK/cal$cal"
		if ! run_metered "$WORK/cal.err" in_work "$ZC_BIN/cyclesoak" -C -f "$WORK/cal$cal" >"$WORK/cal.out"; then
			echo "    calibration $cal refused: $(tail -n 1 "$WORK/cal.err"); -L left out this round"
			cal_f=
		fi
		grep -q warning "$WORK/cal.out" "$WORK/cal.err" && echo "    NOTE: calibration $cal was not clean: its errors below are suspect"
		[ $cal = 1 ] && show "cyclesoak [-r | -L -f calN | -f calN] -- sh -c 'exec loadgen -l PCT -t $ACC_SECS >FILE'   (PCT: $ACC_LEVELS)"
		printf '  %-8s %6s %9s %14s %8s %10s %9s %8s\n' method level loadgen% background% truth% reading% error taken%
		for m in $acc_methods; do
			_ar=1 _an=1
			# -K: zcc's and zcs's default, held to the default's target.
			case $m in default | -K) _an=$ACC_DEFAULT_ROUNDS ;; esac
			while [ $_ar -le $_an ]; do
				for pct in $ACC_LEVELS; do
					case $m in
					-r) acc_level "$m" "$pct" -r ;;
					-L) [ -n "$cal_f" ] && acc_level "$m" "$pct" -L $cal_f ;;
					-K) acc_level "$m" "$pct" -K ;;
					default) acc_level "$m" "$pct" $cal_f ;;
					esac
				done
				_ar=$((_ar + 1))
			done
		done
	done
	stat_of "$WORK/acc.rows" sp_ -k 8
	# shellcheck disable=SC2154
	echo "  background: the range of its $ACC_BG_SAMPLES idle seconds, median $(printf '%.2f' "$sp_median") points, at most $(printf '%.2f' "$sp_max")"
	csv accuracy background range_median "$sp_median" points
	csv accuracy background range_max "$sp_max" points
	busy=$(acc_count_over "$WORK/acc.rows" 4 10)
	[ "$busy" -gt 0 ] && echo "  NOTE: in $busy of $(wc -l <"$WORK/acc.rows") readings others used over 10% of the machine just before: those errors are the machine's, not only the meter's"
	acc_summary
	acc_today
	acc_where
}

# acc_summary: each method's worst error; the target on the default's.
acc_summary() {
	echo
	echo "truth,$(echo $acc_methods | tr ' ' ',')" >"$OUT/accuracy.csv"
	for m in $acc_methods; do
		# The method's |errors| into c, those at level 0 into c0, its worst
		# error (the first of the largest |error|) and its CSV rows:
		# the truth, then the reading in the method's column.
		: >"$WORK/c"
		: >"$WORK/c0"
		: >"$WORK/c.csv"
		worst=
		while read -r _m _pct _ _ _truth _read _err _; do
			[ "$_m" = "$m" ] || continue
			echo "${_err#-}" >>"$WORK/c"
			[ "$_pct" = 0 ] && echo "${_err#-}" >>"$WORK/c0"
			if [ -z "$worst" ] || is_true "${_err#-} > ${worst#-}"; then worst=$_err; fi
			_line=$_truth
			for _c in $acc_methods; do
				if [ "$_c" = "$m" ]; then _line="$_line,$_read"; else _line="$_line,"; fi
			done
			echo "$_line" >>"$WORK/c.csv"
		done <"$WORK/acc.rows"
		if [ ! -s "$WORK/c" ]; then
			echo "  $m: no readings (every calibration was refused)"
			continue
		fi
		stat_of "$WORK/c" e_
		stat_of "$WORK/c0" i_
		# shellcheck disable=SC2154
		printf '  %-8s worst error %+.2f points, median |error| %.2f, idle worst %.2f\n' "$m" "$worst" "$e_median" "$i_max"
		csv accuracy "$m" worst_error "$worst" points
		csv accuracy "$m" median_abs_error "$e_median" points
		csv accuracy "$m" idle_worst "$i_max" points
		cat "$WORK/c.csv" >>"$OUT/accuracy.csv"
		case $m in
		default) acc_default_verdict default "cyclesoak's default method" "$worst" "$i_max" ;;
		-K) acc_default_verdict -K "kernel idle time (zcc's and zcs's default)" "$worst" "$i_max" ;;
		esac
	done
	plot accuracy.svg accuracy.csv -p -i -t "cyclesoak's reading against the truth ($(uname -r))" \
		-x "truth: loadgen's own CPU + background (% of the machine)" -y "cyclesoak's reading (% of the machine)"
}

# acc_default_verdict METHOD WHAT WORST-SINGLE IDLE-WORST: the target on a
# default method (cyclesoak's; -K, zcc's and zcs's), each level of each
# calibration judged on the median error of its ACC_DEFAULT_ROUNDS
# readings; the worst of those medians must be within 1.5 points.
acc_default_verdict() {
	# "CALIBRATION.LEVEL ERROR" of each reading: the medians per key.
	while read -r _m _pct _ _ _ _ _err _ _cal _; do
		[ "$_m" = "$1" ] && echo "$_cal.$_pct $_err"
	done <"$WORK/acc.rows" | group_medians >"$WORK/c"
	_dw=$(acc_worst "$WORK/c" signed)
	need "$_dw"
	if is_true "$_dw <= 1.5 && $_dw >= -1.5"; then _met=1; else _met=0; fi
	verdict $_met "$2: worst error $(printf '%+.2f' "$_dw") points over 0-75% and 2 calibrations, each level's median of $ACC_DEFAULT_ROUNDS readings (target within 1.5; worst single reading $(printf '%+.2f' "$3"), idle worst $(printf '%.2f' "$4"))"
	csv accuracy "$1" worst_median_error "$_dw" points
	csv accuracy "$1" target_met $_met bool
}

# acc_worst FILE abs|signed|max: of the figures in field 2 of FILE ("KEY
# FIGURE" lines, as group_medians writes them), to two decimals: abs, the
# largest |figure|; signed, that figure with its sign; max, the largest.
acc_worst() {
	stat_of "$1" aw_ -k 2
	# shellcheck disable=SC2154
	if [ "$2" != max ] && is_true "-($aw_min) > $aw_max"; then _w=$aw_min; else _w=$aw_max; fi
	[ "$2" = abs ] && _w=${_w#-}
	printf '%.2f\n' "$_w"
}

# --- -W: its cost and its classes -----------------------------------------------
ACC_W_ROUNDS=8
ACC_W_SECS=3

# acc_load FILE: the load_pct of a cyclesoak -J run.
acc_load() {
	json_get "$1" command load_pct | tail -n 1
}

# acc_classes FILE: "USER SYSTEM IRQ SOFTIRQ STEAL UNATTRIBUTED" of a
# cyclesoak -W -J run over a command (its class_pct).
acc_classes() (
	eval "$(json_last "$1" command c_)"
	# shellcheck disable=SC2154
	echo "$c_class_pct_user $c_class_pct_system $c_class_pct_irq $c_class_pct_softirq" \
		"$c_class_pct_steal $c_class_pct_unattributed"
)

# acc_stat_cpu: "USER SYSTEM OTHERS TOTAL" jiffies of /proc/stat's cpu line
# (OTHERS as cpu_ticks's: all but idle, iowait and nice).
acc_stat_cpu() {
	read -r _ _u _n _s _i _w _q _sq _st _ </proc/stat
	echo "$_u $_s $((_u + _s + _q + _sq + _st)) $((_u + _n + _s + _i + _w + _q + _sq + _st))"
}

# acc_bg_classes N: N idle seconds of /proc/stat appended to $WORK/accw.bg,
# "OTHERS USER SYSTEM" a line (percent of the machine).
acc_bg_classes() {
	_n=$1
	while [ "$_n" -gt 0 ]; do
		_s0=$(acc_stat_cpu)
		sleep 1
		# shellcheck disable=SC2046
		set -- $_s0 $(acc_stat_cpu)
		_t=$(($8 - $4))
		[ $_t -gt 0 ] || _t=1
		printf '%.2f %.2f %.2f\n' "$(calc "100 * ($7 - $3) / $_t")" "$(calc "100 * ($5 - $1) / $_t")" \
			"$(calc "100 * ($6 - $2) / $_t")" >>"$WORK/accw.bg"
		_n=$((_n - 1))
	done
}

# acc_where: -W's cost on the idle machine and its classes at known loads.
acc_where() {
	section "accuracy: cyclesoak -W, its own cost and its classes"
	acc_where_cost
	acc_where_classes
}

# acc_where_cost: ACC_W_ROUNDS paired rounds of an idle cyclesoak -r with
# and without -W (the order alternating), the difference in points.
acc_where_cost() {
	show "cyclesoak -r [-W] -- sleep $ACC_W_SECS   ($ACC_W_ROUNDS paired rounds, the order alternating; idle machine, default period)"
	: >"$WORK/accw.cost"
	printf '  %6s %12s %12s %12s\n' round "without -W" "with -W" difference
	_wr=1
	while [ $_wr -le $ACC_W_ROUNDS ]; do
		if [ $((_wr % 2)) = 1 ]; then _order="plain where"; else _order="where plain"; fi
		for _wk in $_order; do
			_wf=
			[ "$_wk" = where ] && _wf=-W
			# shellcheck disable=SC2086
			run_metered "$WORK/accw.err" in_work "$ZC_BIN/cyclesoak" -J -r $_wf -- sleep $ACC_W_SECS \
				>"$WORK/accw.$_wk" || { cat "$WORK/accw.err" >&2; die "cyclesoak -r $_wf -- sleep failed"; }
		done
		_l0=$(acc_load "$WORK/accw.plain")
		_l1=$(acc_load "$WORK/accw.where")
		need "$_l0" "$_l1"
		_d=$(calc "$_l1 - $_l0")
		echo "$_l0 $_l1 $_d" >>"$WORK/accw.cost"
		printf '  %6d %11.2f%% %11.2f%% %+12.2f\n' $_wr "$_l0" "$_l1" "$_d"
		_wr=$((_wr + 1))
	done
	stat_of "$WORK/accw.cost" wc_ -k 3
	# shellcheck disable=SC2154
	printf '  -W costs %+.2f points (median of %d rounds; mean %+.2f, 95%% interval [%+.2f, %+.2f])\n' \
		"$wc_median" "$wc_n" "$wc_mean" "$wc_lo" "$wc_hi"
	_busy=$(acc_count_over "$WORK/accw.cost" 1 5)
	[ "$_busy" -gt 0 ] && echo "  NOTE: in $_busy of $ACC_W_ROUNDS rounds the machine was not idle (over 5% without -W):" \
		"those differences are others' work as much as -W's"
	csv accuracy where_cost median "$wc_median" points
	csv accuracy where_cost lo "$wc_lo" points
	csv accuracy where_cost hi "$wc_hi" points
	# Met when the whole interval lies below 1 point.
	if [ "$wc_hi" != nan ] && is_true "$wc_hi < 1"; then _met=1; else _met=0; fi
	verdict $_met "-W costs under 1 point of load on the idle machine (median $(printf '%+.2f' "$wc_median"), interval [$(printf '%+.2f' "$wc_lo"), $(printf '%+.2f' "$wc_hi")], $wc_n rounds)"
	csv accuracy where_cost target_met $_met bool
}

# acc_level_worst COL abs|max: over the levels of $WORK/accw.rows, the
# worst of each level's median of column COL (abs: the largest |median|;
# max: the largest median).
acc_level_worst() {
	"$ZC_TESTBIN/zcstat" -g median -k "$1" <"$WORK/accw.rows" >"$WORK/c" || die "zcstat -g median -k $1 failed"
	acc_worst "$WORK/c" "$2"
}

# group_medians: "KEY VALUE" lines in, "KEY MEDIAN" out, a line per KEY.
group_medians() {
	"$ZC_TESTBIN/zcstat" -g median
}

# acc_where_classes: cyclesoak -r -W over loadgen -u at each level; the
# background (/proc/stat's idle seconds around it) as in the part above,
# by class.
acc_where_classes() {
	echo
	show "cyclesoak -r -W -- sh -c 'exec loadgen -u -l PCT -t $ACC_SECS >FILE'   (PCT: $ACC_LEVELS)"
	echo "  truth: loadgen's own CPU (all user time) + the background, the median of"
	echo "  $ACC_BG_SAMPLES idle seconds around the reading, in all (load) and by class (user, system)"
	printf '  %5s %8s %17s %7s %7s %7s %6s %7s %6s %6s %8s %9s\n' level loadgen "bg all/usr/sys" load user system irq softirq steal unatt "sum-load" user-truth
	: >"$WORK/accw.rows"
	# Each level ACC_WHERE_ROUNDS times, the levels in turn within a round,
	# judged on each level's median error: one wild reading (a host that
	# took the CPU for a moment) moves one row, not the verdict.
	_wr=1
	while [ $_wr -le "$ACC_WHERE_ROUNDS" ]; do
	for pct in $ACC_LEVELS; do
		: >"$WORK/accw.bg"
		acc_bg_classes $((ACC_BG_SAMPLES / 2))
		run_metered "$WORK/accw.err" in_work "$ZC_BIN/cyclesoak" -J -r -W -- sh -c 'f=$1; shift; exec "$@" >"$f"' sh \
			"$WORK/accw.lg" "$ZC_TESTBIN/loadgen" -u -l "$pct" -t $ACC_SECS \
			>"$WORK/accw.out" || { cat "$WORK/accw.err" >&2; die "cyclesoak -r -W -- loadgen -u failed"; }
		acc_bg_classes $((ACC_BG_SAMPLES - ACC_BG_SAMPLES / 2))
		_lg=$(sed -n 's/^cpu: *\([0-9.]*\)%.*/\1/p' "$WORK/accw.lg" | tail -n 1)
		_load=$(acc_load "$WORK/accw.out")
		# The six figures as $1..$6.
		# shellcheck disable=SC2046
		set -- $(acc_classes "$WORK/accw.out")
		need "$_lg" "$_load" "$1" "$2" "$3" "$4" "$5" "$6"
		stat_of "$WORK/accw.bg" ba_ -k 1
		stat_of "$WORK/accw.bg" bu_ -k 2
		stat_of "$WORK/accw.bg" bs_ -k 3
		# shellcheck disable=SC2154
		_sl=$(calc "$1 + $2 + $3 + $4 + $5 - $_load") _ut=$(calc "$1 - ($_lg + $bu_median)")
		# LEVEL LOADGEN BG BG_USER BG_SYS LOAD USER SYSTEM IRQ SOFTIRQ STEAL
		# UNATTRIBUTED SUM-LOAD USER-TRUTH SYSTEM-BG_SYS BG-SPREAD
		# shellcheck disable=SC2154
		echo "$pct $_lg $ba_median $bu_median $bs_median $_load $* $_sl $_ut" \
			"$(calc "$2 - $bs_median") $(calc "$ba_max - $ba_min")" >>"$WORK/accw.rows"
		printf '  %4s%% %7.2f%% %5.2f/%5.2f/%5.2f %6.2f%% %6.2f%% %6.2f%% %5.2f%% %6.2f%% %5.2f%% %5.2f%% %+8.2f %+9.2f\n' \
			"$pct" "$_lg" "$ba_median" "$bu_median" "$bs_median" "$_load" "$1" "$2" "$3" "$4" "$5" "$6" "$_sl" "$_ut"
		csv accuracy "where$pct" load_pct "$_load" %
		csv accuracy "where$pct" user_pct "$1" %
		csv accuracy "where$pct" system_pct "$2" %
		csv accuracy "where$pct" unattributed_pct "$6" %
	done
	_wr=$((_wr + 1))
	done
	stat_of "$WORK/accw.rows" wb_ -k 16
	# shellcheck disable=SC2154
	echo "  background: the range of its $ACC_BG_SAMPLES idle seconds, median $(printf '%.2f' "$wb_median") points, at most $(printf '%.2f' "$wb_max")"
	echo "  (sum-load: user+system+irq+softirq+steal less the load; user-truth: the user class less"
	echo "  loadgen's CPU and the background's user share)"
	echo "  verdicts on each level's median of its $ACC_WHERE_ROUNDS rounds"
	_wsum=$(acc_level_worst 13 abs)
	_wuser=$(acc_level_worst 14 abs)
	_wsys=$(acc_level_worst 15 max)
	csv accuracy where_classes worst_sum_error "$_wsum" points
	csv accuracy where_classes worst_user_error "$_wuser" points
	csv accuracy where_classes worst_system_over_bg "$_wsys" points
	if is_true "$_wsum <= 2"; then _met=1; else _met=0; fi
	verdict $_met "-W's classes add up to the load within 2 points at $(echo $ACC_LEVELS | tr ' ' '/')% (worst $_wsum)"
	csv accuracy where_classes sum_target_met $_met bool
	if is_true "$_wuser <= 2 && $_wsys < 2"; then _met=1; else _met=0; fi
	verdict $_met "a user-space load reads as user within 2 points (worst $_wuser) and system under 2 points above the background's (worst $_wsys)"
	csv accuracy where_classes user_target_met $_met bool
}

# --- the meter where benchmarks run today ------------------------------------
# acc_each_cpu: "cpuN BUSY TOTAL" a line, the jiffies of each CPU online
# from /proc/stat, BUSY as cpu_ticks's OTHERS (the soakers' nice time left
# out).
acc_each_cpu() {
	grep '^cpu[0-9]' /proc/stat | while read -r _c _u _n _s _i _w _q _sq _st _; do
		echo "$_c $((_u + _s + _q + _sq + _st)) $((_u + _n + _s + _i + _w + _q + _sq + _st))"
	done
}

# acc_cpus_ticks "CPU...": "BUSY TOTAL" jiffies of those CPUs.
acc_cpus_ticks() {
	_b=0 _t=0
	acc_each_cpu >"$WORK/ticks"
	while read -r _c _cb _ct; do
		case " $1 " in
		*" ${_c#cpu} "*) _b=$((_b + _cb)) _t=$((_t + _ct)) ;;
		esac
	done <"$WORK/ticks"
	echo "$_b $_t"
}

# acc_cpus_share T0 T1: percent busy between two acc_cpus_ticks samples.
acc_cpus_share() {
	# shellcheck disable=SC2086
	set -- $1 $2
	if [ $(($4 - $2)) -gt 0 ]; then printf '%.2f\n' "$(calc "100 * ($3 - $1) / ($4 - $2)")"; else echo 0.00; fi
}

# acc_today_row WHAT PCT TRUTH PREFIX...: loadgen -n 1 -l PCT and
# cyclesoak -r -J over one period of ACC_SECS, both started through PREFIX
# (taskset, a cgroup). TRUTH "cpu N": /proc/stat's busy share of CPU N
# over that same period (the soakers' nice time left out); "quota Q": the
# share of what Q CPUs allow over the period that the group's soakers did
# not get, by the group's own accounting (ACC_USAGE: its usage counter,
# less loadgen's own CPU time). Prints and appends "WHAT PCT TRUTH READING
# ERROR TAKEN" to $WORK/acc.today.
acc_today_row() {
	_w=$1 _pct=$2 _kind=${3% *} _arg=${3#* }
	shift 3
	_tries=0
	while :; do
		start_bg "$@" "$ZC_TESTBIN/loadgen" -n 1 -l "$_pct" -t $((ACC_SECS + 2)) >"$WORK/acc.lg"
		_lgp=$!
		start_bg "$@" "$ZC_BIN/cyclesoak" "$ACC_M" -J -m $((ACC_SECS * 1000)) >"$WORK/acc.out" 2>"$WORK/acc.err"
		_csp=$!
		wait_for "$WORK/acc.out" '"event":"method"' 50 && break
		stop_bg "$_csp"
		stop_bg "$_lgp"
		grep -q 'another meter is running' "$WORK/acc.err" && [ $_tries -lt 60 ] ||
			{ cat "$WORK/acc.err" >&2; die "$_w: cyclesoak did not start"; }
		_tries=$((_tries + 1))
		sleep 1
	done
	_t0=$(acc_cpus_ticks "$_arg") _u0=$(acc_usage_ns) _l0=$(acc_proc_ns "$_lgp") _w0=$(date +%s.%N)
	wait_for "$WORK/acc.out" '"event":"load"' $((ACC_SECS * 10 + 50)) || die "$_w: no load line"
	_t1=$(acc_cpus_ticks "$_arg") _u1=$(acc_usage_ns) _l1=$(acc_proc_ns "$_lgp") _w1=$(date +%s.%N)
	stop_bg "$_csp"
	wait "$_lgp"
	forget_bg "$_lgp"
	_read=$(json_get "$WORK/acc.out" load load_pct | head -n 1)
	_taken=$(json_get "$WORK/acc.out" load unseen_steal_pct | head -n 1)
	if [ "$_kind" = cpu ]; then
		_truth=$(acc_cpus_share "$_t0" "$_t1")
	elif [ "$ACC_M" = -K ]; then
		# No soakers: the truth is the group's own usage over the period.
		need "$_u0" "$_u1"
		_truth=$(calc "100 * ($_u1 - $_u0) / 1e9 / ($_arg * ($_w1 - $_w0))")
	else
		need "$_u0" "$_u1" "$_l0" "$_l1"
		# The soakers' CPU = the group's - loadgen's, both over the same
		# period (loadgen's own average over its life would count the
		# seconds before the soakers started, when it had the quota to
		# itself); truth = 1 - that / (Q x period).
		_truth=$(calc "100 * (1 - (($_u1 - $_u0) - ($_l1 - $_l0)) / 1e9 / ($_arg * ($_w1 - $_w0)))")
		echo "    (loadgen got $(calc "($_l1 - $_l0) / 1e7 / ($_w1 - $_w0)")% of a CPU, asked $_pct%; the group used $(calc "($_u1 - $_u0) / 1e7 / ($_w1 - $_w0)")% of a CPU)"
	fi
	need "$_read" "$_truth"
	_err=$(calc "$_read - $_truth")
	echo "$_w $_pct $_truth $_read $_err ${_taken:--}" >>"$WORK/acc.today"
	printf '  %-26s %5s%% %8.2f %9.2f %+8.2f %8s\n' "$ACC_M $_w" "$_pct" "$_truth" "$_read" "$_err" "${_taken:--}"
}

acc_today() {
	section "accuracy: the meter under taskset, a CPU quota and a CPU going offline"
	if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
		echo "  skipped: needs 2 CPUs online"
		return 0
	fi
	: >"$WORK/acc.today"
	echo "  one period of $ACC_SECS s each, beside loadgen -n 1 at the level (% of one CPU); truth: /proc/stat's"
	echo "  busy share of CPU 1 over the same period; under the quota, the share of what it allows that"
	echo "  the soakers did not get by the group's own usage (cpuacct.usage or cpu.stat) less loadgen's"
	echo "  CPU time; taken: the host's unseen share (unseen_steal_pct)"
	echo "  (cyclesoak -r, and -K: kernel idle time, zcc's and zcs's default; under the quota"
	echo "  -K's truth is the group's own usage as a share of the quota)"
	printf '  %-26s %6s %8s %9s %8s %8s\n' case level truth% reading% error taken%
	for ACC_M in -r -K; do
		for pct in 0 50; do
			acc_today_row taskset-c1 "$pct" "cpu 1" taskset -c 1
		done
		acc_today_quota
	done
	while read -r _ _ _ _ _err _; do echo "${_err#-}"; done <"$WORK/acc.today" >"$WORK/c"
	stat_of "$WORK/c" td_
	# shellcheck disable=SC2154
	if is_true "$td_max <= 3"; then _met=1; else _met=0; fi
	verdict $_met "the meter under taskset and a quota: worst error $(printf '%.2f' "$td_max") points over $(wc -l <"$WORK/acc.today") readings (target within 3)"
	csv accuracy today worst_error "$td_max" points
	for ACC_M in -r -K; do
		acc_today_hotplug
	done
}

# acc_mount TYPE [OPTION]: where the first file system of TYPE is mounted
# (with OPTION: the first whose options hold it, cgroup v1's controllers).
acc_mount() {
	while read -r _ _ _ _ _mp _rest; do
		case $_rest in *" - $1 "*) ;; *) continue ;; esac
		[ -z "${2:-}" ] || case ,${_rest##* }, in *",$2,"*) ;; *) continue ;; esac
		echo "$_mp"
		return 0
	done </proc/self/mountinfo
}

# acc_stat_key FILE KEY: KEY's value in FILE of "KEY VALUE" lines (cpu.stat).
acc_stat_key() {
	while read -r _k _v; do
		[ "$_k" = "$2" ] && { echo "$_v"; return 0; }
	done <"$1"
}

# acc_today_quota: a v1 or v2 cgroup with a quota of half a CPU, made here
# and removed when the bench ends; loadgen at 25% of a CPU inside it is
# half the quota.
acc_today_quota() {
	_g= _kind=
	_m=$(acc_mount cgroup cpu)
	_a=
	if [ -n "$_m" ] && mkdir "$_m/zc-bench-$$" 2>/dev/null; then
		_g=$_m/zc-bench-$$ _kind=v1
		echo 100000 >"$_g/cpu.cfs_period_us"
		echo 50000 >"$_g/cpu.cfs_quota_us"
		ACC_USAGE="v1 $_g/cpuacct.usage"
		if [ ! -f "$_g/cpuacct.usage" ]; then
			# cpuacct mounted apart: a group there too, for the usage.
			_am=$(acc_mount cgroup cpuacct)
			[ -n "$_am" ] && mkdir "$_am/zc-bench-$$" 2>/dev/null && _a=$_am/zc-bench-$$
			ACC_USAGE="v1 $_a/cpuacct.usage"
		fi
	else
		_m=$(acc_mount cgroup2)
		if [ -n "$_m" ] && grep -qw cpu "$_m/cgroup.subtree_control" 2>/dev/null &&
			mkdir "$_m/zc-bench-$$" 2>/dev/null; then
			_g=$_m/zc-bench-$$ _kind=v2
			echo "50000 100000" >"$_g/cpu.max"
			ACC_USAGE="v2 $_g/cpu.stat"
		fi
	fi
	if [ -z "$_g" ]; then
		echo "  quota: skipped: cannot make a cgroup with a CPU quota here (not root, or no cpu controller)"
		return 0
	fi
	ACC_QUOTA_GROUP="$_g $_a"
	on_cleanup acc_quota_drop
	_th0=$(acc_stat_key "$_g/cpu.stat" nr_throttled)
	acc_today_row "quota-0.5-$_kind" 25 "quota 0.5" \
		sh -c 'for g in $0; do echo $$ >"$g/cgroup.procs" || exit 1; done; exec "$@"' "$_g $_a"
	echo "    (the group was throttled in $(($(acc_stat_key "$_g/cpu.stat" nr_throttled) - _th0)) of its periods)"
	acc_quota_drop	# the next method makes its own
}

acc_quota_drop() {
	for _d in $ACC_QUOTA_GROUP; do rmdir "$_d" 2>/dev/null; done
	ACC_QUOTA_GROUP=
}

# acc_proc_ns PID: the CPU time of every thread of PID so far, ns
# (schedstat's run time), or nothing.
acc_proc_ns() {
	_ns=0
	for _f in /proc/"$1"/task/*/schedstat; do
		read -r _r _ 2>/dev/null <"$_f" || return 0
		_ns=$((_ns + _r))
	done
	echo "$_ns"
}

# acc_usage_ns: the quota group's CPU time so far (ACC_USAGE "v1 FILE":
# cpuacct.usage, ns; "v2 FILE": cpu.stat's usage_usec), or nothing.
acc_usage_ns() {
	case $ACC_USAGE in
	v1\ *) cat "${ACC_USAGE#v1 }" 2>/dev/null ;;
	v2\ *)
		_us=$(acc_stat_key "${ACC_USAGE#v2 }" usage_usec 2>/dev/null)
		[ -z "$_us" ] || echo $((_us * 1000))
		;;
	esac
}

# acc_today_hotplug: cyclesoak -r every half second beside loadgen at 50%
# of a CPU while the highest CPU goes offline and comes back; each
# period's figure beside /proc/stat's busy share of the CPUs online over
# the same half second (sampled every tenth). Always brings the CPU back.
acc_today_hotplug() {
	_last=$(($(getconf _NPROCESSORS_ONLN) - 1))
	ACC_ONLINE=/sys/devices/system/cpu/cpu$_last/online
	if [ ! -w "$ACC_ONLINE" ]; then
		echo "  hotplug: skipped: $ACC_ONLINE cannot be written (not root, or a CPU that cannot go offline)"
		return 0
	fi
	on_cleanup acc_cpu_back
	show "cyclesoak $ACC_M -J -m 500 & loadgen -n 1 -l 50 -t 6 &   CPU $_last offline at 2 s, back at 4 s"
	: >"$WORK/acc.stat"
	start_bg acc_sampler >"$WORK/acc.stat"
	_sampler=$!
	run_metered "$WORK/acc.err" "$ZC_BIN/cyclesoak" -r -1 -m 10 >/dev/null
	start_bg "$ZC_BIN/cyclesoak" "$ACC_M" -J -m 500 >"$WORK/acc.hp" 2>"$WORK/acc.err"
	_cs=$!
	start_bg "$ZC_TESTBIN/loadgen" -n 1 -l 50 -t 6 >/dev/null
	_lg=$!
	sleep 2
	echo 0 >"$ACC_ONLINE"
	sleep 2
	acc_cpu_back
	sleep 2
	stop_bg "$_cs"
	stop_bg "$_lg"
	stop_bg "$_sampler"
	printf '  %-14s %-34s %9s\n' "time (s)" "cyclesoak" "/proc/stat"
	# Each event's half second against the sampler's lines around it.
	_t0=$(head -n 1 "$WORK/acc.stat" | cut -d' ' -f1)
	"$ZC_TESTBIN/jsoncheck" -s e_ "$WORK/acc.hp" >"$WORK/acc.hpv"
	while read -r _ev; do
		e_event='' e_time='' e_load_pct='' e_ncpus='' e_why=
		eval "$_ev"
		# shellcheck disable=SC2154
		case $e_event in
		load)
			_what="System load: $e_load_pct%"
			[ -z "$e_ncpus" ] || _what="$_what over $e_ncpus CPU"
			;;
		nofigure) _what="no figure: $e_why" ;;
		*) continue ;;
		esac
		_ms=$(printf '%.0f' "${e_time}e3")
		printf '  %-14.2f %-34s %9s\n' "$(calc "($_ms - $_t0) / 1000")" "$_what" "$(acc_hp_share "$_ms")"
	done <"$WORK/acc.hpv"
	[ -s "$WORK/acc.err" ] && sed 's/^/    stderr: /' "$WORK/acc.err" | head -n 3
}

# acc_sampler: every tenth of a second, "MS cpuN BUSY TOTAL ..." of each
# CPU online (MS: the time, Unix milliseconds), until stopped.
acc_sampler() {
	while :; do
		# shellcheck disable=SC2046
		echo "$(date +%s%3N)" $(acc_each_cpu)
		sleep 0.1
	done
}

# acc_hp_share MS: /proc/stat's busy share of the CPUs in the sampler's
# lines (online at both ends) over the half second up to MS, or -.
acc_hp_share() {
	_i=0 _ia=0 _ib=0 _a='' _b=
	while read -r _st _l; do
		_i=$((_i + 1))
		[ "$_st" -le $(($1 - 500)) ] && _ia=$_i _a=$_l
		[ "$_st" -le "$1" ] && _ib=$_i _b=$_l
	done <"$WORK/acc.stat"
	_bu=0 _to=0
	if [ $_ia -gt 0 ] && [ $_ib -gt $_ia ]; then
		# shellcheck disable=SC2086
		set -- $_b
		while [ $# -ge 3 ]; do
			case " $_a " in
			*" $1 "*)
				_x=${_a#*"$1 "}
				_bu=$((_bu + $2 - ${_x%% *}))
				_x=${_x#* }
				_to=$((_to + $3 - ${_x%% *}))
				;;
			esac
			shift 3
		done
	fi
	if [ $_to -gt 0 ]; then printf '%.1f%%\n' "$(calc "100 * $_bu / $_to")"; else echo -; fi
}

acc_cpu_back() {
	[ -n "$ACC_ONLINE" ] && echo 1 >"$ACC_ONLINE" 2>/dev/null
	return 0
}
