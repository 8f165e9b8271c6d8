# make bench PART=accuracy: the meter against a load that knows its own
# CPU use exactly, each method of cyclesoak separately. Sourced by run.sh.
#
# tests/tools/loadgen runs at 0, 25, 50 and 75% of the machine and prints its own
# CPU share (CLOCK_PROCESS_CPUTIME_ID, the scheduler's exact run time); the
# truth is that plus the background (other work, from /proc/stat): the
# median of ACC_BG_SAMPLES idle seconds, half just before the reading and
# half just after, printed with their spread, since one tick-sampled
# second is noisier than the meter it would judge (2.97% in one second,
# 0.50% in the next, seen on a VM). Each level is measured by `cyclesoak -r` (run
# time), `cyclesoak -L` (loop counts against a calibration) and plain
# `cyclesoak` (the method it picks for this machine), over two fresh
# calibrations; the default ACC_DEFAULT_ROUNDS times at each level (the
# levels in turn within a round). Target: the default's worst error within
# 1.5 points, each level of each calibration judged on the median of its
# readings: one wild second of a shared host (a reading 2.6 points off
# while the rest of the run's 15 were within 0.5, seen on this project's
# VM) moves a row, not the verdict. Every reading is printed.
#
# Then the meter where benchmarks run today (acc_today): under taskset -c 1
# at 0 and 50% of that CPU against /proc/stat's CPU 1 over the same
# period, in a cgroup with a quota of half a CPU at 25% of a CPU (half the
# quota) against the group's own usage, both within 3 points; and each
# half second across a CPU taken offline and brought back. Every reading
# prints the host's unseen share ("taken"), which the figure counts as
# idle.
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
	run_metered "$WORK/acc.err" in_work "$ZC_BIN/cyclesoak" $ACC_JSON "$@" -- sh -c 'f=$1; shift; exec "$@" >"$f"' sh \
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
	echo "$_m $_pct $_lg $_bg $(calc "$_lg + $_bg") $_read $(calc "$_read - ($_lg + $_bg)") $_bgs $cal $_taken" >>"$WORK/acc.rows"
	tail -n 1 "$WORK/acc.rows" | awk '{ printf "  %-8s %5s%% %9.2f %7.2f+-%-5.2f %8.2f %10.2f %+9.2f %8s\n", $1, $2, $3, $4, $8 / 2, $5, $6, $7, $10 }'
}

# acc_taken FILE: the host's unseen share of a cyclesoak -J run over a
# command, or - when it does not say.
acc_taken() {
	_t=
	is_json "$1" && _t=$(json_get "$1" command unseen_steal_pct | tail -n 1)
	echo "${_t:--}"
}

