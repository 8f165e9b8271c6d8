# Where the CPU went, for the loopback and link parts (sourced by them,
# not a part of its own): the sender and the receiver pinned to CPUs of
# their own, the one meter's -W -J figures split by CPU.
#
# A meter measures the whole machine, and only one runs at a time; what
# tells the sender's work from the receiver's is the CPU it ran on. With
# zcc on one CPU and zcs on another, each CPU's classes and kernel kinds
# are that program's and the kernel work done on its behalf there, with
# one catch the figures show: the kernel runs a receive softirq on the
# CPU that raised it, and over loopback and veth that is the sender's
# (its transmit hands the packet straight to the receive path).

# where_cpus: sets WHERE_TX and WHERE_RX, the CPUs of the sender and the
# receiver (0 and 1), and WHERE_TX_B and WHERE_RX_B, the -B options that
# put them there; none of them on a machine of one CPU.
where_cpus() {
	if [ "$(nproc)" -ge 2 ]; then
		WHERE_TX=0 WHERE_RX=1 WHERE_TX_B="-B 0" WHERE_RX_B="-B 1"
	else
		WHERE_TX=0 WHERE_RX=0 WHERE_TX_B='' WHERE_RX_B=''
	fi
}

# The columns where_row writes, in order: the machine's classes (% of the
# machine) and kernel kinds (% of its samples) and samples; then for the
# sender's CPU and the receiver's: load, classes, kinds (% of that CPU, of
# its samples) and samples.
WHERE_CLASSES="user system irq softirq steal"
WHERE_KINDS="copy checksum tcp_ip device skb memory page_cache lock scheduler syscall other user"
# Columns: the machine's (classes, kinds, samples), then each CPU's (load
# too); WHERE_NCOL in all, the width of a round's line.
WHERE_MCOL=$(($(echo $WHERE_CLASSES $WHERE_KINDS | wc -w) + 1))
WHERE_NCOL=$((3 * WHERE_MCOL + 2))

# where_col PART NAME: the column of PART (m, tx, rx) NAME (load, a class,
# k_KIND for a kind, samples) in where_row's line.
where_col() {
	case $1 in
	m) _i=0 ;;
	tx) _i=$((WHERE_MCOL + 1)) ;;
	rx) _i=$((2 * WHERE_MCOL + 2)) ;;
	*) die "where_col: no part $1" ;;
	esac
	if [ "$2" = load ]; then
		[ "$1" != m ] || die "where_col: the machine's load is the meter's"
		echo $_i
		return 0
	fi
	for _n in $WHERE_CLASSES; do
		_i=$((_i + 1))
		[ "$2" = "$_n" ] && { echo $_i; return 0; }
	done
	for _n in $WHERE_KINDS; do
		_i=$((_i + 1))
		[ "$2" = "k_$_n" ] && { echo $_i; return 0; }
	done
	[ "$2" = samples ] && { echo $((_i + 1)); return 0; }
	die "where_col: no column $1 $2"
}

# where_row FILE EVENT: one line of numbers from FILE's last EVENT (-W -J
# output), for the CPUs WHERE_TX and WHERE_RX; the kinds are -1 where
# sampling was refused. Stops the bench when a figure is missing. Its
# variables live in a subshell, where where_put and where_kinds use them.
# shellcheck disable=SC2030
where_row() {
	(
		WHERE_FILE="$1 ($2 event)"
		eval "$(json_last "$1" "$2" w_)"
		# shellcheck disable=SC2154
		[ -n "${w_class_pct_user:-}" ] && [ -n "${w_kernel_pct:-}${w_kernel_pct_copy:-}" ] &&
			[ -n "${w_cpus_0_cpu:-}" ] || die "no -W figures in $WHERE_FILE"
		_line=
		for _n in $WHERE_CLASSES; do where_put "class_pct_$_n"; done
		where_kinds ""
		for _cpu in "$WHERE_TX" "$WHERE_RX"; do
			# w_cpus_I_...: the figures of the Ith CPU listed, cpu w_cpus_I_cpu.
			_i=0
			while eval "_c=\${w_cpus_${_i}_cpu:-}"; [ -n "$_c" ] && [ "$_c" != "$_cpu" ]; do
				_i=$((_i + 1))
			done
			[ -n "$_c" ] || die "the -W figures in $WHERE_FILE have no cpu$_cpu"
			where_put "cpus_${_i}_load_pct"
			for _n in $WHERE_CLASSES; do where_put "cpus_${_i}_class_pct_$_n"; done
			where_kinds "cpus_${_i}_"
		done
		echo "${_line# }"
	) || exit 1
}

