# make bench PART=peers: zcc against a peer doing the same work, in the
# same run, by paired rounds. Sourced by run.sh.
#
#   sendfile           iperf3 -Z (sendfile() of one buffer-sized file)
#   one large file     zcc sendfile of one 256 MiB file against iperf3 -Z:
#                      the protocol's words vanish, the instrument's own
#                      cost remains
#   send, write        iperf3 -F FILE (read() from the file, then write()),
#                      the same file and the same chunk size (-b / -l)
#   the 63-file set    zcc sendfile against iperf3 -Z of one such file
#   mmap, splice, zerocopy, uring, uring-zc
#                      zcc's own send or sendfile in the same rounds (no
#                      packaged peer does their work); uring against mmap
#                      (send() from the same mapping) and uring-zc against
#                      zerocopy are level by design: no target, the
#                      interval printed and whether it shows them level
#   netperf TCP_SENDFILE  where NETPERF names it or netperf is on PATH
#
# Every sender's call ends in a push: a 128 KiB sendfile() goes as two
# full segments and a short one on loopback's 64 KiB MTU, unless Nagle
# holds the short one for an ACK (iperf3 leaves Nagle on; zcc sendfile
# turns it off for files of 64 KiB and more); on loopback each segment
# can cost the sender the receiver's wake-up. So each row says how many
# segments a MiB went, both ways, data and ACKs: two senders of the same
# bytes whose segments differ did not do the same work on the wire. And
# under BBR without fq the kernel paces each connection with a timer,
# which can cost a sender more than its calls: the machine section says
# which congestion control ran.
#
# Both receivers do the same work: in every row against iperf3, zcs reads
# what iperf3's server reads, the client's -l a call (strace of iperf3 3.12
# -s: 131072-byte reads for -l 128K, 358400 for -l 350K), and the row says
# so. zcs's own default, 16 KiB reads as in 2001, gets a row of its own.
#
# Both figures are compared: throughput, and the sender's own CPU per KB
# (zcc's getrusage from its -J line; iperf3's cpu_utilization_percent
# host_total x seconds / KB from iperf3 -J), since on a fast link the cost
# is what matters; and both ends' CPU per KB (the machine's busy ticks over
# the run, /proc/stat), since on loopback the receiver's pace moves TCP's
# receive work between the two CPUs: a saving in the sender's column that
# only moved to the receiver's shows there.
#
# Each row says why it came out as it did: each side's CPU time over the
# transfer's wall time, sender and receiver (zcc's own CPU; zcs's from
# /proc/PID/stat; iperf3's host_total and remote_total), and which was
# saturated (90% or more of its CPU): that side bounded the rate. And
# each end's system calls per MiB, counted by perf stat (the
# raw_syscalls:sys_enter tracepoint) in one more run of each side after
# the rounds, so that counting never touches the timed figures. And the
# segments TCP sent again, per GiB (zcc's and iperf3's -J): on loopback
# with the ends on two CPUs, data the ACK path sends from the receiver's
# CPU can overtake data queued on the sender's, the receiver takes it for
# a loss and the sender retransmits what had arrived (on this project's
# VM, nstat over a 2 s run of either sender: 30-370 segments sent again,
# as many TcpExtDelayedACKLost, TCPSACKReorder counted): a side that met
# more of it paid for it in CPU.
#
# Every round runs both sides back to back (which goes first alternates),
# the round's ratio is the figure, and a verdict rests on the median
# ratio, its distribution-free interval and the rounds that agree in sign
# (zcstat -r, lib/base/stats.c). The senders run on CPU 0, the receivers
# on CPU 1.
#
# ZC_BENCH_PEER_SECS (whole seconds a side, default 2) and ZC_BENCH_PEER_MIB
# (the copy rows' file, MiB, default 3072; the large file is 256 MiB or
# this, the smaller) make a short run for the bench's own test, and
# ZC_BENCH_PEER_CALLS (names of paired rows, default every row) counts
# the calls of those rows only ("-" in the others): its one extra run of
# each side doubles a short row's time.

PEER_SECS=${ZC_BENCH_PEER_SECS:-2}
PEER_CALLS=${ZC_BENCH_PEER_CALLS:-}
PEER_MIB=${ZC_BENCH_PEER_MIB:-3072}
CLK_TCK=$(getconf CLK_TCK 2>/dev/null || echo 100)

# port_listening PORT: wait (up to 5 s) until something listens on PORT.
port_listening() {
	within 50 port_taken "$1"
}

# port_taken PORT: something listens on PORT now.
port_taken() {
	ss -Htln "sport = :$1" 2>/dev/null | grep -q .
}

# A TCP port nobody listens on, for iperf3 (which cannot be told "any port").
# Below the kernel's ephemeral range (32768 and up by default), where no
# other program's outgoing connection may hold it when iperf3 binds.
free_port() {
	_p=$((20000 + $$ % 10000))
	while port_taken "$_p"; do _p=$((_p + 1)); done
	echo $_p
}

