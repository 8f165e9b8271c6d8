# make bench PART=peers: each zcc method against its closest peer in the
# same run, alternating sides. Sourced by run.sh.
#
#   sendfile           iperf3 -Z (sendfile), netperf TCP_SENDFILE
#   send, write, mmap, splice, uring
#                      iperf3 (plain writes; it sends from memory, while zcc
#                      reads the file, so iperf3 has the cheaper job)
#   zerocopy, uring-zc iperf3 -Z (the nearest: iperf3 has no MSG_ZEROCOPY)
# Both ends of both tools are pinned (taskset): the sender on CPU 0, the
# receiver on CPU 1, so the scheduler's placement does not decide the
# comparison. Throughput: median of ZC_BENCH_PEER_REPS alternating runs of
# about 3 s each; zcc's default against iperf3 -Z must be at least 1.2x.
# netperf is not packaged by Debian: when absent, skipped with the reason.

PEER_SECS=3

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

# iperf_run PORT OUTFILE IPERF-CLIENT-ARGS...: one transfer against a
# one-shot server on CPU 1; sets IPERF_RATE (KiB/s, sender side).
iperf_run() {
	_port=$1 _o=$2
	shift 2
	start_bg taskset -c 1 iperf3 -s -1 -p "$_port" >"$_o.srv" 2>&1
	_spid=$!
	port_listening "$_port" || { stop_bg $_spid; return 1; }
	run_fg taskset -c 0 "$@" >"$_o" 2>&1
	_rc=$?
	stop_bg $_spid
	[ $_rc -eq 0 ] || { sed 's/^/  /' "$_o" >&2; return 1; }
	# iperf3 -J is one pretty-printed object; its "sum_sent" is flat, so
	# the two figures are found in it with tr and sed, no JSON tool needed.
	_sum=$(tr -d ' \t\n' <"$_o" | sed -n 's/.*"sum_sent":{\([^}]*\)}.*/\1/p')
	_b=$(echo "$_sum" | sed -n 's/.*"bytes":\([0-9.e+]*\).*/\1/p')
	_s=$(echo "$_sum" | sed -n 's/.*"seconds":\([0-9.e+]*\).*/\1/p')
	need "$_b" "$_s"
	IPERF_RATE=$(calc "$_b / 1024 / $_s")
}

# peer_of METHOD: the iperf3 flags of its closest peer.
peer_of() {
	case $1 in
	sendfile | zerocopy | uring-zc) echo "-Z" ;;
	*) echo "" ;;
	esac
}

part_peers() {
	section "peers: every zcc method against its closest peer, alternating, pinned"
	if command -v netperf >/dev/null 2>&1; then
		echo "  netperf: installed, but its comparison is not part of this bench yet"
	else
		echo "  netperf: skipped: not installed (Debian does not package it)"
	fi
	if ! command -v iperf3 >/dev/null 2>&1; then
		echo "  iperf3: skipped: not installed (Debian package iperf3)"
		return 0
	fi
	if [ "$(nproc)" -lt 2 ]; then
		echo "  skipped: pinning each end to a CPU of its own needs 2 CPUs"
		return 0
	fi
	make_files "$WORK/peer" 1 131072
	zcs_up peer -B 1 -b 131072 -t 3600
	show "zcs -p 0 -B 1 -b 131072 -t 3600   (port $ZCS_PORT)"
	port=$(free_port)
	SENT_TOTAL=0 SENT_RUNS=0
	echo "  one 128 KiB file sent over and over, as iperf3 -l 128K sends one buffer;"
	echo "  zcc -B 0 and iperf3 on CPU 0, the receivers on CPU 1; $PEER_REPS alternations"
	printf '  %-10s %14s %-10s %14s %8s %14s\n' method "zcc kbytes/s" peer "peer kbytes/s" ratio "ratio min-max"
	for m in $(zcc_methods); do
		pf=$(peer_of "$m")
		# shellcheck disable=SC2046
		probe_loops $PEER_SECS -s 127.0.0.1 -p "$ZCS_PORT" -B 0 $(method_flags "$m") "$WORK/peer/f0"
		: >"$WORK/pp"
		rep=1
		while [ $rep -le "$PEER_REPS" ]; do
			QUIET=$([ $rep = 1 ] || echo 1)
			# shellcheck disable=SC2046
			run_zcc "$WORK/pz" -s 127.0.0.1 -p "$ZCS_PORT" -B 0 -n "$LOOPS" $(method_flags "$m") \
				"$WORK/peer/f0" || die "zcc -M $m failed"
			zr=$SENT_RATE
			[ $rep = 1 ] && show "iperf3 -c 127.0.0.1 -p $port ${pf:+$pf }-l 128K -t $PEER_SECS -J   (taskset -c 0; server taskset -c 1)"
			# shellcheck disable=SC2086
			iperf_run "$port" "$WORK/pi" iperf3 -c 127.0.0.1 -p "$port" $pf -l 128K -t $PEER_SECS -J ||
				die "iperf3 failed"
			echo "$zr $IPERF_RATE" >>"$WORK/pp"
			rep=$((rep + 1))
		done
		QUIET=
		awk '{ print $1 / $2 }' "$WORK/pp" >"$WORK/c"
		stat_of "$WORK/c" q_
		compare_of "$WORK/pp" p_
		# shellcheck disable=SC2154
		printf '  %-10s %14.0f %-10s %14.0f %8.2f %14s\n' "$m" "$p_a_median" "iperf3${pf:+ $pf}" "$p_b_median" \
			"$q_median" "$(printf '%.2f-%.2f' "$q_min" "$q_max")"
		csv peers "$m" kbytes_per_sec "$p_a_median" KiB/s
		csv peers "$m" peer_kbytes_per_sec "$p_b_median" KiB/s
		csv peers "$m" ratio "$q_median" zcc/peer
		csv peers "$m" ratio_min "$q_min" zcc/peer
		csv peers "$m" ratio_max "$q_max" zcc/peer
		if [ "$m" = sendfile ]; then
			if is_true "$q_median >= 1.2"; then met=1; else met=0; fi
			verdict $met "loopback throughput of zcc's default (sendfile) against iperf3 -Z: $(printf '%.2f' "$q_median")x, median of $PEER_REPS alternations, range $(printf '%.2f-%.2f' "$q_min" "$q_max") (target at least 1.2x)"
			csv peers sendfile target_met $met bool
		fi
	done
	byte_check peer
	stop_bg "$ZCS_PID"
}
