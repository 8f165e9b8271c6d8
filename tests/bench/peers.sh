# make bench PART=peers: zcc against a peer doing the same work, in the
# same run, by paired rounds. Sourced by run.sh.
#
#   sendfile           iperf3 -Z (sendfile() of one buffer-sized file, sent
#                      over and over); netperf TCP_SENDFILE of the same file
#   one large file     zcc sendfile of one 256 MiB file against netperf
#                      TCP_SENDFILE walking the same file (its -W ring of
#                      128 KiB sends): both read the same pages, which come
#                      from memory, not from the CPU's cache as one 128 KiB
#                      buffer's do. Without netperf, the row is zcc's large
#                      file against zcc's 128 KiB file: the difference is the
#                      data's cache temperature (and the protocol's words),
#                      and there is no peer to hold it against
#   send, write        iperf3 -F FILE (read() from the file, then write()),
#                      the same file and the same chunk size (-b / -l):
#                      the same work by design, judged as at least level:
#                      the rate's interval from 0.95 up, own CPU's up to
#                      1.05 (judge_same), zc free to lead, on a loopback
#                      of one receive queue (see peers_ns)
#   the 63-file set    zcc sendfile against iperf3 -Z of one such file,
#                      pinned, and again unpinned (no taskset, no -B), as a
#                      user runs the two on one machine
#   mmap, splice, zerocopy, uring, uring-zc
#                      zcc's own send or sendfile in the same rounds (no
#                      packaged peer does their work); uring against mmap
#                      (send() from the same mapping) and uring-zc against
#                      zerocopy are level by design: no target, the
#                      interval printed and whether it shows them level
#
# netperf: NETPERF names it, or netperf is on PATH, with netserver beside
# it. Its TCP_SENDFILE runs by bytes (-l -BYTES), never by time: netperf
# 2.7's sendfile loop tests an uninitialized length when a sendfile()
# returns short, as the timer's signal makes the last one of a timed run,
# and then exits 1 with "len was" and whatever the stack held; a byte
# count is an int, so each run sends under 2 GiB, and zcc sends the same
# bytes (-n loops of the same file).
#
# Every row says what each side's data is (one buffer over and over, N
# distinct files, one large file) beside how its receiver reads.
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
# only moved to the receiver's shows there. And each receiver's own CPU
# per KB, the receivers pinned to a CPU of their own, so that their CPU
# time per byte is a clean figure: zcs's from its receiver's report (zcc
# --receiver-report: its connection's getrusage over the stream);
# iperf3's server's from subreaper (the one-shot server's whole CPU
# time); netserver's from perf stat's task-clock (its children, one a
# test, are reaped unaccounted: SIGCHLD ignored). The peers' figures
# include their own start, about 3 ms, under half a percent of a round's
# receive CPU; zcs's leave its fork out. In every row where the two
# receivers read the same data in the same sizes, zcs's must be at most
# 1.05x the peer's.
#
# Each row says why it came out as it did: each side's CPU time over the
# transfer's wall time, sender and receiver (zcc's own CPU; zcs's from
# /proc/PID/stat; iperf3's host_total and remote_total), and which was
# saturated (90% or more of its CPU): that side bounded the rate. And
# each end's system calls per MiB, counted by perf stat (the
# raw_syscalls:sys_enter tracepoint) in one more run of each side after
# the rounds, so that counting never touches the timed figures. And the
# segments TCP sent again, per GiB (zcc's and iperf3's -J; netperf's
# from /proc/net/snmp): on loopback
# with the ends on two CPUs, data the ACK path sends from the receiver's
# CPU can overtake data queued on the sender's, the receiver takes it for
# a loss and the sender retransmits what had arrived (nstat counts them
# as TcpExtDelayedACKLost and TCPSACKReorder too): a side that met more of
# it paid for it in CPU.
#
# Every round runs both sides back to back (which goes first alternates),
# the round's ratio is the figure, and a verdict rests on the median
# ratio, its distribution-free interval and the rounds that agree in sign
# (zcstat -r, lib/base/stats.c). The senders run on CPU 0, the receivers
# on CPU 1, but in the unpinned row.
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
	# shellcheck disable=SC2086
	$NSX ss -Htln "sport = :$1" 2>/dev/null | grep -q .
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

# One queue, for the rows that are level by design. Loopback hands each
# segment to the receive queue of the CPU that sent it: the data the
# sender's calls send, on the sender's CPU, and the data an
# acknowledgement lets go, on the receiver's (zcc(1) NOTES). Two queues
# reorder, and each connection falls into a way of running by chance and
# keeps it, so a round's ratio says more about two connections' luck than
# about two programs: the paired ratios spread far wider than the
# 0.95-1.05 equivalence asks. A link delivers every segment on one CPU's
# queue. So the send and write rows run in a network namespace of the
# part's own, with the machine's TCP settings, whose loopback steers every
# segment (RPS) to the receivers' CPU, 1: one queue, where the same pairs
# repeat within a few percent. The senders' CPU then does the
# sending, the receivers' all of the receiving, and the sender pays for
# waking the receivers' CPU (an interrupt between CPUs, dear on a VM):
# a slower figure than the machine's loopback, the same for both sides.
# The rows where zc should win stay on the machine's loopback, where a
# user runs the two (zcc(1) NOTES has what one queue does to them).
# Without root (or ip, or RPS in the kernel) the level rows run on the
# machine's loopback too, and the part says so. NSX: the prefix that runs
# a command in the namespace.
PEER_NS='' NSX=''

