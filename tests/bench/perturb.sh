# make bench PART=perturb: what the meter's presence does to the run it
# meters. Sourced by run.sh.
#
# A soaker beside a program that blocks takes the CPU each time the
# program waits and hands it back when it wakes: switches an idle CPU does
# not make (cyclesoak(1), "The meter's presence"). So each case sends the
# same files the same way, PERTURB_REPS paired rounds, unmetered and
# metered by each method of zcc -c (kernel idle time, the default; run
# time, -r; loop counts, -L where a calibration could be made), the order
# turning each round so drift spreads over all of them. Cases: sendfile and
# send over loopback, pinned (zcc -B 0, zcs -B 1) and not, and over a veth
# pair between two namespaces (root only).
#
# Per method: the rate's ratio metered/unmetered over the rounds (zcstat
# -r: median and its interval), and the meter's service demand against the
# unmetered run's: the machine's busy share over zcc's life by /proc/stat
# (user, system, irq, softirq, steal: no nice work) x the CPUs x the
# transfer's seconds, per KiB sent, as the meter's demand is made. Targets
# on the default: the rate's interval inside 0.97-1.03, the demand's median
# ratio within 5%. And for the soakers (-r), the slow-down per switch into
# a soaker (zcc's soaker_switches_per_sec): (unmetered rate / metered rate
# - 1) / switches a second per CPU, the cost meter_presence's rule charges
# (lib/meter/meter.h, PRESENCE_PAIR_US).

PERTURB_REPS=${ZC_BENCH_PERTURB_REPS:-5}
# ZC_BENCH_PERTURB_METHODS: the meters to run beside none, of -K, -r and
# -L (default all three, -L where a calibration is made). "-K" alone runs
# the default's target in many rounds in the time of a few: on a shared
# host one run's rate differs from the next by 5% and more, and the
# interval of the median narrows only as the rounds grow. "aa" adds a
# second unmetered run to each round: its ratio to the first is the
# machine's own noise, the narrowest interval any meter's could show.
PERTURB_METHODS=${ZC_BENCH_PERTURB_METHODS:--K -r -L}
PERTURB_SECS=2
PT_NS_TX=zcpt-tx-$$
PT_NS_RX=zcpt-rx-$$

# pt_cleanup: the namespaces of the veth case, whatever the exit.
pt_cleanup() {
	for _n in $PT_NS_TX $PT_NS_RX; do ip netns delete "$_n" 2>/dev/null; done
	return 0
}

# pt_veth: two namespaces joined by a veth pair (198.18.0.1 -> .2); false
# when they cannot be made (not root).
pt_veth() {
	on_cleanup pt_cleanup
	{ ip netns add $PT_NS_TX && ip netns add $PT_NS_RX &&
		ip link add zcptt$$ netns $PT_NS_TX type veth peer name zcptr$$ netns $PT_NS_RX &&
		ip -n $PT_NS_TX addr add 198.18.0.1/30 dev zcptt$$ &&
		ip -n $PT_NS_RX addr add 198.18.0.2/30 dev zcptr$$ &&
		ip -n $PT_NS_TX link set zcptt$$ up && ip -n $PT_NS_RX link set zcptr$$ up &&
		ip -n $PT_NS_TX link set lo up && ip -n $PT_NS_RX link set lo up; } 2>"$WORK/pt.ns.err"
}

