# make bench PART=latency: how long a message takes, and how much it
# wanders, as the 2011 timing talk measured it. Sourced by run.sh.
#
#   the talk's table  zcs pinned on CPU 1 (-B 1), zcc on CPU 0 (-B 0), as
#                     root between two network namespaces joined by a veth
#                     pair (the talk's two PCs on one cable; perturb.sh's
#                     pt_veth), else over loopback, saying why; messages of
#                     200 and 1300 bytes, each gap of ZC_BENCH_LATENCY_GAPS
#                     (closed: closed loop), per protocol (tcp, udp; ip and
#                     packet when this zcc has them, else one line why
#                     not). One zcc --rr -J run a cell: the round trip's
#                     p50, p99, p99.9 and max (from when each request was
#                     due), how many of the messages took over 20 us
#                     (--budget 20us), the one-way time out (both ends
#                     read one clock), and the gap the protocol could not
#                     keep, named: the sender behind (the schedule's
#                     cannot_keep), or the answers (a p50 from due over 1
#                     ms and 10 gaps: a queue grew). Charts: the
#                     p99 against the gap, a curve per protocol, a chart a
#                     size (closed loop is no gap: not on the chart). And
#                     the 200-byte tcp and udp cells at every gap through
#                     zcc's own comparison (--gap LIST --proto tcp,udp -R
#                     ZC_BENCH_LATENCY_REPS --decide p99), its table.
#   load, priority    the 200-byte run at a 100 us gap quiet, beside one
#                     busy thread on zcc's CPU (loadgen -l 100 -n 1 pinned
#                     to CPU 0), and beside it with zcc and zcs under
#                     run_rr (SCHED_RR): the over-budget count and p99.9 of
#                     each (its share of the answers judged: a starved
#                     sender sends fewer), and the machine's load over
#                     each run by cyclesoak -K (kernel idle time: soakers
#                     would take the very wake-ups measured here).
#                     Target: run_rr's over-budget share below the loaded
#                     row's, or the row says why not.
#   time across sendto  zcc --call-times --budget 20us per protocol at each
#                     gap, 200 bytes: the send and receive calls' counts
#                     over 20 us beside the talk's (raw Ethernet and raw IP
#                     about 5 and 13 sends of 26,000; TCP 8 to 402 of 20,000).
#   peers             on loopback, pinned (clients on CPU 0, servers on CPU
#                     1), ZC_BENCH_LATENCY_REPS paired rounds, the order
#                     turning each round: 200-byte closed loops of zcc
#                     --rr (tcp, udp) against netperf TCP_RR and UDP_RR
#                     (rr.sh's rr_netperf: NETPERF, a tree built under
#                     /tmp), sockperf ping-pong (its full round trip) and
#                     qperf tcp_lat/udp_lat; and zcc --rr --proto udp at a
#                     1 ms gap against irtt at the same interval (open
#                     loop), where the table ran, one-way out against
#                     irtt's send delay. Each row: what both sides did,
#                     transactions per second, own CPU per transaction (the
#                     client's CPU time by subreaper, zcc's own by -c), p50
#                     and p99 where the peer gives them. A peer not
#                     installed is skipped, saying why.
#
# ZC_BENCH_LATENCY_SECS (whole seconds a cell and a peer's side, default
# 2; the load rows twice that), ZC_BENCH_LATENCY_REPS (peer rounds,
# default 3) and ZC_BENCH_LATENCY_GAPS (default "10ms 1ms 100us 20us 10us
# closed") make a short run to see the part work.

LAT_SECS=${ZC_BENCH_LATENCY_SECS:-2}
LAT_REPS=${ZC_BENCH_LATENCY_REPS:-3}
LAT_GAPS=${ZC_BENCH_LATENCY_GAPS:-10ms 1ms 100us 20us 10us closed}
LAT_SIZES="200 1300"
command -v rr_netperf >/dev/null 2>&1 || . "$BENCH_DIR/rr.sh"
command -v pt_veth >/dev/null 2>&1 || . "$BENCH_DIR/perturb.sh"

check_latency() {
	reps_ok ZC_BENCH_LATENCY_SECS "$LAT_SECS" 1
	reps_ok ZC_BENCH_LATENCY_REPS "$LAT_REPS" 1
	[ -n "$(echo $LAT_GAPS)" ] || die "ZC_BENCH_LATENCY_GAPS is empty"
	for _g in $LAT_GAPS; do
		echo "$_g" | grep -Eq '^([0-9]+(ns|us|ms|s)|closed)$' ||
			die "ZC_BENCH_LATENCY_GAPS: '$_g' is not a gap such as 100us or 1ms, or closed"
	done
}

# gap_us GAP: the gap in microseconds (closed: empty).
gap_us() {
	case $1 in
	*ns) calc "${1%ns} / 1000" ;;
	*us) echo "${1%us}" ;;
	*ms) calc "${1%ms} * 1000" ;;
	closed) ;;
	*) calc "${1%s} * 1000000" ;;
	esac
}

# lat_place: the table's two ends, namespaces over veth as root, else
# loopback: LAT_TX and LAT_RX (the prefix of each end's commands),
# LAT_ADDR, LAT_IF_TX and LAT_IF_RX, LAT_WHERE (in words).
lat_place() {
	LAT_TX= LAT_RX= LAT_ADDR=127.0.0.1 LAT_IF_TX=lo LAT_IF_RX=lo LAT_WHERE=loopback
	if [ "$(id -u)" != 0 ]; then
		echo "  namespaces: skipped: not root (ip netns needs it): the loopback rows only"
	elif ! pt_veth; then
		echo "  namespaces: skipped: cannot make them ($(head -n 1 "$WORK/pt.ns.err")): the loopback rows only"
	else
		LAT_TX="ip netns exec $PT_NS_TX" LAT_RX="ip netns exec $PT_NS_RX" LAT_ADDR=198.18.0.2
		LAT_IF_TX=zcptt$$ LAT_IF_RX=zcptr$$
		LAT_WHERE="two namespaces over veth"
	fi
	csv latency place where "$(echo "$LAT_WHERE" | tr ' ' _)" ""
}

