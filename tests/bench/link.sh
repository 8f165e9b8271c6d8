# make bench PART=link: the 2001 experiment on a limited link, at the
# 2001 rate and at rates scaled to today's CPUs. Sourced by run.sh.
#
# Two network namespaces joined by a veth pair (names with our PID, always
# deleted, Ctrl-C included); the sender's side shaped by tc tbf at each rate
# of ZC_BENCH_LINK_RATES. At each rate, ZC_BENCH_LINK_REPS rounds of every
# transmit method zcc has, in an order rotated each round (drift spreads
# over all methods). Each run gives:
#   - the rate achieved (zcc's sent figures);
#   - the system load by cyclesoak's default method over the run;
#   - zcc's own CPU: zcc runs under tests/tools/subreaper inside the sender's
#     namespace, whose getrusage(RUSAGE_CHILDREN) is the scheduler's exact
#     run time of zcc and nothing else (zcc -c would put its soakers in the
#     same figure);
#   - zcs's own CPU, the receiving side: a fresh `zcs -1` (one connection,
#     then exit) per run under its own subreaper in the receiver's
#     namespace: the exact run time of the listener and its connection,
#     idle waiting costs none.
#   - the meter's -W figures (cyclesoak -W in the sender's namespace, so
#     that its packet counts are the sender's interface's): the class
#     split and the kernel kinds of the sender's CPU and of the receiver's
#     (zcc -B and zcs -B put them on CPUs of their own, tests/bench/
#     where.sh), interrupts and packets per second;
#   - TCP's retransmits of the run (zcc -J's TCP_INFO keys).
# The target, judged at the highest rate: the interval of the rounds'
# sendfile/send() ratio of the sender's own CPU per KB wholly below 1.
. "$BENCH_DIR/where.sh"

# The 2001 figures: the original README's published results, a dual
# 500 MHz Pentium II on a saturated 100 Mbit/s link: system load sending
# with sendfile() and with send() in 64 KiB chunks, and receiving that
# stream; send:sendfile is their ratio.
Y2001_SENDFILE=9.6
Y2001_SEND=24.1
Y2001_RECEIVE=18.7
Y2001_RATIO=2.5

LINK_SECS=2
NS_TX=zcb-tx-$$
NS_RX=zcb-rx-$$
NS_MADE=
TX_ADDR=10.201.0.1
RX_ADDR=10.201.0.2

link_cleanup() {
	for _ns in $NS_MADE; do ip netns del "$_ns" 2>/dev/null; done
	NS_MADE=
}

# link_skip: why the link part cannot run here, or nothing.
link_skip() {
	[ "$(id -u)" = 0 ] || { echo "needs root (network namespaces, tc)"; return 0; }
	for _t in ip tc; do
		command -v $_t >/dev/null 2>&1 || { echo "$_t (iproute2) not installed"; return 0; }
	done
}

# check_link: every rate of ZC_BENCH_LINK_RATES as tc itself reads it, in a
# namespace of our own, before anything runs; a bad one stops the bench
# with tc's own words. Sets RATE_BYTES_<n> (bytes/s, tc's reading).
check_link() {
	[ -n "$(link_skip)" ] && return 0
	on_cleanup link_cleanup
	_ns=zcb-chk-$$
	ip netns add $_ns 2>/dev/null || die "cannot create a network namespace ($_ns)"
	NS_MADE="$NS_MADE $_ns"
	_i=0
	for _r in $LINK_RATES; do
		_i=$((_i + 1))
		if ! _e=$(ip netns exec $_ns tc qdisc replace dev lo root tbf rate "$_r" burst 32kbit latency 50ms 2>&1); then
			die "ZC_BENCH_LINK_RATES: '$_r': $(echo "$_e" | head -n 1)"
		fi
		_b=$(ip netns exec $_ns tc -j qdisc show dev lo | sed -n 's/.*"rate":\([0-9]*\).*/\1/p')
		need "$_b"
		eval "RATE_BYTES_$_i=$_b"
	done
	link_cleanup
}