# peers_ns: the namespace of one queue, NSX set; or a line saying why the
# rows run on the machine's loopback.
peers_ns() {
	_why=
	if [ "$(id -u)" != 0 ]; then
		_why="not root"
	elif ! command -v ip >/dev/null 2>&1; then
		_why="ip (iproute2) not installed"
	elif [ ! -e /sys/class/net/lo/queues/rx-0/rps_cpus ]; then
		_why="this kernel has no RPS (/sys/class/net/lo/queues/rx-0/rps_cpus)"
	fi
	if [ -z "$_why" ]; then
		PEER_NS=zcb-peers-$$
		on_cleanup peers_ns_down
		ip netns add "$PEER_NS" || die "cannot create a network namespace ($PEER_NS)"
		mkdir -p "$WORK/tcp.sysctl"
		for _f in /proc/sys/net/ipv4/tcp_*; do
			cat "$_f" >"$WORK/tcp.sysctl/${_f##*/}" 2>/dev/null || rm -f "$WORK/tcp.sysctl/${_f##*/}"
		done
		# In the namespace: lo up, with an address besides 127.0.0.1 (netperf
		# asks getaddrinfo with AI_ADDRCONFIG, which finds no IPv4 in a
		# namespace of loopback alone), each TCP setting the machine's where it
		# differs (a setting the namespace cannot take is the machine's
		# alone), the receive steered to CPU 1; the count of settings
		# copied, or the step that failed.
		# shellcheck disable=SC2016
		_got=$(ip netns exec "$PEER_NS" sh -c '
			ip link set lo up && ip addr add 192.0.2.1/32 dev lo ||
				{ echo "lo: set up failed"; exit 1; }
			n=0
			for f in "$1"/*; do
				p=/proc/sys/net/ipv4/${f##*/}
				[ "$(cat "$p" 2>/dev/null)" = "$(cat "$f")" ] && continue
				cat "$f" 2>/dev/null >"$p" && n=$((n + 1))
			done
			echo 2 >/sys/class/net/lo/queues/rx-0/rps_cpus 2>/dev/null ||
				{ echo "the namespace refused RPS"; exit 1; }
			echo "$n"' sh "$WORK/tcp.sysctl" 2>&1)
		case $_got in
		'' | *[!0-9]*) _why=${_got:-no word from the namespace set-up}; peers_ns_down ;;
		*)
			NSX="ip netns exec $PEER_NS"
			show "ip netns add $PEER_NS; lo up, rps_cpus 2 (CPU 1); net.ipv4.tcp_* as the machine's ($_got copied)"
			echo "  these rows in that namespace: its loopback's every segment received on CPU 1, the"
			echo "  receivers' (one queue, as a link has: rounds that repeat, where equivalence is judged)"
			return 0
			;;
		esac
	fi
	echo "  these rows on the machine's loopback ($_why): two receive queues, so a round may fall"
	echo "  into a way of running by chance (zcc(1) NOTES), and the intervals show it"
}

peers_ns_down() {
	[ -z "$PEER_NS" ] || ip netns del "$PEER_NS" 2>/dev/null
	PEER_NS='' NSX=''
}

# pin CPU: the command that pins a side to CPU, none in the unpinned row
# (UNPINNED set).
pin() {
	[ -n "${UNPINNED:-}" ] || echo "taskset -c $1"
}

# side_iperf ARGS...: one iperf3 transfer, client on CPU 0 against a
# one-shot server on CPU 1; sets RATE (KiB/s, sender side), CPU (the
# sender's own us/KB, from iperf3's own figure), RXKB (the receiver's own
# us/KB, from subreaper), MACH, TX and RX (each side's CPU, % of one, over
# the transfer), RTX (segments sent again, per GiB), BYTES. With CALLS
# set, both run under perf stat.
side_iperf() {
	_pfs='' _pfc=''
	if [ -n "${CALLS:-}" ]; then
		_pfs="perf stat -e raw_syscalls:sys_enter -x, -o $WORK/rx.calls --"
		_pfc="perf stat -e raw_syscalls:sys_enter -x, -o $WORK/tx.calls --"
	fi
	rm -f "$WORK/rx.rusage"
	# shellcheck disable=SC2046,SC2086
	start_bg $NSX $_pfs $(pin 1) "$ZC_TESTBIN/subreaper" -s -o "$WORK/rx.rusage" \
		iperf3 -s -1 -p "$IPERF_PORT" >"$WORK/pi.srv" 2>&1
	_spid=$!
	if ! port_listening "$IPERF_PORT"; then
		stop_bg $_spid
		die "iperf3 -s -p $IPERF_PORT did not start: $(tail -n 1 "$WORK/pi.srv")"
	fi
	_p0=$(pin 0) _p1=$(pin 1)
	[ -z "${QUIET:-}" ] && show "${NSX:+$NSX }${_p0:+$_p0 }iperf3 -c 127.0.0.1 -p $IPERF_PORT $* -J   (server: ${_p1:+$_p1 }iperf3 -s -1)"
	_m0=$(machine_busy)
	_g0=$(tcp_outsegs)
	# shellcheck disable=SC2046,SC2086
	run_fg $NSX $_pfc $(pin 0) iperf3 -c 127.0.0.1 -p "$IPERF_PORT" "$@" -J >"$WORK/pi" 2>&1
	_rc=$?
	_g1=$(tcp_outsegs)
	_m1=$(machine_busy)
	# The one-shot server ends by itself (subreaper and perf stat write
	# their figures then).
	reap_pid $_spid 50
	forget_bg $_spid
	[ $_rc -eq 0 ] || { sed 's/^/  /' "$WORK/pi" >&2; die "iperf3 failed"; }
	# shellcheck disable=SC2046
	set -- $(iperf_figures "$WORK/pi")
	need "$1" "$2" "$3"
	side_figures "$1" "$2" "$(calc "$3 * $2 * 1e4")" "$(cputime_us "$WORK/rx.rusage")" "$5"
}