# lat_protos: LAT_PROTOS, tcp and udp and those of ip and packet this zcc
# takes: an unknown protocol is its usage error, a known one a connection
# attempt (which may fail: the probe asks only whether it is known).
lat_protos() {
	LAT_PROTOS="tcp udp" _no=
	for _lq in ip packet; do
		"$ZC_BIN/zcc" --rr --proto $_lq --ifname lo -s 127.0.0.1 -p 1 -n 1 -T 1 \
			>/dev/null 2>"$WORK/lat.probe" </dev/null
		if [ $? -eq 2 ] && grep -q 'unknown' "$WORK/lat.probe"; then
			_no="$_no $_lq"
		else
			LAT_PROTOS="$LAT_PROTOS $_lq"
		fi
	done
	[ -z "$_no" ] ||
		echo "  protocols:$_no skipped: this zcc does not take them ($(head -n 1 "$WORK/lat.probe"))"
}

# lat_servers: a zcs on CPU 1 at the far end for each protocol: tcp and
# udp share one, ip and packet have their own (zcs --proto); LAT_PORT_P
# and LAT_PID_P for each; a protocol whose zcs does not start is dropped
# from LAT_PROTOS, saying why.
lat_servers() {
	ZCS_PREFIX=$LAT_RX
	zcs_up lat_zcs -B 1
	LAT_PORT_tcp=$ZCS_PORT LAT_PORT_udp=$ZCS_PORT LAT_PID_tcp=$ZCS_PID LAT_PID_udp=
	show "$LAT_RX zcs -p 0 -B 1   (port $ZCS_PORT)"
	_keep="tcp udp"
	for _ls in $LAT_PROTOS; do
		case $_ls in tcp | udp) continue ;; esac
		_if=
		[ $_ls = packet ] && _if="--ifname $LAT_IF_RX"
		# shellcheck disable=SC2086
		start_bg $LAT_RX "$ZC_BIN/zcs" -p 0 -B 1 --proto $_ls $_if >"$WORK/lat_$_ls.out" 2>"$WORK/lat_$_ls.err"
		eval "LAT_PID_$_ls=\$!"
		show "$LAT_RX zcs -p 0 -B 1 --proto $_ls $_if"
		if wait_for "$WORK/lat_$_ls.out" . && ! eval "proc_ended \$LAT_PID_$_ls"; then
			eval "LAT_PORT_$_ls=\$(zcs_port \"\$WORK/lat_$_ls.out\")"
			eval "[ -n \"\$LAT_PORT_$_ls\" ] || LAT_PORT_$_ls=0"
			_keep="$_keep $_ls"
		else
			echo "  $_ls: skipped: its zcs did not start ($(head -n 1 "$WORK/lat_$_ls.err"))"
		fi
	done
	ZCS_PREFIX= LAT_PROTOS=$_keep
}

# lat_zcc OUT PROTO ZCC-ARGS...: one zcc --rr run on CPU 0 at the table's
# near end to PROTO's zcs, -J into $WORK/OUT.json; false (its first error
# line in LAT_ERR) when it fails. LAT_WRAP, when set, goes before zcc.
lat_zcc() {
	_o=$1 _zp=$2
	shift 2
	eval "_port=\$LAT_PORT_$_zp"
	set -- -B 0 --rr -s "$LAT_ADDR" -p "$_port" --proto "$_zp" "$@" -J
	[ "$_zp" = packet ] && set -- "$@" --ifname "$LAT_IF_TX"
	[ -z "${QUIET:-}" ] && show "$LAT_TX ${LAT_WRAP:+run_rr }zcc $*"
	# shellcheck disable=SC2086
	run_metered "$WORK/$_o.err" in_work $LAT_TX $LAT_WRAP "$ZC_BIN/zcc" "$@" >"$WORK/$_o.json"
	_lrc=$?
	LAT_ERR=$(head -n 1 "$WORK/$_o.err")
	return $_lrc
}

# lat_figures FILE: from a zcc --rr -J output, L50 L99 L999 LMAX (the round
# trip, us), OVER and COUNT (over the budget, of), OW50 OW99 (one-way out,
# or -), KEEP (cannot_keep: true, false, or - in closed loop), LAG (the
# schedule's worst lag, us).
lat_figures() {
	L50=$(json_get "$1" latency p50_us) L99=$(json_get "$1" latency p99_us)
	L999=$(json_get "$1" latency p99_9_us) LMAX=$(json_get "$1" latency max_us)
	OVER=$(json_get "$1" latency over) COUNT=$(json_get "$1" latency count)
	need "$L50" "$L99" "$L999" "$LMAX" "$OVER" "$COUNT"
	OW50=$(json_get "$1" one_way out_p50_us) OW99=$(json_get "$1" one_way out_p99_us)
	case $OW50 in '' | null) OW50=- OW99=- ;; esac
	KEEP=$(json_get "$1" schedule cannot_keep) LAG=$(json_get "$1" schedule lag_max_us)
	[ -n "$KEEP" ] || KEEP=- LAG=-
}

