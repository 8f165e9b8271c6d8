# make bench PART=scale: many small files, many clients at once, with
# every byte counted on both ends, and zcc -P: one zcc, many streams.
# Sourced by run.sh.
#
# zcc -P's targets: -P 1 is today's zcc (the same bytes, the same lines
# with the timings masked, the rate within noise in paired rounds); 1024
# streams against one zcs lose no byte and leave no descriptor, process or
# thread behind; -P 2 and -P 64 keep the rate of -P 1 on the sender's side
# (against zcs -M discard; the table against zcs -M read is shown too).

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
	scale_p1
	scale_1024
	scale_streams
}

# scale_clients: 64 zcc at once against one zcs; the two byte totals equal.
scale_clients() {
	big_files
	zcs_up cc -t 3600
	echo
	show "zcs -p 0 -t 3600   (port $ZCS_PORT)"
	show "64 x: zcc -s 127.0.0.1 -p $ZCS_PORT -n 20 FILES   (8 of the 350 KB files each)"
	t0=$(date +%s.%N)
	pids=
	i=0
	while [ $i -lt 64 ]; do
		start_bg in_work "$ZC_BIN/zcc" -J -s 127.0.0.1 \
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

# scale_p1: zcc without -P against zcc -P 1, SCALE_P1_ROUNDS paired
# rounds (the order alternating), plain text output: per round the same
# bytes and the same lines once the timings ("in S s", "R kbytes/sec") are
# masked; the rate ratio (-P 1 over without) by its median and interval.
# Met when every round agrees and the interval holds 1 (no difference the
# noise does not cover).
SCALE_P1_ROUNDS=${ZC_BENCH_P1_ROUNDS:-8}
scale_p1() {
	big_files
	zcs_up p1 -t 3600
	echo
	show "zcs -p 0 -t 3600   (port $ZCS_PORT)"
	# zcs counts the probe's connections too.
	SENT_TOTAL=0 SENT_RUNS=0
	probe_loops 1 -s 127.0.0.1 -p "$ZCS_PORT" "$WORK"/big/f1[0-7]
	show "zcc [-P 1] -n $LOOPS -s 127.0.0.1 -p $ZCS_PORT FILES   (8 of the 350 KB files; $SCALE_P1_ROUNDS paired rounds, text output)"
	: >"$WORK/p1.rates"
	_bad_bytes=0 _bad_lines=0
	_sr=1
	while [ $_sr -le "$SCALE_P1_ROUNDS" ]; do
		if [ $((_sr % 2)) = 1 ]; then _order="plain one"; else _order="one plain"; fi
		for _sk in $_order; do
			_sf=
			[ $_sk = one ] && _sf="-P 1"
			# shellcheck disable=SC2086
			run_metered "$WORK/p1.$_sk.err" in_work "$ZC_BIN/zcc" $_sf -n "$LOOPS" -s 127.0.0.1 \
				-p "$ZCS_PORT" "$WORK"/big/f1[0-7] >"$WORK/p1.$_sk" ||
				{ cat "$WORK/p1.$_sk.err" >&2; die "zcc $_sf failed"; }
			parse_zcc "$WORK/p1.$_sk"
			need "$SENT_BYTES" "$SENT_RATE"
			eval "_b_$_sk=\$SENT_BYTES _r_$_sk=\$SENT_RATE"
			SENT_TOTAL=$((SENT_TOTAL + SENT_BYTES)) SENT_RUNS=$((SENT_RUNS + 1))
			cat "$WORK/p1.$_sk" "$WORK/p1.$_sk.err" |
				sed -E 's/ in [0-9.]+ s,/ in S s,/g; s/[0-9.]+ kbytes\/sec/R kbytes\/sec/g' |
				sort >"$WORK/p1.$_sk.masked"
		done
		# shellcheck disable=SC2154
		[ "$_b_one" = "$_b_plain" ] || _bad_bytes=$((_bad_bytes + 1))
		cmp -s "$WORK/p1.one.masked" "$WORK/p1.plain.masked" || {
			_bad_lines=$((_bad_lines + 1))
			echo "  round $_sr: the lines differ (< without -P, > -P 1):"
			diff "$WORK/p1.plain.masked" "$WORK/p1.one.masked" | grep '^[<>]' | head -n 6 | sed 's/^/    /'
		}
		# shellcheck disable=SC2154
		echo "$_r_one $_r_plain" >>"$WORK/p1.rates"
		_sr=$((_sr + 1))
	done
	zcs_agrees p1 && _agree=1 || _agree=0
	stop_bg "$ZCS_PID"
	ratio_of "$WORK/p1.rates" p1_
	stat_of "$WORK/p1.rates" p0_ -k 2
	stat_of "$WORK/p1.rates" pp_ -k 1
	# shellcheck disable=SC2154
	echo "  without -P: $_b_plain bytes a run, $(printf '%.0f' "$p0_median") kbytes/sec (median);" \
		"-P 1: $_b_one bytes, $(printf '%.0f' "$pp_median") kbytes/sec"
	echo "  bytes differed in $_bad_bytes of $SCALE_P1_ROUNDS rounds, the masked lines in $_bad_lines;" \
		"zcs received $ZCS_DONE_BYTES bytes in $ZCS_DONE_RUNS connections ($([ $_agree = 1 ] && echo "every byte" || echo "NOT the bytes sent"))"
	# shellcheck disable=SC2154
	printf '  rate -P 1 / without: %.3f [%.3f, %.3f] (median of the rounds'"'"' ratios, %.0f%% interval), %s above 1, %s below\n' \
		"$p1_median" "$p1_lo" "$p1_hi" "$(calc "$p1_conf * 100")" "$p1_above" "$p1_below"
	csv scale p1 bytes_differ_rounds "$_bad_bytes" rounds
	csv scale p1 lines_differ_rounds "$_bad_lines" rounds
	csv scale p1 rate_over_plain "$p1_median" ratio
	csv scale p1 rate_over_plain_lo "$p1_lo" ratio
	csv scale p1 rate_over_plain_hi "$p1_hi" ratio
	# shellcheck disable=SC2154
	if [ $_bad_bytes = 0 ] && [ $_bad_lines = 0 ] && [ $_agree = 1 ] && [ "$p1_verdict" = unresolved ]; then
		_met=1
	else
		_met=0
	fi
	verdict $_met "zcc -P 1 is today's zcc: the same bytes and lines in every round (bytes differ in $_bad_bytes, lines in $_bad_lines), the rate within noise (ratio $(printf %.3f "$p1_median") [$(printf %.3f "$p1_lo"), $(printf %.3f "$p1_hi")] holds 1)"
	csv scale p1 target_met $_met bool
}

# scale_1024: zcc -P 1024 against our zcs (-m 1100): zcc's sent bytes
# equal to the sum of zcs's done lines; after the run zcc has exited and
# zcs holds the descriptors and threads it held before, with no child
# left. The open-file limit is raised for the run when it is too low for
# 1024 sockets on each end, and put back after.
SCALE_MANY=1024
scale_1024() {
	echo
	# ulimit -Sn: not POSIX, but dash's and bash's alike; the soft limit
	# only, so that the hard one stays where it was.
	# shellcheck disable=SC3045
	_nofile=$(ulimit -Sn 2>/dev/null)
	case $_nofile in
	unlimited | [0-9]*) ;;
	*)
		echo "  this shell cannot tell the open-file limit (ulimit -n): trying $SCALE_MANY streams as it is"
		_nofile=unlimited
		;;
	esac
	_raised=
	# shellcheck disable=SC3045
	if [ "$_nofile" != unlimited ] && [ "$_nofile" -lt 4096 ]; then
		if ulimit -Sn 4096 2>/dev/null; then
			_raised=1
			echo "  the open-file limit raised from $_nofile to 4096 (ulimit -Sn) for $SCALE_MANY streams"
		elif [ "$_nofile" -lt $((SCALE_MANY + 64)) ]; then
			echo "  $SCALE_MANY streams: skipped: the open-file limit is $_nofile and cannot be raised (ulimit -Sn)"
			return 0
		fi
	else
		echo "  the open-file limit is $_nofile (ulimit -n): enough for $SCALE_MANY streams"
	fi
	big_files
	zcs_up many -t 3600 -m $((SCALE_MANY + 76))
	show "zcs -p 0 -t 3600 -m $((SCALE_MANY + 76))   (port $ZCS_PORT)"
	# What zcs holds while idle: its descriptors and threads.
	_fd0=$(ls "/proc/$ZCS_PID/fd" | wc -l)
	_th0=$(ls "/proc/$ZCS_PID/task" | wc -l)
	SENT_TOTAL=0 SENT_RUNS=0
	show "zcc -J -P $SCALE_MANY -n 1 -s 127.0.0.1 -p $ZCS_PORT FILES   (2 of the 350 KB files)"
	_t0=$(date +%s.%N)
	QUIET=1 run_zcc "$WORK/many" -s 127.0.0.1 -p "$ZCS_PORT" -n 1 -P $SCALE_MANY "$WORK"/big/f1[0-1]
	_zrc=$?
	_t1=$(date +%s.%N)
	# run_fg's last PID is zcc's (in_work execs it): gone, not only reaped.
	_zleft=0
	# shellcheck disable=SC2154
	[ -d "/proc/$_fg" ] && _zleft=1
	SENT_TOTAL=${SENT_BYTES:-0} SENT_RUNS=$SCALE_MANY
	zcs_agrees many && _agree=1 || _agree=0
	# zcs's children end as their connections do: give them a few seconds.
	within 100 scale_zcs_idle "$_fd0"
	_fd1=$(ls "/proc/$ZCS_PID/fd" | wc -l)
	_th1=$(ls "/proc/$ZCS_PID/task" | wc -l)
	_kids=$(proc_children "$ZCS_PID" | wc -l)
	stop_bg "$ZCS_PID"
	# shellcheck disable=SC3045
	[ -n "$_raised" ] && ulimit -Sn "$_nofile"
	echo "  zcc: exit $_zrc after $(printf '%.2f' "$(calc "$_t1 - $_t0")") s, sent ${SENT_BYTES:-?} bytes over $SCALE_MANY streams; $_zleft zcc left running"
	json_get "$WORK/many" stream kbytes_per_sec >"$WORK/many.s"
	if [ -s "$WORK/many.s" ]; then
		stat_of "$WORK/many.s" ms_
		# shellcheck disable=SC2154
		echo "  streams: $ms_n rates, slowest/fastest $(printf '%.3f' "$(calc "$ms_min / $ms_max")")," \
			"median $(printf '%.0f' "$ms_median") kbytes/sec a stream"
		csv scale many$SCALE_MANY slowest_over_fastest "$(calc "$ms_min / $ms_max")" ratio
	fi
	echo "  zcs: received $ZCS_DONE_BYTES bytes in $ZCS_DONE_RUNS done lines ($([ $_agree = 1 ] && echo "every byte accounted for" || echo "NOT what zcc sent"))"
	echo "  zcs after the run: $_fd1 descriptors (idle before: $_fd0), $_th1 threads (before: $_th0), $_kids children left"
	echo "  the original 2001 zcs: not in this tree (no build of it in tests/tools or the tests), so ours only"
	csv scale many$SCALE_MANY bytes_sent "${SENT_BYTES:-0}" bytes
	csv scale many$SCALE_MANY bytes_received "$ZCS_DONE_BYTES" bytes
	csv scale many$SCALE_MANY zcs_fds_left "$((_fd1 - _fd0))" fds
	csv scale many$SCALE_MANY zcs_threads_left "$((_th1 - _th0))" threads
	csv scale many$SCALE_MANY zcs_children_left "$_kids" processes
	if [ "$_zrc" = 0 ] && [ "$_zleft" = 0 ] && [ $_agree = 1 ] && [ "$_fd1" -le "$_fd0" ] &&
		[ "$_th1" -le "$_th0" ] && [ "$_kids" = 0 ]; then
		_met=1
	else
		_met=0
	fi
	verdict $_met "$SCALE_MANY streams against our zcs: every byte accounted for (zcc $SENT_BYTES, zcs $ZCS_DONE_BYTES), no descriptor, thread or process left"
	csv scale many$SCALE_MANY target_met $_met bool
}