# link_setup RATE BYTES_PER_SEC: the namespaces, the veth pair, the shaper
# (a burst of 10 ms at the rate, at least 4 KiB, so the timer's granularity
# does not cap the rate below it).
link_setup() {
	_burst=$(($2 / 100))
	[ $_burst -lt 4096 ] && _burst=4096
	vt=zcbt$$ vr=zcbr$$
	for cmd in "ip netns add $NS_TX" "ip netns add $NS_RX" \
		"ip link add $vt netns $NS_TX type veth peer name $vr netns $NS_RX" \
		"ip -n $NS_TX addr add $TX_ADDR/30 dev $vt" "ip -n $NS_RX addr add $RX_ADDR/30 dev $vr" \
		"ip -n $NS_TX link set lo up" "ip -n $NS_RX link set lo up" \
		"ip -n $NS_TX link set $vt up" "ip -n $NS_RX link set $vr up" \
		"ip netns exec $NS_TX tc qdisc add dev $vt root tbf rate $1 burst $_burst latency 50ms"; do
		show "$cmd"
		# shellcheck disable=SC2086
		$cmd || { link_cleanup; die "link set-up failed: $cmd"; }
		case $cmd in "ip netns add "*) NS_MADE="$NS_MADE ${cmd#ip netns add }" ;; esac
	done
}

# link_meter OUTFILE COMMAND...: meter (run.sh) with cyclesoak -W in the
# sender's namespace: the load into METER_LOAD, the -W figures into
# OUTFILE's command event.
link_meter() {
	_o=$1
	shift
	run_metered "$_o.err" in_work ip netns exec "$NS_TX" "$ZC_BIN/cyclesoak" -J -W -- "$@" >"$_o"
	_mrc=$?
	METER_LOAD=$(json_get "$_o" command load_pct | tail -n 1)
	[ $_mrc -eq 0 ] && [ -n "$METER_LOAD" ]
}

