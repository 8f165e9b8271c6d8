# make bench PART=peers: zcc against a peer doing the same work, in the
# same run, by paired rounds. Sourced by run.sh.
#
#   sendfile           iperf3 -Z (sendfile() of one buffer-sized file)
#   send, write        iperf3 -F FILE (read() from the file, then write()),
#                      the same file and the same chunk size (-b / -l)
#   the 63-file set    zcc sendfile against iperf3 -Z of one such file
#   mmap, splice, zerocopy, uring, uring-zc
#                      zcc's own send and sendfile in the same rounds (no
#                      packaged peer does their work); uring against mmap
#                      (send() from the same mapping), uring-zc against
#                      zerocopy
#   netperf TCP_SENDFILE  where NETPERF names it or netperf is on PATH
#
# Both figures are compared: throughput, and the sender's own CPU per KB
# (zcc's getrusage from its -J line; iperf3's cpu_utilization_percent
# host_total x seconds / KB from iperf3 -J), since on a fast link the cost
# is what matters; and both ends' CPU per KB (the machine's busy ticks over
# the run, /proc/stat), since on loopback the receiver's pace moves TCP's
# receive work between the two CPUs: a saving in the sender's column that
# only moved to the receiver's shows there.
#
# zcs reads as a user runs it, 16 KiB at a time (its default, as in
# 2001). The two iperf3 rows are then run again with zcs reading what
# iperf3's server reads (its -l), with no verdict: what the receiver's
# read size does to the sender's figures.
#
# Every round runs both sides back to back (which goes first alternates),
# the round's ratio is the figure, and a verdict rests on the median
# ratio, its distribution-free interval and the rounds that agree in sign
# (zcstat -r, lib/base/stats.c). The senders run on CPU 0, the receivers
# on CPU 1.

PEER_SECS=2
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
free_port() {
	_p=$((20000 + $$ % 20000))
	while port_taken "$_p"; do _p=$((_p + 1)); done
	echo $_p
}

# flat_of FILE KEY: the flat object KEY of iperf3's pretty-printed -J, in
# one line ("a":1,"b":2); found with tr and sed, no JSON tool needed.
flat_of() {
	tr -d ' \t\n' <"$1" | sed -n 's/.*"'"$2"'":{\([^}]*\)}.*/\1/p'
}

# field_of FLAT NAME: NAME's number in FLAT.
field_of() {
	echo "$1" | sed -n 's/.*"'"$2"'":\([0-9.e+-]*\).*/\1/p'
}

# side_iperf ARGS...: one iperf3 transfer, client on CPU 0 against a
# one-shot server on CPU 1; sets RATE (KiB/s, sender side) and CPU (the
# sender's own us/KB).
side_iperf() {
	start_bg taskset -c 1 iperf3 -s -1 -p "$IPERF_PORT" >"$WORK/pi.srv" 2>&1
	_spid=$!
	port_listening "$IPERF_PORT" || { stop_bg $_spid; die "iperf3 -s did not start"; }
	[ -z "${QUIET:-}" ] && show "taskset -c 0 iperf3 -c 127.0.0.1 -p $IPERF_PORT $* -J   (server: taskset -c 1 iperf3 -s -1)"
	_m0=$(machine_busy)
	run_fg taskset -c 0 iperf3 -c 127.0.0.1 -p "$IPERF_PORT" "$@" -J >"$WORK/pi" 2>&1
	_rc=$?
	_m1=$(machine_busy)
	stop_bg $_spid
	[ $_rc -eq 0 ] || { sed 's/^/  /' "$WORK/pi" >&2; die "iperf3 failed"; }
	_sum=$(flat_of "$WORK/pi" sum_sent)
	_b=$(field_of "$_sum" bytes)
	_s=$(field_of "$_sum" seconds)
	_cpu=$(field_of "$(flat_of "$WORK/pi" cpu_utilization_percent)" host_total)
	need "$_b" "$_s" "$_cpu"
	RATE=$(calc "$_b / 1024 / $_s")
	CPU=$(calc "$_cpu / 100 * $_s * 1e6 / ($_b / 1024)")
	MACH=$(machine_per_kb "$_m0" "$_m1" "$_b")
}

# side_zcc ARGS...: one zcc run on CPU 0 to the zcs on CPU 1; RATE, CPU,
# MACH.
side_zcc() {
	_m0=$(machine_busy)
	run_zcc "$WORK/pz" -s 127.0.0.1 -p "$ZCS_PORT" -B 0 "$@" || die "zcc $* failed"
	_m1=$(machine_busy)
	need "$SENT_RATE" "$SENT_OWN" "$SENT_BYTES"
	RATE=$SENT_RATE CPU=$SENT_OWN
	MACH=$(machine_per_kb "$_m0" "$_m1" "$SENT_BYTES")
}