# scale_zcs_idle FDS: zcs has no child left and FDS descriptors at most.
scale_zcs_idle() {
	[ -z "$(proc_children "$ZCS_PID")" ] && [ "$(ls "/proc/$ZCS_PID/fd" | wc -l)" -le "$1" ]
}

# scale_streams: one zcc with -P 1, 2, 4, 16 and 64 streams against one
# zcs, metered (-c), in paired rounds: each round runs every count back to
# back, and -P N's figure is its aggregate rate over that round's -P 1.
# Per count: the aggregate rate, the load, the service demand and the
# slowest stream's rate over the fastest's (an unfair split shows there).
# Twice: against zcs as a user starts it (-M read, which copies every byte
# to user space), then against zcs -M discard (it copies nothing). On a
# machine of few CPUs the receivers' copies, all running beside the
# senders, take what more streams would gain; with discard the sender's
# side, zcc's machinery, is what the counts compare, and the targets are
# judged there.
# Its loop variables are _sn and _sr: the harness's own loops use _p.
SCALE_STREAMS=${ZC_BENCH_STREAMS:-"1 2 4 16 64"}
SCALE_ROUNDS=${ZC_BENCH_STREAM_ROUNDS:-5}
scale_streams() {
	big_files
	echo "streams,zcs -M read,zcs -M discard" >"$OUT/scale_streams.csv"
	scale_streams_by read
	scale_streams_by discard
	# Both tables have a line per stream count, in the same order.
	paste -d, "$WORK/st.read.csv" "$WORK/st.discard.csv" | cut -d, -f1,2,4 >>"$OUT/scale_streams.csv"
	plot scale_streams.svg scale_streams.csv -l -x "streams (zcc -P)" -y "aggregate kbytes/sec" \
		-t "One zcc, many streams, loopback ($(uname -r))"
}