# lat_cell PROTO SIZE GAP: one cell of the talk's table: its row, its CSV
# rows and its p99 for the chart ($WORK/lat.p99.SIZE: "GAP PROTO P99").
lat_cell() {
	_gf=
	[ "$3" = closed ] || _gf="--gap $3"
	# shellcheck disable=SC2086
	if ! lat_zcc lat.cell "$1" -b "$2" $_gf --budget 20us -t "$LAT_SECS"; then
		printf '  %-6s %5s %6s  failed: %s\n' "$1" "$2" "$3" "$LAT_ERR"
		return 0
	fi
	lat_figures "$WORK/lat.cell.json"
	_note= _gu=$(gap_us "$3")
	_req=$(json_get "$WORK/lat.cell.json" rr requests)
	[ "${_req:-0}" -gt "$COUNT" ] && _note="  $((_req - COUNT)) of $_req unanswered"
	if [ "$KEEP" = true ]; then
		_note="$_note  gap not kept: the sender behind by up to $(printf '%.0f' "$LAG") us"
		LAT_NOT_KEPT="$LAT_NOT_KEPT $1:$2:$3"
	elif [ -n "$_gu" ] && is_true "$L50 > 1000 && $L50 > 10 * $_gu"; then
		# The sender kept its schedule, the answers did not: a queue grew.
		_note="$_note  gap not kept: the answers fell behind (p50 from due $(printf '%.0f' "$L50") us)"
		LAT_NOT_KEPT="$LAT_NOT_KEPT $1:$2:$3"
	fi
	printf '  %-6s %5s %6s %8.1f %8.1f %8.1f %9.1f %15s %8s %8s%s\n' "$1" "$2" "$3" \
		"$L50" "$L99" "$L999" "$LMAX" "$OVER/$COUNT" "$OW50" "$OW99" "$_note"
	_c=$1-$2-$3
	csv latency "$_c" p50_us "$L50" us
	csv latency "$_c" p99_us "$L99" us
	csv latency "$_c" p99_9_us "$L999" us
	csv latency "$_c" max_us "$LMAX" us
	csv latency "$_c" over_20us "$OVER" messages
	csv latency "$_c" messages "$COUNT" messages
	[ "$OW50" = - ] || csv latency "$_c" one_way_p50_us "$OW50" us
	[ "$KEEP" = - ] || csv latency "$_c" cannot_keep "$([ "$KEEP" = true ] && echo 1 || echo 0)" bool
	echo "$3 $1 $L99" >>"$WORK/lat.p99.$2"
}

# lat_chart SIZE: the p99 against the gap, a curve per protocol.
lat_chart() {
	_csv=latency_p99_$1.csv
	echo "gap_us,$(echo $LAT_PROTOS | tr ' ' ',')" >"$OUT/$_csv"
	for _cg in $LAT_GAPS; do
		[ "$_cg" = closed ] && continue
		_row=$(gap_us "$_cg")
		for _cp in $LAT_PROTOS; do
			_v=$(sed -n "s/^$_cg $_cp //p" "$WORK/lat.p99.$1" | tail -n 1)
			_row="$_row,$_v"
		done
		echo "$_row" >>"$OUT/$_csv"
	done
	plot "latency_p99_$1.svg" "$_csv" -l -t "p99 round trip against the gap, $1-byte messages, $LAT_WHERE ($(uname -r))" \
		-x "gap between requests (us)" -y "p99 round trip (us)"
}

# lat_table: the talk's table, every size, protocol and gap.
lat_table() {
	echo
	echo "  the talk's table: $LAT_WHERE, zcc -B 0 --rr --budget 20us -t $LAT_SECS per cell, zcs -B 1;"
	echo "  round trip from when each request was due (us); over 20 us of the messages answered; one-way out (us)"
	printf '  %-6s %5s %6s %8s %8s %8s %9s %15s %8s %8s\n' proto bytes gap p50 p99 p99.9 max "over 20us/of" "1way p50" "1way p99"
	LAT_NOT_KEPT=
	for _ts in $LAT_SIZES; do
		: >"$WORK/lat.p99.$_ts"
		for _tp in $LAT_PROTOS; do
			for _tg in $LAT_GAPS; do
				lat_cell "$_tp" "$_ts" "$_tg"
				QUIET=1
			done
		done
	done
	QUIET=
	for _tp in $LAT_PROTOS; do
		_k=$(echo "$LAT_NOT_KEPT" | tr ' ' '\n' | sed -n "s/^$_tp:\\([0-9]*\\):\\(.*\\)$/\\2 (\\1 B)/p" | tr '\n' ' ' | sed 's/ $//; s/) /), /g')
		echo "  gaps $_tp could not keep here: ${_k:-none}"
	done
	for _ts in $LAT_SIZES; do lat_chart "$_ts"; done
}

# lat_rounds: the same 200-byte cells, tcp and udp at every gap, through
# zcc's own comparison: paired rounds, the order turning, decided on p99.
lat_rounds() {
	_gl=$(echo $LAT_GAPS | tr ' ' '\n' | grep -v '^closed$' | tr '\n' ',' | sed 's/,$//')
	[ -n "$_gl" ] || return 0
	set -- -B 0 --rr -s "$LAT_ADDR" -p "$LAT_PORT_tcp" -b 200 --gap "$_gl" --proto tcp,udp \
		-R "$LAT_REPS" -t "$LAT_SECS" --budget 20us --decide p99
	echo
	echo "  zcc's own rounds of the 200-byte cells, $LAT_WHERE (its compare table):"
	show "$LAT_TX zcc $*"
	# shellcheck disable=SC2086
	if run_metered "$WORK/lat.rounds.err" in_work $LAT_TX "$ZC_BIN/zcc" "$@" >"$WORK/lat.rounds"; then
		sed -n '/^compare:/,$s/^/  /p' "$WORK/lat.rounds"
	else
		echo "  failed: $(head -n 1 "$WORK/lat.rounds.err")"
	fi
}