# where_put NAME...: in where_row, the figure w_NAME after $_line for each
# NAME; a figure that is not a number stops the bench.
# shellcheck disable=SC2031
where_put() {
	for _k in "$@"; do
		eval "_v=\${w_$_k:-}"
		# shellcheck disable=SC2154
		case $_v in
		'' | *[!0-9.eE+-]*) die "the -W figures in $WHERE_FILE are not as expected ($_k: '$_v')" ;;
		esac
		_line="$_line $_v"
	done
}

# where_kinds PATH: in where_row, the kernel kinds and the samples of
# w_PATHkernel_pct, -1 each where sampling was refused (null).
# shellcheck disable=SC2031
where_kinds() {
	eval "_o=\${w_${1}kernel_pct:-}"
	# shellcheck disable=SC2154
	if [ "$_o" = null ]; then
		for _k in $WHERE_KINDS samples; do _line="$_line -1"; done
		return 0
	fi
	for _k in $WHERE_KINDS; do where_put "${1}kernel_pct_$_k"; done
	where_put "${1}kernel_samples"
}

# where_median FILE PART NAME: the median over the rounds (lines of FILE)
# of one column. A method's table and CSV rows ask for some ninety: the
# medians of every column are worked out at once ("COLUMN VALUE" lines
# through one zcstat -g median) into FILE.med, under a first line that is
# FILE's rounds, again when FILE no longer holds those, and read in sh.
where_median() {
	_wc=$(where_col "$2" "$3")
	_wkey=
	while IFS= read -r _wl; do _wkey="$_wkey$_wl;"; done <"$1"
	_wold=
	[ -f "$1.med" ] && IFS= read -r _wold <"$1.med"
	if [ ! -f "$1.med" ] || [ "$_wold" != "$_wkey" ]; then
		{
			echo "$_wkey"
			while read -r _wl; do
				_wi=0
				for _wv in $_wl; do
					_wi=$((_wi + 1))
					echo "$_wi $_wv"
				done
			done <"$1" | "$ZC_TESTBIN/zcstat" -g median
		} >"$1.med" || { rm -f "$1.med"; die "zcstat -g median <$1 failed"; }
	fi
	{
		IFS= read -r _wold
		while read -r _wk _wv; do
			[ "$_wk" = "$_wc" ] && { echo "$_wv"; return 0; }
		done
	} <"$1.med"
	die "no column $_wc in $1"
}

# where_per_kb W-FILE SD-FILE COLUMN: a kind's us/KB each round, its share of
# the samples (COLUMN of W-FILE's line) times the round's service demand
# (SD-FILE's line).
where_per_kb() {
	_pc=$3
	paste -d' ' "$1" "$2" | while read -r _l; do
		# shellcheck disable=SC2086
		set -- $_l
		eval "calc \"\${$_pc} / 100 * \${$((WHERE_NCOL + 1))}\""
	done
}

# where_table FILE METHOD: the method's rows of the where table: the
# sender's CPU, the receiver's, the machine; medians over the rounds.
where_table() {
	for _p in tx rx m; do
		case $_p in
		tx) _l="cpu$WHERE_TX sender" ;;
		rx) _l="cpu$WHERE_RX receiver" ;;
		m) _l="machine" ;;
		esac
		if [ "$_p" = m ]; then
			_s=$(printf '  %-9s %-14s %5s' "$([ "$_p" = tx ] && echo "$2")" "$_l" "")
		else
			_s=$(printf '  %-9s %-14s %5.1f' "$([ "$_p" = tx ] && echo "$2")" "$_l" "$(where_median "$1" "$_p" load)")
		fi
		for _n in $WHERE_CLASSES; do
			_s="$_s$(printf ' %5.1f' "$(where_median "$1" "$_p" "$_n")")"
		done
		_s="$_s |"
		if [ "$(where_median "$1" "$_p" samples)" = -1 ]; then
			_s="$_s kernel work not sampled"
		else
			for _n in $WHERE_KINDS; do
				_s="$_s$(printf ' %5.1f' "$(where_median "$1" "$_p" "k_$_n")")"
			done
			_s="$_s$(printf ' %6.0f' "$(where_median "$1" "$_p" samples)")"
		fi
		echo "$_s"
	done
}

# where_header: the where table's heading.
where_header() {
	printf '  %-9s %-14s %35s | %71s %6s\n' "" "" \
		"classes: % of the CPU (machine)" "kernel kinds: % of the CPU's (machine's) samples" ""
	printf '  %-9s %-14s %5s %5s %5s %5s %5s %5s | %5s %5s %5s %5s %5s %5s %5s %5s %5s %5s %5s %5s %6s\n' \
		method CPU load user sys irq soft steal copy csum tcpip dev skb mem pgcch lock sched sysc other user samples
}

