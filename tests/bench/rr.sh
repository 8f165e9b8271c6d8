# make bench PART=rr: zcc --rr against the peers doing the same
# request/response work, in the same rounds. Sourced by run.sh.
#
#   rate, CPU, p50    zcc --rr closed loop, one flow, 1-byte and 200-byte
#                     messages each way, against netperf TCP_RR (-r SIZE,SIZE)
#                     and, at 200 bytes, sockperf ping-pong --tcp (its
#                     messages are at least 14 bytes: no 1-byte row). The
#                     clients on CPU 0, the servers on CPU 1 (zcc -B 0,
#                     zcs -B 1; netperf -T 0,1; taskset for sockperf).
#                     Targets: zc's transactions per second level with
#                     netperf's (the paired interval's lower end at least
#                     0.95: the same work, so zc may lead but not lag); the
#                     CPU per transaction by each one's -c (the machine's
#                     load x CPUs x seconds / transactions: zcc's cpu: line,
#                     netperf's local service demand, both by the kernel's
#                     idle time) at most 1.05x netperf's, and so each
#                     client's own (zcc's getrusage; netperf's process
#                     CPU time from subreaper) and so each server's own
#                     (zcs's answered: line, its getrusage over the
#                     connection; netserver -f's /proc/PID/schedstat
#                     around the run); zc's p50 within 10%
#                     of netperf's P50 (omni's P50_LATENCY, whole
#                     microseconds) and of sockperf's full round trip
#                     (--full-rtt: its percentile 50).
#   the instrument    the closed loop of 1-byte messages with its clocks and
#                     histogram against the same loop reading no clock and
#                     recording nothing: a build of zcc (-DRR_BLOCK=10, in a
#                     directory of its own) whose loop runs blocks of 10
#                     transactions clocked and bare in turn and says how
#                     long each kind took, so the two are milliseconds
#                     apart and the machine's drift (5% and more from one
#                     run to the next on a shared host) falls on both; each
#                     round one run of -n (the count the real loop made in
#                     RR_SECS), its ratio the clocked rate over the bare:
#                     at least 0.995x.
#   memory            one closed-loop run of ZC_BENCH_RR_MEM_SECS (60 s):
#                     zcc's VmRSS (/proc/PID/status) once a second; what it
#                     grew after the first second stays under 1 MiB (the
#                     histogram is all it keeps).
#
# Every round runs the sides back to back, their order turning with the
# round; the round's ratio is the figure, and the verdict rests on the
# ratios (zcstat -r through run.sh's ratio_of; judge_cpu is peers.sh's).
#
# netperf: NETPERF names a netperf (netserver beside it) or a netperf
# source tree (github.com/HewlettPackard/netperf), which this part builds
# in a directory of its own under TMPDIR (/tmp), removed after (autoconf,
# automake and a C compiler; the tree is not written to); else netperf on PATH; else the
# netperf figures are skipped, saying why. sockperf: on PATH (Debian's
# package), else skipped, saying why.
#
# A round's side is ZC_BENCH_RR_TURNS runs of RR_SECS / TURNS seconds,
# the sides in turn (zc, netperf, sockperf, zc, ...), its figures their
# means: on a shared host one run's rate differs from the next by 5% and
# more, drifting over seconds, and sides a second apart meet much the
# same drift where sides seconds apart do not.
#
# ZC_BENCH_RR_REPS (paired rounds, default 10), ZC_BENCH_RR_SECS (whole
# seconds a side, default 5), ZC_BENCH_RR_TURNS (runs a side makes of
# them, default 5, dividing RR_SECS) and ZC_BENCH_RR_MEM_SECS (the memory
# run, default 60, at least 3) make a short run to see the part work.

RR_REPS=${ZC_BENCH_RR_REPS:-10}
RR_SECS=${ZC_BENCH_RR_SECS:-5}
RR_TURNS=${ZC_BENCH_RR_TURNS:-5}
RR_MEM_SECS=${ZC_BENCH_RR_MEM_SECS:-60}
command -v judge_cpu >/dev/null 2>&1 || . "$BENCH_DIR/peers.sh"

check_rr() {
	reps_ok ZC_BENCH_RR_REPS "$RR_REPS" 1
	reps_ok ZC_BENCH_RR_SECS "$RR_SECS" 1
	reps_ok ZC_BENCH_RR_TURNS "$RR_TURNS" 1
	[ $((RR_SECS % RR_TURNS)) = 0 ] ||
		die "ZC_BENCH_RR_TURNS ($RR_TURNS) must divide ZC_BENCH_RR_SECS ($RR_SECS): netperf runs whole seconds"
	reps_ok ZC_BENCH_RR_MEM_SECS "$RR_MEM_SECS" 3
	RR_TURN_SECS=$((RR_SECS / RR_TURNS))
}

