# What only the tests use, beside the harness: the bytes on the wire, the
# shims, two hosts with a zcs. Sourced by the tests that need
# it, after tests/lib.sh; make demo and make bench do not (nor build the
# helpers it runs).

# wire_stream LOOPS FILE...: on stdout, the stream zcc sends for LOOPS
# loops of the FILEs, written out here from the protocol: the loop count,
# then in each loop the file count and each file's length and bytes.
wire_stream() {
	_wl=$1
	shift
	u32 "$_wl"
	while [ "$_wl" -gt 0 ]; do
		u32 $#
		for _wf in "$@"; do
			u32 "$(wc -c <"$_wf")"
			cat "$_wf"
		done
		_wl=$((_wl - 1))
	done
}

# wire_got ZCC-ARGS...: zcc ZCC-ARGS over loopback to a tests/tools/sink
# that keeps what arrives, in $TMP/wire.got; zcc's status in $rc, its
# output in $TMP/zcc.out.
wire_got() {
	: >"$TMP/sink.out"
	bg "$ZC_TESTBIN/sink" -o "$TMP/wire.got" >"$TMP/sink.out" 2>&1
	_wsp=$!
	wait_for "$TMP/sink.out" '^listening on port'
	timeout 20 "$ZC_BIN/zcc" -s 127.0.0.1 -p "$(sed -n 's/^listening on port //p' "$TMP/sink.out")" \
		"$@" >"$TMP/zcc.out" 2>&1
	rc=$?
	# A zcc that failed may never have connected: the sink is stopped.
	[ "$rc" -eq 0 ] && wait "$_wsp"
	stop_bg "$_wsp"
}

# shim_ready NAME: SHIM, the path of tests/tools/shim_NAME.c's build, to
# preload. The sanitizer pass's programs want ASan's runtime first among
# the libraries; a preloaded shim comes before it, which is harmless here,
# so that check is off. Without the shim the script says so and ends.
shim_ready() {
	SHIM=$ZC_TESTBIN/shim_$1.so
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	export ASAN_OPTIONS
	[ -f "$SHIM" ] && return 0
	skip "no $SHIM: build the tests first"
	finish
}

# shim_transfer WHAT ZCS-ARGS...: a zcs -1 started with ZCS-ARGS under the
# recvcalls shim (shim_ready recvcalls; each process's count line into
# $TMP/count) takes $LOOPS loops of $TMP/a from zcc. 0 when both exit 0
# and zcs's done line has $WANT bytes; else 1 and a not_ok naming WHAT.
shim_transfer() {
	_st_what=$1
	shift
	: >"$TMP/count"
	LD_PRELOAD=$SHIM ZC_SHIM_RECVCALLS=$TMP/count zcs_start -1 -a 127.0.0.1 "$@" ||
		{ not_ok "$_st_what: zcs started: $(cat "$TMP/zcs.err")"; return 1; }
	timeout 30 "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -n "$LOOPS" "$TMP/a" >"$TMP/out" 2>&1
	_st_rc=$?
	wait "$ZCS_PID"
	_st_zrc=$?
	if [ "$_st_rc" -ne 0 ] || [ "$_st_zrc" -ne 0 ] || ! grep -q "^done: $WANT bytes" "$TMP/zcs.out"; then
		not_ok "$_st_what: zcc exit $_st_rc, zcs exit $_st_zrc: $(cat "$TMP/out" "$TMP/zcs.out" "$TMP/zcs.err")"
		return 1
	fi
	if ! grep -q '^calls [0-9]* .* misaligned [0-9]*$' "$TMP/count"; then
		not_ok "$_st_what: the shim wrote no count: $(cat "$TMP/count")"
		return 1
	fi
}

# shim_sum KEY: the number after KEY summed over the count lines of
# shim_transfer (every process writes one at exit, parent and child).
shim_sum() {
	awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) s += $(i + 1) } END { print s + 0 }' \
		"$TMP/count"
}

# zcs_across TX RX NAME ZCS-ARGS...: two hosts, namespaces TX and RX
# joined by a veth (two_hosts: 192.0.2.1 and .2), the meter slot taken,
# and zcs NAME ZCS-ARGS listening in RX (zcs_up: its port in $ZCS_PORT,
# its lines in $WORK/NAME.out). 1, said, when the hosts cannot be made.
zcs_across() {
	_za_tx=$1 _za_rx=$2
	shift 2
	two_hosts "$_za_tx" "$_za_rx" || return 1
	meter_slot
	ZCS_PREFIX="ip netns exec $_za_rx"
	zcs_up "$@"
}

# bench_run_here WHAT: a bench part's short run measures, and pins its
# clients to CPU 0 and its servers to CPU 1 (the kernel refuses a pin to
# a CPU offline or outside the cpuset): in any pass but plain, or where
# this process may not run on both, skip WHAT saying why and end the test.
bench_run_here() {
	if [ "$ZC_PASS" != plain ]; then
		skip "$1: only in the plain pass (this is '$ZC_PASS'; it measures, not checks memory)"
		finish
	fi
	if ! { taskset -c 0 true && taskset -c 1 true; } 2>/dev/null; then
		skip "$1: needs CPUs 0 and 1, and this process may not run on both (online: $(cat /sys/devices/system/cpu/online 2>/dev/null))"
		finish
	fi
}

# bench_refused PART WHAT "VAR=VALUE": make bench PART with that setting
# (TMPDIR and the output under $TMP) must stop at the door: exit 1, one
# line on stderr, no table.
bench_refused() {
	mkdir -p "$TMP/tmp" "$TMP/out"
	env "$3" TMPDIR="$TMP/tmp" ZC_BENCH_OUT="$TMP/out" ZC_BIN="$ZC_BIN" ZC_TESTBIN="$ZC_TESTBIN" \
		sh "$ZC_TOP/tests/bench/run.sh" "$1" >"$TMP/out.txt" 2>"$TMP/err.txt"
	_rc=$?
	check "$2: exit 1 (got $_rc), one line: $(cat "$TMP/err.txt")" \
		sh -c "[ $_rc -eq 1 ] && [ \$(wc -l <'$TMP/err.txt') -eq 1 ] && ! grep -q '^===' '$TMP/out.txt'"
}