part_accuracy() {
	ACC_JSON=-J
	acc_methods="-r -L default"
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
			[ "$m" = default ] && _an=$ACC_DEFAULT_ROUNDS
			while [ $_ar -le $_an ]; do
				for pct in $ACC_LEVELS; do
					case $m in
					-r) acc_level "$m" "$pct" -r ;;
					-L) [ -n "$cal_f" ] && acc_level "$m" "$pct" -L $cal_f ;;
					default) acc_level "$m" "$pct" $cal_f ;;
					esac
				done
				_ar=$((_ar + 1))
			done
		done
	done
	awk '{ print $8 }' "$WORK/acc.rows" >"$WORK/c"
	stat_of "$WORK/c" sp_
	# shellcheck disable=SC2154
	echo "  background: the range of its $ACC_BG_SAMPLES idle seconds, median $(printf '%.2f' "$sp_median") points, at most $(printf '%.2f' "$sp_max")"
	csv accuracy background range_median "$sp_median" points
	csv accuracy background range_max "$sp_max" points
	busy=$(awk '$4 > 10' "$WORK/acc.rows" | wc -l)
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
		awk -v m="$m" '$1 == m { print ($7 < 0 ? -$7 : $7) }' "$WORK/acc.rows" >"$WORK/c"
		if [ ! -s "$WORK/c" ]; then
			echo "  $m: no readings (every calibration was refused)"
			continue
		fi
		stat_of "$WORK/c" e_
		worst=$(awk -v m="$m" -v w="$e_max" '$1 == m && ($7 == w || -$7 == w) { print $7; exit }' "$WORK/acc.rows")
		awk -v m="$m" '$1 == m && $2 == 0 { print ($7 < 0 ? -$7 : $7) }' "$WORK/acc.rows" >"$WORK/c"
		stat_of "$WORK/c" i_
		# shellcheck disable=SC2154
		printf '  %-8s worst error %+.2f points, median |error| %.2f, idle worst %.2f\n' "$m" "$worst" "$e_median" "$i_max"
		csv accuracy "$m" worst_error "$worst" points
		csv accuracy "$m" median_abs_error "$e_median" points
		csv accuracy "$m" idle_worst "$i_max" points
		awk -v m="$m" -v list="$acc_methods" 'BEGIN { n = split(list, col, " ") }
			$1 == m { printf "%s", $5; for (i = 1; i <= n; i++) printf ",%s", (col[i] == m ? $6 : ""); print "" }' \
			"$WORK/acc.rows" >>"$OUT/accuracy.csv"
		if [ "$m" = default ]; then
			acc_default_verdict "$worst" "$i_max"
		fi
	done
	plot accuracy.svg accuracy.csv -p -i -t "cyclesoak's reading against the truth ($(uname -r))" \
		-x "truth: loadgen's own CPU + background (% of the machine)" -y "cyclesoak's reading (% of the machine)"
}

# acc_default_verdict WORST-SINGLE IDLE-WORST: the target on the default
# method, each level of each calibration judged on the median error of its
# ACC_DEFAULT_ROUNDS readings; the worst of those medians must be within
# 1.5 points.
acc_default_verdict() {
	_dw=$(awk '$1 == "default" { print $9 "." $2, $7 }' "$WORK/acc.rows" | group_medians |
		awk '{ a = $2 < 0 ? -$2 : $2; if (NR == 1 || a > wa) { w = $2; wa = a } }
			END { printf "%.2f\n", w + 0 }')
	need "$_dw"
	if is_true "$_dw <= 1.5 && $_dw >= -1.5"; then _met=1; else _met=0; fi
	verdict $_met "the meter's default method: worst error $(printf '%+.2f' "$_dw") points over 0-75% and 2 calibrations, each level's median of $ACC_DEFAULT_ROUNDS readings (target within 1.5; worst single reading $(printf '%+.2f' "$1"), idle worst $(printf '%.2f' "$2"))"
	csv accuracy default worst_median_error "$_dw" points
	csv accuracy default target_met $_met bool
}

# --- -W: its cost and its classes -----------------------------------------------
ACC_W_ROUNDS=8
ACC_W_SECS=3

# acc_load FILE: the load_pct of a cyclesoak run (-J or text).
acc_load() {
	if is_json "$1"; then
		json_get "$1" command load_pct | tail -n 1
	else
		sed -n 's/^System load: *\(-\{0,1\}[0-9.]*\)%.*/\1/p' "$1" | tail -n 1
	fi
}

# acc_classes FILE: "USER SYSTEM IRQ SOFTIRQ STEAL UNATTRIBUTED" of a
# cyclesoak -W run over a command (class_pct with -J, the where: line
# without).
acc_classes() {
	if is_json "$1"; then
		json_get "$1" command class_pct | tail -n 1 | awk '{
			n = split("user system irq softirq steal unattributed", k, " ")
			for (i = 1; i <= n; i++) {
				v = ""
				if (match($0, "\"" k[i] "\": *-?[0-9.]+")) {
					v = substr($0, RSTART, RLENGTH); sub(/.*: */, "", v)
				}
				printf "%s%s", v, (i < n ? " " : "\n")
			}
		}'
	else
		sed -n 's/^where: user \(-\{0,1\}[0-9.]*\)%, system \(-\{0,1\}[0-9.]*\)%, irq \(-\{0,1\}[0-9.]*\)%, softirq \(-\{0,1\}[0-9.]*\)%, steal \(-\{0,1\}[0-9.]*\)%, unattributed \(-\{0,1\}[0-9.]*\)%.*/\1 \2 \3 \4 \5 \6/p' \
			"$1" | tail -n 1
	fi
}

