# make bench PART=accuracy: the meter against a load that knows its own
# CPU use exactly, each method of cyclesoak separately. Sourced by run.sh.
#
# tests/loadgen runs at 0, 25, 50 and 75% of the machine and prints its own
# CPU share (CLOCK_PROCESS_CPUTIME_ID, the scheduler's exact run time); the
# truth is that plus the background (other work, from /proc/stat): the
# median of ACC_BG_SAMPLES idle seconds, half just before the reading and
# half just after, printed with their spread, since one tick-sampled
# second is noisier than the meter it would judge (2.97% in one second,
# 0.50% in the next, seen on a VM). Each level is measured by `cyclesoak -r` (run
# time), `cyclesoak -L` (loop counts against a calibration) and plain
# `cyclesoak` (the method it picks for this machine), over two fresh
# calibrations. Target: the default's worst error within 1.5 points.

ACC_LEVELS="0 25 50 75"
ACC_SECS=3
ACC_BG_SAMPLES=4

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
# "METHOD PCT LOADGEN BACKGROUND TRUTH READING ERROR BG-SPREAD" to
# $WORK/acc.rows.
acc_level() {
	_m=$1 _pct=$2
	shift 2
	: >"$WORK/acc.bg"
	acc_background $((ACC_BG_SAMPLES / 2))
	run_metered "$WORK/acc.err" in_work "$ZC_BIN/cyclesoak" $ACC_JSON "$@" -- sh -c 'f=$1; shift; exec "$@" >"$f"' sh \
		"$WORK/acc.lg" "$ZC_TESTBIN/loadgen" -l "$_pct" -t $ACC_SECS \
		>"$WORK/acc.out" || { cat "$WORK/acc.err" >&2; die "cyclesoak $* -- loadgen failed"; }
	if is_json "$WORK/acc.out"; then
		_read=$(json_get "$WORK/acc.out" command load_pct | tail -n 1)
	else
		_read=$(sed -n 's/^System load: *\(-\{0,1\}[0-9.]*\)%.*/\1/p' "$WORK/acc.out" | tail -n 1)
	fi
	_lg=$(sed -n 's/^cpu: *\([0-9.]*\)%.*/\1/p' "$WORK/acc.lg" | tail -n 1)
	acc_background $((ACC_BG_SAMPLES - ACC_BG_SAMPLES / 2))
	stat_of "$WORK/acc.bg" bg_
	# shellcheck disable=SC2154
	_bg=$bg_median _bgs=$(calc "$bg_max - $bg_min")
	need "$_read" "$_lg" "$_bg" "$_bgs"
	echo "$_m $_pct $_lg $_bg $(calc "$_lg + $_bg") $_read $(calc "$_read - ($_lg + $_bg)") $_bgs" >>"$WORK/acc.rows"
	tail -n 1 "$WORK/acc.rows" | awk '{ printf "  %-8s %5s%% %9.2f %7.2f+-%-5.2f %8.2f %10.2f %+9.2f\n", $1, $2, $3, $4, $8 / 2, $5, $6, $7 }'
}

part_accuracy() {
	ACC_JSON=
	"$ZC_BIN/cyclesoak" -h 2>&1 | grep -q -- '^ *-J[ ,]' && ACC_JSON=-J
	acc_methods="-r -L default"
	"$ZC_BIN/cyclesoak" -h 2>&1 | grep -q -- '^ *-L[ ,]' || acc_methods="-r default"
	section "accuracy: cyclesoak ($acc_methods) against loadgen's exact CPU use, 2 fresh calibrations"
	[ "$acc_methods" = "-r default" ] && echo "  (this cyclesoak has no -L: its default is the loop counts)"
	echo "  truth = loadgen's own CPU share + the background: the median of $ACC_BG_SAMPLES idle seconds"
	echo "  around the reading (half before, half after), +- half their range"
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
		printf '  %-8s %6s %9s %14s %8s %10s %9s\n' method level loadgen% background% truth% reading% error
		for m in $acc_methods; do
			for pct in $ACC_LEVELS; do
				case $m in
				-r) acc_level "$m" "$pct" -r ;;
				-L) [ -n "$cal_f" ] && acc_level "$m" "$pct" -L $cal_f ;;
				default) acc_level "$m" "$pct" $cal_f ;;
				esac
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
			if is_true "$e_max <= 1.5"; then met=1; else met=0; fi
			verdict $met "the meter's default method: worst error $(printf '%+.2f' "$worst") points over 0-75% and 2 calibrations (target within 1.5; idle worst $(printf '%.2f' "$i_max"))"
			csv accuracy default target_met $met bool
		fi
	done
	plot accuracy.svg accuracy.csv -p -i -t "cyclesoak's reading against the truth ($(uname -r))" \
		-x "truth: loadgen's own CPU + background (% of the machine)" -y "cyclesoak's reading (% of the machine)"
}