# link_run TAG ZCC-ARGS...: one transfer across the link, measured on both
# ends (zcs with LINK_ZCS's options, if set); appends "RATE LOAD TX_USKB
# TX_PCT RX_USKB RX_PCT" to $WORK/TAG, the machine's CPU us/KB to TAG.sd,
# "RETRANSMITS INTERRUPTS/S RX-PACKETS/S TX-PACKETS/S" (the sender's
# interface; -1 where unknown) to $WORK/TAG.x and, with -W, where_row's
# line to $WORK/TAG.w.
link_run() {
	_tag=$1
	shift
	rm -f "$WORK/rx.ct" "$WORK/tx.ct"
	: >"$WORK/rx.out"
	# shellcheck disable=SC2086
	start_bg ip netns exec "$NS_RX" "$ZC_TESTBIN/subreaper" -s -o "$WORK/rx.ct" \
		"$ZC_BIN/zcs" -1 -p 0 -a $RX_ADDR -J $WHERE_RX_B ${LINK_ZCS:-} >"$WORK/rx.out" 2>"$WORK/rx.err"
	_rx=$!
	wait_for "$WORK/rx.out" '^listening on port [0-9]+|"event": *"listening"' ||
		{ cat "$WORK/rx.err" >&2; die "zcs -1 in $NS_RX did not start"; }
	_port=$(zcs_port "$WORK/rx.out")
	if [ -z "${QUIET:-}" ]; then
		show "ip netns exec $NS_RX subreaper -s -o rx.ct zcs -1 -p 0 -a $RX_ADDR -J $WHERE_RX_B ${LINK_ZCS:+$LINK_ZCS }  (port $_port)"
		# shellcheck disable=SC2086
		show_cmd ip netns exec "$NS_TX" cyclesoak -J -W -- subreaper -s -o tx.ct zcc -J $WHERE_TX_B -s $RX_ADDR -p "$_port" "$@"
	fi
	# sh -c exec: zcc's figures in their own file, apart from cyclesoak's.
	# shellcheck disable=SC2086
	link_meter "$WORK/tx.meter" "$ZC_TESTBIN/subreaper" -s -o "$WORK/tx.ct" \
		sh -c 'f=$1; shift; exec "$@" >"$f"' sh "$WORK/tx.out" \
		"$ZC_BIN/zcc" -J $WHERE_TX_B -s $RX_ADDR -p "$_port" "$@" ||
		{ cat "$WORK/tx.meter.err" >&2; die "cyclesoak -- zcc in $NS_TX failed"; }
	wait $_rx
	_rrc=$?
	forget_bg $_rx
	[ $_rrc -eq 0 ] || { cat "$WORK/rx.err" >&2; die "zcs -1 in $NS_RX: status $_rrc"; }
	parse_zcc "$WORK/tx.out"
	zcs_tally rx
	SENT_TOTAL=$((SENT_TOTAL + SENT_BYTES)) SENT_RUNS=$((SENT_RUNS + 1))
	RX_TOTAL=$((RX_TOTAL + ZCS_DONE_BYTES))
	_tus=$(cputime_us "$WORK/tx.ct") _rus=$(cputime_us "$WORK/rx.ct")
	need "$SENT_RATE" "$SENT_SECS" "$SENT_BYTES" "$METER_LOAD" "$_tus" "$_rus" "$ZCS_DONE_BYTES"
	printf '%s %s %.5f %.4f %.5f %.4f\n' "$SENT_RATE" "$METER_LOAD" \
		"$(calc "$_tus / ($SENT_BYTES / 1024)")" "$(calc "100 * $_tus / 1e6 / ($SENT_SECS * $NCPU)")" \
		"$(calc "$_rus / ($ZCS_DONE_BYTES / 1024)")" "$(calc "100 * $_rus / 1e6 / ($SENT_SECS * $NCPU)")" \
		>>"$WORK/$_tag"
	# The machine's CPU per KB (both ends), for a kind's us/KB.
	calc "$METER_LOAD / 100 * $NCPU * $SENT_SECS * 1e6 / ($SENT_BYTES / 1024)" >>"$WORK/$_tag.sd"
	_rt=-1 _in=-1 _rp=-1 _tp=-1
	_rt=$(json_get "$WORK/tx.out" sent retransmits | tail -n 1)
	# shellcheck disable=SC2046
	set -- $(link_net "$WORK/tx.meter" "$vt")
	_in=$1 _rp=$2 _tp=$3
	where_row "$WORK/tx.meter" command >>"$WORK/$_tag.w"
	need "${_rt:--1}" "$_in" "$_rp" "$_tp"
	echo "${_rt:--1} $_in $_rp $_tp" >>"$WORK/$_tag.x"
}

# link_net FILE IFNAME: "INTERRUPTS/S RX-PACKETS/S TX-PACKETS/S" from the
# net figures of FILE's command event (-W -J), the packets IFNAME's; 0 for
# an interface that moved nothing (it is not listed), ? for a figure
# missing.
link_net() (
	eval "$(json_last "$1" command n_)"
	_i=0 _rp=0 _tp=0
	while eval "_n=\${n_net_interfaces_${_i}_name:-}"; [ -n "$_n" ]; do
		[ "$_n" = "$2" ] && eval "_rp=\${n_net_interfaces_${_i}_rx_packets_per_sec:-?}" \
			"_tp=\${n_net_interfaces_${_i}_tx_packets_per_sec:-?}"
		_i=$((_i + 1))
	done
	# shellcheck disable=SC2154
	echo "${n_net_interrupts_per_sec:-?} $_rp $_tp"
)