# acc_bg_classes N: N idle seconds of /proc/stat appended to $WORK/accw.bg,
# "OTHERS USER SYSTEM" a line (percent of the machine; OTHERS as
# cpu_ticks's: all but idle, iowait and nice).
acc_bg_classes() {
	_n=$1
	while [ "$_n" -gt 0 ]; do
		_s0=$(awk '/^cpu / { print $2, $4, $2 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; exit }' /proc/stat)
		sleep 1
		_s1=$(awk '/^cpu / { print $2, $4, $2 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; exit }' /proc/stat)
		echo "$_s0 $_s1" | awk '{ t = $8 - $4; if (t <= 0) t = 1
			printf "%.2f %.2f %.2f\n", 100 * ($7 - $3) / t, 100 * ($5 - $1) / t, 100 * ($6 - $2) / t }' >>"$WORK/accw.bg"
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
			run_metered "$WORK/accw.err" in_work "$ZC_BIN/cyclesoak" $ACC_JSON -r $_wf -- sleep $ACC_W_SECS \
				>"$WORK/accw.$_wk" || { cat "$WORK/accw.err" >&2; die "cyclesoak -r $_wf -- sleep failed"; }
		done
		_l0=$(acc_load "$WORK/accw.plain")
		_l1=$(acc_load "$WORK/accw.where")
		need "$_l0" "$_l1"
		echo "$_l0 $_l1 $(calc "$_l1 - $_l0")" >>"$WORK/accw.cost"
		tail -n 1 "$WORK/accw.cost" | awk -v r=$_wr '{ printf "  %6d %11.2f%% %11.2f%% %+12.2f\n", r, $1, $2, $3 }'
		_wr=$((_wr + 1))
	done
	column "$WORK/accw.cost" 3 >"$WORK/c"
	stat_of "$WORK/c" wc_
	# shellcheck disable=SC2154
	printf '  -W costs %+.2f points (median of %d rounds; mean %+.2f, 95%% interval [%+.2f, %+.2f])\n' \
		"$wc_median" "$wc_n" "$wc_mean" "$wc_lo" "$wc_hi"
	_busy=$(awk '$1 > 5' "$WORK/accw.cost" | wc -l)
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

