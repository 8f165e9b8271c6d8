# make bench PART=scale: many small files, many clients at once, with
# every byte counted on both ends, and zcc -P: one zcc, many streams.
# Sourced by run.sh.

part_scale() {
	section "scale: 10,000 small files x 10, and 64 clients at once"
	# One split makes all 10,000 files: a process per file would take longer
	# than sending them.
	mkdir -p "$WORK/small"
	show "head -c 20480000 /dev/urandom | split -b 2048 -a 4 -d - small/f"
	head -c 20480000 /dev/urandom | (cd "$WORK/small" && split -b 2048 -a 4 -d - f) ||
		die "cannot make the small files"
	zcs_up sc -t 3600
	show "zcs -p 0 -t 3600   (port $ZCS_PORT)"
	SENT_TOTAL=0 SENT_RUNS=0
	echo
	printf '  %-10s %12s %12s %12s\n' method files/sec "us per file" kbytes/sec
	for m in sendfile send; do
		# shellcheck disable=SC2046
		run_zcc "$WORK/sc.$m" -s 127.0.0.1 -p "$ZCS_PORT" -n 10 $(method_flags "$m") \
			"$WORK"/small/f* || die "zcc failed"
		need "$SENT_SECS"
		fps=$(calc "100000 / $SENT_SECS")
		usf=$(calc "$SENT_SECS * 1e6 / 100000")
		printf '  %-10s %12.0f %12.2f %12.0f\n' "$m" "$fps" "$usf" "$SENT_RATE"
		csv scale "small_$m" files_per_sec "$fps" files/s
		csv scale "small_$m" us_per_file "$usf" us
		csv scale "small_$m" kbytes_per_sec "$SENT_RATE" KiB/s
	done
	byte_check sc
	stop_bg "$ZCS_PID"
	scale_clients
	scale_streams
}

# scale_clients: 64 zcc at once against one zcs; the two byte totals equal.
scale_clients() {
	big_files
	zcs_up cc -t 3600
	echo
	show "zcs -p 0 -t 3600   (port $ZCS_PORT)"
	show "64 x: zcc -s 127.0.0.1 -p $ZCS_PORT -n 20 FILES   (8 of the 350 KB files each)"
	_j=
	zcc_has -J && _j=-J
	t0=$(date +%s.%N)
	pids=
	i=0
	while [ $i -lt 64 ]; do
		start_bg in_work "$ZC_BIN/zcc" $_j -s 127.0.0.1 \
			-p "$ZCS_PORT" -n 20 "$WORK"/big/f1[0-7] >"$WORK/cc.$i" 2>"$WORK/cc.$i.err"
		pids="$pids $!"
		i=$((i + 1))
	done
	fails=0
	for p in $pids; do
		wait "$p" || fails=$((fails + 1))
		forget_bg "$p"
	done
	t1=$(date +%s.%N)
	sent=0 nsent=0
	i=0
	while [ $i -lt 64 ]; do
		parse_zcc "$WORK/cc.$i"
		[ -n "$SENT_BYTES" ] && sent=$((sent + SENT_BYTES)) nsent=$((nsent + 1))
		i=$((i + 1))
	done
	SENT_TOTAL=$sent SENT_RUNS=64
	zcs_agrees cc && agree=1 || agree=0
	stop_bg "$ZCS_PID"
	secs=$(calc "$t1 - $t0")
	agg=$(calc "$sent / 1024 / $secs")
	echo "  64 clients: $nsent finished with their sent figures, $fails failed; wall time $(printf '%.2f' "$secs") s"
	echo "  zcc total sent $sent bytes; zcs total received $ZCS_DONE_BYTES bytes in $ZCS_DONE_RUNS connections"
	if [ "$agree" = 1 ] && [ $fails -eq 0 ]; then
		echo "  every byte counted: the two totals are equal"
	else
		echo "  BYTES LOST OR CLIENTS FAILED: the totals differ or clients failed"
		sed 's/^/    /' "$WORK"/cc.*.err | head -n 10
	fi
	printf '  aggregate rate: %.0f kbytes/sec\n' "$agg"
	csv scale clients64 kbytes_per_sec "$agg" KiB/s
	csv scale clients64 bytes_sent "$sent" bytes
	csv scale clients64 bytes_received "$ZCS_DONE_BYTES" bytes
	csv scale clients64 failed_clients "$fails" clients
	csv scale clients64 bytes_equal "$agree" bool
}