# lat_calltimes: --call-times at each gap per protocol, 200 bytes: the
# send and receive calls over 20 us, beside the talk's counts.
lat_calltimes() {
	echo
	echo "  time across sendto: zcc --rr --call-times --budget 20us, 200 bytes, $LAT_WHERE, on $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(uname -sr)"
	echo "  the talk's (its machine): raw Ethernet and raw IP about 5 and 13 sends of 26,000 over 20 us; TCP 8 to 402 of 20,000"
	printf '  %-6s %6s %16s %9s %9s %16s %9s\n' proto gap "send over 20us" "send p99" "send max" "recv over 20us" "recv max"
	for _kp in $LAT_PROTOS; do
		for _kg in $LAT_GAPS; do
			_gf=
			[ "$_kg" = closed ] || _gf="--gap $_kg"
			# shellcheck disable=SC2086
			if ! lat_zcc lat.ct "$_kp" -b 200 $_gf --call-times --budget 20us -t "$LAT_SECS"; then
				printf '  %-6s %6s  failed: %s\n' "$_kp" "$_kg" "$LAT_ERR"
				continue
			fi
			QUIET=1
			"$ZC_TESTBIN/jsoncheck" -E call_times -s ct_ "$WORK/lat.ct.json" >"$WORK/lat.ct.sh" 2>/dev/null
			# The send line first, then the receive line.
			eval "$(sed -n 1p "$WORK/lat.ct.sh")"
			_so=$ct_over _sc=$ct_count _s99=$ct_p99_us _smax=$ct_max_us
			eval "$(sed -n 2p "$WORK/lat.ct.sh")"
			need "$_so" "$_sc" "$_s99" "$_smax" "$ct_over" "$ct_count" "$ct_max_us"
			printf '  %-6s %6s %16s %9.1f %9.1f %16s %9.1f\n' "$_kp" "$_kg" "$_so/$_sc" "$_s99" "$_smax" \
				"$ct_over/$ct_count" "$ct_max_us"
			csv latency "calltimes-$_kp-$_kg" send_over_20us "$_so" calls
			csv latency "calltimes-$_kp-$_kg" send_calls "$_sc" calls
			csv latency "calltimes-$_kp-$_kg" recv_over_20us "$ct_over" calls
		done
	done
	QUIET=
}

# lat_load_run NAME PROTO: the 200-byte, 100 us run under cyclesoak -K,
# zcc's figures into $WORK/lat.NAME.json; its row. LAT_WRAP as lat_zcc's.
lat_load_run() {
	_n=$1 _rp=$2 _what=$3
	eval "_port=\$LAT_PORT_$_rp"
	[ "$_n" = rr ] && _port=$LAT_RR_PORT
	set -- -B 0 --rr -s "$LAT_ADDR" -p "$_port" --proto "$_rp" -b 200 --gap 100us \
		--budget "${LAT_BUDGET}us" -t $((LAT_SECS * 2)) -J
	[ "$_rp" = packet ] && set -- "$@" --ifname "$LAT_IF_TX"
	[ -z "${QUIET:-}" ] && show "cyclesoak -K -J -- $LAT_TX ${LAT_WRAP:+run_rr }zcc $*"
	# shellcheck disable=SC2086
	run_metered "$WORK/lat.$_n.err" in_work "$ZC_BIN/cyclesoak" -K -J -- sh -c 'f=$1; shift; exec "$@" >"$f"' sh \
		"$WORK/lat.$_n.json" $LAT_TX $LAT_WRAP "$ZC_BIN/zcc" "$@" >"$WORK/lat.$_n.cs" ||
		die "cyclesoak -- zcc ($_n, $_rp) failed: $(head -n 2 "$WORK/lat.$_n.err")"
	_load=$(json_get "$WORK/lat.$_n.cs" command load_pct | tail -n 1)
	lat_figures "$WORK/lat.$_n.json"
	need "$_load"
	printf '  %-6s %-28s %15s %8.1f %8.1f %8.1f %7s\n' "$_rp" "$_what" "$OVER/$COUNT" "$L50" "$L999" \
		"$_load" "$LAT_BUDGET us"
}

# lat_load_csv NAME PROTO: the CSV rows of the run lat_load_run just made
# (the quiet run's only once it is kept).
lat_load_csv() {
	csv latency "load-$2-$1" over_budget "$OVER" messages
	csv latency "load-$2-$1" budget_us "$LAT_BUDGET" us
	csv latency "load-$2-$1" p99_9_us "$L999" us
	csv latency "load-$2-$1" load_pct "$_load" %
}