# acc_level_worst COL abs|signed: over the levels of $WORK/accw.rows, the
# worst of each level's median of column COL (abs: the largest |median|;
# signed: the largest median).
acc_level_worst() {
	awk -v c="$1" '{ print $1, $c }' "$WORK/accw.rows" | group_medians | awk -v how="$2" '
		{ m = $2; if (how == "abs" && m < 0) m = -m; if (NR == 1 || m > w) w = m }
		END { printf "%.2f\n", w + 0 }'
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
		run_metered "$WORK/accw.err" in_work "$ZC_BIN/cyclesoak" $ACC_JSON -r -W -- sh -c 'f=$1; shift; exec "$@" >"$f"' sh \
			"$WORK/accw.lg" "$ZC_TESTBIN/loadgen" -u -l "$pct" -t $ACC_SECS \
			>"$WORK/accw.out" || { cat "$WORK/accw.err" >&2; die "cyclesoak -r -W -- loadgen -u failed"; }
		acc_bg_classes $((ACC_BG_SAMPLES - ACC_BG_SAMPLES / 2))
		_lg=$(sed -n 's/^cpu: *\([0-9.]*\)%.*/\1/p' "$WORK/accw.lg" | tail -n 1)
		_load=$(acc_load "$WORK/accw.out")
		# The six figures as $1..$6.
		# shellcheck disable=SC2046
		set -- $(acc_classes "$WORK/accw.out")
		need "$_lg" "$_load" "$1" "$2" "$3" "$4" "$5" "$6"
		column "$WORK/accw.bg" 1 >"$WORK/c"
		stat_of "$WORK/c" ba_
		column "$WORK/accw.bg" 2 >"$WORK/c"
		stat_of "$WORK/c" bu_
		column "$WORK/accw.bg" 3 >"$WORK/c"
		stat_of "$WORK/c" bs_
		_sum=$(calc "$1 + $2 + $3 + $4 + $5")
		# LEVEL LOADGEN BG BG_USER BG_SYS LOAD USER SYSTEM IRQ SOFTIRQ STEAL
		# UNATTRIBUTED SUM-LOAD USER-TRUTH SYSTEM-BG_SYS BG-SPREAD
		# shellcheck disable=SC2154
		echo "$pct $_lg $ba_median $bu_median $bs_median $_load $* $(calc "$_sum - $_load")" \
			"$(calc "$1 - ($_lg + $bu_median)") $(calc "$2 - $bs_median") $(calc "$ba_max - $ba_min")" >>"$WORK/accw.rows"
		tail -n 1 "$WORK/accw.rows" | awk '{ printf "  %4s%% %7.2f%% %5.2f/%5.2f/%5.2f %6.2f%% %6.2f%% %6.2f%% %5.2f%% %6.2f%% %5.2f%% %5.2f%% %+8.2f %+9.2f\n",
			$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 }'
		csv accuracy "where$pct" load_pct "$_load" %
		csv accuracy "where$pct" user_pct "$1" %
		csv accuracy "where$pct" system_pct "$2" %
		csv accuracy "where$pct" unattributed_pct "$6" %
	done
	_wr=$((_wr + 1))
	done
	column "$WORK/accw.rows" 16 >"$WORK/c"
	stat_of "$WORK/c" wb_
	# shellcheck disable=SC2154
	echo "  background: the range of its $ACC_BG_SAMPLES idle seconds, median $(printf '%.2f' "$wb_median") points, at most $(printf '%.2f' "$wb_max")"
	echo "  (sum-load: user+system+irq+softirq+steal less the load; user-truth: the user class less"
	echo "  loadgen's CPU and the background's user share)"
	echo "  verdicts on each level's median of its $ACC_WHERE_ROUNDS rounds"
	_wsum=$(acc_level_worst 13 abs)
	_wuser=$(acc_level_worst 14 abs)
	_wsys=$(acc_level_worst 15 signed)
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
# acc_cpus_ticks "CPU...": "BUSY TOTAL" jiffies of those CPUs from /proc/stat,
# BUSY as cpu_ticks's OTHERS (the soakers' nice time left out).
acc_cpus_ticks() {
	awk -v l="$1" 'BEGIN { n = split(l, c, " "); for (i = 1; i <= n; i++) w["cpu" c[i]] = 1 }
		$1 in w { b += $2 + $4 + $7 + $8 + $9; t += $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }
		END { print b + 0, t + 0 }' /proc/stat
}

