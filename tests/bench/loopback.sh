# make bench PART=loopback: the demo's table, a row per transmit method
# zcc has, median and spread of ZC_BENCH_REPS runs each (methods in turn
# within a round, so drift spreads over all of them). Sourced by run.sh.

part_loopback() {
	methods=$(zcc_methods)
	section "loopback: every transmit method ($methods), $REPS runs each, zcc -c"
	calibrate_once
	big_files
	SENT_TOTAL=0 SENT_RUNS=0
	zcs_up lb -t 3600
	show "zcs -p 0 -t 3600   (port $ZCS_PORT)"
	probe_loops 2 -s 127.0.0.1 -p "$ZCS_PORT" "$WORK"/big/f*
	echo "  63 files, $(cat "$WORK"/big/f* | wc -c) bytes, sent $LOOPS times per run (about 2 s)"
	for m in $methods; do : >"$WORK/lb.rate.$m"; : >"$WORK/lb.load.$m"; : >"$WORK/lb.sd.$m"; done
	rep=1
	while [ $rep -le "$REPS" ]; do
		QUIET=$([ $rep = 1 ] || echo 1)
		for m in $methods; do
			# shellcheck disable=SC2046
			run_zcc "$WORK/lb.$m" -s 127.0.0.1 -p "$ZCS_PORT" -n "$LOOPS" -c $(method_flags "$m") \
				"$WORK"/big/f* || die "zcc -M $m failed"
			need "$SENT_RATE" "$CPU_LOAD" "$CPU_SD"
			echo "$SENT_RATE" >>"$WORK/lb.rate.$m"
			echo "$CPU_LOAD" >>"$WORK/lb.load.$m"
			echo "$CPU_SD" >>"$WORK/lb.sd.$m"
		done
		rep=$((rep + 1))
	done
	QUIET=
	[ "$REPS" -gt 1 ] && echo "  ... the same $((REPS - 1)) times more"
	byte_check lb
	stop_bg "$ZCS_PID"
	echo
	printf '  %-10s %12s %18s %15s %22s\n' method "kbytes/sec" "kbytes/sec min-max" "system load %" "service demand us/KB"
	for m in $methods; do
		stat_of "$WORK/lb.rate.$m" r_
		stat_of "$WORK/lb.load.$m" l_
		stat_of "$WORK/lb.sd.$m" d_
		# shellcheck disable=SC2154
		printf '  %-10s %12.0f %18s %15.1f %22.3f\n' "$m" "$r_median" \
			"$(printf '%.0f-%.0f' "$r_min" "$r_max")" "$l_median" "$d_median"
		csv loopback "$m" kbytes_per_sec "$r_median" KiB/s
		csv loopback "$m" kbytes_per_sec_min "$r_min" KiB/s
		csv loopback "$m" kbytes_per_sec_max "$r_max" KiB/s
		csv loopback "$m" system_load "$l_median" %
		csv loopback "$m" service_demand "$d_median" us/KB
	done
}