# lat_load: quiet, loaded, loaded under run_rr, per protocol; the verdict.
lat_load() {
	echo
	echo "  load and priority: 200 bytes every 100 us, $((LAT_SECS * 2)) s, $LAT_WHERE; load: the machine's, cyclesoak -K"
	echo "  budget: 20 us, as the talk's; where the quiet run's own p50 is above it (every"
	echo "  message over it, load or not), the quiet run's p99 rounded up, and that run again"
	printf '  %-6s %-28s %15s %8s %8s %8s %7s\n' proto run "over budget/sent" p50 p99.9 load% budget
	# zcs under SCHED_RR for the last row: one of its own.
	_rrz=
	if "$ZC_BIN/run_rr" true 2>"$WORK/lat.rrprobe"; then
		ZCS_PREFIX="$LAT_RX $ZC_BIN/run_rr"
		zcs_up lat_rrzcs -B 1
		ZCS_PREFIX= LAT_RR_PORT=$ZCS_PORT _rrz=$ZCS_PID
		show "$LAT_RX run_rr zcs -p 0 -B 1   (port $ZCS_PORT)"
	else
		echo "  run_rr: skipped: it cannot run here ($(head -n 1 "$WORK/lat.rrprobe"))"
	fi
	for _lp in tcp udp; do
		LAT_BUDGET=20
		lat_load_run quiet $_lp "quiet" >"$WORK/lat.quiet20"
		if is_true "$L50 > 20"; then
			LAT_BUDGET=$(printf '%.0f' "$(calc "$L99 + 0.5")")
			lat_load_run quiet $_lp "quiet"
		else
			cat "$WORK/lat.quiet20"
		fi
		lat_load_csv quiet $_lp
		_qo=$OVER/$COUNT
		start_bg taskset -c 0 "$ZC_TESTBIN/loadgen" -k -l 100 -n 1 -t $((LAT_SECS * 4 + 30)) >"$WORK/lat.lg" 2>&1
		_lg=$!
		[ $_lp = tcp ] && show "taskset -c 0 loadgen -k -l 100 -n 1 -t $((LAT_SECS * 4 + 30))   (beside the next two)"
		lat_load_run loaded $_lp "busy thread on CPU 0"
		lat_load_csv loaded $_lp
		_lo=$OVER/$COUNT
		if [ -n "$_rrz" ]; then
			LAT_WRAP=$ZC_BIN/run_rr
			lat_load_run rr $_lp "busy thread, run_rr zcc, zcs"
			lat_load_csv rr $_lp
			LAT_WRAP=
		fi
		stop_bg "$_lg"
		QUIET=1
		[ -z "$_rrz" ] || lat_load_judge $_lp "$_qo" "$_lo" "$OVER/$COUNT" "$L50"
	done
	QUIET=
	[ -z "$_rrz" ] || stop_bg "$_rrz"
}

# lat_load_judge PROTO QUIET LOADED RR RR-P50: the run_rr target, each
# count "OVER/OF" over LAT_BUDGET: the shares are compared, as a starved
# sender may send fewer.
lat_load_judge() {
	_ls=$(calc "${3%/*} / ${3#*/}") _rs=$(calc "${4%/*} / ${4#*/}")
	if is_true "$_rs < $_ls"; then
		verdict 1 "latency $1 100 us gap: run_rr over $LAT_BUDGET us $4, a smaller share than the loaded row's $3"
	else
		_why="the loaded row's share was no higher than the quiet's ($2)"
		is_true "$5 > $LAT_BUDGET" && _why="the round trip itself is over $LAT_BUDGET us here (run_rr p50 $5 us): every message counts, load or not"
		verdict 0 "latency $1 100 us gap: run_rr over $LAT_BUDGET us $4, not a smaller share than the loaded row's $3: $_why"
	fi
}

# --- the peers: each side sets TPS, OWN (the client's own us/Tran), P50
# and P99 (us, - where the peer gives none) ---------------------------------
# lp_zc PROTO [GAP]: zcc --rr, 200 bytes, -c for its own CPU; with GAP its
# one-way out p50 in P50 (against irtt's send delay).
lp_zc() {
	_gf= _where=127.0.0.1 _port=$LP_ZCS _pre= _gap=${2:-}
	[ -z "$_gap" ] || _gf="--gap $_gap" _where=$LAT_ADDR _port=$LAT_PORT_udp _pre=$LAT_TX
	# shellcheck disable=SC2086
	set -- -B 0 --rr -s $_where -p $_port --proto $1 -b 200 $_gf -t "$LAT_SECS" -c -J
	[ -z "${QUIET:-}" ] && show "${_pre:+$_pre }zcc $*"
	# shellcheck disable=SC2086
	run_metered "$WORK/lp.zc.err" in_work $_pre "$ZC_BIN/zcc" "$@" >"$WORK/lp.zc.json" ||
		die "zcc --rr failed: $(head -n 2 "$WORK/lp.zc.err")"
	TPS=$(json_get "$WORK/lp.zc.json" rr transactions_per_sec)
	OWN=$(json_get "$WORK/lp.zc.json" cpu own_us_per_tran)
	P50=$(json_get "$WORK/lp.zc.json" latency p50_us) P99=$(json_get "$WORK/lp.zc.json" latency p99_us)
	[ -z "$_gap" ] || P50=$(json_get "$WORK/lp.zc.json" one_way out_p50_us) P99=-
	need "$TPS" "$OWN" "$P50"
}

# lp_own REPORT TRANSACTIONS: subreaper's CPU time per transaction, us.
lp_own() {
	_ct=$(cputime_us "$1")
	need "$_ct" "$2"
	calc "$_ct / $2"
}

# lp_np TCP_RR|UDP_RR: netperf, -T 0,1, omni's percentiles.
lp_np() {
	set -- -H 127.0.0.1 -p "$NP_PORT" -t "$1" -l "$LAT_SECS" -c -C -T 0,1 -P 0 -- \
		-r 200,200 -o THROUGHPUT,P50_LATENCY,P90_LATENCY,P99_LATENCY,ELAPSED_TIME
	[ -z "${QUIET:-}" ] && show "netperf $*"
	"$ZC_TESTBIN/subreaper" -s -o "$WORK/lp.np.ru" "$NETPERF" "$@" >"$WORK/lp.np.out" 2>&1 ||
		die "netperf failed: $(tail -n 2 "$WORK/lp.np.out")"
	# shellcheck disable=SC2046
	set -- $(tail -n 1 "$WORK/lp.np.out" | tr ',' ' ')
	TPS=${1:-} P50=${2:-} P99=${4:-}
	need "$TPS" "$P50" "$P99" "${5:-}"
	OWN=$(lp_own "$WORK/lp.np.ru" "$(calc "$TPS * $5")")
}