# rr_netperf: NETPERF and NETSERVER ready to run, built first from a
# source tree; else NETPERF empty and NP_WHY saying why.
rr_netperf() {
	NP_WHY=
	if [ -n "${NETPERF:-}" ] && [ -d "$NETPERF" ]; then
		rr_netperf_build "$NETPERF" || return 0
	fi
	NETPERF=${NETPERF:-$(command -v netperf 2>/dev/null)}
	if [ -z "$NETPERF" ] || [ ! -x "$NETPERF" ]; then
		NP_WHY="NETPERF is not set and netperf is not on PATH (Debian does not package it; NETPERF=SOURCE-TREE builds it)"
	elif [ ! -x "$(dirname "$NETPERF")/netserver" ]; then
		NP_WHY="no netserver beside $NETPERF"
	fi
	[ -z "$NP_WHY" ] || NETPERF=
	NETSERVER=${NETPERF:+$(dirname "$NETPERF")/netserver}
}

# rr_netperf_build TREE: netperf built from TREE in a copy under /tmp,
# removed when the bench ends; NETPERF its netperf. False with NP_WHY.
rr_netperf_build() {
	for _t in autoconf automake aclocal make cc; do
		command -v $_t >/dev/null 2>&1 || { NP_WHY="$_t is not installed: cannot build netperf from $1"; NETPERF=; return 1; }
	done
	RR_NP_DIR=$(mktemp -d "${TMPDIR:-/tmp}/zc-netperf.XXXXXX") || { NP_WHY="no directory under /tmp"; NETPERF=; return 1; }
	on_cleanup rr_netperf_gone
	show "cp -r $1/. $RR_NP_DIR; (./autogen.sh;) ./configure; make -C src"
	if ! (cp -r "$1/." "$RR_NP_DIR" && cd "$RR_NP_DIR" &&
		{ [ -x configure ] || sh autogen.sh; } && ./configure && make -C src) >"$WORK/np.build" 2>&1; then
		NP_WHY="netperf did not build from $1 (last line: $(tail -n 1 "$WORK/np.build"))"
		NETPERF=
		return 1
	fi
	NETPERF=$RR_NP_DIR/src/netperf
}

rr_netperf_gone() {
	[ -z "${RR_NP_DIR:-}" ] || rm -rf "$RR_NP_DIR"
}

# side_zc SIZE: one zcc --rr run of RR_TURN_SECS on CPU 0 to the part's zcs;
# TPS, US (us/Tran of the machine, -c), OWN (zcc's own us/Tran), P50 (us),
# SOWN (zcs's own us/Tran: its answered: line's, the connection's CPU time
# by getrusage; written before its report, which zcc -c waits for).
side_zc() {
	[ -z "${QUIET:-}" ] && show "zcc -B 0 --rr -s 127.0.0.1 -p $ZCS_PORT -b $1 -t $RR_TURN_SECS -c -J"
	run_metered "$WORK/zc.err" in_work "$ZC_BIN/zcc" -B 0 --rr -s 127.0.0.1 -p "$ZCS_PORT" \
		-b "$1" -t "$RR_TURN_SECS" -c -J >"$WORK/zc.json" || die "zcc --rr failed: $(cat "$WORK/zc.err")"
	TPS=$(json_get "$WORK/zc.json" rr transactions_per_sec)
	US=$(json_get "$WORK/zc.json" cpu us_per_tran)
	OWN=$(json_get "$WORK/zc.json" cpu own_us_per_tran)
	P50=$(json_get "$WORK/zc.json" latency p50_us)
	SOWN=$(json_get "$WORK/rr_zcs.out" answered own_us_per_tran | tail -n 1)
	need "$TPS" "$US" "$OWN" "$P50" "$SOWN"
}

# ns_cpu_ns: netserver's CPU time so far, ns (/proc/PID/schedstat's first
# figure: one process serving each test itself, -f, so all of it).
ns_cpu_ns() {
	read -r _ns_cpu _ <"/proc/$NS_PID/schedstat" || die "netserver ($NS_PID) is gone"
	echo "$_ns_cpu"
}