# rotate N WORDS...: the words, starting from the Nth (0-based, wrapping).
rotate() {
	_k=$1
	shift
	_k=$((_k % $#))
	_head=
	while [ "$_k" -gt 0 ]; do _head="$_head $1"; shift; _k=$((_k - 1)); done
	echo "$*$_head"
}

# link_table TAG-PREFIX: the table of one rate, a row per method.
link_table() {
	printf '  %-9s %8s %16s %22s %9s %14s %9s %8s\n' method Mbit/s "load % (min-max)" \
		"sender us/KB [95% CI]" "sender %" "receiver us/KB" "recv %" "retrans"
	for m in $methods; do
		_f=$WORK/$1.$m
		stat_of "$_f" r_ -k 1
		stat_of "$_f" l_ -k 2
		stat_of "$_f" t_ -k 3
		stat_of "$_f" tp_ -k 4
		stat_of "$_f" u_ -k 5
		stat_of "$_f" up_ -k 6
		stat_of "$_f.x" rt_ -k 1
		# shellcheck disable=SC2154
		printf '  %-9s %8.1f %16s %22s %9.2f %14.4f %9.2f %8s\n' "$m" "$(calc "$r_median * 8192 / 1e6")" \
			"$(printf '%.1f (%.1f-%.1f)' "$l_median" "$l_min" "$l_max")" \
			"$(printf '%.4f [%.4f,%.4f]' "$t_median" "$t_lo" "$t_hi")" "$tp_median" "$u_median" "$up_median" \
			"$(if [ "$rt_min" = -1 ]; then echo -; else printf '%.0f' "$rt_median"; fi)"
		_c="${rate}_$m"
		csv link "$_c" kbytes_per_sec "$r_median" KiB/s
		csv link "$_c" system_load "$l_median" %
		csv link "$_c" system_load_min "$l_min" %
		csv link "$_c" system_load_max "$l_max" %
		csv link "$_c" sender_us_per_kb "$t_median" us/KB
		csv link "$_c" sender_us_per_kb_lo "$t_lo" us/KB
		csv link "$_c" sender_us_per_kb_hi "$t_hi" us/KB
		csv link "$_c" sender_load "$tp_median" %
		csv link "$_c" receiver_us_per_kb "$u_median" us/KB
		csv link "$_c" receiver_load "$up_median" %
		# shellcheck disable=SC2154
		[ "$rt_min" = -1 ] || csv link "$_c" retransmits "$rt_median" segments
		# shellcheck disable=SC2154
		echo "$m,$rate,$tp_median,$tp_lo,$tp_hi" >>"$OUT/link_methods.csv.tmp"
	done
}

# link_verdict TAG-PREFIX COLUMN WHAT: sendfile against send, round by round.
link_verdict() {
	paste -d' ' "$WORK/$1.sendfile" "$WORK/$1.send" >"$WORK/pair"
	compare_of "$WORK/pair" v_ -k "$2,$(($2 + 6))"
	ratio_of "$WORK/pair" vr_ -k "$2,$(($2 + 6))"
	# shellcheck disable=SC2154
	V_TEXT="sendfile $(printf '%.4g' "$v_a_median") against send() $(printf '%.4g' "$v_b_median") $3 (medians); per round sendfile/send() $(printf '%.2f [%.2f, %.2f]' "$vr_median" "$vr_lo" "$vr_hi") at $(calc "$vr_conf * 100")%, lower in $vr_below of $vr_n rounds"
	case $vr_verdict in
	less) V_MET=1 ;;
	*) V_MET=0 V_TEXT="$V_TEXT; ${vr_why:-sendfile dearer}" ;;
	esac
}