# iperf_figures FILE: "BYTES SECONDS HOST-CPU REMOTE-CPU RETRANSMITS" (the
# sender's sum, each end's CPU %, segments sent again) of iperf3's -J, one
# object over many lines that jsoncheck -s reads as one; ? for a figure
# missing.
iperf_figures() (
	eval "$(tr -d '\n' <"$1" | "$ZC_TESTBIN/jsoncheck" -s i_ 2>/dev/null)"
	# shellcheck disable=SC2154
	echo "${i_end_sum_sent_bytes:-?} ${i_end_sum_sent_seconds:-?}" \
		"${i_end_cpu_utilization_percent_host_total:-?} ${i_end_cpu_utilization_percent_remote_total:-?}" \
		"${i_end_sum_sent_retransmits:-?}"
)

# side_iperf ARGS...: one iperf3 transfer, client on CPU 0 against a
# one-shot server on CPU 1; sets RATE (KiB/s, sender side), CPU (the
# sender's own us/KB), MACH, TX and RX (each side's CPU, % of one, over
# the transfer), RTX (segments sent again, per GiB), BYTES. With CALLS
# set, both run under perf stat.
side_iperf() {
	_pfs='' _pfc=''
	if [ -n "${CALLS:-}" ]; then
		_pfs="perf stat -e raw_syscalls:sys_enter -x, -o $WORK/rx.calls --"
		_pfc="perf stat -e raw_syscalls:sys_enter -x, -o $WORK/tx.calls --"
	fi
	# shellcheck disable=SC2086
	start_bg $_pfs taskset -c 1 iperf3 -s -1 -p "$IPERF_PORT" >"$WORK/pi.srv" 2>&1
	_spid=$!
	if ! port_listening "$IPERF_PORT"; then
		stop_bg $_spid
		die "iperf3 -s -p $IPERF_PORT did not start: $(tail -n 1 "$WORK/pi.srv")"
	fi
	[ -z "${QUIET:-}" ] && show "taskset -c 0 iperf3 -c 127.0.0.1 -p $IPERF_PORT $* -J   (server: taskset -c 1 iperf3 -s -1)"
	_m0=$(machine_busy)
	_g0=$(tcp_outsegs)
	# shellcheck disable=SC2086
	run_fg $_pfc taskset -c 0 iperf3 -c 127.0.0.1 -p "$IPERF_PORT" "$@" -J >"$WORK/pi" 2>&1
	_rc=$?
	_g1=$(tcp_outsegs)
	_m1=$(machine_busy)
	# The one-shot server ends by itself (perf stat writes its count then).
	reap_pid $_spid 50
	forget_bg $_spid
	[ $_rc -eq 0 ] || { sed 's/^/  /' "$WORK/pi" >&2; die "iperf3 failed"; }
	# shellcheck disable=SC2046
	set -- $(iperf_figures "$WORK/pi")
	_b=$1 _s=$2 _cpu=$3 RX=$4
	need "$_b" "$_s" "$_cpu" "$RX" "$5"
	RTX=$(calc "$5 * 1073741824 / $_b")
	SEGS=$(calc "($_g1 - $_g0) * 1048576 / $_b")
	RATE=$(calc "$_b / 1024 / $_s")
	CPU=$(calc "$_cpu / 100 * $_s * 1e6 / ($_b / 1024)")
	MACH=$(machine_per_kb "$_m0" "$_m1" "$_b")
	TX=$_cpu BYTES=$_b
}

# side_zcc ARGS...: one zcc run on CPU 0 to the zcs on CPU 1; RATE, CPU,
# MACH, TX, RX, RTX, BYTES as side_iperf's. With CALLS set, zcc runs
# under perf stat and another perf stat watches zcs meanwhile.
side_zcc() {
	_pfz=
	if [ -n "${CALLS:-}" ]; then
		start_bg perf stat -e raw_syscalls:sys_enter -x, -o "$WORK/rx.calls" -p "$ZCS_PID"
		_pfr=$!
		_pfz="perf stat -e raw_syscalls:sys_enter -x, -o $WORK/tx.calls --"
	fi
	_z0=$(zcs_ticks)
	_m0=$(machine_busy)
	_g0=$(tcp_outsegs)
	ZCC_PREFIX=$_pfz run_zcc "$WORK/pz" -s 127.0.0.1 -p "$ZCS_PORT" -B 0 "$@" || die "zcc $* failed"
	_g1=$(tcp_outsegs)
	_m1=$(machine_busy)
	_z1=$(zcs_ticks)
	if [ -n "${CALLS:-}" ]; then
		kill -INT "$_pfr" 2>/dev/null	# perf stat -p writes its count on SIGINT
		reap_pid "$_pfr" 50
		forget_bg "$_pfr"
	fi
	need "$SENT_RATE" "$SENT_OWN" "$SENT_BYTES" "$SENT_SECS" "$SENT_RTX"
	RATE=$SENT_RATE CPU=$SENT_OWN BYTES=$SENT_BYTES
	RTX=$(calc "$SENT_RTX * 1073741824 / $SENT_BYTES")
	SEGS=$(calc "($_g1 - $_g0) * 1048576 / $SENT_BYTES")
	MACH=$(machine_per_kb "$_m0" "$_m1" "$SENT_BYTES")
	TX=$(calc "$SENT_OWN * $SENT_BYTES / 1024 / 1e6 / $SENT_SECS * 100")
	RX=$(calc "($_z1 - $_z0) / $CLK_TCK / $SENT_SECS * 100")
}