# machine_busy: the busy ticks of all CPUs so far (user, nice, system, irq,
# softirq of /proc/stat's cpu line). Not the harness's cpu_ticks, whose
# busy figure counts steal too: time the host took is not work either end
# did for the transfer.
machine_busy() {
	awk '/^cpu / { printf "%.0f\n", $2 + $3 + $4 + $7 + $8; exit }' /proc/stat
}

# machine_per_kb TICKS0 TICKS1 BYTES: both ends' CPU per KB, us: on
# loopback the receiver's work runs partly on the sender's CPU and partly
# on its own, so this is what shows a saving that only moved.
machine_per_kb() {
	calc "($2 - $1) * 1e6 / $CLK_TCK / ($3 / 1024)"
}

# paired NAME "A-COMMAND" "B-COMMAND" [FILE...]: PEER_REPS rounds of both,
# back to back, A first in odd rounds; "rateA rateB" lines into
# $WORK/NAME.rate, "cpuA cpuB" into $WORK/NAME.cpu. Each command is a side_
# call. The FILEs are read into the page cache before each side (outside
# its figures): a cached file does not stay cached for minutes. On this
# project's VM, with 20 GB free and no reclaim counted (pgsteal 0), a 3 GiB
# file read whole was 2.4 GiB cached 30 s later (fincore), and the round
# that met it cold read 0.19-0.27x in rate and 3.6-4.6x in CPU per KB in
# three runs of the part (by hand: 610 MiB/s and 1.59 us/KB cold against
# 1788 and 0.53 cached).
paired() {
	_pn=$1 _pa=$2 _pb=$3
	shift 3
	: >"$WORK/$_pn.rate"
	: >"$WORK/$_pn.cpu"
	: >"$WORK/$_pn.mach"
	_r=1
	while [ $_r -le "$PEER_REPS" ]; do
		QUIET=$([ $_r = 1 ] || echo 1)
		if [ $((_r % 2)) = 1 ]; then
			warm "$@"; eval "$_pa"; _ra=$RATE _ca=$CPU _xa=$MACH
			warm "$@"; eval "$_pb"; _rb=$RATE _cb=$CPU _xb=$MACH
		else
			warm "$@"; eval "$_pb"; _rb=$RATE _cb=$CPU _xb=$MACH
			warm "$@"; eval "$_pa"; _ra=$RATE _ca=$CPU _xa=$MACH
		fi
		echo "$_ra $_rb" >>"$WORK/$_pn.rate"
		echo "$_ca $_cb" >>"$WORK/$_pn.cpu"
		echo "$_xa $_xb" >>"$WORK/$_pn.mach"
		_r=$((_r + 1))
	done
	QUIET=
}

