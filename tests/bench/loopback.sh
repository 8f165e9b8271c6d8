# make bench PART=loopback: the demo's table, a row per transmit method
# zcc has, median and spread of ZC_BENCH_REPS runs each (methods in turn
# within a round, so drift spreads over all of them). Sourced by run.sh.
#
# zcc on one CPU, zcs on another (-B), zcs receiving with -M discard so
# that it copies nothing: zcc -c -W's figures by CPU are then the
# sender's and the receiver's (tests/bench/where.sh), and every copy in
# them is the sender's. Then every method again against zcs -M read (the
# receiver copies too), for -W's kinds beside the published ones. The
# targets: -W's other at most 10% of the kernel samples for every method
# against either receiver; send()'s copy kind, in us/KB, at least 3 times
# sendfile's against -M discard and 1.5 times against -M read (shares hide
# it: over loopback the receiver's copy is in the same samples).
. "$BENCH_DIR/where.sh"

part_loopback() {
	usable_methods
	methods=$USABLE
	section "loopback: every transmit method ($methods), $REPS runs each, zcc -c -W"
	# A method the kernel refuses here (io_uring switched off) is left out,
	# as zcc leaves it out of a list.
	[ -z "$LEFT_OUT" ] || echo "$LEFT_OUT" | sed 's/^/  left out: /'
	calibrate_once
	big_files
	SENT_TOTAL=0 SENT_RUNS=0
	where_cpus
	# shellcheck disable=SC2086
	zcs_up lb -t 3600 -M discard $WHERE_RX_B
	show "zcs -p 0 -t 3600 -M discard $WHERE_RX_B   (port $ZCS_PORT)"
	# shellcheck disable=SC2086
	probe_loops "$LB_SECS" -s 127.0.0.1 -p "$ZCS_PORT" $WHERE_TX_B "$WORK"/big/f*
	echo "  63 files, $(cat "$WORK"/big/f* | wc -c) bytes, sent $LOOPS times per run (about $LB_SECS s)"
	lb_rounds lb
	byte_check lb
	stop_bg "$ZCS_PID"
	for m in $methods; do
		stat_of "$WORK/lb.rate.$m" r_
		stat_of "$WORK/lb.load.$m" l_
		stat_of "$WORK/lb.sd.$m" d_
		# shellcheck disable=SC2154
		csv loopback "$m" kbytes_per_sec "$r_median" KiB/s
		csv loopback "$m" kbytes_per_sec_min "$r_min" KiB/s
		csv loopback "$m" kbytes_per_sec_max "$r_max" KiB/s
		csv loopback "$m" system_load "$l_median" %
		csv loopback "$m" service_demand "$d_median" us/KB
	done
	echo
	echo "  Where the CPU went, medians of $REPS runs: zcc (sender) on cpu$WHERE_TX, zcs -M"
	echo "  discard (receiver) on cpu$WHERE_RX; the machine: both CPUs, the meter's soakers left out."
	where_header
	for m in $methods; do
		where_table "$WORK/lb.w.$m" "$m"
		for p in tx rx; do
			for n in load $WHERE_CLASSES; do
				csv loopback "$m" "${p}_$n" "$(where_median "$WORK/lb.w.$m" "$p" "$n")" %
			done
			for n in $WHERE_KINDS; do
				csv loopback "$m" "${p}_kernel_$n" "$(where_median "$WORK/lb.w.$m" "$p" "k_$n")" %
			done
		done
	done
	# shellcheck disable=SC2046
	where_softirq_note $(for m in $methods; do echo "$WORK/lb.w.$m"; done)
	# shellcheck disable=SC2086
	where_other_judge loopback "over loopback, zcs -M discard" "$WORK/lb.w.%" $methods
	loopback_copy
	loopback_read
}

# loopback_read: every method again, against zcs -M read: other's share,
# the copy per KB, and the kinds beside the paper's.
loopback_read() {
	echo
	echo "  The same against zcs -M read (the receiver copies to user space), $REPS runs each:"
	# shellcheck disable=SC2086
	zcs_up lbr -t 3600 -M read $WHERE_RX_B
	lb_rounds lbr
	stop_bg "$ZCS_PID"
	where_header
	for m in $methods; do
		where_table "$WORK/lbr.w.$m" "$m"
	done
	if [ "$(where_median "$WORK/lbr.w.$(echo $methods | cut -d' ' -f1)" m samples)" = -1 ]; then
		echo "  kernel work not sampled here: no kinds to judge"
		return 0
	fi
	# shellcheck disable=SC2086
	where_other_judge loopback "over loopback, zcs -M read" "$WORK/lbr.w.%" $methods
	case " $methods " in *" send "*) ;; *) return 0 ;; esac
	echo
	where_paper "$WORK/lbr.w.send"
	case " $methods " in *" sendfile "*) ;; *) return 0 ;; esac
	echo
	where_copy_per_kb "$WORK/lbr.w.send" "$WORK/lbr.w.sendfile" "$WORK/lbr.sd.send" \
		"$WORK/lbr.sd.sendfile" 1.5 "over loopback, zcs -M read"
}