# where_saves A B SD-A SD-B NAME-A NAME-B: what kernel work B saves over A,
# kind by kind, as points of the machine's samples and as us/KB (a kind's
# share of the samples times the round's service demand: the samples are
# the load's, soakers and idle left out); medians over the rounds of A's,
# B's and of each round's difference. Files of one line per round, A's and
# B's rounds paired by line.
where_saves() {
	echo "  kernel work $6 saves over $5 (machine, medians of $(wc -l <"$1") paired rounds):"
	printf '    %-10s %9s %9s %9s   %9s %9s %9s\n' kind "$5 %" "$6 %" "points" "$5 us/KB" "$6 us/KB" saved
	paste -d' ' "$1" "$2" "$3" "$4" >"$WORK/wsab"
	for _n in $WHERE_KINDS; do
		# Per round: A's share, B's, A's less B's; A's us/KB, B's, A's less B's.
		_c=$(where_col m "k_$_n")
		while read -r _l; do
			# shellcheck disable=SC2086
			set -- $_l
			eval "_a=\${$_c} _b=\${$((_c + WHERE_NCOL))}"
			eval "_sa=\${$((2 * WHERE_NCOL + 1))} _sb=\${$((2 * WHERE_NCOL + 2))}"
			# shellcheck disable=SC2154
			echo "$_a $_b $(calc "$_a - $_b") $(calc "$_a / 100 * $_sa") $(calc "$_b / 100 * $_sb")" \
				"$(calc "$_a / 100 * $_sa - $_b / 100 * $_sb")"
		done <"$WORK/wsab" >"$WORK/ws"
		_line=$(printf '    %-10s' "$([ "$_n" = user ] && echo "user mode" || echo "$_n")")
		for _k in 1 2 3 4 5 6; do
			stat_of "$WORK/ws" ws_ -k $_k
			# shellcheck disable=SC2154
			case $_k in
			1 | 2 | 3) _line="$_line$(printf ' %9.1f' "$ws_median")" ;;
			4) _line="$_line$(printf '   %9.3f' "$ws_median")" ;;
			*) _line="$_line$(printf ' %9.3f' "$ws_median")" ;;
			esac
			eval "WS_${_n}_$_k=\$ws_median"
		done
		echo "$_line"
	done
}

# where_softirq_note FILE...: one sentence on which CPU ran the receive
# softirqs: the sender's or the receiver's (medians over every method).
where_softirq_note() {
	[ "$WHERE_TX" != "$WHERE_RX" ] || return 0
	cat "$@" >"$WORK/wall"
	_t=$(printf '%.1f' "$(where_median "$WORK/wall" tx softirq)")
	_r=$(printf '%.1f' "$(where_median "$WORK/wall" rx softirq)")
	if is_true "$_t > $_r"; then
		echo "  softirq: $_t% of the sender's CPU against $_r% of the receiver's: the receive"
		echo "  path ran mostly on the sender's CPU (its transmit hands each packet to it),"
		echo "  so the receiver's TCP/IP work is in the sender's row."
	else
		echo "  softirq: $_t% of the sender's CPU against $_r% of the receiver's: the receive"
		echo "  path ran mostly on the receiver's CPU."
	fi
}

# where_other FILE: other's share of the machine's kernel samples (user
# mode left out), one a round, to $WORK/wo; their median into WO_MEDIAN.
where_other() {
	columns "$1" "$(where_col m k_other)" "$(where_col m k_user)" >"$WORK/wou"
	while read -r _wo _wu; do
		is_true "$_wo >= 0 && $_wu < 100" && calc "100 * $_wo / (100 - $_wu)"
	done <"$WORK/wou" >"$WORK/wo"
	[ -s "$WORK/wo" ] || { WO_MEDIAN=-1; return 0; }
	stat_of "$WORK/wo" wo_
	# shellcheck disable=SC2154
	WO_MEDIAN=$wo_median WO_MAX=$wo_max
}

# where_other_judge PART WHAT FILES METHOD...: other's share of the kernel
# samples for each method (its rounds in FILES, a path whose % is the
# method), and the verdict on the target: at most 10% for every method
# (the median of its rounds).
where_other_judge() {
	_part=$1 _what=$2 _pat=$3
	shift 3
	_worst=0 _bad= _line=
	for _m in "$@"; do
		where_other "${_pat%%%*}$_m${_pat#*%}"
		[ "$WO_MEDIAN" = -1 ] && { echo "  other: kernel work not sampled here"; return 0; }
		csv "$_part" "$_m" "kernel_other_of_kernel_$_what" "$WO_MEDIAN" %
		_line="$_line $_m $(printf '%.1f' "$WO_MEDIAN")% (max $(printf '%.1f' "$WO_MAX"))"
		is_true "$WO_MEDIAN > 10" && _bad="$_bad $_m"
	done
	echo "  other, % of the kernel samples (user mode left out), median of the rounds:$_line"
	verdict "$([ -z "$_bad" ] && echo 1 || echo 0)" \
		"-W's other at most 10% of the kernel samples, every method, $_what${_bad:+ (over:$_bad)}"
}