part_link() {
	section "link: veth between two network namespaces, tc tbf at $LINK_RATES, $LINK_REPS rounds"
	_why=$(link_skip)
	if [ -n "$_why" ]; then
		echo "  skipped: $_why"
		return 0
	fi
	usable_methods		# what the kernel refuses here is left out, said
	methods=$USABLE
	[ -z "$LEFT_OUT" ] || echo "$LEFT_OUT" | sed 's/^/  left out: /'
	for m in sendfile send; do
		case " $methods " in *" $m "*) ;; *) die "zcc's methods ($methods) lack $m" ;; esac
	done
	calibrate_once
	big_files
	on_cleanup link_cleanup
	NCPU=$(nproc)
	setbytes=$(cat "$WORK"/big/f* | wc -c)
	echo "  each run: the 63-file set ($setbytes bytes) N times, about $LINK_SECS s at the link's rate;"
	echo "  sender: zcc's own CPU time (subreaper); receiver: a fresh zcs -1's own CPU time"
	echo "  (subreaper); load: the whole machine (both ends) by cyclesoak's default method."
	echo "  us/KB: CPU time per KB moved; %: that CPU time as a share of all $NCPU CPUs;"
	echo "  retrans: TCP's retransmitted segments in a run (zcc's TCP_INFO), median."
	where_cpus
	[ -n "$WHERE_TX_B" ] && echo "  zcc runs on cpu$WHERE_TX (zcc $WHERE_TX_B), zcs on cpu$WHERE_RX (zcs $WHERE_RX_B)."
	: >"$OUT/link_methods.csv.tmp"
	SENT_TOTAL=0 SENT_RUNS=0 RX_TOTAL=0
	ri=0
	for rate in $LINK_RATES; do
		ri=$((ri + 1))
		eval "bps=\$RATE_BYTES_$ri"
		n=$(((bps * LINK_SECS + setbytes / 2) / setbytes))
		[ "$n" -ge 1 ] || n=1
		echo
		echo "  --- $rate ($bps bytes/s by tc): the set $n times per run ---"
		link_setup "$rate" "$bps"
		for m in $methods; do
			: >"$WORK/lk$ri.$m"; : >"$WORK/lk$ri.$m.x"; : >"$WORK/lk$ri.$m.w"; : >"$WORK/lk$ri.$m.sd"
		done
		round=1
		while [ $round -le "$LINK_REPS" ]; do
			# shellcheck disable=SC2086
			order=$(rotate $((round - 1)) $methods)
			line=
			for m in $order; do
				QUIET=$([ $round = 1 ] && [ "$m" = sendfile ] || echo 1)
				# shellcheck disable=SC2046
				link_run "lk$ri.$m" -n "$n" $(method_flags "$m") "$WORK"/big/f*
				line="$line $m $(printf '%.3f' "$(tail -n 1 "$WORK/lk$ri.$m" | cut -d' ' -f3)")"
			done
			QUIET=
			echo "  round $round: sender us/KB:$line"
			round=$((round + 1))
		done
		echo
		link_table "lk$ri"
		link_where "lk$ri"
		# The 2001 comparison at this rate: sender's own CPU, and the load.
		link_cheapest "lk$ri"
		link_verdict "lk$ri" 3 "us/KB of the sender's own CPU"
		eval "met_$ri=\$V_MET text_$ri=\"\$V_TEXT\""
		echo "  $rate: $V_TEXT"
		link_verdict "lk$ri" 2 "% system load"
		echo "  $rate, by the system load (both ends, for information): $V_TEXT"
		link_cork "$ri"
		[ "$ri" -eq "$(set -- $LINK_RATES; echo $#)" ] && link_discard "$ri"
		link_cleanup
	done
	if [ "$RX_TOTAL" = "$SENT_TOTAL" ]; then
		echo "  bytes: zcc sent $SENT_TOTAL in $SENT_RUNS connections, zcs received the same"
	else
		echo "  bytes: MISMATCH: zcc sent $SENT_TOTAL in $SENT_RUNS connections, zcs received $RX_TOTAL"
	fi
	link_2001 "$ri"
	eval "met=\$met_$ri text=\"\$text_$ri\""
	# shellcheck disable=SC2154
	verdict "$met" "at $rate (the highest rate), sendfile cheaper than send(): $text"
	csv link sendfile_vs_send target_met "$met" bool
	[ "$ri" -gt 1 ] && echo "  (at $(echo $LINK_RATES | cut -d' ' -f1), the 2001 rate: $text_1)"
	{
		echo "method,rate,sender_load_pct,lo,hi"
		cat "$OUT/link_methods.csv.tmp"
	} >"$OUT/link_methods.csv" && rm -f "$OUT/link_methods.csv.tmp"
	plot link_methods.svg link_methods.csv -G -t "Sender's CPU by method and link rate ($(uname -r))" \
		-x "transmit method (bars: link rates)" -y "zcc's own CPU, % of all $NCPU CPUs (median, 95% interval)"
}