# pt_round CASE METHODS ZCC-ARGS...: one round, each of METHODS ("none",
# "-K", "-r", "-L") in the order given; appends "RATE DEMAND BUSY-DEMAND
# SWITCHES" to $WORK/pt.CASE.METHOD (DEMAND: the meter's, or - unmetered;
# SWITCHES: into the soakers, a second per CPU, or -).
pt_round() {
	_c=$1 _ms=$2
	shift 2
	for _m in $_ms; do
		_mf=
		[ "$_m" = none ] || [ "$_m" = aa ] || _mf="-c $_m"
		_b0=$(cpu_ticks)
		# shellcheck disable=SC2086
		run_zcc "$WORK/pt.zcc" $_mf -t $PERTURB_SECS "$@" || die "zcc $_mf $* failed"
		_bs=$(cpu_share "$_b0" "$(cpu_ticks)")
		need "$SENT_RATE" "$SENT_BYTES" "$SENT_SECS" "$_bs"
		# The machine's busy share over zcc's life, times the CPUs and
		# the transfer's seconds, per KiB: as the meter's demand is made.
		_bd=$(calc "$_bs / 100 * $(getconf _NPROCESSORS_ONLN) * $SENT_SECS * 1e6 / ($SENT_BYTES / 1024)")
		_sw=$(json_get "$WORK/pt.zcc" cpu soaker_switches_per_sec | tail -n 1)
		case $_sw in '' | null) _sw=- ;; esac
		echo "$SENT_RATE ${CPU_SD:--} $_bd $_sw" >>"$WORK/pt.$_c.${_m#-}"
		CPU_SD=
	done
}

# pt_case CASE WHAT ZCS-PREFIX ZCC-PREFIX ZCS-ARGS -- ZCC-ARGS...: the rounds
# of one case and its rows.
pt_case() {
	_c=$1 _what=$2 ZCS_PREFIX=$3 ZCC_PREFIX=$4 _zargs=$5
	shift 6
	for _m in $PT_METHODS; do : >"$WORK/pt.$_c.${_m#-}"; done
	# shellcheck disable=SC2086
	zcs_up pt -t 3600 $_zargs
	_r=1 _order=$PT_METHODS
	while [ $_r -le "$PERTURB_REPS" ]; do
		QUIET=$([ $_r = 1 ] || echo 1)
		pt_round "$_c" "$_order" -p "$ZCS_PORT" "$@"
		# The next round starts with the second method of this one.
		_order="${_order#* } ${_order%% *}"
		_r=$((_r + 1))
	done
	QUIET=
	stop_bg "$ZCS_PID"
	ZCS_PREFIX= ZCC_PREFIX=
	pt_rows "$_c" "$_what"
}

# pt_rows CASE WHAT: per method, the rate's paired ratio to the unmetered
# run's and the demand's; the verdicts on the default.
pt_rows() {
	stat_of "$WORK/pt.$1.none" u_ -k 3
	# shellcheck disable=SC2154
	printf '  %-22s %-6s %26s %12s %26s\n' "$2" none "rate 1" "$(printf '%.3f' "$u_median")" "(the machine's, /proc/stat)"
	for _m in $PT_METHODS; do
		[ "$_m" = none ] && continue
		_k=${_m#-}
		paste -d' ' "$WORK/pt.$1.$_k" "$WORK/pt.$1.none" >"$WORK/pt.pair"
		ratio_of "$WORK/pt.pair" pr_ -k 1,5
		if [ "$_m" = aa ]; then
			# shellcheck disable=SC2154
			printf '  %-22s %-6s %8.3f [%.3f-%.3f]   (unmetered twice: the noise floor)\n' "$2" A/A \
				"$pr_median" "$pr_lo" "$pr_hi"
			csv perturb "$1-aa" rate_ratio "$pr_median" x
			csv perturb "$1-aa" rate_ratio_lo "$pr_lo" x
			csv perturb "$1-aa" rate_ratio_hi "$pr_hi" x
			continue
		fi
		columns "$WORK/pt.pair" 2 7 >"$WORK/pt.dpair"
		ratio_of "$WORK/pt.dpair" pd_
		stat_of "$WORK/pt.$1.$_k" pm_ -k 2
		# shellcheck disable=SC2154
		printf '  %-22s %-6s %8.3f [%.3f-%.3f] %12.3f %8.3f [%.3f-%.3f]\n' "$2" "$_m" \
			"$pr_median" "$pr_lo" "$pr_hi" "$pm_median" "$pd_median" "$pd_lo" "$pd_hi"
		csv perturb "$1$_m" rate_ratio "$pr_median" x
		csv perturb "$1$_m" rate_ratio_lo "$pr_lo" x
		csv perturb "$1$_m" rate_ratio_hi "$pr_hi" x
		csv perturb "$1$_m" demand_ratio "$pd_median" x
		[ "$_m" = -r ] && pt_per_switch "$1" "$2"
		[ "$_m" = -K ] || continue
		if [ "$pr_lo" != nan ] && is_true "$pr_lo >= 0.97 && $pr_hi <= 1.03"; then _met=1; else _met=0; fi
		verdict $_met "the default meter beside $2: the rate $(printf '%.3f' "$pr_median")x unmetered [$(printf '%.3f-%.3f' "$pr_lo" "$pr_hi")] (target the interval inside 0.97-1.03)"
		if is_true "$pd_median >= 0.95 && $pd_median <= 1.05"; then _met=1; else _met=0; fi
		verdict $_met "the default meter beside $2: its demand $(printf '%.3f' "$pd_median")x the unmetered run's by /proc/stat (target within 5%)"
	done
}

# pt_per_switch CASE WHAT: -r's slow-down per switch into a soaker, us, the
# median over the rounds (rounds with too few switches to say left out).
pt_per_switch() {
	: >"$WORK/pt.sw"
	while read -r _mr _ _ _sw _ur _; do
		[ "$_sw" = - ] || is_true "$_sw < 100" || calc "($_ur / $_mr - 1) / $_sw * 1e6" >>"$WORK/pt.sw"
	done <"$WORK/pt.pair"
	[ -s "$WORK/pt.sw" ] || return 0
	stat_of "$WORK/pt.sw" ps_
	# shellcheck disable=SC2154
	printf '  %-22s %-6s per switch into a soaker: %.1f us slower (median of %d rounds)\n' "$2" -r "$ps_median" "$ps_n"
	csv perturb "$1-r" us_per_switch "$ps_median" us
}

# check_perturb: the knobs, before any part runs.
check_perturb() {
	reps_ok ZC_BENCH_PERTURB_REPS "$PERTURB_REPS" 1
	for _m in $PERTURB_METHODS; do
		case $_m in
		-K | -r | -L | aa) ;;
		*) die "ZC_BENCH_PERTURB_METHODS: '$_m' is not -K, -r, -L or aa" ;;
		esac
	done
	[ -n "$(echo $PERTURB_METHODS)" ] || die "ZC_BENCH_PERTURB_METHODS names no meter (-K, -r, -L) and no aa"
}