# zcs_ticks: zcs's CPU time so far, user and system, in clock ticks, its
# connections' included: each connection is a process of its own, whose
# time /proc/PID/stat adds to zcs's once zcs has reaped it (waited for
# here, up to 2 s).
zcs_ticks() {
	within 20 no_children "$ZCS_PID"
	_st=$(cat "/proc/$ZCS_PID/stat" 2>/dev/null) || { echo 0; return 0; }
	# shellcheck disable=SC2086
	set -- ${_st##*) }
	echo $((${12} + ${13} + ${14} + ${15}))
}

# no_children PID: PID has no child process now.
no_children() {
	[ -z "$(cat "/proc/$1/task/$1/children" 2>/dev/null)" ]
}

# calls_of FILE BYTES: system calls per MiB from a perf stat -x, file ("-"
# when perf could not count).
calls_of() {
	_k=-
	while IFS=, read -r _n _ _e _; do
		case $_e/$_n in
		raw_syscalls:sys_enter/ | raw_syscalls:sys_enter/*[!0-9]*) ;;
		raw_syscalls:sys_enter/*) _k=$(printf '%.1f' "$(calc "$_n / ($2 / 1048576)")") ;;
		esac
	done 2>/dev/null <"$1"
	echo "$_k"
}

# tcp_outsegs: the segments TCP has sent so far, on this machine, both
# directions (OutSegs of /proc/net/snmp's Tcp lines, a header line of
# names and a line of values; retransmitted ones not counted).
tcp_outsegs() {
	_names=
	while read -r _key _rest; do
		[ "$_key" = Tcp: ] || continue
		if [ -z "$_names" ]; then
			_names=$_rest
			continue
		fi
		# shellcheck disable=SC2086
		set -- $_rest
		for _name in $_names; do
			[ "$_name" = OutSegs ] && { echo "$1"; return 0; }
			shift
		done
	done </proc/net/snmp
	echo 0
}

# machine_busy: the busy ticks of all CPUs so far (user, nice, system, irq,
# softirq of /proc/stat's cpu line). Not the harness's cpu_ticks, whose
# busy figure counts steal too: time the host took is not work either end
# did for the transfer.
machine_busy() {
	read -r _ _u _n _s _ _ _q _sq _ </proc/stat
	echo $((_u + _n + _s + _q + _sq))
}

# machine_per_kb TICKS0 TICKS1 BYTES: both ends' CPU per KB, us: on
# loopback the receiver's work runs partly on the sender's CPU and partly
# on its own, so this is what shows a saving that only moved.
machine_per_kb() {
	calc "($2 - $1) * 1e6 / $CLK_TCK / ($3 / 1024)"
}

# paired NAME "A-COMMAND" "B-COMMAND" [FILE...]: PEER_REPS rounds of both,
# back to back, A first in odd rounds; "rateA rateB" lines into
# $WORK/NAME.rate, "cpuA cpuB" into $WORK/NAME.cpu, both ends' into .mach,
# the senders' and receivers' CPU shares into .tx and .rx, the segments
# sent again per GiB into .rtx, the segments a MiB into .segs. Each
# command is a side_ call. Then one more run of each side with CALLS
# set, its calls per MiB into $WORK/NAME.calls ("txA rxA txB rxB"). The
# FILEs are read into the page cache before each side (outside its
# figures): a cached file does not stay cached for minutes. On this project's VM, with 20 GB
# free and no reclaim counted (pgsteal 0), a 3 GiB file read whole was 2.4
# GiB cached 30 s later (fincore), and the round that met it cold read
# 0.19-0.27x in rate and 3.6-4.6x in CPU per KB in three runs of the part
# (by hand: 610 MiB/s and 1.59 us/KB cold against 1788 and 0.53 cached).
# What evicts them there is DAMON (kdamond, /sys/kernel/mm/damon/admin):
# a pageout scheme for pages idle 12 aggregation intervals of 5 s, up to
# 128 MiB a second; another machine may have none.
paired() {
	_pn=$1 _pa=$2 _pb=$3
	shift 3
	for _f in rate cpu mach tx rx rtx segs; do : >"$WORK/$_pn.$_f"; done
	_r=1
	while [ $_r -le "$PEER_REPS" ]; do
		QUIET=$([ $_r = 1 ] || echo 1)
		if [ $((_r % 2)) = 1 ]; then
			warm "$@"; eval "$_pa"; _ra=$RATE _ca=$CPU _xa=$MACH _ta=$TX _va=$RX _ea=$RTX _ga=$SEGS
			warm "$@"; eval "$_pb"; _rb=$RATE _cb=$CPU _xb=$MACH _tb=$TX _vb=$RX _eb=$RTX _gb=$SEGS
		else
			warm "$@"; eval "$_pb"; _rb=$RATE _cb=$CPU _xb=$MACH _tb=$TX _vb=$RX _eb=$RTX _gb=$SEGS
			warm "$@"; eval "$_pa"; _ra=$RATE _ca=$CPU _xa=$MACH _ta=$TX _va=$RX _ea=$RTX _ga=$SEGS
		fi
		echo "$_ra $_rb" >>"$WORK/$_pn.rate"
		echo "$_ca $_cb" >>"$WORK/$_pn.cpu"
		echo "$_xa $_xb" >>"$WORK/$_pn.mach"
		echo "$_ta $_tb" >>"$WORK/$_pn.tx"
		echo "$_va $_vb" >>"$WORK/$_pn.rx"
		echo "$_ea $_eb" >>"$WORK/$_pn.rtx"
		echo "$_ga $_gb" >>"$WORK/$_pn.segs"
		_r=$((_r + 1))
	done
	QUIET=1
	_pk=
	case " ${PEER_CALLS:-$_pn} " in *" $_pn "*) _pk=1 ;; esac
	if [ -n "$PERF" ] && [ -n "$_pk" ]; then
		CALLS=1
		rm -f "$WORK/tx.calls" "$WORK/rx.calls"
		warm "$@"; eval "$_pa"
		_ka="$(calls_of "$WORK/tx.calls" "$BYTES") $(calls_of "$WORK/rx.calls" "$BYTES")"
		rm -f "$WORK/tx.calls" "$WORK/rx.calls"
		warm "$@"; eval "$_pb"
		_kb="$(calls_of "$WORK/tx.calls" "$BYTES") $(calls_of "$WORK/rx.calls" "$BYTES")"
		echo "$_ka $_kb" >"$WORK/$_pn.calls"
		CALLS=
	else
		echo "- - - -" >"$WORK/$_pn.calls"
	fi
	QUIET=
}

# warm [FILE...]: read the files, so that the page cache holds them.
warm() {
	[ $# = 0 ] || cat "$@" >/dev/null || die "cannot read $*"
}

# median_of FILE N: the median of column N.
median_of() {
	column "$1" "$2" | "$ZC_TESTBIN/zcstat" -s x_ | sed -n 's/^x_median=//p'
}

# bound_of TX RX: the side whose CPU was saturated (90% of one or more):
# what bounded the rate.
bound_of() {
	if is_true "$1 >= 90 && $2 >= 90"; then echo both
	elif is_true "$1 >= 90"; then echo sender
	elif is_true "$2 >= 90"; then echo receiver
	else echo neither; fi
}

# row NAME LABEL-A LABEL-B [RECEIVER]: the table lines of a paired
# comparison (the figures, then why: each side's CPU, what bounded the
# rate, the calls per MiB, the segments sent again and all segments a MiB;
# RECEIVER says how the receivers read), and its CSV rows; leaves the
# ratios in rr_ (rate) and rc_ (CPU).
row() {
	ratio_of "$WORK/$1.rate" rr_
	ratio_of "$WORK/$1.cpu" rc_
	ratio_of "$WORK/$1.mach" rm_
	_ma=$(median_of "$WORK/$1.rate" 1)
	_mb=$(median_of "$WORK/$1.rate" 2)
	_ca=$(median_of "$WORK/$1.cpu" 1)
	_cb=$(median_of "$WORK/$1.cpu" 2)
	_ta=$(median_of "$WORK/$1.tx" 1)
	_tb=$(median_of "$WORK/$1.tx" 2)
	_va=$(median_of "$WORK/$1.rx" 1)
	_vb=$(median_of "$WORK/$1.rx" 2)
	_ea=$(median_of "$WORK/$1.rtx" 1)
	_eb=$(median_of "$WORK/$1.rtx" 2)
	_ga=$(median_of "$WORK/$1.segs" 1)
	_gb=$(median_of "$WORK/$1.segs" 2)
	_ba=$(bound_of "$_ta" "$_va")
	_bb=$(bound_of "$_tb" "$_vb")
	# shellcheck disable=SC2046
	set -- "$@" $(cat "$WORK/$1.calls")
	# shellcheck disable=SC2154
	printf '  %-37s %9.0f %9.0f  %5.2f [%4.2f,%4.2f] %d/%d   %6.3f %6.3f  %5.2f [%4.2f,%4.2f] %d/%d  %5.2f %d/%d\n' \
		"$2 / $3" "$(calc "$_ma / 1024")" "$(calc "$_mb / 1024")" \
		"$rr_median" "$rr_lo" "$rr_hi" "$rr_above" "$rr_n" \
		"$_ca" "$_cb" "$rc_median" "$rc_lo" "$rc_hi" "$rc_below" "$rc_n" \
		"$rm_median" "$rm_below" "$rm_n"
	[ -n "${4:-}" ] && echo "      receivers: $4"
	printf '      why: a: sender %.0f%% receiver %.0f%% of a CPU (%s bound); b: sender %.0f%% receiver %.0f%% (%s bound)\n' \
		"$_ta" "$_va" "$_ba" "$_tb" "$_vb" "$_bb"
	printf '      calls per MiB: a: sender %s receiver %s; b: sender %s receiver %s\n' \
		"${5:--}" "${6:--}" "${7:--}" "${8:--}"
	printf '      segments sent again per GiB: a: %.0f; b: %.0f\n' "$_ea" "$_eb"
	printf '      segments a MiB, both ways (TCP OutSegs): a: %.1f; b: %.1f\n' "$_ga" "$_gb"
	csv peers "$1" rate_a "$_ma" KiB/s
	csv peers "$1" rate_b "$_mb" KiB/s
	csv peers "$1" rate_ratio "$rr_median" a/b
	csv peers "$1" rate_ratio_lo "$rr_lo" a/b
	csv peers "$1" rate_ratio_hi "$rr_hi" a/b
	csv peers "$1" own_cpu_a "$_ca" us/KB
	csv peers "$1" own_cpu_b "$_cb" us/KB
	csv peers "$1" cpu_ratio "$rc_median" a/b
	csv peers "$1" cpu_ratio_lo "$rc_lo" a/b
	csv peers "$1" cpu_ratio_hi "$rc_hi" a/b
	csv peers "$1" machine_cpu_ratio "$rm_median" a/b
	csv peers "$1" sender_cpu_a "$_ta" pct
	csv peers "$1" receiver_cpu_a "$_va" pct
	csv peers "$1" sender_cpu_b "$_tb" pct
	csv peers "$1" receiver_cpu_b "$_vb" pct
	csv peers "$1" bound_a "$_ba" side
	csv peers "$1" bound_b "$_bb" side
	csv peers "$1" retransmits_a "$_ea" per_GiB
	csv peers "$1" retransmits_b "$_eb" per_GiB
	csv peers "$1" segments_a "$_ga" per_MiB
	csv peers "$1" segments_b "$_gb" per_MiB
	csv peers "$1" sender_calls_a "${5:--}" per_MiB
	csv peers "$1" receiver_calls_a "${6:--}" per_MiB
	csv peers "$1" sender_calls_b "${7:--}" per_MiB
	csv peers "$1" receiver_calls_b "${8:--}" per_MiB
}

# judge_rate NAME WHAT MIN: the verdict "throughput ratio at least MIN".
judge_rate() {
	if is_true "$rr_median >= $3"; then _met=1; else _met=0; fi
	# shellcheck disable=SC2154
	verdict $_met "$2 throughput $(printf '%.2f' "$rr_median")x [$(printf '%.2f-%.2f' "$rr_lo" "$rr_hi"), $(calc "$rr_conf * 100")%], $rr_above of $rr_n rounds above 1 (target at least ${3}x)"
	csv peers "$1" rate_target_met $_met bool
}

# judge_cpu NAME WHAT MAX: the verdict "own CPU per KB ratio at most MAX".
judge_cpu() {
	if is_true "$rc_median <= $3"; then _met=1; else _met=0; fi
	# shellcheck disable=SC2154
	verdict $_met "$2 own CPU per KB $(printf '%.2f' "$rc_median")x [$(printf '%.2f-%.2f' "$rc_lo" "$rc_hi"), $(calc "$rc_conf * 100")%], $rc_below of $rc_n rounds below 1 (target at most ${3}x)"
	csv peers "$1" cpu_target_met $_met bool
}

# judge_level NAME WHAT: a pair level by design has no target. Five rounds
# on a VM give an interval several times wider than 5% either way (the
# part's own output shows it), so "at least 1.0x" and "within 0.95-1.05"
# alike pass or fail by chance; the line says what the
# rounds show, and whether they show the pair level within 5%.
judge_level() {
	if is_true "$rr_lo >= 0.95 && $rr_hi <= 1.05"; then
		_met=1 _says="level within 5%, shown"
	else
		_met=0 _says="the rounds cannot show it level within 5%"
	fi
	echo "  -> level by design, no target: $2 throughput $(printf '%.2f' "$rr_median")x [$(printf '%.2f-%.2f' "$rr_lo" "$rr_hi"), $(calc "$rr_conf * 100")%]: $_says"
	csv peers "$1" level_within_5pct $_met bool
}

header() {
	printf '  %-37s %9s %9s  %-22s   %-13s  %-22s  %s\n' "a / b" "a MiB/s" "b MiB/s" \
		"rate a/b [interval] >1" "own us/KB a b" "cpu a/b [interval] <1" "both ends <1"
}

netperf_row() {
	_np=${NETPERF:-$(command -v netperf 2>/dev/null)}
	if [ -z "$_np" ] || [ ! -x "$_np" ]; then
		echo "  netperf: skipped: NETPERF is not set and netperf is not on PATH (Debian does not package it)"
		return 0
	fi
	_ns=$(dirname "$_np")/netserver
	if [ ! -x "$_ns" ]; then
		echo "  netperf: skipped: no netserver beside $_np"
		return 0
	fi
	start_bg taskset -c 1 "$_ns" -D -p "$NETPERF_PORT" >/dev/null
	_nspid=$!
	port_listening "$NETPERF_PORT" || { stop_bg $_nspid; echo "  netperf: skipped: netserver did not start"; return 0; }
	# -W 1: a ring of one 128 KiB send from the file, as zcc sends it (by
	# default netperf wants a file as long as several sends and refuses this one).
	# -M 128K: netserver reads as zcs -b 128K does.
	show "taskset -c 0 $_np -H 127.0.0.1 -p $NETPERF_PORT -t TCP_SENDFILE -F FILE -l $PEER_SECS -c -- -m 128K -M 128K -W 1"
	: >"$WORK/np.rate"
	_r=1
	while [ $_r -le "$PEER_REPS" ]; do
		QUIET=1
		warm "$WORK/peer/f0"
		side_zcc -M sendfile -t "$PEER_SECS" "$WORK/peer/f0"
		run_fg taskset -c 0 "$_np" -H 127.0.0.1 -p "$NETPERF_PORT" -t TCP_SENDFILE -F "$WORK/peer/f0" \
			-l "$PEER_SECS" -P 0 -- -m 128K -M 128K -W 1 >"$WORK/np" 2>&1 || { stop_bg $_nspid; echo "  netperf: failed: $(head -n 2 "$WORK/np")"; return 0; }
		# -P 0: one line, the last field the throughput in 10^6 bits/s.
		_nr=
		while read -r _l; do [ -z "$_l" ] || _nr=${_l##*[ 	]}; done <"$WORK/np"
		need "$_nr"
		echo "$RATE $(calc "$_nr * 1e6 / 8 / 1024")" >>"$WORK/np.rate"
		_r=$((_r + 1))
	done
	QUIET=
	stop_bg $_nspid
	ratio_of "$WORK/np.rate" rn_
	# shellcheck disable=SC2154
	printf '  %-37s rate a/b %.2f [%.2f,%.2f] %d/%d rounds above 1 (throughput only)\n' \
		"sendfile / netperf" "$rn_median" "$rn_lo" "$rn_hi" "$rn_above" "$rn_n"
	csv peers netperf_sendfile rate_ratio "$rn_median" a/b
}

part_peers() {
	section "peers: zcc against a peer doing the same work, paired rounds, pinned"
	if ! command -v iperf3 >/dev/null 2>&1; then
		echo "  iperf3: skipped: not installed (Debian package iperf3)"
		return 0
	fi
	if [ "$(nproc)" -lt 2 ]; then
		echo "  skipped: pinning each end to a CPU of its own needs 2 CPUs"
		return 0
	fi
	reps_ok ZC_BENCH_PEER_SECS "$PEER_SECS" 1
	reps_ok ZC_BENCH_PEER_MIB "$PEER_MIB" 64
	[ "$PEER_MIB" -lt 4096 ] || die "ZC_BENCH_PEER_MIB must be under 4096 (a 2001 length word; got $PEER_MIB)"
	PERF=
	if perf stat -e raw_syscalls:sys_enter -x, -o "$WORK/perf.try" -- true >/dev/null 2>&1 &&
		grep -q raw_syscalls "$WORK/perf.try"; then
		PERF=1
	else
		echo "  calls per MiB: not counted: perf stat cannot count raw_syscalls:sys_enter here"
	fi
	make_files "$WORK/peer" 1 131072
	# The copy methods' peer reads the file to its end: 3 GiB, a second or
	# two of sending, read once beforehand into the page cache. A 1 GiB
	# file (half a second) left the start of each run in every round's
	# ratio: 6 paired rounds of zcc -M send against iperf3 -F on this
	# project's 2-CPU VM ranged 0.98-1.39 with it and 1.17-1.27 with 3 GiB.
	# (Under 4 GiB: a 2001 header word holds a file's size.)
	head -c $((PEER_MIB * 1024 * 1024)) /dev/zero | tr '\0' 'z' | write_whole "$WORK/peer/big" 4194304 ||
		die "cannot write $WORK/peer/big"
	[ "$(wc -c <"$WORK/peer/big")" = $((PEER_MIB * 1024 * 1024)) ] || die "cannot write $WORK/peer/big"
	_lm=$([ "$PEER_MIB" -lt 256 ] && echo "$PEER_MIB" || echo 256)
	head -c $((_lm * 1024 * 1024)) "$WORK/peer/big" | write_whole "$WORK/peer/large" 4194304 ||
		die "cannot write $WORK/peer/large"
	warm "$WORK/peer/big"
	big_files
	IPERF_PORT=$(free_port)
	NETPERF_PORT=$((IPERF_PORT + 1))
	while port_taken "$NETPERF_PORT"; do NETPERF_PORT=$((NETPERF_PORT + 1)); done
	echo "  $PEER_REPS rounds each; a round runs both sides back to back, the first side alternating."
	echo "  a/b: medians of the rounds; the ratios are the rounds' own, median [interval] and"
	echo "  how many rounds agree (rate: a above b; cpu: a below b) of all. Under each row: how"
	echo "  the receivers read, each side's CPU over the transfer (90% or more: it bounded the"
	echo "  rate) and each end's system calls per MiB (perf stat, one more run of each side)"

	# zcs reading 128 KiB a call, as iperf3's server does for -l 128K.
	peers_zcs 131072
	# Every zcc run of the rounds lasts PEER_SECS (-t, as iperf3's), not
	# a count of loops sized by a probe: on loopback the same sender can
	# move three times as much in one minute as in the next, and a count
	# sized in a fast minute made one run of this part 637 s long.
	echo
	echo "  against iperf3 -Z: one 128 KiB file sent over and over; one $_lm MiB file"
	header
	paired sf "side_zcc -M sendfile -t $PEER_SECS $WORK/peer/f0" "side_iperf -Z -l 128K -t $PEER_SECS" "$WORK/peer/f0"
	row sf "zcc sendfile" "iperf3 -Z -l 128K" "zcs -b 128K, iperf3 -s reads 128 KiB"
	judge_rate sf "zcc sendfile against iperf3 -Z, one 128 KiB file, equal receivers:" 1.0
	judge_cpu sf "zcc sendfile against iperf3 -Z, one 128 KiB file, equal receivers:" 1.05
	paired large "side_zcc -M sendfile -t $PEER_SECS $WORK/peer/large" "side_iperf -Z -l 128K -t $PEER_SECS" \
		"$WORK/peer/large"
	row large "zcc sendfile ${_lm}M" "iperf3 -Z -l 128K" "zcs -b 128K, iperf3 -s reads 128 KiB"
	judge_rate large "zcc sendfile of one $_lm MiB file against iperf3 -Z:" 1.0
	judge_cpu large "zcc sendfile of one $_lm MiB file against iperf3 -Z:" 1.03
	# What a file costs zcc beyond its bytes: the 2001 protocol's words and
	# the call that sends them, and the end of each file's sendfile() (the
	# push of its last segment). Paired rounds of zcc alone, 128 KiB files
	# against the one large file to the same zcs: a round's ratio of own
	# CPU per KB less 1, times the large file's us/KB, times 128 KiB. (The
	# difference of two rows' medians, each row minutes apart, came out
	# negative in one run: the rounds of one pair are what can show it.)
	echo
	echo "  what the 2001 protocol costs a file: zcc alone, 128 KiB files against the one $_lm MiB file"
	header
	paired proto "side_zcc -M sendfile -t $PEER_SECS $WORK/peer/f0" "side_zcc -M sendfile -t $PEER_SECS $WORK/peer/large" \
		"$WORK/peer/f0" "$WORK/peer/large"
	row proto "zcc sendfile 128K files" "zcc sendfile ${_lm}M" "zcs -b 128K for both"
	_lkb=$(median_of "$WORK/proto.cpu" 2)
	# shellcheck disable=SC2154
	_pf=$(calc "($rc_median - 1) * $_lkb * 128")
	_pl=$(calc "($rc_lo - 1) * $_lkb * 128")
	_ph=$(calc "($rc_hi - 1) * $_lkb * 128")
	if is_true "$_pl > 0"; then
		_says="a cost the rounds show"
	elif is_true "$_ph < 0"; then
		_says="below 0: the large file cost more a KB than the 128 KiB files, hot in cache, so the rounds show no cost"
	else
		_says="the interval holds 0: no cost this machine's rounds can show"
	fi
	echo "  the protocol's cost: $(printf '%.2f [%.2f, %.2f]' "$_pf" "$_pl" "$_ph") us a 128 KiB file: $_says"
	echo "  (the words, the call that sends them, each file's own sendfile() and push; own us/KB ratio"
	echo "  less 1, x the large file's us/KB, x 128; a null system call costs $SYSCALL_US us here)"
	csv peers protocol us_per_file "$_pf" us
	csv peers protocol us_per_file_lo "$_pl" us
	csv peers protocol us_per_file_hi "$_ph" us
	netperf_row

	echo
	echo "  zcc's own methods, one 128 KiB file, 64 KiB chunks, against its send or sendfile"
	header
	for pair in mmap:send splice:sendfile zerocopy:send uring:mmap uring-zc:zerocopy; do
		m=${pair%%:*} base=${pair#*:}
		case " $(zcc_methods) " in
		*" $m "*) ;;
		*) continue ;;
		esac
		if method_refused "$m"; then
			echo "  $m / $base: skipped: $REFUSED"
			continue
		fi
		paired "$m-$base" "side_zcc -M $m -t $PEER_SECS $WORK/peer/f0" "side_zcc -M $base -t $PEER_SECS $WORK/peer/f0" \
			"$WORK/peer/f0"
		row "$m-$base" "$m" "$base" "zcs -b 128K for both"
	done
	if [ -f "$WORK/uring-mmap.rate" ]; then
		# uring sends from a mapping of the file: send() from the same
		# mapping is zcc's mmap. Each pair makes the same tcp_sendmsg()
		# calls on the same CPU: level by design, no target (judge_level).
		ratio_of "$WORK/uring-mmap.rate" rr_
		judge_level uring-mmap "uring against send() from the same mapping (mmap), loopback:"
		ratio_of "$WORK/uring-zc-zerocopy.rate" rr_
		judge_level uring-zc-zerocopy "uring-zc against zerocopy, loopback:"
	fi
	peers_zcs_done

	# zcs as a user starts it: reads of 16 KiB, its default as in 2001.
	peers_zcs
	echo
	echo "  the 2001 default receiver: zcs reading 16 KiB a call (iperf3's server still reads 128 KiB)"
	header
	paired sf16 "side_zcc -M sendfile -t $PEER_SECS $WORK/peer/f0" "side_iperf -Z -l 128K -t $PEER_SECS" "$WORK/peer/f0"
	row sf16 "zcc sendfile" "iperf3 -Z -l 128K" "zcs 16 KiB (the 2001 default), iperf3 -s 128 KiB: not the same work"
	peers_zcs_done

	peers_zcs 65536
	echo
	echo "  against iperf3 -F: the same $PEER_MIB MiB file read once, 64 KiB chunks"
	header
	for m in send write; do
		paired "$m" "side_zcc -M $m -b 65536 -n 1 $WORK/peer/big" "side_iperf -F $WORK/peer/big -l 64K -t 30" \
			"$WORK/peer/big"
		row "$m" "zcc $m" "iperf3 -F -l 64K" "zcs -b 64K, iperf3 -s reads 64 KiB"
		judge_rate "$m" "zcc $m against iperf3 -F, the same $PEER_MIB MiB file, 64 KiB chunks:" 1.0
		judge_cpu "$m" "zcc $m against iperf3 -F, the same $PEER_MIB MiB file, 64 KiB chunks:" 1.05
	done
	peers_zcs_done

	peers_zcs 358400
	echo
	echo "  the 63 files of about 350 KB against iperf3 -Z -l 350K (one file of 350 KB)"
	header
	paired set63 "side_zcc -M sendfile -t $PEER_SECS $WORK/big/f*" "side_iperf -Z -l 350K -t $PEER_SECS" "$WORK"/big/f*
	row set63 "zcc sendfile 63" "iperf3 -Z -l 350K" "zcs -b 350K, iperf3 -s reads 350 KiB"
	judge_rate set63 "zcc sendfile of the 63-file set against iperf3 -Z, equal receivers:" 1.0
	judge_cpu set63 "zcc sendfile of the 63-file set against iperf3 -Z, equal receivers:" 1.05
	peers_zcs_done
	rm -f "$WORK/peer/big" "$WORK/peer/large"
}

# peers_zcs [BYTES]: a zcs of its own on CPU 1, reading BYTES a call (none:
# its default, 16 KiB); the byte count starts again.
peers_zcs() {
	# counted by run_zcc, read by byte_check
	# shellcheck disable=SC2034
	SENT_TOTAL=0 SENT_RUNS=0
	PEER_ZCS=zcs${1:-16k}
	zcs_up "$PEER_ZCS" -B 1 -t 3600 ${1:+-b "$1"}
	show "zcs -p 0 -B 1 -t 3600 ${1:+-b $1 }  (port $ZCS_PORT; reads of ${1:-16384} bytes)"
}

# peers_zcs_done: every byte zcc sent to it counted, then it goes.
peers_zcs_done() {
	byte_check "$PEER_ZCS"
	stop_bg "$ZCS_PID"
}