# side_np SIZE: one netperf TCP_RR run of RR_TURN_SECS, netperf on CPU 0 and
# netserver's test on CPU 1; TPS, US (its local service demand), OWN
# (netperf's own CPU per transaction: its process's, from subreaper, its
# control connection's few milliseconds included), P50; SOWN, netserver's
# own CPU per transaction (its control work included too).
side_np() {
	set -- -H 127.0.0.1 -p "$NP_PORT" -t TCP_RR -l "$RR_TURN_SECS" -c -T 0,1 -P 0 -- \
		-r "$1,$1" -o THROUGHPUT,LOCAL_SD,P50_LATENCY,ELAPSED_TIME
	[ -z "${QUIET:-}" ] && show "netperf $*"
	_ns0=$(ns_cpu_ns)
	"$ZC_TESTBIN/subreaper" -s -o "$WORK/np.rusage" "$NETPERF" "$@" >"$WORK/np.out" 2>&1 ||
		die "netperf failed: $(tail -n 2 "$WORK/np.out")"
	_ns1=$(ns_cpu_ns)
	# shellcheck disable=SC2046
	set -- $(tail -n 1 "$WORK/np.out" | tr ',' ' ')
	TPS=${1:-} US=${2:-} P50=${3:-} _el=${4:-}
	need "$TPS" "$US" "$P50" "$_el" "$(cputime_us "$WORK/np.rusage")"
	OWN=$(calc "$(cputime_us "$WORK/np.rusage") / ($TPS * $_el)")
	SOWN=$(calc "($_ns1 - $_ns0) / 1000 / ($TPS * $_el)")
}

# side_sp SIZE: one sockperf ping-pong of RR_TURN_SECS on CPU 0; P50, its full
# round trip's percentile 50 (us).
side_sp() {
	set -- ping-pong --tcp -i 127.0.0.1 -p "$SP_PORT" -m "$1" -t "$RR_TURN_SECS" --full-rtt
	[ -z "${QUIET:-}" ] && show "taskset -c 0 sockperf $*"
	taskset -c 0 sockperf "$@" >"$WORK/sp.out" 2>&1 || die "sockperf failed: $(tail -n 2 "$WORK/sp.out")"
	P50=$(sed -n 's/.*percentile 50\.000 = *\([0-9.]*\).*/\1/p' "$WORK/sp.out" | tail -n 1)
	need "$P50"
}

# rr_turn SIDE SIZE: one run of SIDE (zc, np, sp), its figures added to
# the round's sums (_zt _zu _zp _zo _zs, _nt _nu _np _no _ns, _sp).
rr_turn() {
	case $1 in
	zc)
		side_zc "$2"
		_zt=$(calc "$_zt + $TPS") _zu=$(calc "$_zu + $US") _zp=$(calc "$_zp + $P50")
		_zo=$(calc "$_zo + $OWN") _zs=$(calc "$_zs + $SOWN")
		;;
	np)
		[ -z "$NETPERF" ] && return 0
		side_np "$2"
		_nt=$(calc "$_nt + $TPS") _nu=$(calc "$_nu + $US") _np=$(calc "$_np + $P50")
		_no=$(calc "$_no + $OWN") _ns=$(calc "$_ns + $SOWN")
		;;
	sp) [ -z "$SP_USE" ] || { side_sp "$2"; _sp=$(calc "$_sp + $P50"); } ;;
	esac
}

# rr_rounds NAME SIZE: RR_REPS rounds of zc, netperf (when here) and
# sockperf (when SP_USE), each side RR_TURNS runs in turn with the others,
# in an order that turns each round; the means, "zc peer" lines, into
# NAME.rate, NAME.cpu (zc's and netperf's -c), NAME.npown (their own CPU
# per transaction), NAME.srvown (zcs's and netserver's), NAME.p50 (against netperf), NAME.spp50 (against
# sockperf); zc's own us/Tran and its rate into NAME.own and NAME.tps.
rr_rounds() {
	for _f in rate cpu npown srvown p50 spp50 own tps; do : >"$WORK/$1.$_f"; done
	_r=1
	while [ $_r -le "$RR_REPS" ]; do
		QUIET=$([ $_r = 1 ] || echo 1)
		case $((_r % 3)) in
		1) _order="zc np sp" ;;
		2) _order="np sp zc" ;;
		*) _order="sp zc np" ;;
		esac
		_zt=0 _zu=0 _zp=0 _zo=0 _zs=0 _nt=0 _nu=0 _np=0 _no=0 _ns=0 _sp=0 _t=1
		while [ $_t -le "$RR_TURNS" ]; do
			for _s in $_order; do rr_turn $_s "$2"; done
			QUIET=1 _t=$((_t + 1))
		done
		for _v in _zt _zu _zp _zo _zs _nt _nu _np _no _ns _sp; do
			eval "$_v=\$(calc \"\$$_v / $RR_TURNS\")"
		done
		echo "$_zo" >>"$WORK/$1.own"
		echo "$_zt" >>"$WORK/$1.tps"
		if [ -n "$NETPERF" ]; then
			echo "$_zt $_nt" >>"$WORK/$1.rate"
			echo "$_zu $_nu" >>"$WORK/$1.cpu"
			echo "$_zo $_no" >>"$WORK/$1.npown"
			echo "$_zs $_ns" >>"$WORK/$1.srvown"
			echo "$_zp $_np" >>"$WORK/$1.p50"
		fi
		[ -z "$SP_USE" ] || echo "$_zp $_sp" >>"$WORK/$1.spp50"
		_r=$((_r + 1))
	done
	QUIET=
}

