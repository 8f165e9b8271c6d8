# make bench PART=sweep: what read()+send() costs by chunk size, beside the
# 2001 curve. Sourced by run.sh.
#
# Over loopback (no root needed). The rate is then the CPU's, not a link's,
# so the cost is compared per KB: zcc's own CPU time per KB sent, exact
# (zcc under tests/tools/subreaper, getrusage of its child), which other work on
# the machine does not enter as it enters a load meter's reading. At a
# fixed link rate, as in 2001, load is proportional to the cost per KB, so
# both columns normalised to their own minimum compare shapes directly.
# Ours is normalised round by round: every round runs every size, and a
# size's figure is the median over the rounds of its cost over that
# round's cheapest (zcstat -r), so a slow round moves no size alone.

# The 2001 figures: the original README's published send() load by chunk
# size at 100 Mbit/s. Only these three points were published.
Y2001_SWEEP="256:34.9 8192:19.1 65536:24.3"

SWEEP_SIZES="256 512 1024 2048 4096 8192 16384 32768 65536"

part_sweep() {
	section "sweep: read()+send() by chunk size (zcc -S -b SIZE, loopback), 3 paired rounds"
	big_files
	SENT_TOTAL=0 SENT_RUNS=0
	zcs_up sw -t 3600
	show "zcs -p 0 -t 3600   (port $ZCS_PORT)"
	echo "  63 files of about 350 KB; each run about 1.5 s; us/KB: zcc's own CPU time per KB;"
	echo "  each round runs every size (the order reversed every other round), and a size's"
	echo "  figure is its cost over the cheapest size's in the same round"
	for size in $SWEEP_SIZES sendfile; do
		if [ $size = sendfile ]; then flags=; else flags="-S -b $size"; fi
		# shellcheck disable=SC2086
		probe_loops 1.5 -s 127.0.0.1 -p "$ZCS_PORT" $flags "$WORK"/big/f*
		eval "sw_loops_$size=$LOOPS"
	done
	: >"$WORK/sw.all"
	order="$SWEEP_SIZES sendfile"
	for rep in 1 2 3; do
		for size in $order; do
			if [ $size = sendfile ]; then flags=; else flags="-S -b $size"; fi
			eval "loops=\$sw_loops_$size"
			QUIET=$([ $rep = 1 ] || echo 1)
			ZCC_PREFIX="$ZC_TESTBIN/subreaper -s -o $WORK/sw.ct"
			# shellcheck disable=SC2086
			run_zcc "$WORK/sw" -s 127.0.0.1 -p "$ZCS_PORT" -n "$loops" $flags \
				"$WORK"/big/f* || die "zcc failed"
			QUIET= ZCC_PREFIX=
			us=$(cputime_us "$WORK/sw.ct")
			need "$SENT_RATE" "$us" "$SENT_BYTES"
			echo "$rep $size $SENT_RATE $(calc "$us / ($SENT_BYTES / 1024)")" >>"$WORK/sw.all"
		done
		order=$(echo $order | tr ' ' '\n' | sed -n '1!G;h;$p' | tr '\n' ' ')
	done
	# Each round's cheapest size (sendfile is no chunk size).
	# sw.all: "ROUND SIZE RATE US/KB"; sw.min: "ROUND US/KB" in round order.
	grep -v '^[0-9]* sendfile ' "$WORK/sw.all" | "$ZC_TESTBIN/zcstat" -g min -k 4 |
		LC_ALL=C sort -k1,1 >"$WORK/sw.min" || die "zcstat -g min failed"
	: >"$WORK/sw.rows"
	for size in $SWEEP_SIZES sendfile; do
		stat_of "$WORK/sw.all" r_ -w 2="$size" -k 3
		stat_of "$WORK/sw.all" d_ -w 2="$size" -k 4
		# Each round's cost at this size against that round's cheapest.
		grep "^[0-9]* $size " "$WORK/sw.all" | LC_ALL=C sort -k1,1 >"$WORK/sw.s"
		LC_ALL=C join -o 1.4,2.2 "$WORK/sw.s" "$WORK/sw.min" >"$WORK/sw.p"
		ratio_of "$WORK/sw.p" q_
		# shellcheck disable=SC2154
		echo "$size $r_median $d_median $d_min $d_max $q_median $q_lo $q_hi" >>"$WORK/sw.rows"
	done
	byte_check sw
	stop_bg "$ZCS_PID"
	sweep_table
}

# sweep_table: ours and 2001's, each normalised to its own minimum.
sweep_table() {
	grep -v '^sendfile' "$WORK/sw.rows" >"$WORK/sw.sizes"
	ours_min_at=$(sort -s -g -k3,3 "$WORK/sw.sizes" | head -n 1 | cut -d' ' -f1)
	echo
	printf '  %-9s %11s %12s %16s %18s %9s %11s\n' chunk kbytes/sec "us/KB" "us/KB min-max" \
		"ours/min [range]" "2001 %" "2001/min"
	echo "chunk_bytes,ours (cost / its minimum),2001 (load / its minimum)" >"$OUT/sweep.csv"
	while read -r size r d dmin dmax norm qlo qhi; do
		qr=$(printf '%.2f [%.2f,%.2f]' "$norm" "$qlo" "$qhi")
		y=$(echo "$Y2001_SWEEP" | tr ' ' '\n' | sed -n "s/^$size://p")
		if [ -n "$y" ]; then
			ynorm=$(calc "$y / 19.1")
			ycol=$(printf '%9s %11.2f' "$y" "$ynorm")
		else
			ynorm= ycol=$(printf '%9s %11s' - -)
		fi
		if [ "$size" = sendfile ]; then
			printf '  %-9s %11.0f %12.4f %16s %18s %s\n' "$size" "$r" "$d" \
				"$(printf '%.3f-%.3f' "$dmin" "$dmax")" "$qr" "   (for reference)"
		else
			printf '  %-9s %11.0f %12.4f %16s %18s %s\n' "$size" "$r" "$d" \
				"$(printf '%.3f-%.3f' "$dmin" "$dmax")" "$qr" "$ycol"
			echo "$size,$norm,$ynorm" >>"$OUT/sweep.csv"
		fi
		csv sweep "$size" kbytes_per_sec "$r" KiB/s
		csv sweep "$size" sender_us_per_kb "$d" us/KB
		csv sweep "$size" normalised "$norm" ratio
	done <"$WORK/sw.rows"
	echo "  minimum: ours at $ours_min_at bytes; 2001 at 8192 bytes (of 256, 8192 and 65536, the"
	echo "  only points the 2001 README published: 34.9%, 19.1%, 24.3%)"
	for s in 256 65536; do
		o=$(printf '%.2f' "$(grep "^$s " "$WORK/sw.sizes" | cut -d' ' -f6)")
		y=$(echo "$Y2001_SWEEP" | tr ' ' '\n' | sed -n "s/^$s://p")
		echo "  at $s bytes: ours ${o}x its minimum, 2001 $(printf '%.2f' "$(calc "$y / 19.1")")x"
	done
	csv sweep minimum ours_at "$ours_min_at" bytes
	csv sweep minimum y2001_at 8192 bytes
	plot sweep.svg sweep.csv -l -t "Cost of read()+send() by chunk size, normalised to its minimum ($(uname -r), loopback)" \
		-x "send() chunk size (bytes)" -y "CPU per KB / its own minimum (1 = cheapest)"
}