# scale_streams: one zcc with -P 1, 2, 4, 16 and 64 streams against one
# zcs, metered (-c), in paired rounds: each round runs every count back to
# back, and -P N's figure is its aggregate rate over that round's -P 1.
# Per count: the aggregate rate, the load, the service demand and the
# slowest stream's rate over the fastest's (an unfair split shows there).
# Its loop variables are _sn and _sr: the harness's own loops use _p.
SCALE_STREAMS=${ZC_BENCH_STREAMS:-"1 2 4 16 64"}
SCALE_ROUNDS=${ZC_BENCH_STREAM_ROUNDS:-3}
scale_streams() {
	if ! zcc_has -P; then
		echo "  streams: skipped: this zcc has no -P"
		return 0
	fi
	big_files
	zcs_up st -t 3600 -m 1100
	echo
	show "zcs -p 0 -t 3600 -m 1100   (port $ZCS_PORT)"
	# The same bytes at every count: -P N sends LOOPS / N loops on each
	# stream (-t would give every stream the loops of one: 64 times as long).
	probe_loops 2 -s 127.0.0.1 -p "$ZCS_PORT" "$WORK"/big/f1[0-7]
	show "zcc -J -c -P N -n $LOOPS/N -s 127.0.0.1 -p $ZCS_PORT FILES   (8 of the 350 KB files; N: $SCALE_STREAMS; $SCALE_ROUNDS rounds)"
	: >"$WORK/st.all"
	_sr=1
	while [ $_sr -le "$SCALE_ROUNDS" ]; do
		for _sn in $SCALE_STREAMS; do
			QUIET=1 run_zcc "$WORK/st.$_sn.$_sr" -s 127.0.0.1 -p "$ZCS_PORT" -c \
				-n $(((LOOPS + _sn - 1) / _sn)) -P "$_sn" "$WORK"/big/f1[0-7] ||
				die "zcc -P $_sn failed"
			need "$SENT_RATE" "$CPU_LOAD" "$CPU_SD"
			json_get "$WORK/st.$_sn.$_sr" stream kbytes_per_sec >"$WORK/st.s"
			[ -s "$WORK/st.s" ] || echo "$SENT_RATE" >"$WORK/st.s"	# -P 1: no stream events
			stat_of "$WORK/st.s" s_
			# shellcheck disable=SC2154
			echo "$_sr $_sn $SENT_RATE $CPU_LOAD $CPU_SD $(calc "$s_min / $s_max")" >>"$WORK/st.all"
		done
		_sr=$((_sr + 1))
	done
	stop_bg "$ZCS_PID"
	echo
	printf '  %8s %14s %9s %14s %15s %16s\n' streams "kbytes/sec" "load %" "us/KB" "slowest/fastest" "rate / -P 1"
	echo "streams,kbytes_per_sec" >"$OUT/scale_streams.csv"
	for _sn in $SCALE_STREAMS; do
		awk -v p="$_sn" '$2 == p { print $3 }' "$WORK/st.all" >"$WORK/st.r"
		awk -v p="$_sn" '$2 == p { print $4 }' "$WORK/st.all" >"$WORK/st.l"
		awk -v p="$_sn" '$2 == p { print $5 }' "$WORK/st.all" >"$WORK/st.d"
		awk -v p="$_sn" '$2 == p { print $6 }' "$WORK/st.all" >"$WORK/st.f"
		awk -v p="$_sn" '$2 == 1 { one[$1] = $3 } $2 == p { mine[$1] = $3 }
			END { for (r in mine) if (r in one) print mine[r], one[r] }' "$WORK/st.all" >"$WORK/st.p"
		stat_of "$WORK/st.r" r_
		stat_of "$WORK/st.l" l_
		stat_of "$WORK/st.d" d_
		stat_of "$WORK/st.f" f_
		ratio_of "$WORK/st.p" q_
		# shellcheck disable=SC2154
		printf '  %8s %14.0f %9.1f %14.3f %15.2f %7.2f [%.2f, %.2f]\n' "$_sn" "$r_median" \
			"$l_median" "$d_median" "$f_median" "$q_median" "$q_lo" "$q_hi"
		echo "$_sn,$r_median" >>"$OUT/scale_streams.csv"
		csv scale "streams$_sn" kbytes_per_sec "$r_median" KiB/s
		csv scale "streams$_sn" load_pct "$l_median" %
		csv scale "streams$_sn" service_demand_us_per_kb "$d_median" us/KB
		csv scale "streams$_sn" slowest_over_fastest "$f_median" ratio
		csv scale "streams$_sn" rate_over_p1 "$q_median" ratio
		# The targets: -P 2 loses nothing to the machinery, -P 64 little.
		case $_sn in
		2) verdict "$(is_true "$q_lo >= 0.95" && echo 1 || echo 0)" \
			"zcc -P 2 at least 0.95x of -P 1 in every round (median $(printf %.2f "$q_median"), interval [$(printf %.2f "$q_lo"), $(printf %.2f "$q_hi")])" ;;
		64) verdict "$(is_true "$q_lo >= 0.8" && echo 1 || echo 0)" \
			"zcc -P 64 at least 0.8x of -P 1 in every round (median $(printf %.2f "$q_median"), interval [$(printf %.2f "$q_lo"), $(printf %.2f "$q_hi")])" ;;
		esac
	done
	echo "  (medians of $SCALE_ROUNDS rounds; rate / -P 1: the median of the rounds' ratios and"
	echo "  its distribution-free interval; the load is of the whole machine, both ends on loopback)"
	plot scale_streams.svg scale_streams.csv -l -x "streams (zcc -P)" -y "aggregate kbytes/sec" \
		-t "One zcc, many streams, loopback ($(uname -r))"
}