# lp_sp tcp|udp: sockperf ping-pong, its full round trip.
lp_sp() {
	_t=
	[ "$1" = tcp ] && _t=--tcp
	# shellcheck disable=SC2086
	set -- ping-pong $_t -i 127.0.0.1 -p "$SP_PORT" -m 200 -t "$LAT_SECS" --full-rtt
	[ -z "${QUIET:-}" ] && show "taskset -c 0 sockperf $*"
	taskset -c 0 "$ZC_TESTBIN/subreaper" -s -o "$WORK/lp.sp.ru" sockperf "$@" >"$WORK/lp.sp.out" 2>&1 ||
		die "sockperf failed: $(tail -n 2 "$WORK/lp.sp.out")"
	P50=$(sed -n 's/.*percentile 50\.000 = *\([0-9.]*\).*/\1/p' "$WORK/lp.sp.out" | tail -n 1)
	P99=$(sed -n 's/.*percentile 99\.000 = *\([0-9.]*\).*/\1/p' "$WORK/lp.sp.out" | tail -n 1)
	# [Valid Duration] RunTime=1.550 sec; SentMessages=17884; ReceivedMessages=17884
	_vd=$(sed -n 's/.*Valid Duration\] RunTime=\([0-9.]*\) sec;.*ReceivedMessages=\([0-9]*\).*/\1 \2/p' "$WORK/lp.sp.out")
	_all=$(sed -n 's/.*Total Run\] RunTime=.*ReceivedMessages=\([0-9]*\).*/\1/p' "$WORK/lp.sp.out")
	need "$P50" "$P99" "${_vd% *}" "${_vd#* }"
	TPS=$(calc "${_vd#* } / ${_vd% *}")
	OWN=$(lp_own "$WORK/lp.sp.ru" "$_all")
}

# lp_qp tcp_lat|udp_lat: qperf's latency is half a round trip, its mean:
# P50 and P99 are -, LP_MEAN the mean round trip.
lp_qp() {
	set -- 127.0.0.1 -lp "$QP_PORT" -m 200 -t "$LAT_SECS" -v "$1"
	[ -z "${QUIET:-}" ] && show "taskset -c 0 qperf $*"
	taskset -c 0 "$ZC_TESTBIN/subreaper" -s -o "$WORK/lp.qp.ru" qperf "$@" >"$WORK/lp.qp.out" 2>&1 ||
		die "qperf failed: $(tail -n 2 "$WORK/lp.qp.out")"
	_half=$(sed -n 's/^ *latency *= *\([0-9.]*\) us$/\1/p' "$WORK/lp.qp.out")
	_sec=$(sed -n 's/^ *time *= *\([0-9.]*\) sec$/\1/p' "$WORK/lp.qp.out")
	need "$_half" "$_sec"
	LP_MEAN=$(calc "2 * $_half") TPS=$(calc "1e6 / (2 * $_half)") P50=- P99=-
	OWN=$(lp_own "$WORK/lp.qp.ru" "$(calc "$TPS * $_sec")")
}

# irtt_us FIGURE: one of irtt's durations (4.2ms, 22.4µs, 310ns, 1.2s) in us.
irtt_us() {
	_f=$(echo "$1" | sed 's/µs$/us/')
	case $_f in
	*ns) calc "${_f%ns} / 1000" ;;
	*us) echo "${_f%us}" ;;
	*ms) calc "${_f%ms} * 1000" ;;
	*s) calc "${_f%s} * 1000000" ;;
	esac
}

# lp_irtt GAP: irtt at a fixed interval, where the table ran; P50 its send
# delay's median (one way out), TPS the answers a second. Its busy timer:
# its default one cannot keep a gap under a millisecond here.
lp_irtt() {
	set -- client -i "$1" -d "${LAT_SECS}s" -l 200 -q --timer=busy "$LAT_ADDR:$IR_PORT"
	[ -z "${QUIET:-}" ] && show "$LAT_TX taskset -c 0 irtt $*"
	# shellcheck disable=SC2086
	$LAT_TX taskset -c 0 "$ZC_TESTBIN/subreaper" -s -o "$WORK/lp.ir.ru" irtt "$@" >"$WORK/lp.ir.out" 2>&1 ||
		die "irtt failed: $(tail -n 2 "$WORK/lp.ir.out")"
	# shellcheck disable=SC2046
	set -- $(sed -n 's/^ *send delay *//p' "$WORK/lp.ir.out")
	P50=$(irtt_us "${3:-}") P99=-
	_got=$(sed -n 's/^ *packets sent\/received: [0-9]*\/\([0-9]*\).*/\1/p' "$WORK/lp.ir.out")
	IR_LOSS=$(sed -n 's/^ *packets sent\/received: .*(\([0-9.]*\)% loss).*/\1/p' "$WORK/lp.ir.out")
	need "$P50" "$_got" "$IR_LOSS"
	TPS=$(calc "$_got / $LAT_SECS")
	OWN=$(lp_own "$WORK/lp.ir.ru" "$_got")
}

# lp_side SIDE KIND: one side of a round (zc, np, sp, qp; KIND tcp or udp).
lp_side() {
	case $1:$2 in
	zc:*) lp_zc "$2" ;;
	np:tcp) lp_np TCP_RR ;;
	np:udp) lp_np UDP_RR ;;
	sp:*) lp_sp "$2" ;;
	qp:*) lp_qp "${2}_lat" ;;
	esac
}