# where_copy_per_kb SEND-W SENDFILE-W SEND-SD SENDFILE-SD TIMES WHAT: the
# copy kind in us/KB (its share of the samples times the round's service
# demand), send() against sendfile, round by round; the verdict on send()'s
# being at least TIMES sendfile's (median of the rounds' ratios). Shares
# hide it: over loopback both ends' work is in the same samples.
where_copy_per_kb() {
	_c=$(where_col m k_copy)
	where_per_kb "$1" "$3" "$_c" >"$WORK/cpa"
	where_per_kb "$2" "$4" "$_c" >"$WORK/cpb"
	paste -d' ' "$WORK/cpa" "$WORK/cpb" >"$WORK/cpab"
	stat_of "$WORK/cpa" cpa_
	stat_of "$WORK/cpb" cpb_
	ratio_of "$WORK/cpab" cpr_
	# shellcheck disable=SC2154
	echo "  copy us/KB, $6: send() $(printf '%.4f' "$cpa_median"), sendfile $(printf '%.4f' "$cpb_median");" \
		"send()/sendfile per round $(printf '%.2f [%.2f, %.2f]' "$cpr_median" "$cpr_lo" "$cpr_hi")"
	csv where "copy_send_vs_sendfile_$(echo "$6" | tr -d , | tr " " _)" us_per_kb_ratio "$cpr_median" ratio
	verdict "$(is_true "$cpr_median >= $5" && echo 1 || echo 0)" \
		"send()'s copy kind in us/KB at least ${5}x sendfile's, $6 ($(printf '%.2f' "$cpr_median")x)"
}

# The published shares of Cai et al., "Understanding Host Network Stack
# Overheads" (SIGCOMM 2021), one flow at 42 Gbit/s: with every optimisation
# on, data copy is 48.0% of the sender's CPU and 54.3% of the receiver's;
# with none, tcp/ip is the receiver's largest, 54.8%. Only those are given
# here; every other cell is unknown.
where_paper_share() {
	case $1.$2 in
	copy.tx) echo 48.0 ;;
	copy.rx) echo 54.3 ;;
	*) echo - ;;
	esac
}

# where_paper SEND-W: the sender's (zcc -M send) and the receiver's (zcs -M
# read) kinds, medians of the rounds, beside the paper's shares, and where
# and why they differ.
where_paper() {
	echo "  Beside Cai et al. (SIGCOMM 2021), one flow, every optimisation on (their"
	echo "  receiver with none: tcp/ip 54.8%); % of each end's CPU; '-': not published:"
	printf '    %-11s %-20s %8s %8s   %8s %8s\n' kind "the paper's" "paper tx" "zc tx" "paper rx" "zc rx"
	for _n in $WHERE_KINDS; do
		case $_n in
		copy) _pn="data copy" ;; tcp_ip) _pn="tcp/ip" ;; device) _pn="netdevice" ;;
		skb) _pn="skb mgmt" ;; memory) _pn="memory alloc/free" ;; lock) _pn="lock/unlock" ;;
		scheduler) _pn="scheduling" ;; other) _pn="etc." ;; *) _pn="(not the paper's)" ;;
		esac
		_t=$(where_median "$1" tx "k_$_n") _r=$(where_median "$1" rx "k_$_n")
		printf '    %-11s %-20s %8s %8.1f   %8s %8.1f\n' "$_n" "$_pn" \
			"$(where_paper_share "$_n" tx)" "$_t" "$(where_paper_share "$_n" rx)" "$_r"
		csv where "paper_send_read" "tx_kernel_$_n" "$_t" %
		csv where "paper_send_read" "rx_kernel_$_n" "$_r" %
	done
	echo "  Why they differ: over loopback there is no NIC, so no interrupts, no DMA and"
	echo "  no driver, and the receive path runs on the sender's CPU (its transmit hands"
	echo "  each packet to it): the receiver's tcp/ip and much of its copy show in the"
	echo "  sender's column. Loopback's 64 KB super-packets (TSO/GSO, no MTU to split at)"
	echo "  make tcp/ip per byte far cheaper than 1500- or 9000-byte frames; the paper's"
	echo "  ends are separate machines, each CPU one end's alone; this is a 2-vCPU virtual"
	echo "  machine, shared, where user mode and other work sit in the same CPUs' samples."
}
