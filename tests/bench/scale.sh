# make bench PART=scale: many small files, and many clients at once, with
# every byte counted on both ends. Sourced by run.sh.

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
