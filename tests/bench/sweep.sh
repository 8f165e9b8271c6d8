# make bench PART=sweep: what send() costs by chunk size, beside the 2001
# curve. Sourced by run.sh.
#
# Over loopback (no root needed). The rate is then the CPU's, not a link's,
# so the cost is compared per KB: zcc's own CPU time per KB sent, which
# other work on the machine does not enter as it enters a load meter's
# reading. At a fixed link rate, as in 2001, load is proportional to the
# cost per KB, so both curves normalised to their 8K point compare shapes
# directly. The comparison is zcc's own (-M send,sendfile -b 8K,256,...):
# every round runs every size, and a size's figure in zcc's table is the
# median over the rounds of its cost over that round's 8K cost, with its
# interval (5 rounds: enough for a verdict word); the bench prints that
# table and sets the 2001 curve beside it.

# The 2001 figures: the original README's published send() load by chunk
# size at 100 Mbit/s. Only these three points were published; 8192 is
# their minimum and the reference both curves are divided by.
Y2001_SWEEP="256:34.9 8192:19.1 65536:24.3"

SWEEP_SIZES="8K,256,512,1K,2K,4K,16K,32K,64K"
SWEEP_ROUNDS=5
SWEEP_SECS=1

part_sweep() {
	section "sweep: send() by chunk size against 8K, sendfile beside (zcc -M send,sendfile -b $SWEEP_SIZES, loopback), $SWEEP_ROUNDS paired rounds"
	big_files
	zcs_up sw -t 3600
	show "zcs -p 0 -t 3600   (port $ZCS_PORT)"
	echo "  63 files of about 350 KB; each variant sends for $SWEEP_SECS s a round; us/KB: zcc's"
	echo "  own CPU time per KB; the ratio: a size's cost over the 8K cost of the same round"
	show_cmd zcc -s 127.0.0.1 -p "$ZCS_PORT" -M send,sendfile -b "$SWEEP_SIZES" \
		-R $SWEEP_ROUNDS -t $SWEEP_SECS "$WORK"/big/f*
	run_fg in_work "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -M send,sendfile \
		-b "$SWEEP_SIZES" -R $SWEEP_ROUNDS -t $SWEEP_SECS "$WORK"/big/f* \
		>"$WORK/sw" 2>"$WORK/sw.err" || { sed 's/^/  /' "$WORK/sw.err" >&2; die "zcc failed"; }
	sed -n 's/^sent: \([0-9]*\) bytes.*/\1/p' "$WORK/sw" >"$WORK/sw.sent"
	SENT_RUNS=$(wc -l <"$WORK/sw.sent")
	SENT_TOTAL=$(awk '{ s += $1 } END { printf "%.0f\n", s }' "$WORK/sw.sent")
	byte_check sw
	stop_bg "$ZCS_PID"
	echo
	sed -n '/^compare: /,$p' "$WORK/sw" | sed 's/^/  /'
	sweep_2001
}

# sweep_2001: zcc's ratios to 8K beside 2001's, in the CSV and the chart.
# zcc's rows: "send/SIZE RATE US/KB RATIO LO..HI AGREE VERDICT", the
# reference's ratio 1.
sweep_2001() {
	awk '$1 ~ /^send\// && $2 ~ /^[0-9]+$/ { sub(/^send\//, "", $1); print $1, $2, $3, $4 }' \
		"$WORK/sw" >"$WORK/sw.rows"
	echo "chunk_bytes,ours (cost / its 8K cost),2001 (load / its 8K load)" >"$OUT/sweep.csv"
	: >"$WORK/sw.csv"
	echo
	echo "  beside 2001 (the original README's send() load at 100 Mbit/s), each over its 8K point:"
	while read -r size r d ratio; do
		bytes=$(awk -v s="$size" 'BEGIN { m = 1; if (s ~ /K$/) m = 1024; if (s ~ /M$/) m = 1048576
			printf "%d\n", (s + 0) * m }')
		y=$(echo "$Y2001_SWEEP" | tr ' ' '\n' | sed -n "s/^$bytes://p")
		if [ -n "$y" ]; then
			ynorm=$(calc "$y / 19.1")
			printf '  %-6s ours %.2fx, 2001 %.2fx (%s%%)\n' "$size" "$ratio" "$ynorm" "$y"
		else
			ynorm=
		fi
		echo "$bytes,$ratio,$ynorm" >>"$WORK/sw.csv"
		csv sweep "$bytes" kbytes_per_sec "$r" KiB/s
		csv sweep "$bytes" sender_us_per_kb "$d" us/KB
		csv sweep "$bytes" against_8k "$ratio" ratio
	done <"$WORK/sw.rows"
	sort -t, -k1,1n "$WORK/sw.csv" >>"$OUT/sweep.csv"
	plot sweep.svg sweep.csv -l -t "Cost of send() by chunk size, over its 8K cost ($(uname -r), loopback)" \
		-x "send() chunk size (bytes)" -y "CPU per KB / its 8K cost (1 = 8K's)"
}