# loopback_copy: the copy sendfile saves over send(), round by round.
loopback_copy() {
	case " $methods " in *" send "*) ;; *) return 0 ;; esac
	case " $methods " in *" sendfile "*) ;; *) return 0 ;; esac
	echo
	if [ "$(where_median "$WORK/lb.w.send" m samples)" = -1 ]; then
		verdict 0 "send()'s copy kind at least 3 times sendfile's: kernel work not sampled here"
		return 0
	fi
	where_saves "$WORK/lb.w.send" "$WORK/lb.w.sendfile" "$WORK/lb.sd.send" "$WORK/lb.sd.sendfile" \
		"send()" sendfile
	# shellcheck disable=SC2154
	csv loopback sendfile_vs_send copy_points_saved "$WS_copy_3" points
	# shellcheck disable=SC2154
	csv loopback sendfile_vs_send copy_us_per_kb_saved "$WS_copy_6" us/KB
	# A where_row line is WHERE_NCOL fields: sendfile's then send()'s, side by side.
	paste -d' ' "$WORK/lb.w.sendfile" "$WORK/lb.w.send" >"$WORK/lb.w.both"
	c=$(where_col m k_copy)
	ratio_of "$WORK/lb.w.both" cp_ -k "$c,$((c + WHERE_NCOL))"
	rounds='' ok=0 n=0
	columns "$WORK/lb.w.both" "$c" $((c + WHERE_NCOL)) >"$WORK/pair"
	while read -r _sf _s; do
		rounds="$rounds $(printf '%.1f/%.1f' "$_s" "$_sf")"
		is_true "$_s >= 3 * $_sf" && ok=$((ok + 1))
		n=$((n + 1))
	done <"$WORK/pair"
	echo "  copy kind per round, send() % / sendfile % of the machine's samples:$rounds"
	c=$(where_col tx k_copy)
	columns "$WORK/lb.w.both" "$c" $((c + WHERE_NCOL)) >"$WORK/pair"
	echo "  the same of the sender's CPU (information; others' work on the other CPU left out):" \
		"$(while read -r _sf _s; do printf ' %.1f/%.1f' "$_s" "$_sf"; done <"$WORK/pair")"
	# shellcheck disable=SC2154
	echo "  per round sendfile/send(): $(printf '%.3f [%.3f, %.3f]' "$cp_median" "$cp_lo" "$cp_hi") at" \
		"$(calc "$cp_conf * 100")%; send()'s share at least 3 times sendfile's in $ok of $n rounds"
	csv loopback sendfile_vs_send copy_ratio_median "$cp_median" ratio
	csv loopback sendfile_vs_send copy_3x_rounds "$ok" rounds
	where_copy_per_kb "$WORK/lb.w.send" "$WORK/lb.w.sendfile" "$WORK/lb.sd.send" \
		"$WORK/lb.sd.sendfile" 3 "over loopback, zcs -M discard"
}

# lb_rounds TAG: every method of $methods in $REPS rounds of one zcc -c -W
# -J run (zcc rotates their order from round to round, so drift spreads
# over all of them), against the zcs on $ZCS_PORT. zcc's own comparison
# table is shown (zctable prints it from the run's JSON, with zcc's code);
# each round's figures go to $WORK/TAG.rate.METHOD, .load., .sd. and its
# -W row (where_row) to $WORK/TAG.w.METHOD, a line per round in order.
lb_rounds() {
	_list=$(echo $methods | tr ' ' ,)
	# shellcheck disable=SC2086
	run_zcc "$WORK/$1.json" -s 127.0.0.1 -p "$ZCS_PORT" -n "$LOOPS" -c -W $WHERE_TX_B \
		-M "$_list" -R "$REPS" "$WORK"/big/f* || die "zcc -M $_list failed"
	# run_zcc counted the last run's bytes; the other runs' too.
	SENT_TOTAL=$((SENT_TOTAL - SENT_BYTES + $(json_get "$WORK/$1.json" sent bytes |
		awk '{ s += $1 } END { printf "%.0f", s }')))
	SENT_RUNS=$((SENT_RUNS - 1 + $(json_get "$WORK/$1.json" sent bytes | wc -l)))
	for m in $methods; do
		: >"$WORK/$1.rate.$m"; : >"$WORK/$1.load.$m"; : >"$WORK/$1.sd.$m"; : >"$WORK/$1.w.$m"
	done
	# Each run's events end with its round event: a file per run, named by
	# its variant and round.
	awk -v pre="$WORK/$1.run." '{ buf = buf $0 "\n" }
		/"event":"round"/ {
			v = $0; sub(/.*"variant":"/, "", v); sub(/".*/, "", v)
			r = $0; sub(/.*"round":/, "", r); sub(/[^0-9].*/, "", r)
			printf "%s", buf > (pre v "." r); close(pre v "." r); buf = "" }' "$WORK/$1.json"
	_r=1
	while [ $_r -le "$REPS" ]; do
		for m in $methods; do
			_f=$WORK/$1.run.$m.$_r
			[ -s "$_f" ] || die "zcc's run of $m in round $_r is missing from $WORK/$1.json"
			json_get "$_f" round kbytes_per_sec >>"$WORK/$1.rate.$m"
			json_get "$_f" round load_pct >>"$WORK/$1.load.$m"
			json_get "$_f" round service_demand_us_per_kb >>"$WORK/$1.sd.$m"
			where_row "$_f" cpu >>"$WORK/$1.w.$m"
		done
		_r=$((_r + 1))
	done
	"$ZC_TESTBIN/zctable" "$WORK/$1.json" | sed 's/^./  &/'
}