# lp_rounds KIND: LAT_REPS rounds of zc and each of LP_PEERS over KIND, the
# order turning each round; "zc peer" lines in $WORK/lp.KIND.PEER.FIGURE
# (tps own p50 p99).
lp_rounds() {
	for _pe in $LP_PEERS; do
		for _f in tps own p50 p99; do : >"$WORK/lp.$1.$_pe.$_f"; done
	done
	_order="zc $LP_PEERS" _r=1
	while [ $_r -le "$LAT_REPS" ]; do
		QUIET=$([ $_r = 1 ] || echo 1)
		for _sd in $_order; do
			lp_side "$_sd" "$1"
			eval "_${_sd}_tps=\$TPS _${_sd}_own=\$OWN _${_sd}_p50=\$P50 _${_sd}_p99=\$P99"
			[ "$_sd" = qp ] && echo "$LP_MEAN" >>"$WORK/lp.$1.qpmean"
		done
		for _pe in $LP_PEERS; do
			for _f in tps own p50 p99; do
				eval "echo \"\$_zc_$_f \$_${_pe}_$_f\"" >>"$WORK/lp.$1.$_pe.$_f"
			done
		done
		_order="${_order#* } ${_order%% *}"
		_r=$((_r + 1))
	done
	QUIET=
}

# lp_row KIND PEER WHAT: a peer's row and its verdicts (qperf's: its mean
# round trip, no percentile, so no verdict on p50 and p99).
# shellcheck disable=SC2154
lp_row() {
	_b=$WORK/lp.$1.$2
	echo "  $1, 200 bytes each way, closed loop, one flow: zcc --rr against $3 ($LAT_REPS rounds of $LAT_SECS s):"
	echo "    transactions/s  zc $(spread "$_b.tps" 1 0), $2 $(spread "$_b.tps" 2 0)"
	echo "    own us/Tran     zc $(spread "$_b.own" 1 2), $2 $(spread "$_b.own" 2 2)   (each client's own CPU)"
	if [ "$2" = qp ]; then
		echo "    p50 us          zc $(spread "$_b.p50" 1), qperf gives none: its mean round trip $(spread "$WORK/lp.$1.qpmean" 1)"
	else
		echo "    p50 us          zc $(spread "$_b.p50" 1), $2 $(spread "$_b.p50" 2)"
		echo "    p99 us          zc $(spread "$_b.p99" 1), $2 $(spread "$_b.p99" 2)"
	fi
	ratio_of "$_b.tps" rt_
	csv latency "peer-$1-$2" rate_ratio "$rt_median" x
	[ "$2" = qp ] && return 0
	ratio_of "$_b.p50" rp_
	ratio_of "$_b.p99" rq_
	csv latency "peer-$1-$2" p50_ratio "$rp_median" x
	csv latency "peer-$1-$2" p99_ratio "$rq_median" x
	JUDGE_PART=latency judge_ratio "peer-$1-$2" "latency $1 200 B against $3: transactions/s" rt_ \
		"lo >= 0.95" "target: the interval's lower end at least 0.95"
	if [ "$2" = np ]; then
		ratio_of "$_b.own" rc_
		JUDGE_CPU="own CPU per transaction" JUDGE_PART=latency judge_cpu "peer-$1-np" "latency $1 200 B against $3:" 1.05
	fi
	JUDGE_PART=latency judge_ratio "peer-$1-$2" "latency $1 200 B against $3: p50" rp_ \
		"m >= 0.9 && m <= 1.1" "target: within 10%"
	JUDGE_PART=latency judge_ratio "peer-$1-$2" "latency $1 200 B against $3: p99" rq_ \
		"m >= 0.75 && m <= 1.25" "target: within 25%"
}

# lp_servers: the peers' servers on CPU 1 (netserver by netperf -T 0,1),
# each when installed; LP_PEERS those up, LP_SKIP a line each why not.
lp_servers() {
	LP_PEERS= LP_SKIP= LP_PIDS=
	rr_netperf
	if [ -n "$NETPERF" ]; then
		NP_PORT=$(free_port)
		start_bg "$NETSERVER" -D -4 -p "$NP_PORT" >"$WORK/lp.ns.out" 2>&1
		LP_PIDS=$!
		port_listening "$NP_PORT" || die "netserver -p $NP_PORT did not start: $(tail -n 1 "$WORK/lp.ns.out")"
		show "$NETSERVER -D -4 -p $NP_PORT"
		LP_PEERS=np
	else
		LP_SKIP="    netperf: skipped: $NP_WHY"
	fi
	if command -v sockperf >/dev/null 2>&1; then
		SP_PORT=$(free_port)
		start_bg taskset -c 1 sockperf server --tcp -i 127.0.0.1 -p "$SP_PORT" >"$WORK/lp.sps.out" 2>&1
		LP_PIDS="$LP_PIDS $!"
		port_listening "$SP_PORT" || die "sockperf server --tcp did not start: $(tail -n 1 "$WORK/lp.sps.out")"
		start_bg taskset -c 1 sockperf server -i 127.0.0.1 -p "$SP_PORT" >"$WORK/lp.spu.out" 2>&1
		LP_PIDS="$LP_PIDS $!"
		wait_for "$WORK/lp.spu.out" 'block on socket' || die "sockperf server (udp) did not start"
		show "taskset -c 1 sockperf server [--tcp] -i 127.0.0.1 -p $SP_PORT"
		LP_PEERS="$LP_PEERS sp"
	else
		LP_SKIP="$LP_SKIP${LP_SKIP:+
}    sockperf: skipped: not installed (Debian: apt install sockperf)"
	fi
	if command -v qperf >/dev/null 2>&1; then
		QP_PORT=$(free_port)
		start_bg taskset -c 1 qperf -lp "$QP_PORT" >"$WORK/lp.qps.out" 2>&1
		LP_PIDS="$LP_PIDS $!"
		port_listening "$QP_PORT" || die "qperf -lp $QP_PORT did not start"
		show "taskset -c 1 qperf -lp $QP_PORT"
		LP_PEERS="$LP_PEERS qp"
	else
		LP_SKIP="$LP_SKIP${LP_SKIP:+
}    qperf: skipped: not installed (Debian: apt install qperf)"
	fi
	LP_PEERS=$(echo $LP_PEERS)
}