# acc_cpus_share T0 T1: percent busy between two acc_cpus_ticks samples.
acc_cpus_share() {
	echo "$1 $2" | awk '{ t = $4 - $2; printf "%.2f\n", (t > 0 ? 100 * ($3 - $1) / t : 0) }'
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
		start_bg "$@" "$ZC_BIN/cyclesoak" -r -J -m $((ACC_SECS * 1000)) >"$WORK/acc.out" 2>"$WORK/acc.err"
		_csp=$!
		wait_for "$WORK/acc.out" '"event":"method"' 50 && break
		stop_bg "$_csp"
		stop_bg "$_lgp"
		grep -q 'another meter is running' "$WORK/acc.err" && [ $_tries -lt 60 ] ||
			{ cat "$WORK/acc.err" >&2; die "$_w: cyclesoak did not start"; }
		_tries=$((_tries + 1))
		sleep 1
	done
	_t0=$(acc_cpus_ticks "$_arg") _u0=$(acc_usage_ns) _w0=$(date +%s.%N)
	wait_for "$WORK/acc.out" '"event":"load"' $((ACC_SECS * 10 + 50)) || die "$_w: no load line"
	_t1=$(acc_cpus_ticks "$_arg") _u1=$(acc_usage_ns) _w1=$(date +%s.%N)
	stop_bg "$_csp"
	wait "$_lgp"
	forget_bg "$_lgp"
	_read=$(json_get "$WORK/acc.out" load load_pct | head -n 1)
	_taken=$(json_get "$WORK/acc.out" load unseen_steal_pct | head -n 1)
	if [ "$_kind" = cpu ]; then
		_truth=$(acc_cpus_share "$_t0" "$_t1")
	else
		_lg=$(sed -n 's/^cpu: *\([0-9.]*\)%.*/\1/p' "$WORK/acc.lg" | tail -n 1)
		need "$_lg"
		need "$_u0" "$_u1"
		# soakers' CPU s = the group's - loadgen's; truth = 1 - that / (Q x period)
		_truth=$(calc "100 * (1 - (($_u1 - $_u0) / 1e9 - $_lg / 100 * $(getconf _NPROCESSORS_ONLN) * ($_w1 - $_w0)) / ($_arg * ($_w1 - $_w0)))")
		echo "    (loadgen: $(calc "$_lg * $(getconf _NPROCESSORS_ONLN)")% of a CPU; the group used $(calc "($_u1 - $_u0) / 1e7 / ($_w1 - $_w0)")% of a CPU)"
	fi
	need "$_read" "$_truth"
	echo "$_w $_pct $_truth $_read $(calc "$_read - $_truth") ${_taken:--}" >>"$WORK/acc.today"
	tail -n 1 "$WORK/acc.today" | awk '{ printf "  %-26s %5s%% %8.2f %9.2f %+8.2f %8s\n", $1, $2, $3, $4, $5, $6 }'
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
	printf '  %-26s %6s %8s %9s %8s %8s\n' case level truth% reading% error taken%
	for pct in 0 50; do
		acc_today_row taskset-c1 "$pct" "cpu 1" taskset -c 1
	done
	acc_today_quota
	awk '{ print ($5 < 0 ? -$5 : $5) }' "$WORK/acc.today" >"$WORK/c"
	stat_of "$WORK/c" td_
	# shellcheck disable=SC2154
	if is_true "$td_max <= 3"; then _met=1; else _met=0; fi
	verdict $_met "the meter under taskset and a quota: worst error $(printf '%.2f' "$td_max") points over $(wc -l <"$WORK/acc.today") readings (target within 3)"
	csv accuracy today worst_error "$td_max" points
	acc_today_hotplug
}

# acc_today_quota: a v1 or v2 cgroup with a quota of half a CPU, made here
# and removed when the bench ends; loadgen at 25% of a CPU inside it is
# half the quota.
acc_today_quota() {
	_g= _kind=
	_m=$(awk '$9 == "cgroup" && $NF ~ /(^|,)cpu(,|$)/ { print $5; exit }' /proc/self/mountinfo)
	_a=
	if [ -n "$_m" ] && mkdir "$_m/zc-bench-$$" 2>/dev/null; then
		_g=$_m/zc-bench-$$ _kind=v1
		echo 100000 >"$_g/cpu.cfs_period_us"
		echo 50000 >"$_g/cpu.cfs_quota_us"
		ACC_USAGE="v1 $_g/cpuacct.usage"
		if [ ! -f "$_g/cpuacct.usage" ]; then
			# cpuacct mounted apart: a group there too, for the usage.
			_am=$(awk '$9 == "cgroup" && $NF ~ /(^|,)cpuacct(,|$)/ { print $5; exit }' /proc/self/mountinfo)
			[ -n "$_am" ] && mkdir "$_am/zc-bench-$$" 2>/dev/null && _a=$_am/zc-bench-$$
			ACC_USAGE="v1 $_a/cpuacct.usage"
		fi
	else
		_m=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
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
	_th0=$(awk '/^nr_throttled/ { print $2 }' "$_g/cpu.stat")
	acc_today_row "quota-0.5-$_kind" 25 "quota 0.5" \
		sh -c 'for g in $0; do echo $$ >"$g/cgroup.procs" || exit 1; done; exec "$@"' "$_g $_a"
	echo "    (the group was throttled in $(($(awk '/^nr_throttled/ { print $2 }' "$_g/cpu.stat") - _th0)) of its periods)"
}