# side_figures BYTES SECONDS SENDER-US RECEIVER-US RESENT: a side's
# figures from its bytes and seconds, each end's CPU time (us) and the
# segments sent again, and the counts read around it (_g0 _g1 TCP
# segments, _m0 _m1 the machine's ticks): BYTES, RATE, CPU, RXKB, TX,
# RX, RTX, SEGS, MACH.
side_figures() {
	need "$@"
	BYTES=$1
	RATE=$(calc "$1 / 1024 / $2")
	CPU=$(calc "$3 / ($1 / 1024)")
	RXKB=$(calc "$4 / ($1 / 1024)")
	TX=$(calc "$3 / 1e4 / $2")
	RX=$(calc "$4 / 1e4 / $2")
	RTX=$(calc "$5 * 1073741824 / $1")
	SEGS=$(calc "($_g1 - $_g0) * 1048576 / $1")
	MACH=$(machine_per_kb "$_m0" "$_m1" "$1")
}

# side_zcc ARGS...: one zcc run on CPU 0 to the zcs on CPU 1; RATE, CPU,
# RXKB, MACH, TX, RX, RTX, BYTES as side_iperf's. With CALLS set, zcc
# runs under perf stat and another perf stat watches zcs meanwhile.
side_zcc() {
	_pfz=
	if [ -n "${CALLS:-}" ]; then
		start_bg perf stat -e raw_syscalls:sys_enter -x, -o "$WORK/rx.calls" -p "$ZCS_PID"
		_pfr=$!
		_pfz="perf stat -e raw_syscalls:sys_enter -x, -o $WORK/tx.calls --"
	fi
	_bz="-B 0"
	[ -n "${UNPINNED:-}" ] && _bz=
	_z0=$(zcs_ticks)
	_m0=$(machine_busy)
	_g0=$(tcp_outsegs)
	# shellcheck disable=SC2086
	ZCC_PREFIX="$NSX${NSX:+ }$_pfz" run_zcc "$WORK/pz" -s 127.0.0.1 -p "$ZCS_PORT" $_bz --receiver-report "$@" ||
		die "zcc $* failed"
	_g1=$(tcp_outsegs)
	_m1=$(machine_busy)
	_z1=$(zcs_ticks)
	if [ -n "${CALLS:-}" ]; then
		kill -INT "$_pfr" 2>/dev/null	# perf stat -p writes its count on SIGINT
		reap_pid "$_pfr" 50
		forget_bg "$_pfr"
	fi
	RXKB=$(json_get "$WORK/pz" receiver own_us_per_kb | tail -n 1)
	need "$SENT_RATE" "$SENT_OWN" "$SENT_BYTES" "$SENT_SECS" "$SENT_RTX" "$RXKB"
	RATE=$SENT_RATE CPU=$SENT_OWN BYTES=$SENT_BYTES
	RTX=$(calc "$SENT_RTX * 1073741824 / $SENT_BYTES")
	SEGS=$(calc "($_g1 - $_g0) * 1048576 / $SENT_BYTES")
	MACH=$(machine_per_kb "$_m0" "$_m1" "$SENT_BYTES")
	TX=$(calc "$SENT_OWN * $SENT_BYTES / 1024 / 1e6 / $SENT_SECS * 100")
	RX=$(calc "($_z1 - $_z0) / $CLK_TCK / $SENT_SECS * 100")
}