# scale_streams_by METHOD: the rounds and the table against zcs -M METHOD;
# "streams,rate" lines into $WORK/st.METHOD.csv; the verdicts with discard.
scale_streams_by() {
	zcs_up "st$1" -M "$1" -t 3600 -m 1100
	echo
	show "zcs -M $1 -p 0 -t 3600 -m 1100   (port $ZCS_PORT)"
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
	printf '  %8s %14s %9s %14s %15s %24s\n' streams "kbytes/sec" "load %" "us/KB" "slowest/fastest" "rate / -P 1, rounds >="
	: >"$WORK/st.$1.csv"
	for _sn in $SCALE_STREAMS; do
		stat_of "$WORK/st.all" r_ -w 2="$_sn" -k 3
		stat_of "$WORK/st.all" l_ -w 2="$_sn" -k 4
		stat_of "$WORK/st.all" d_ -w 2="$_sn" -k 5
		stat_of "$WORK/st.all" f_ -w 2="$_sn" -k 6
		# Each round's rate against -P 1's in the same round (every round
		# has a line per stream count, in round order).
		grep "^[0-9]* $_sn " "$WORK/st.all" | cut -d' ' -f3 >"$WORK/st.a"
		grep "^[0-9]* 1 " "$WORK/st.all" | cut -d' ' -f3 >"$WORK/st.b"
		paste -d' ' "$WORK/st.a" "$WORK/st.b" >"$WORK/st.p"
		ratio_of "$WORK/st.p" q_
		case $_sn in
		2) _want=0.95 ;;
		64) _want=0.8 ;;
		*) _want= ;;
		esac
		_agree=0
		while read -r _a _b; do
			is_true "$_a / $_b >= ${_want:-1}" && _agree=$((_agree + 1))
		done <"$WORK/st.p"
		# shellcheck disable=SC2154
		printf '  %8s %14.0f %9.1f %14.3f %15.2f %7.2f [%.2f, %.2f] %d/%d\n' "$_sn" "$r_median" \
			"$l_median" "$d_median" "$f_median" "$q_median" "$q_lo" "$q_hi" "$_agree" "$q_n"
		echo "$_sn,$r_median" >>"$WORK/st.$1.csv"
		csv scale "streams$_sn.$1" kbytes_per_sec "$r_median" KiB/s
		csv scale "streams$_sn.$1" load_pct "$l_median" %
		csv scale "streams$_sn.$1" service_demand_us_per_kb "$d_median" us/KB
		csv scale "streams$_sn.$1" slowest_over_fastest "$f_median" ratio
		csv scale "streams$_sn.$1" rate_over_p1 "$q_median" ratio
		# The targets, on the sender's side: -P 2 loses nothing to the
		# machinery, -P 64 little; the median of the rounds' ratios.
		if [ "$1" = discard ] && [ -n "$_want" ]; then
			verdict "$(is_true "$q_median >= $_want" && echo 1 || echo 0)" \
				"zcc -P $_sn at least ${_want}x of -P 1, zcs -M discard: median $(printf %.2f "$q_median") [$(printf %.2f "$q_lo"), $(printf %.2f "$q_hi")], $_agree of $q_n rounds at least ${_want}"
		fi
	done
	echo "  (medians of $SCALE_ROUNDS rounds; rate / -P 1: the median of the rounds' ratios,"
	echo "  its distribution-free interval and the rounds at the target (1 where none);"
	echo "  the load is of the whole machine, both ends on loopback)"
}