# spread FILE N [DECIMALS]: column N's "median [min-max]", to DECIMALS
# places (default 1).
spread() {
	column "$1" "$2" >"$WORK/spread.col"
	stat_of "$WORK/spread.col" s_
	_d=${3:-1}
	# shellcheck disable=SC2154
	printf "%.${_d}f [%.${_d}f-%.${_d}f]" "$s_median" "$s_min" "$s_max"
}

# ratios FILE [DECIMALS]: each round's ratio A/B, to DECIMALS places (default 2).
ratios() {
	while read -r _a _b; do printf " %.${2:-2}f" "$(calc "$_a / $_b")"; done <"$1"
}

# judge_ratio NAME WHAT PREFIX TEST TARGET: the verdict on the paired
# ratios under PREFIX (ratio_of), met when TEST (an is_true expression of
# m, lo and hi: the median and the interval as printed, three decimals)
# holds; TARGET says it in words. Another part names its CSV part in
# JUDGE_PART, as for peers.sh's judge_cpu.
judge_ratio() {
	eval "_m=\$${3}median _lo=\$${3}lo _hi=\$${3}hi _cf=\$${3}conf _n=\$${3}n _ab=\$${3}above"
	_m=$(printf '%.3f' "$_m")
	if [ "$_lo" = nan ]; then
		_met=0 _lo=nan _hi=nan
	else
		_lo=$(printf '%.3f' "$_lo") _hi=$(printf '%.3f' "$_hi")
		_t=$(echo "$4" | sed "s/\\bm\\b/$_m/g; s/\\blo\\b/$_lo/g; s/\\bhi\\b/$_hi/g")
		if is_true "$_t"; then _met=1; else _met=0; fi
	fi
	# shellcheck disable=SC2154
	verdict $_met "$2 ${_m}x [$_lo-$_hi, $(calc "$_cf * 100")%], $_ab of $_n rounds above 1 ($5)"
	csv "${JUDGE_PART:-rr}" "$1" "${3%_}_target_met" $_met bool
}