# link_cheapest TAG-PREFIX: which zero-copy method (of those zcc has) cost
# the sender least per KB at this rate, against the runner-up, round by round.
link_cheapest() {
	: >"$WORK/zc.rank"
	for _m in sendfile splice zerocopy uring-zc; do
		[ -s "$WORK/$1.$_m" ] || continue
		stat_of "$WORK/$1.$_m" z_ -k 3
		# shellcheck disable=SC2154
		echo "$z_median $_m" >>"$WORK/zc.rank"
	done
	[ "$(wc -l <"$WORK/zc.rank")" -ge 2 ] || return 0
	set -- "$1" $(sort -g "$WORK/zc.rank" | head -n 2 | cut -d' ' -f2)
	paste -d' ' "$WORK/$1.$2" "$WORK/$1.$3" >"$WORK/pair"
	compare_of "$WORK/pair" c_ -k 3,9
	ratio_of "$WORK/pair" cr_ -k 3,9
	# shellcheck disable=SC2154
	echo "  cheapest zero-copy method for the sender at $rate: $2, $(printf '%.4f' "$c_a_median") us/KB against" \
		"$3's $(printf '%.4f' "$c_b_median") (per round $(printf '%.2f [%.2f, %.2f]' "$cr_median" "$cr_lo" "$cr_hi"), lower in $cr_below of $cr_n rounds; $(
		[ "$cr_verdict" = less ] && echo "resolved: the interval lies below 1" || echo "not resolved: $cr_why"))"
	csv link "${rate}_cheapest_zero_copy" "$2" "$c_a_median" us/KB
}

# link_2001 NRATES: the 2001 transmit table beside ours at each rate, with
# the 2001 table's other columns (interrupts, rx and tx packets per second
# on the sender's interface) for the two sending rows.
link_2001() {
	echo
	echo "  The 2001 table beside ours. 2001: system load of a dual PII-500 at 100 Mbit/s."
	echo "  Ours: zcc's own CPU (zcs's, receiving) as % of this machine, per rate, and for"
	echo "  the senders the interrupts/s and the rx and tx packets/s of the sender's interface"
	echo "  (medians; veth raises no interrupts: those are the machine's devices; a packet is"
	echo "  what veth passes, up to 64 KiB with segmentation offload, not a wire frame)."
	_h=$(printf '  %-22s %8s' "" 2001)
	for _r in $LINK_RATES; do
		_h="$_h$(printf ' %10s' "$_r")"
		_h="$_h$(printf ' %8s %9s %9s' intr/s rx/s tx/s)"
	done
	echo "$_h"
	for row in sendfile send receiving ratio; do
		case $row in
		sendfile) _l="sendfile" _y=$Y2001_SENDFILE ;;
		send) _l="send() 64 KiB chunks" _y=$Y2001_SEND ;;
		receiving) _l="receiving" _y=$Y2001_RECEIVE ;;
		ratio) _l="send:sendfile ratio" _y=$Y2001_RATIO ;;
		esac
		_s=$(printf '  %-22s %7s%s' "$_l" "$_y" "$([ $row = ratio ] || echo %)")
		_i=0
		for _r in $LINK_RATES; do
			_i=$((_i + 1))
			case $row in
			sendfile | send) stat_of "$WORK/lk$_i.$row" y_ -k 4 ;;
			receiving) stat_of "$WORK/lk$_i.sendfile" y_ -k 6 ;;
			ratio)
				paste -d' ' "$WORK/lk$_i.send" "$WORK/lk$_i.sendfile" >"$WORK/pair"
				stat_of "$WORK/pair" y_ -k 4,10 -r
				;;
			esac
			# shellcheck disable=SC2154
			if [ $row = ratio ]; then
				_s="$_s$(printf ' %10.2f' "$y_median")"
			else
				_s="$_s$(printf ' %9.2f%%' "$y_median")"
			fi
			csv link "${_r}_2001_table" "$row" "$y_median" "$([ $row = ratio ] && echo ratio || echo %)"
			case $row in
			sendfile | send)
				for _k in 2 3 4; do
					stat_of "$WORK/lk$_i.$row.x" y_ -k $_k
					_wd=9
					[ $_k = 2 ] && _wd=8
					_s="$_s$(printf ' %*.0f' "$_wd" "$y_median")"
				done
				;;
			*) _s="$_s$(printf ' %8s %9s %9s' "" "" "")" ;;
			esac
		done
		echo "$_s"
	done
}