# side_netperf FILE RING BYTES: one netperf TCP_SENDFILE run of BYTES
# (under 2 GiB, a multiple of 128 KiB) on CPU 0, 128 KiB a sendfile()
# walking RING sends of FILE (-W), to a netserver of its own on CPU 1
# reading 128 KiB a call; RATE, CPU, RXKB, MACH, TX, RX, RTX, BYTES as
# side_iperf's. netperf's own CPU from subreaper; netserver's, its test's
# child's included, from perf stat's task-clock.
side_netperf() {
	_nb=$3 _ev=task-clock _pfc=
	if [ -n "${CALLS:-}" ]; then
		_ev=task-clock,raw_syscalls:sys_enter
		_pfc="perf stat -e raw_syscalls:sys_enter -x, -o $WORK/tx.calls --"
	fi
	# shellcheck disable=SC2086
	start_bg $NSX perf stat -e "$_ev" -x, -o "$WORK/rx.calls" -- \
		taskset -c 1 "$NETSERVER" -D -p "$NETPERF_PORT" >"$WORK/ns.out" 2>&1
	_pp=$!
	if ! port_listening "$NETPERF_PORT"; then
		stop_bg $_pp
		die "netserver -p $NETPERF_PORT did not start: $(tail -n 1 "$WORK/ns.out")"
	fi
	# netserver itself, perf's child: the script's cleanup ends it by PID
	# too (perf stat, ended, would leave it running).
	_nsp=$(cat "/proc/$_pp/task/$_pp/children" 2>/dev/null)
	BG_PIDS="$BG_PIDS $_nsp"
	[ -z "${QUIET:-}" ] && show "${NSX:+$NSX }taskset -c 0 $NETPERF -H 127.0.0.1 -p $NETPERF_PORT -t TCP_SENDFILE -F $1 -l -$3 -P 0 -- -m 128K -M 128K -W $2   (server: taskset -c 1 netserver -D)"
	_m0=$(machine_busy)
	_g0=$(tcp_outsegs)
	_e0=$(tcp_snmp RetransSegs)
	# shellcheck disable=SC2086
	run_fg $NSX $_pfc taskset -c 0 "$ZC_TESTBIN/subreaper" -s -o "$WORK/np.rusage" "$NETPERF" -H 127.0.0.1 \
		-p "$NETPERF_PORT" -t TCP_SENDFILE -F "$1" -l "-$3" -P 0 -- -m 128K -M 128K -W "$2" >"$WORK/np" 2>&1
	_rc=$?
	_e1=$(tcp_snmp RetransSegs)
	_g1=$(tcp_outsegs)
	_m1=$(machine_busy)
	# netserver is perf's child: once its test's child is gone, it goes
	# on SIGTERM and perf stat writes the count.
	[ -n "$_nsp" ] && within 20 no_children "$_nsp" && kill -TERM "$_nsp" 2>/dev/null
	reap_pid $_pp 50
	[ -z "$_nsp" ] || forget_bg "$_nsp"
	forget_bg $_pp
	[ $_rc -eq 0 ] || die "netperf failed: $(head -n 2 "$WORK/np" | tr '\n' ' ')"
	# -P 0: one line of figures, the fourth field the elapsed seconds.
	_l=
	while read -r _x; do [ -z "$_x" ] || _l=$_x; done <"$WORK/np"
	# shellcheck disable=SC2086
	set -- $_l
	_rxms=$(task_clock_of "$WORK/rx.calls")
	need "$_rxms"
	side_figures "$_nb" "${4:-}" "$(cputime_us "$WORK/np.rusage")" "$(calc "$_rxms * 1000")" $((_e1 - _e0))
}