# rr_row NAME SIZE: the table lines and verdicts of one message size.
# shellcheck disable=SC2154
rr_row() {
	echo
	echo "  $2-byte messages, closed loop, one flow, $RR_REPS rounds of $RR_SECS s a side ($RR_TURNS runs each, in turn):"
	echo "    zcc itself      $(spread "$WORK/$1.own" 1 2) us/Tran"
	if [ -n "$NETPERF" ]; then
		echo "    transactions/s  zc $(spread "$WORK/$1.rate" 1 0), netperf $(spread "$WORK/$1.rate" 2 0)"
		echo "    us/Tran (-c)    zc $(spread "$WORK/$1.cpu" 1), netperf $(spread "$WORK/$1.cpu" 2)"
		echo "    own us/Tran     zc $(spread "$WORK/$1.npown" 1 2), netperf $(spread "$WORK/$1.npown" 2 2)"
		echo "    server's own    zcs $(spread "$WORK/$1.srvown" 1 2), netserver $(spread "$WORK/$1.srvown" 2 2)"
		echo "    p50 us          zc $(spread "$WORK/$1.p50" 1), netperf $(spread "$WORK/$1.p50" 2)"
		echo "    rounds zc/netperf: rate$(ratios "$WORK/$1.rate"); cpu$(ratios "$WORK/$1.cpu"); own$(ratios "$WORK/$1.npown"); server's own$(ratios "$WORK/$1.srvown"); p50$(ratios "$WORK/$1.p50")"
		ratio_of "$WORK/$1.rate" rt_
		ratio_of "$WORK/$1.cpu" rc_
		ratio_of "$WORK/$1.p50" rp_
		csv rr "$1" rate_ratio "$rt_median" x
		csv rr "$1" cpu_ratio "$rc_median" x
		csv rr "$1" p50_ratio "$rp_median" x
		judge_ratio "$1" "rr $2 B against netperf TCP_RR: transactions/s" rt_ "lo >= 0.95" \
			"target: the interval's lower end at least 0.95"
		JUDGE_CPU="CPU per transaction (-c)" JUDGE_PART=rr judge_cpu "$1" "rr $2 B against netperf TCP_RR:" 1.05
		ratio_of "$WORK/$1.npown" rc_
		csv rr "$1" own_cpu_ratio "$rc_median" x
		JUDGE_CPU="own CPU per transaction" JUDGE_PART=rr judge_cpu "$1-own" "rr $2 B against netperf TCP_RR:" 1.05
		ratio_of "$WORK/$1.srvown" rc_
		csv rr "$1" server_own_cpu_ratio "$rc_median" x
		JUDGE_CPU="the server's own CPU per transaction" JUDGE_PART=rr judge_cpu "$1-srvown" \
			"rr $2 B, zcs against netserver:" 1.05
		judge_ratio "$1" "rr $2 B against netperf TCP_RR: p50" rp_ "m >= 0.9 && m <= 1.1" \
			"target: within 10%"
	else
		echo "    transactions/s  zc $(spread "$WORK/$1.tps" 1 0)"
		echo "    netperf: skipped: $NP_WHY"
	fi
	if [ -n "$SP_USE" ]; then
		echo "    p50 us          zc $(spread "$WORK/$1.spp50" 1), sockperf full round trip $(spread "$WORK/$1.spp50" 2)"
		echo "    rounds zc/sockperf: p50$(ratios "$WORK/$1.spp50")"
		ratio_of "$WORK/$1.spp50" rs_
		csv rr "$1" sockperf_p50_ratio "$rs_median" x
		judge_ratio "$1" "rr $2 B against sockperf ping-pong: p50" rs_ "m >= 0.9 && m <= 1.1" \
			"target: within 10%"
	else
		echo "    sockperf: skipped: $SP_WHY"
	fi
}

# rr_instrument: the clocks' and histogram's cost, by zcc's RR_BLOCK=10
# build (clocked and bare blocks in turn, each kind's time on stderr), one
# run of -n (the count the real loop made in RR_SECS) a round.
rr_instrument() {
	_ud=$WORK/blocks
	echo
	echo "  the instrument's own cost: 1-byte closed loop, clocked against bare in blocks of 10 transactions"
	show "make O=$_ud BIN=$_ud/bin CPPFLAGS=-DRR_BLOCK=10 $_ud/bin/zcc"
	make -C "$ZC_TOP" -s -j2 O="$_ud" BIN="$_ud/bin" CPPFLAGS=-DRR_BLOCK=10 "$_ud/bin/zcc" \
		>"$WORK/blocks.build" 2>&1 || die "the RR_BLOCK=10 build failed: $(tail -n 3 "$WORK/blocks.build")"
	_n=$(printf '%.0f' "$(calc "$(median_of "$WORK/rr1.tps" 1) * $RR_SECS")")
	show "$_ud/bin/zcc -B 0 --rr -s 127.0.0.1 -p $ZCS_PORT -b 1 -n $_n -J"
	: >"$WORK/instr.rate"
	_r=1
	while [ $_r -le "$RR_REPS" ]; do
		"$_ud/bin/zcc" -B 0 --rr -s 127.0.0.1 -p "$ZCS_PORT" -b 1 -n "$_n" -J \
			>/dev/null 2>"$WORK/blocks.err" || die "the RR_BLOCK build's zcc failed: $(cat "$WORK/blocks.err")"
		# zcc: RR_BLOCK 10: clocked N in NS ns, bare N in NS ns
		# shellcheck disable=SC2046
		set -- $(sed -n 's/^zcc: RR_BLOCK [0-9]*: clocked \([0-9]*\) in \([0-9]*\) ns, bare \([0-9]*\) in \([0-9]*\) ns$/\1 \2 \3 \4/p' "$WORK/blocks.err")
		need "${1:-}" "${2:-}" "${3:-}" "${4:-}"
		echo "$(calc "$1 * 1e9 / $2") $(calc "$3 * 1e9 / $4")" >>"$WORK/instr.rate"
		_r=$((_r + 1))
	done
	echo "    transactions/s  clocked $(spread "$WORK/instr.rate" 1 0), bare $(spread "$WORK/instr.rate" 2 0)"
	echo "    rounds: rate$(ratios "$WORK/instr.rate" 3)"
	ratio_of "$WORK/instr.rate" ri_
	# shellcheck disable=SC2154
	csv rr instrument rate_ratio "$ri_median" x
	judge_ratio instrument "rr 1 B, clocks and histogram against none: transactions/s" ri_ \
		"m >= 0.995" "target: at least 0.995x"
}