# warm [FILE...]: read the files, so that the page cache holds them.
warm() {
	[ $# = 0 ] || cat "$@" >/dev/null || die "cannot read $*"
}

# row NAME LABEL-A LABEL-B: the table line of a paired comparison, and its
# CSV rows; leaves the ratios in rr_ (rate) and rc_ (CPU).
row() {
	ratio_of "$WORK/$1.rate" rr_
	ratio_of "$WORK/$1.cpu" rc_
	ratio_of "$WORK/$1.mach" rm_
	_ma=$(column "$WORK/$1.rate" 1 | "$ZC_TESTBIN/zcstat" -s x_ | sed -n 's/^x_median=//p')
	_mb=$(column "$WORK/$1.rate" 2 | "$ZC_TESTBIN/zcstat" -s x_ | sed -n 's/^x_median=//p')
	_ca=$(column "$WORK/$1.cpu" 1 | "$ZC_TESTBIN/zcstat" -s x_ | sed -n 's/^x_median=//p')
	_cb=$(column "$WORK/$1.cpu" 2 | "$ZC_TESTBIN/zcstat" -s x_ | sed -n 's/^x_median=//p')
	# shellcheck disable=SC2154
	printf '  %-28s %9.0f %9.0f  %5.2f [%4.2f,%4.2f] %d/%d   %6.3f %6.3f  %5.2f [%4.2f,%4.2f] %d/%d  %5.2f %d/%d\n' \
		"$2 / $3" "$(calc "$_ma / 1024")" "$(calc "$_mb / 1024")" \
		"$rr_median" "$rr_lo" "$rr_hi" "$rr_above" "$rr_n" \
		"$_ca" "$_cb" "$rc_median" "$rc_lo" "$rc_hi" "$rc_below" "$rc_n" \
		"$rm_median" "$rm_below" "$rm_n"
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

header() {
	printf '  %-28s %9s %9s  %-22s   %-13s  %-22s  %s\n' "a / b" "a MiB/s" "b MiB/s" \
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
	show "taskset -c 0 $_np -H 127.0.0.1 -p $NETPERF_PORT -t TCP_SENDFILE -F FILE -l $PEER_SECS -c -- -m 128K -W 1"
	: >"$WORK/np.rate"
	_r=1
	while [ $_r -le "$PEER_REPS" ]; do
		QUIET=1
		warm "$WORK/peer/f0"
		side_zcc -M sendfile -n "$LOOPS" "$WORK/peer/f0"
		run_fg taskset -c 0 "$_np" -H 127.0.0.1 -p "$NETPERF_PORT" -t TCP_SENDFILE -F "$WORK/peer/f0" \
			-l $PEER_SECS -P 0 -- -m 128K -W 1 >"$WORK/np" 2>&1 || { stop_bg $_nspid; echo "  netperf: failed: $(head -n 2 "$WORK/np")"; return 0; }
		# -P 0: one line, the last field the throughput in 10^6 bits/s.
		_nr=$(awk 'NF { v = $NF } END { print v }' "$WORK/np")
		need "$_nr"
		echo "$RATE $(calc "$_nr * 1e6 / 8 / 1024")" >>"$WORK/np.rate"
		_r=$((_r + 1))
	done
	QUIET=
	stop_bg $_nspid
	ratio_of "$WORK/np.rate" rn_
	# shellcheck disable=SC2154
	printf '  %-28s rate a/b %.2f [%.2f,%.2f] %d/%d rounds above 1 (throughput only)\n' \
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
	make_files "$WORK/peer" 1 131072
	# The copy methods' peer reads the file to its end: 3 GiB, a second or
	# two of sending, read once beforehand into the page cache. A 1 GiB
	# file (half a second) left the start of each run in every round's
	# ratio: 6 paired rounds of zcc -M send against iperf3 -F on this
	# project's 2-CPU VM ranged 0.98-1.39 with it and 1.17-1.27 with 3 GiB.
	# (Under 4 GiB: a 2001 header word holds a file's size.)
	head -c $((3 * 1024 * 1024 * 1024)) /dev/zero | tr '\0' 'z' >"$WORK/peer/big"
	[ "$(wc -c <"$WORK/peer/big")" = $((3 * 1024 * 1024 * 1024)) ] || die "cannot write $WORK/peer/big"
	warm "$WORK/peer/big"
	big_files
	# zcs as a user starts it: reads of 16 KiB, its default as in 2001.
	# How much the receiver's read size moves the sender's figures on
	# loopback is shown after the verdicts, with zcs reading as iperf3's
	# server does.
	zcs_up peer -B 1 -t 3600
	show "zcs -p 0 -B 1 -t 3600   (port $ZCS_PORT; reads of 16 KiB, the default)"
	IPERF_PORT=$(free_port)
	NETPERF_PORT=$((IPERF_PORT + 1))
	while port_taken "$NETPERF_PORT"; do NETPERF_PORT=$((NETPERF_PORT + 1)); done
	# shellcheck disable=SC2034	# counted by run_zcc, read by byte_check
	SENT_TOTAL=0 SENT_RUNS=0
	echo "  $PEER_REPS rounds each; a round runs both sides back to back, the first side alternating."
	echo "  a/b: medians of the rounds; the ratios are the rounds' own, median [interval] and"
	echo "  how many rounds agree (rate: a above b; cpu: a below b) of all"

	probe_loops $PEER_SECS -s 127.0.0.1 -p "$ZCS_PORT" -B 0 -M sendfile "$WORK/peer/f0"
	L128=$LOOPS
	probe_loops $PEER_SECS -s 127.0.0.1 -p "$ZCS_PORT" -B 0 -M sendfile "$WORK"/big/f*
	L63=$LOOPS
	echo
	echo "  against iperf3: one 128 KiB file sent over and over; a 3 GiB file read once;"
	echo "  the 63 files of about 350 KB (iperf3 -Z: one file of 350 KB)"
	header
	paired sf "side_zcc -M sendfile -n $L128 $WORK/peer/f0" "side_iperf -Z -l 128K -t $PEER_SECS" "$WORK/peer/f0"
	row sf "zcc sendfile" "iperf3 -Z"
	judge_rate sf "zcc sendfile against iperf3 -Z, one 128 KiB file:" 1.0
	judge_cpu sf "zcc sendfile against iperf3 -Z, one 128 KiB file:" 1.05
	for m in send write; do
		paired "$m" "side_zcc -M $m -b 65536 -n 1 $WORK/peer/big" "side_iperf -F $WORK/peer/big -l 64K -t 30" \
			"$WORK/peer/big"
		row "$m" "zcc $m" "iperf3 -F"
		judge_rate "$m" "zcc $m against iperf3 -F, the same 3 GiB file, 64 KiB chunks:" 1.0
		judge_cpu "$m" "zcc $m against iperf3 -F, the same 3 GiB file, 64 KiB chunks:" 1.05
	done
	paired set63 "side_zcc -M sendfile -n $L63 $WORK/big/f*" "side_iperf -Z -l 350K -t $PEER_SECS" "$WORK"/big/f*
	row set63 "zcc sendfile 63" "iperf3 -Z"
	judge_rate set63 "zcc sendfile of the 63-file set against iperf3 -Z:" 1.0
	netperf_row

	echo
	echo "  zcc's own methods, one 128 KiB file, 64 KiB chunks, against its send and sendfile"
	header
	for m in mmap splice zerocopy uring uring-zc; do
		case " $(zcc_methods) " in
		*" $m "*) ;;
		*) continue ;;
		esac
		for base in send sendfile; do
			paired "$m-$base" "side_zcc -M $m -n $L128 $WORK/peer/f0" "side_zcc -M $base -n $L128 $WORK/peer/f0" \
				"$WORK/peer/f0"
			row "$m-$base" "$m" "$base"
		done
	done
	if zcc_methods | grep -q uring-zc; then
		# uring sends from a mapping of the file: send() from the same
		# mapping is zcc's mmap.
		paired uring-mmap "side_zcc -M uring -n $L128 $WORK/peer/f0" "side_zcc -M mmap -n $L128 $WORK/peer/f0" \
			"$WORK/peer/f0"
		row uring-mmap uring mmap
		paired uring-zerocopy "side_zcc -M uring-zc -n $L128 $WORK/peer/f0" "side_zcc -M zerocopy -n $L128 $WORK/peer/f0" \
			"$WORK/peer/f0"
		row uring-zerocopy uring-zc zerocopy
		ratio_of "$WORK/uring-mmap.rate" rr_
		judge_rate uring-mmap "uring against send() from the same mapping (mmap), loopback:" 1.0
		ratio_of "$WORK/uring-zerocopy.rate" rr_
		judge_rate uring-zerocopy "uring-zc against zerocopy, loopback:" 1.0
		echo "  (on loopback each pair makes the same tcp_sendmsg() calls on the same CPU; README.zc,"
		echo "  methods, gives the figures: io_uring saves a system call a file, well under the rounds'"
		echo "  spread, and uring-zc pays a second completion a send: level at best, either side of 1)"
	fi
	byte_check peer
	stop_bg "$ZCS_PID"
	peers_read_size
	rm -f "$WORK/peer/big"
}