# lp_irtt_row: zcc --rr --proto udp against irtt at a 100 us interval,
# where the table ran; zc's one-way out against irtt's send delay.
# shellcheck disable=SC2154
lp_irtt_row() {
	if ! command -v irtt >/dev/null 2>&1; then
		echo "    irtt: skipped: not installed (Debian: apt install irtt)"
		return 0
	fi
	IR_PORT=$(free_port)
	# shellcheck disable=SC2086
	start_bg $LAT_RX taskset -c 1 irtt server -b "$LAT_ADDR:$IR_PORT" -i 0 >"$WORK/lp.irs.out" 2>&1
	_irp=$!
	wait_for "$WORK/lp.irs.out" 'ListenerStart' || die "irtt server did not start: $(tail -n 1 "$WORK/lp.irs.out")"
	show "$LAT_RX taskset -c 1 irtt server -b $LAT_ADDR:$IR_PORT -i 0"
	: >"$WORK/lp.ir.p50"
	: >"$WORK/lp.ir.tps"
	: >"$WORK/lp.ir.loss"
	_r=1
	while [ $_r -le "$LAT_REPS" ]; do
		QUIET=$([ $_r = 1 ] || echo 1)
		if [ $((_r % 2)) = 1 ]; then
			lp_zc udp 100us && _z50=$P50 _zt=$TPS
			lp_irtt 100us
		else
			lp_irtt 100us
			_i50=$P50 _it=$TPS
			lp_zc udp 100us && _z50=$P50 _zt=$TPS
			P50=$_i50 TPS=$_it
		fi
		echo "$_z50 $P50" >>"$WORK/lp.ir.p50"
		echo "$_zt $TPS" >>"$WORK/lp.ir.tps"
		echo "$IR_LOSS" >>"$WORK/lp.ir.loss"
		_r=$((_r + 1))
	done
	QUIET=
	stop_bg "$_irp"
	echo "  udp, 200 bytes every 100 us (open loop), one flow, $LAT_WHERE: zcc --rr --gap 100us against irtt -i 100us ($LAT_REPS rounds):"
	echo "    answers/s       zc $(spread "$WORK/lp.ir.tps" 1 0), irtt $(spread "$WORK/lp.ir.tps" 2 0)"
	echo "    one-way p50 us  zc out $(spread "$WORK/lp.ir.p50" 1), irtt send delay $(spread "$WORK/lp.ir.p50" 2)"
	_loss=$(sort -n "$WORK/lp.ir.loss" | tail -n 1)
	echo "    irtt's loss     at most $_loss% of its packets"
	ratio_of "$WORK/lp.ir.p50" ri_
	csv latency peer-udp-irtt one_way_p50_ratio "$ri_median" x
	csv latency peer-udp-irtt irtt_loss_pct "$_loss" %
	# A client that cannot keep the interval queues its own packets: its
	# send delay then holds its backlog, not the path's time.
	_irw="target: within 10%"
	is_true "$_loss > 1" && _irw="$_irw; irtt lost up to $_loss% here: it cannot keep a 100 us interval on this machine, and its send delay holds its own queue"
	JUDGE_PART=latency judge_ratio peer-udp-irtt "latency udp 100 us gap ($LAT_WHERE) against irtt: one-way p50" ri_ \
		"m >= 0.9 && m <= 1.1" "$_irw"
}

# lat_peers: every peer's rows, or why not.
lat_peers() {
	echo
	echo "  peers on the same work, loopback, clients on CPU 0 and servers on CPU 1, paired rounds:"
	LP_ZCS=$LAT_PORT_tcp
	[ -z "$LAT_RX" ] || { zcs_up lat_lpzcs -B 1; LP_ZCS=$ZCS_PORT _lpz=$ZCS_PID; }
	lp_servers
	[ -z "$LP_SKIP" ] || echo "$LP_SKIP"
	if [ -n "$LP_PEERS" ]; then
		for _k in tcp udp; do
			lp_rounds $_k
			for _pe in $LP_PEERS; do
				case $_pe:$_k in
				np:tcp) _w="netperf TCP_RR -- -r 200,200" ;;
				np:udp) _w="netperf UDP_RR -- -r 200,200" ;;
				sp:tcp) _w="sockperf ping-pong --tcp -m 200 --full-rtt" ;;
				sp:udp) _w="sockperf ping-pong -m 200 --full-rtt" ;;
				qp:*) _w="qperf -m 200 ${_k}_lat" ;;
				esac
				lp_row $_k $_pe "$_w"
			done
		done
	fi
	for _pid in $LP_PIDS; do stop_bg "$_pid"; done
	[ -z "$LAT_RX" ] || stop_bg "$_lpz"
	lp_irtt_row
}

part_latency() {
	section "latency: how long a message takes, the 2011 talk's experiment; peers on the same work"
	calibrate_once
	lat_place
	lat_protos
	lat_servers
	lat_table
	lat_rounds
	lat_load
	lat_calltimes
	lat_peers
	for _zp in $LAT_PROTOS; do eval "_zpid=\$LAT_PID_$_zp"; [ -z "$_zpid" ] || stop_bg "$_zpid"; done
	pt_cleanup
}