# task_clock_of FILE: the milliseconds of a perf stat -x, task-clock count.
task_clock_of() {
	_k=
	while IFS=, read -r _n _u _e _; do
		[ "$_e/$_u" = task-clock/msec ] && _k=$_n
	done 2>/dev/null <"$1"
	echo "$_k"
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
# directions (retransmitted ones not counted).
tcp_outsegs() {
	tcp_snmp OutSegs
}

# tcp_snmp NAME: a Tcp counter of /proc/net/snmp so far (its Tcp lines: a
# header line of names and a line of values).
tcp_snmp() {
	_want=$1 _names=
	# shellcheck disable=SC2086
	_snmp=$($NSX cat /proc/net/snmp)
	while read -r _key _rest; do
		[ "$_key" = Tcp: ] || continue
		if [ -z "$_names" ]; then
			_names=$_rest
			continue
		fi
		# shellcheck disable=SC2086
		set -- $_rest
		for _name in $_names; do
			[ "$_name" = "$_want" ] && { echo "$1"; return 0; }
			shift
		done
	done <<EOF
$_snmp
EOF
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
# sent again per GiB into .rtx, the segments a MiB into .segs, the
# receivers' own us/KB into .rxkb. Each
# command is a side_ call. Then one more run of each side with CALLS
# set, its calls per MiB into $WORK/NAME.calls ("txA rxA txB rxB"). The
# FILEs are read into the page cache before each side (outside its
# figures): a cached file does not stay cached for minutes, even with
# memory free and no reclaim counted: a proactive pageout scheme (DAMON's
# kdamond, /sys/kernel/mm/damon/admin) evicts pages idle for a while, and a
# round that meets its file cold measures the disk, several times dearer
# per KB. Another machine may have no such scheme.
paired() {
	_pn=$1 _pa=$2 _pb=$3
	shift 3
	for _f in rate cpu mach tx rx rtx segs rxkb; do : >"$WORK/$_pn.$_f"; done
	_r=1
	while [ $_r -le "${ROUNDS:-$PEER_REPS}" ]; do
		QUIET=$([ $_r = 1 ] || echo 1)
		if [ $((_r % 2)) = 1 ]; then
			warm "$@"; eval "$_pa"; _ra=$RATE _ca=$CPU _xa=$MACH _ta=$TX _va=$RX _ea=$RTX _ga=$SEGS _wa=$RXKB
			warm "$@"; eval "$_pb"; _rb=$RATE _cb=$CPU _xb=$MACH _tb=$TX _vb=$RX _eb=$RTX _gb=$SEGS _wb=$RXKB
		else
			warm "$@"; eval "$_pb"; _rb=$RATE _cb=$CPU _xb=$MACH _tb=$TX _vb=$RX _eb=$RTX _gb=$SEGS _wb=$RXKB
			warm "$@"; eval "$_pa"; _ra=$RATE _ca=$CPU _xa=$MACH _ta=$TX _va=$RX _ea=$RTX _ga=$SEGS _wa=$RXKB
		fi
		echo "$_ra $_rb" >>"$WORK/$_pn.rate"
		echo "$_ca $_cb" >>"$WORK/$_pn.cpu"
		echo "$_xa $_xb" >>"$WORK/$_pn.mach"
		echo "$_ta $_tb" >>"$WORK/$_pn.tx"
		echo "$_va $_vb" >>"$WORK/$_pn.rx"
		echo "$_ea $_eb" >>"$WORK/$_pn.rtx"
		echo "$_ga $_gb" >>"$WORK/$_pn.segs"
		echo "$_wa $_wb" >>"$WORK/$_pn.rxkb"
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

# row NAME LABEL-A LABEL-B RECEIVER DATA: the table lines of a paired
# comparison (the figures; how the receivers read, RECEIVER, and what
# each side's data is, DATA; the receivers' own CPU per KB; then why:
# each side's CPU, what bounded the rate, the calls per MiB, the segments
# sent again and all segments a MiB), and its CSV rows; leaves the ratios
# in rr_ (rate), rc_ (CPU) and rw_ (the receivers' CPU).
row() {
	ratio_of "$WORK/$1.rxkb" rw_
	_wa=$(median_of "$WORK/$1.rxkb" 1)
	_wb=$(median_of "$WORK/$1.rxkb" 2)
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
	echo "      receivers: $4"
	echo "      data: $5"
	# shellcheck disable=SC2154
	printf "      receivers' own CPU per KB: a: %.3f us; b: %.3f us; a/b %.2f [%.2f,%.2f] %d/%d rounds below 1\n" \
		"$_wa" "$_wb" "$rw_median" "$rw_lo" "$rw_hi" "$rw_below" "$rw_n"
	printf '      why: a: sender %.0f%% receiver %.0f%% of a CPU (%s bound); b: sender %.0f%% receiver %.0f%% (%s bound)\n' \
		"$_ta" "$_va" "$_ba" "$_tb" "$_vb" "$_bb"
	printf '      calls per MiB: a: sender %s receiver %s; b: sender %s receiver %s\n' \
		"${6:--}" "${7:--}" "${8:--}" "${9:--}"
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
	csv peers "$1" sender_calls_a "${6:--}" per_MiB
	csv peers "$1" receiver_calls_a "${7:--}" per_MiB
	csv peers "$1" sender_calls_b "${8:--}" per_MiB
	csv peers "$1" receiver_calls_b "${9:--}" per_MiB
	csv peers "$1" receiver_us_per_kb_a "$_wa" us/KB
	csv peers "$1" receiver_us_per_kb_b "$_wb" us/KB
	csv peers "$1" receiver_cpu_ratio "$rw_median" a/b
	csv peers "$1" receiver_cpu_ratio_lo "$rw_lo" a/b
	csv peers "$1" receiver_cpu_ratio_hi "$rw_hi" a/b
}

# judge_rate NAME WHAT MIN: the verdict "throughput ratio at least MIN".
# Each verdict is decided on the median as printed (two decimals): a
# reader who sees 1.05x against "at most 1.05x" sees a target met.
judge_rate() {
	if is_true "$(printf '%.2f' "$rr_median") >= $3"; then _met=1; else _met=0; fi
	# shellcheck disable=SC2154
	verdict $_met "$2 throughput $(printf '%.2f' "$rr_median")x [$(printf '%.2f-%.2f' "$rr_lo" "$rr_hi"), $(calc "$rr_conf * 100")%], $rr_above of $rr_n rounds above 1 (target at least ${3}x)"
	csv peers "$1" rate_target_met $_met bool
}

# judge_cpu NAME WHAT MAX: the verdict "own CPU per KB ratio at most MAX".
# Another part names its own figure in JUDGE_CPU ("CPU per transaction")
# and its CSV part in JUDGE_PART.
judge_cpu() {
	if is_true "$(printf '%.2f' "$rc_median") <= $3"; then _met=1; else _met=0; fi
	# shellcheck disable=SC2154
	verdict $_met "$2 ${JUDGE_CPU:-own CPU per KB} $(printf '%.2f' "$rc_median")x [$(printf '%.2f-%.2f' "$rc_lo" "$rc_hi"), $(calc "$rc_conf * 100")%], $rc_below of $rc_n rounds below 1 (target at most ${3}x)"
	csv "${JUDGE_PART:-peers}" "$1" cpu_target_met $_met bool
}

# judge_rx NAME WHAT: the verdict "the receiver's own CPU per KB ratio at
# most 1.05", in a row where both receivers read the same data in the
# same sizes.
judge_rx() {
	if is_true "$(printf '%.2f' "$rw_median") <= 1.05"; then _met=1; else _met=0; fi
	# shellcheck disable=SC2154
	verdict $_met "$2 receiver's own CPU per KB $(printf '%.2f' "$rw_median")x [$(printf '%.2f-%.2f' "$rw_lo" "$rw_hi"), $(calc "$rw_conf * 100")%], $rw_below of $rw_n rounds below 1 (target at most 1.05x)"
	csv peers "$1" receiver_target_met $_met bool
}

# judge_same NAME WHAT: the verdicts of a row whose two sides do the same
# work by design: at least level, judged on the interval of the rounds'
# ratios as printed (two decimals), for throughput (its lower end at 0.95
# or above) and for own CPU per KB (its upper end at 1.05 or below), where
# "at least 1.0x" would pass or fail by chance; and the receiver's. A
# peer that does more per call (iperf3's select() and timers around each
# write) may lose to zc: that is no miss, and the verdict says zc leads
# and why a lead can come (the receivers' own CPU, printed under the row,
# and zcs's wake-up mark, rx_mark, which moves its sender's rate on one
# queue).
judge_same() {
	for _j in rate:rr_:throughput cpu:rc_:"own CPU per KB"; do
		_k=${_j%%:*} _j=${_j#*:}
		_px=${_j%%:*} _what=${_j#*:}
		_md='' _lo='' _hi='' _cf=''
		eval "_md=\$${_px}median _lo=\$${_px}lo _hi=\$${_px}hi _cf=\$${_px}conf"
		if [ "$_lo" = nan ]; then
			_met=0 _says="no interval"
		else
			# Judged on the interval as printed (two decimals): a reader
			# who sees [0.95-1.05] sees a target met.
			_lo=$(printf '%.2f' "$_lo") _hi=$(printf '%.2f' "$_hi")
			# throughput: a/b high is zc ahead; CPU: a/b low is zc ahead
			if [ "$_k" = rate ]; then
				_ok="$_lo >= 0.95" _ahead="$_lo > 1.05"
			else
				_ok="$_hi <= 1.05" _ahead="$_hi < 0.95"
			fi
			if ! is_true "$_ok"; then
				_met=0 _says="zc behind"
			elif is_true "$_ahead"; then
				_met=1 _says="zc ahead: the peer does more per call (its receiver's CPU below)"
			else
				_met=1 _says="level within 5%"
			fi
		fi
		verdict $_met "$2 $_what $(printf '%.2f' "$_md")x [$(printf '%.2f-%.2f' "$_lo" "$_hi"), $(calc "$_cf * 100")%]: $_says (the same work: target at least level, $([ "$_k" = rate ] && echo "from 0.95" || echo "up to 1.05"))"
		csv peers "$1" "${_k}_same_met" $_met bool
	done
	judge_rx "$1" "$2"
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

# netperf_find: NETPERF and NETSERVER when netperf can run its rows here;
# else NETPERF empty and NP_WHY saying why not.
netperf_find() {
	NETPERF=${NETPERF:-$(command -v netperf 2>/dev/null)} NETSERVER='' NP_WHY=
	if [ -z "$NETPERF" ] || [ ! -x "$NETPERF" ]; then
		NP_WHY="NETPERF is not set and netperf is not on PATH (Debian does not package it)"
	elif [ ! -x "$(dirname "$NETPERF")/netserver" ]; then
		NP_WHY="no netserver beside $NETPERF"
	elif [ -z "$TASKCLOCK" ]; then
		NP_WHY="perf stat cannot count task-clock here, kernel time included (kernel.perf_event_paranoid, or no perf): netserver's CPU would go unmeasured"
	else
		NETSERVER=$(dirname "$NETPERF")/netserver
	fi
	[ -z "$NP_WHY" ] || NETPERF=
}

# netperf_rows LARGE-MIB: zcc against netperf TCP_SENDFILE, by bytes, the
# same bytes both sides: one 128 KiB file, and the one large file walked.
netperf_rows() {
	echo
	if [ -z "$NETPERF" ]; then
		echo "  netperf: skipped: $NP_WHY"
		echo "  one $1 MiB file: no peer here, so no target: its row is zcc's large file against zcc's"
		echo "  128 KiB file (below), whose difference is the data's cache temperature"
		return 0
	fi
	# Three times the rounds for the 128 KiB file: each round is a
	# second or two, and on two receive queues its ratios spread from
	# 0.8 to 1.4 (by hand, zcs's receive against netserver's, 8 rounds);
	# the medians of five came out 1.02 to 1.09 over four part runs.
	_nr=$((3 * PEER_REPS))
	echo "  against netperf TCP_SENDFILE, as many bytes both sides: one 128 KiB file ($_nr rounds); one $1 MiB file"
	header
	_n=16383
	ROUNDS=$_nr paired np "side_zcc -M sendfile -n $_n $WORK/peer/f0" \
		"side_netperf $WORK/peer/f0 1 $((_n * 131072))" "$WORK/peer/f0"
	row np "zcc sendfile" "netperf TCP_SENDFILE" "zcs -b 128K, netserver -M 128K" \
		"a: one 128 KiB file over and over; b: the same file, its one 128 KiB send over and over (-W 1)"
	judge_rate np "zcc sendfile against netperf TCP_SENDFILE, one 128 KiB file:" 1.0
	judge_cpu np "zcc sendfile against netperf TCP_SENDFILE, one 128 KiB file:" 1.05
	judge_rx np "zcc sendfile against netperf TCP_SENDFILE, one 128 KiB file:"
	_n=$((2048 / $1 - 1))
	paired large "side_zcc -M sendfile -n $_n $WORK/peer/large" \
		"side_netperf $WORK/peer/large $(($1 * 8)) $((_n * $1 * 1048576))" "$WORK/peer/large"
	row large "zcc sendfile ${1}M" "netperf TCP_SENDFILE ${1}M" "zcs -b 128K, netserver -M 128K" \
		"a: one $1 MiB file, $_n times; b: the same file walked in 128 KiB sends (-W $(($1 * 8))), as many bytes"
	judge_rate large "zcc sendfile of one $1 MiB file against netperf TCP_SENDFILE of it:" 1.0
	judge_cpu large "zcc sendfile of one $1 MiB file against netperf TCP_SENDFILE of it:" 1.03
	judge_rx large "zcc sendfile of one $1 MiB file against netperf TCP_SENDFILE of it:"
}

# perf_can EVENT: perf stat counts EVENT here, as named: not left out,
# and not cut to user time alone, which perf marks EVENT:u (as a user
# other than root where kernel.perf_event_paranoid is 2: a receiver's
# task-clock without its kernel time is not its cost).
perf_can() {
	perf stat -e "$1" -x, -o "$WORK/perf.try" -- true >/dev/null 2>&1 &&
		awk -F, -v e="$1" '$3 == e && $1 ~ /^[0-9.]+$/ { f = 1 } END { exit !f }' "$WORK/perf.try"
}

# peer_files: the 128 KiB file, the copy rows' file and the large file,
# written back to the disk before the first round: the kernel's
# writeback of a file just written runs for seconds beside the rounds
# otherwise. Sets LARGE_MIB.
peer_files() {
	make_files "$WORK/peer" 1 131072
	# The copy methods' peer reads the file to its end: 3 GiB, a second or
	# two of sending, read once beforehand into the page cache. A 1 GiB
	# file (half a second) left the start of each run in every round's
	# ratio, and the rounds' ratios spread several times wider.
	# (Under 4 GiB: a 2001 header word holds a file's size.)
	head -c $((PEER_MIB * 1024 * 1024)) /dev/zero | tr '\0' 'z' | write_whole "$WORK/peer/big" 4194304 ||
		die "cannot write $WORK/peer/big"
	[ "$(wc -c <"$WORK/peer/big")" = $((PEER_MIB * 1024 * 1024)) ] || die "cannot write $WORK/peer/big"
	LARGE_MIB=$([ "$PEER_MIB" -lt 256 ] && echo "$PEER_MIB" || echo 256)
	head -c $((LARGE_MIB * 1024 * 1024)) "$WORK/peer/big" | write_whole "$WORK/peer/large" 4194304 ||
		die "cannot write $WORK/peer/large"
	big_files
	sync "$WORK/peer/big" "$WORK/peer/large" "$WORK/peer/f0" "$WORK"/big/f* || sync
	echo "  the files written back to the disk (sync) before the first round"
	warm "$WORK/peer/big"
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
	PERF='' TASKCLOCK=''
	perf_can raw_syscalls:sys_enter && PERF=1
	perf_can task-clock && TASKCLOCK=1
	[ -n "$PERF" ] || echo "  calls per MiB: not counted: perf stat cannot count raw_syscalls:sys_enter here"
	netperf_find
	peer_files
	_lm=$LARGE_MIB
	IPERF_PORT=$(free_port)
	NETPERF_PORT=$((IPERF_PORT + 1))
	while port_taken "$NETPERF_PORT"; do NETPERF_PORT=$((NETPERF_PORT + 1)); done
	echo "  $PEER_REPS rounds each; a round runs both sides back to back, the first side alternating."
	echo "  a/b: medians of the rounds; the ratios are the rounds' own, median [interval] and"
	echo "  how many rounds agree (rate: a above b; cpu: a below b) of all. Under each row: how"
	echo "  the receivers read, what each side's data is, the receivers' own CPU per KB, each"
	echo "  side's CPU over the transfer (90% or more: it bounded the rate) and each end's"
	echo "  system calls per MiB (perf stat, one more run of each side)"

	# zcs reading 128 KiB a call, as iperf3's server does for -l 128K.
	peers_zcs 131072
	# Every zcc run of the rounds against iperf3 lasts PEER_SECS (-t, as
	# iperf3's), not a count of loops sized by a probe: on loopback the
	# same sender can move three times as much in one minute as in the
	# next, and a count sized in a fast minute made one run of this part
	# 637 s long.
	echo
	echo "  against iperf3 -Z: one 128 KiB file sent over and over"
	header
	paired sf "side_zcc -M sendfile -t $PEER_SECS $WORK/peer/f0" "side_iperf -Z -l 128K -t $PEER_SECS" "$WORK/peer/f0"
	row sf "zcc sendfile" "iperf3 -Z -l 128K" "zcs -b 128K, iperf3 -s reads 128 KiB" \
		"a: one 128 KiB file over and over; b: one 128 KiB file (iperf3 -Z's buffer) over and over"
	judge_rate sf "zcc sendfile against iperf3 -Z, one 128 KiB file, equal receivers:" 1.0
	judge_cpu sf "zcc sendfile against iperf3 -Z, one 128 KiB file, equal receivers:" 1.05
	judge_rx sf "zcc sendfile against iperf3 -Z, one 128 KiB file, equal receivers:"
	netperf_rows "$_lm"
	# What a file costs zcc beyond its bytes: the 2001 protocol's words and
	# the call that sends them, and the end of each file's sendfile() (the
	# push of its last segment). Paired rounds of zcc alone, 128 KiB files
	# against the one large file to the same zcs: a round's ratio of own
	# CPU per KB less 1, times the large file's us/KB, times 128 KiB. (The
	# difference of two rows' medians, each row minutes apart, came out
	# negative in one run: the rounds of one pair are what can show it.)
	# The large file's pages come from memory, the 128 KiB file's from the
	# CPU's cache: that difference is in the ratio too, against the words.
	echo
	echo "  zcc alone, one 128 KiB file against one $_lm MiB file: what the 2001 protocol costs a file,"
	echo "  and what the data's cache temperature costs (no target: no peer)"
	header
	paired proto "side_zcc -M sendfile -t $PEER_SECS $WORK/peer/f0" "side_zcc -M sendfile -t $PEER_SECS $WORK/peer/large" \
		"$WORK/peer/f0" "$WORK/peer/large"
	row proto "zcc sendfile 128K files" "zcc sendfile ${_lm}M" "zcs -b 128K for both" \
		"a: one 128 KiB file over and over (from the CPU's cache); b: one $_lm MiB file over and over (from memory)"
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
	echo "  (the words, the call that sends them, each file's own sendfile() and push, less what"
	echo "  the large file's memory costs; own us/KB ratio less 1, x the large file's us/KB, x 128;"
	echo "  a null system call costs $SYSCALL_US us here)"
	csv peers protocol us_per_file "$_pf" us
	csv peers protocol us_per_file_lo "$_pl" us
	csv peers protocol us_per_file_hi "$_ph" us

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
		row "$m-$base" "$m" "$base" "zcs -b 128K for both" "a and b: one 128 KiB file over and over"
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
	row sf16 "zcc sendfile" "iperf3 -Z -l 128K" "zcs 16 KiB (the 2001 default), iperf3 -s 128 KiB: not the same work" \
		"a: one 128 KiB file over and over; b: one 128 KiB file (iperf3 -Z's buffer) over and over"
	peers_zcs_done

	echo
	peers_ns
	peers_zcs 65536
	echo "  against iperf3 -F: the same $PEER_MIB MiB file read once, 64 KiB chunks: the same work by design;"
	_sr=$((5 * PEER_REPS))
	echo "  $_sr rounds each"
	header
	# Five times the rounds: with 5, the median's distribution-free
	# interval is the whole range of the ratios, and one round's outlier
	# decides a 5% band; with 9, it drops one round at each end, and two
	# rounds of nine at 0.94 or below still decided one run (1.03
	# [0.94-1.08]); with 15, it drops three at each end, and a pair 3%
	# apart came out [1.02-1.06]; with 25, seven at each end. A round is
	# 3-4 s of the two sides here.
	for m in send write; do
		ROUNDS=$_sr paired "$m" "side_zcc -M $m -b 65536 -n 1 $WORK/peer/big" "side_iperf -F $WORK/peer/big -l 64K -t 30" \
			"$WORK/peer/big"
		row "$m" "zcc $m" "iperf3 -F -l 64K" "zcs -b 64K, iperf3 -s reads 64 KiB" \
			"a and b: one $PEER_MIB MiB file read once, 64 KiB a read()"
		judge_same "$m" "zcc $m against iperf3 -F, the same $PEER_MIB MiB file, 64 KiB chunks:"
	done
	peers_zcs_done
	peers_ns_down
	IPERF_PORT=$(free_port)

	peers_zcs 358400
	echo
	echo "  the 63 files of about 350 KB against iperf3 -Z -l 350K (one file of 350 KB)"
	header
	set63 set63 "zcc sendfile 63" "iperf3 -Z -l 350K" "zcs -b 350K, iperf3 -s reads 350 KiB" "equal receivers"
	peers_zcs_done

	# As a user runs the two on one machine: no taskset, no -B; where
	# the scheduler puts each end is part of what the user gets.
	UNPINNED=1
	peers_zcs 358400
	echo
	echo "  unpinned, as a user runs them (no taskset, no -B): the 63 files against iperf3 -Z -l 350K"
	header
	set63 unpinned "zcc sendfile 63 unpinned" "iperf3 -Z -l 350K unpinned" "zcs -b 350K, iperf3 -s reads 350 KiB, neither pinned" \
		"unpinned"
	peers_zcs_done
	UNPINNED=
	rm -f "$WORK/peer/big" "$WORK/peer/large"
}

# set63 NAME LABEL-A LABEL-B RECEIVER HOW: the 63-file set against iperf3
# -Z of one 350 KB file, with zc's targets (it should win), HOW naming
# the row in its verdicts. Both receivers read 350 KiB a call, but not the
# same data: the receivers' figures have no target.
set63() {
	paired "$1" "side_zcc -M sendfile -t $PEER_SECS $WORK/big/f*" "side_iperf -Z -l 350K -t $PEER_SECS" "$WORK"/big/f*
	row "$1" "$2" "$3" "$4" "a: 63 distinct files of about 350 KB (22 MB) in turn; b: one 350 KB file (iperf3 -Z's buffer) over and over"
	judge_rate "$1" "zcc sendfile of the 63-file set against iperf3 -Z, $5:" 1.0
	judge_cpu "$1" "zcc sendfile of the 63-file set against iperf3 -Z, $5:" 1.05
	echo "  -> receivers, no target: zcs reads 63 files' pages, iperf3's server one buffer's: not the same data"
}

# peers_zcs [BYTES]: a zcs of its own on CPU 1 (unpinned with UNPINNED
# set), reading BYTES a call (none: its default, 16 KiB); the byte count
# starts again.
peers_zcs() {
	# counted by run_zcc, read by byte_check
	# shellcheck disable=SC2034
	SENT_TOTAL=0 SENT_RUNS=0
	PEER_ZCS=zcs${1:-16k}
	_bz="-B 1"
	[ -n "${UNPINNED:-}" ] && _bz=
	ZCS_PREFIX=$NSX
	# shellcheck disable=SC2086
	zcs_up "$PEER_ZCS" $_bz -t 3600 ${1:+-b "$1"}
	ZCS_PREFIX=
	show "${NSX:+$NSX }zcs -p 0 ${_bz:+$_bz }-t 3600 ${1:+-b $1 }  (port $ZCS_PORT; reads of ${1:-16384} bytes)"
}

# peers_zcs_done: every byte zcc sent to it counted, then it goes.
peers_zcs_done() {
	byte_check "$PEER_ZCS"
	stop_bg "$ZCS_PID"
}