acc_quota_drop() {
	for _d in $ACC_QUOTA_GROUP; do rmdir "$_d" 2>/dev/null; done
	ACC_QUOTA_GROUP=
}

# acc_usage_ns: the quota group's CPU time so far (ACC_USAGE "v1 FILE":
# cpuacct.usage, ns; "v2 FILE": cpu.stat's usage_usec), or nothing.
acc_usage_ns() {
	case $ACC_USAGE in
	v1\ *) cat "${ACC_USAGE#v1 }" 2>/dev/null ;;
	v2\ *) awk '$1 == "usage_usec" { print $2 * 1000 }' "${ACC_USAGE#v2 }" 2>/dev/null ;;
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
	show "cyclesoak -r -J -m 500 & loadgen -n 1 -l 50 -t 6 &   CPU $_last offline at 2 s, back at 4 s"
	: >"$WORK/acc.stat"
	start_bg sh -c 'while :; do printf "%s " "$(date +%s.%N)"; awk "/^cpu[0-9]/ { printf \"%s %d %d \", \$1, \$2 + \$4 + \$7 + \$8 + \$9, \$2 + \$3 + \$4 + \$5 + \$6 + \$7 + \$8 + \$9 }" /proc/stat; echo; sleep 0.1; done' >"$WORK/acc.stat"
	_sampler=$!
	run_metered "$WORK/acc.err" "$ZC_BIN/cyclesoak" -r -1 -m 10 >/dev/null
	start_bg "$ZC_BIN/cyclesoak" -r -J -m 500 >"$WORK/acc.hp" 2>"$WORK/acc.err"
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
	awk -v t0="$(head -n 1 "$WORK/acc.stat" | cut -d' ' -f1)" '
		FNR == NR { n++; st[n] = $1; line[n] = $0; next }
		/"event":"(load|nofigure)"/ {
			match($0, /"time":[0-9.]+/); t = substr($0, RSTART + 7, RLENGTH - 7)
			a = 0; b = 0
			for (i = 1; i <= n; i++) { if (st[i] <= t - 0.5) a = i; if (st[i] <= t) b = i }
			share = "-"
			if (a && b > a) {
				nx = split(line[a], x, " "); ny = split(line[b], y, " "); bu = 0; to = 0
				for (j = 2; j + 2 <= ny; j += 3)
					for (k = 2; k + 2 <= nx; k += 3)
						if (x[k] == y[j]) { bu += y[j + 1] - x[k + 1]; to += y[j + 2] - x[k + 2] }
				if (to > 0) share = sprintf("%.1f%%", 100 * bu / to)
			}
			if ($0 ~ /"event":"load"/) {
				match($0, /"load_pct":-?[0-9.]+/); what = "System load: " substr($0, RSTART + 11, RLENGTH - 11) "%"
				if (match($0, /"ncpus":[0-9]+/)) what = what " over " substr($0, RSTART + 8, RLENGTH - 8) " CPU"
			} else {
				match($0, /"why":"[^"]*"/); what = "no figure: " substr($0, RSTART + 7, RLENGTH - 8)
			}
			printf "  %-14.2f %-34s %9s\n", t - t0, what, share
		}' "$WORK/acc.stat" "$WORK/acc.hp"
	[ -s "$WORK/acc.err" ] && sed 's/^/    stderr: /' "$WORK/acc.err" | head -n 3
}

acc_cpu_back() {
	[ -n "$ACC_ONLINE" ] && echo 1 >"$ACC_ONLINE" 2>/dev/null
	return 0
}