# rss_kb PID: VmRSS of PID in kB, empty once it is gone.
rss_kb() {
	sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$1/status" 2>/dev/null
}

# rr_memory: zcc's resident memory over a closed-loop run of RR_MEM_SECS.
rr_memory() {
	echo
	echo "  memory: zcc --rr closed loop, 1-byte messages, $RR_MEM_SECS s"
	show "zcc -B 0 --rr -s 127.0.0.1 -p $ZCS_PORT -b 1 -t $RR_MEM_SECS -J   (VmRSS once a second)"
	start_bg "$ZC_BIN/zcc" -B 0 --rr -s 127.0.0.1 -p "$ZCS_PORT" -b 1 -t "$RR_MEM_SECS" -J \
		>"$WORK/mem.json" 2>"$WORK/mem.err"
	_zp=$!
	sleep 1
	_first=$(rss_kb $_zp) _max=$_first
	while _now=$(rss_kb $_zp) && [ -n "$_now" ]; do
		[ "$_now" -gt "$_max" ] && _max=$_now
		sleep 1
	done
	wait $_zp || die "zcc --rr -t $RR_MEM_SECS failed: $(cat "$WORK/mem.err")"
	forget_bg $_zp
	need "$_first" "$_max"
	_n=$(json_get "$WORK/mem.json" rr transactions)
	echo "    VmRSS after 1 s $_first kB, at most $_max kB over $_n transactions: grew $((_max - _first)) kB"
	csv rr memory rss_growth_kb $((_max - _first)) kB
	if [ $((_max - _first)) -lt 1024 ]; then _met=1; else _met=0; fi
	verdict $_met "rr memory: VmRSS grew $((_max - _first)) kB after the first second over $_n transactions (target under 1024 kB)"
}

part_rr() {
	section "request/response against netperf TCP_RR and sockperf ping-pong (paired rounds)"
	calibrate_once
	zcs_up rr_zcs -B 1 -J
	show "zcs -p 0 -B 1 -J   (port $ZCS_PORT)"
	rr_netperf
	NP_PORT=''
	if [ -n "$NETPERF" ]; then
		NP_PORT=$(free_port)
		start_bg "$NETSERVER" -D -f -4 -p "$NP_PORT" >"$WORK/ns.out" 2>&1
		NS_PID=$!
		port_listening "$NP_PORT" || die "netserver -p $NP_PORT did not start: $(tail -n 1 "$WORK/ns.out")"
		show "$NETSERVER -D -f -4 -p $NP_PORT   (each test served by itself, not a child: its CPU time in /proc; on CPU 1 by netperf -T 0,1)"
	fi
	SP_PORT='' SP_WHY=''
	if command -v sockperf >/dev/null 2>&1; then
		SP_PORT=$(free_port)
		start_bg taskset -c 1 sockperf server --tcp -i 127.0.0.1 -p "$SP_PORT" >"$WORK/sps.out" 2>&1
		_spp=$!
		port_listening "$SP_PORT" || die "sockperf server -p $SP_PORT did not start: $(tail -n 1 "$WORK/sps.out")"
		show "taskset -c 1 sockperf server --tcp -i 127.0.0.1 -p $SP_PORT"
	else
		SP_WHY="sockperf is not installed (Debian: apt install sockperf)"
	fi
	SP_USE='' _spwhy=$SP_WHY SP_WHY="its messages are at least 14 bytes"
	rr_rounds rr1 1
	rr_row rr1 1
	SP_USE=$SP_PORT SP_WHY=$_spwhy
	rr_rounds rr200 200
	rr_row rr200 200
	[ -z "$SP_PORT" ] || stop_bg "$_spp"
	[ -z "$NP_PORT" ] || stop_bg "$NS_PID"
	rr_instrument
	rr_memory
	stop_bg "$ZCS_PID"
}