# peers_read_size: the verdicts' two iperf3 rows again, with zcs reading
# what iperf3's server reads (its -l: 128 KiB and 64 KiB). On loopback the
# receiving process's pace decides how much of TCP's receive work (the
# softirq, the ACKs, the wake-ups) runs on the sender's CPU, so the
# receiver's read size moves the sender's own figure; the last column says
# whether the whole machine paid more or less.
peers_read_size() {
	echo
	echo "  the same, zcs reading as iperf3's server does (-b as iperf3's -l; no verdict)"
	header
	read_size_row 131072 sf128 "side_zcc -M sendfile -n $L128 $WORK/peer/f0" \
		"side_iperf -Z -l 128K -t $PEER_SECS" "sendfile, zcs -b 128K" "iperf3 -Z" "$WORK/peer/f0"
	read_size_row 65536 send64 "side_zcc -M send -b 65536 -n 1 $WORK/peer/big" \
		"side_iperf -F $WORK/peer/big -l 64K -t 30" "send, zcs -b 64K" "iperf3 -F" "$WORK/peer/big"
}

# read_size_row BYTES NAME "A-COMMAND" "B-COMMAND" LABEL-A LABEL-B FILE: a
# zcs of its own reading BYTES at a time, the paired rounds against it
# (FILE kept cached), the row and the byte check.
read_size_row() {
	# counted by run_zcc, read by byte_check
	# shellcheck disable=SC2034
	SENT_TOTAL=0 SENT_RUNS=0
	zcs_up "$2" -B 1 -b "$1" -t 3600
	show "zcs -p 0 -B 1 -b $1 -t 3600   (port $ZCS_PORT)"
	paired "$2" "$3" "$4" "$7"
	row "$2" "$5" "$6"
	byte_check "$2"
	stop_bg "$ZCS_PID"
}