# link_cork N: TCP_CORK at rate number N: zcc -S -b 64 with and without -k,
# alternating, against the 2001 sentence.
link_cork() {
	for _k in plain cork; do : >"$WORK/ck$1.$_k"; : >"$WORK/ck$1.$_k.x"; : >"$WORK/ck$1.$_k.w"; done
	_round=1
	while [ $_round -le "$LINK_REPS" ]; do
		for _k in plain cork; do
			QUIET=$([ $_round = 1 ] || echo 1)
			# shellcheck disable=SC2046
			link_run "ck$1.$_k" -n 1 -S -b 64 $([ $_k = cork ] && echo -k) "$WORK"/big/f1[0-9]
		done
		_round=$((_round + 1))
	done
	QUIET=
	paste -d' ' "$WORK/ck$1.cork" "$WORK/ck$1.plain" >"$WORK/pair"
	compare_of "$WORK/pair" k_ -k 5,11
	ratio_of "$WORK/pair" k_ -k 5,11
	compare_of "$WORK/pair" kr_ -k 1,7
	ratio_of "$WORK/pair" kr_ -k 1,7
	echo
	echo "  TCP_CORK, zcc -S -b 64 (10 files) with and without -k, $LINK_REPS rounds each:"
	# shellcheck disable=SC2154
	printf '    receiver us/KB: -k %.4f [%.4f, %.4f], without %.4f [%.4f, %.4f]: %s\n' \
		"$k_a_median" "$k_a_lo" "$k_a_hi" "$k_b_median" "$k_b_lo" "$k_b_hi" \
		"$(cork_words "$k_verdict" "$k_why" "cork saves receiver CPU" "cork costs receiver CPU")"
	# shellcheck disable=SC2154
	printf '    throughput kbytes/sec: -k %.0f, without %.0f: %s\n' "$kr_a_median" "$kr_b_median" \
		"$(cork_words "$kr_verdict" "$kr_why" "cork costs throughput" "cork gains throughput")"
	echo "    2001: \"made no difference for large writes; with -S -b 64 it saved receiver CPU"
	echo "    but cost a little throughput\""
	csv link "${rate}_cork" receiver_us_per_kb_cork "$k_a_median" us/KB
	csv link "${rate}_cork" receiver_us_per_kb_plain "$k_b_median" us/KB
	csv link "${rate}_cork" kbytes_per_sec_cork "$kr_a_median" KiB/s
	csv link "${rate}_cork" kbytes_per_sec_plain "$kr_b_median" KiB/s
}