part_perturb() {
	PT_METHODS=none
	for _m in $PERTURB_METHODS; do
		case $_m in
		-L) calibrate_once
		    [ -s "$WORK/counts_per_sec" ] && PT_METHODS="$PT_METHODS -L" ;;
		*) PT_METHODS="$PT_METHODS $_m" ;;
		esac
	done
	[ "$PT_METHODS" != none ] || die "ZC_BENCH_PERTURB_METHODS: -L alone, and no calibration could be made"
	section "perturb: the meter's presence, zcc -c by each method ($PT_METHODS) against none, $PERTURB_REPS paired rounds of $PERTURB_SECS s"
	big_files
	echo "  per method: the rate's ratio metered/unmetered, median [interval]; the meter's us/KB; its ratio"
	echo "  to the unmetered run's us/KB (the machine's busy share by /proc/stat), median [interval]"
	printf '  %-22s %-6s %26s %12s %26s\n' case method "rate ratio [interval]" "us/KB" "demand ratio [interval]"
	for _tm in sendfile send; do
		pt_case "lo-$_tm-pinned" "loopback $_tm -B" "" "" "-B 1" -- \
			-s 127.0.0.1 -B 0 -M $_tm "$WORK"/big/f*
		pt_case "lo-$_tm" "loopback $_tm" "" "" "" -- -s 127.0.0.1 -M $_tm "$WORK"/big/f*
	done
	if [ "$(id -u)" != 0 ] || ! pt_veth; then
		echo "  veth: skipped: cannot make two namespaces ($(head -n 1 "$WORK/pt.ns.err" 2>/dev/null))"
		return 0
	fi
	for _tm in sendfile send; do
		pt_case "veth-$_tm" "veth $_tm" "ip netns exec $PT_NS_RX" "ip netns exec $PT_NS_TX" \
			"-a 198.18.0.2" -- -s 198.18.0.2 -M $_tm "$WORK"/big/f*
	done
	pt_cleanup
}