# cork_words VERDICT WHY LESS-TEXT MORE-TEXT
cork_words() {
	case $1 in
	less) echo "$3 (the rounds' ratios: the interval lies below 1)" ;;
	more) echo "$4 (the rounds' ratios: the interval lies above 1)" ;;
	*) echo "no resolved difference ($2)" ;;
	esac
}

# link_where TAG-PREFIX: at this rate, where the CPU went per method (the
# sender's CPU, the receiver's, the machine) and the network counters.
link_where() {
	echo
	echo "  Where the CPU went at $rate, medians of $LINK_REPS rounds (cyclesoak -W over each run):"
	where_header
	for m in $methods; do
		where_table "$WORK/$1.$m.w" "$m"
		for _p in tx rx; do
			for _n in load $WHERE_CLASSES; do
				csv link "${rate}_$m" "${_p}_$_n" "$(where_median "$WORK/$1.$m.w" "$_p" "$_n")" %
			done
			for _n in $WHERE_KINDS; do
				csv link "${rate}_$m" "${_p}_kernel_$_n" "$(where_median "$WORK/$1.$m.w" "$_p" "k_$_n")" %
			done
		done
	done
	# shellcheck disable=SC2046
	where_softirq_note $(for m in $methods; do echo "$WORK/$1.$m.w"; done)
	# shellcheck disable=SC2086
	where_other_judge link "over a veth pair at $rate, zcs -M read" "$WORK/$1.%.w" $methods
	echo
	echo "  Network counters at $rate, medians: packets on the sender's interface ($vt: rx the"
	echo "  acknowledgements, tx the data); interrupts: the machine's devices (veth raises none)."
	printf '  %-9s %12s %16s %16s\n' method "interrupts/s" "rx packets/s" "tx packets/s"
	for m in $methods; do
		_s=$(printf '  %-9s' "$m")
		for _k in 2 3 4; do
			stat_of "$WORK/$1.$m.x" x_ -k $_k
			# shellcheck disable=SC2154
			_wd=16
			[ $_k = 2 ] && _wd=12
			_s="$_s$(printf ' %*.0f' "$_wd" "$x_median")"
			case $_k in 2) _w=interrupts_per_sec ;; 3) _w=rx_packets_per_sec ;; 4) _w=tx_packets_per_sec ;; esac
			csv link "${rate}_$m" "$_w" "$x_median" /s
		done
		echo "$_s"
	done
}

# link_discard RI: at the highest rate, every method again against zcs -M
# discard (the receiver copies nothing, so the copy kind is the sender's):
# other's share of the kernel samples, and send()'s copy in us/KB against
# sendfile's (send() copies each byte twice, pread() and send(); sendfile
# none), LINK_REPS rounds, the order rotated.
link_discard() {
	echo
	echo "  The same link against zcs -M discard, $LINK_REPS rounds:"
	for m in $methods; do
		: >"$WORK/lkd.$m"; : >"$WORK/lkd.$m.x"; : >"$WORK/lkd.$m.w"; : >"$WORK/lkd.$m.sd"
	done
	round=1
	while [ $round -le "$LINK_REPS" ]; do
		# shellcheck disable=SC2086
		for m in $(rotate $((round - 1)) $methods); do
			QUIET=$([ $round = 1 ] && [ "$m" = sendfile ] || echo 1)
			# shellcheck disable=SC2046
			LINK_ZCS="-M discard" link_run "lkd.$m" -n "$n" $(method_flags "$m") "$WORK"/big/f*
		done
		QUIET=
		round=$((round + 1))
	done
	where_header
	for m in $methods; do
		where_table "$WORK/lkd.$m.w" "$m"
	done
	# shellcheck disable=SC2086
	where_other_judge link "over a veth pair at $rate, zcs -M discard" "$WORK/lkd.%.w" $methods
	where_copy_per_kb "$WORK/lkd.send.w" "$WORK/lkd.sendfile.w" "$WORK/lkd.send.sd" \
		"$WORK/lkd.sendfile.sd" 3 "over a veth pair, zcs -M discard"
}
