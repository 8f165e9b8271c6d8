#!/bin/sh
# Multipath TCP (--mptcp), in network namespaces of our own: loopback
# MPTCP to MPTCP byte-exact, the kernel's word in the env record, the
# fall-back line against a zcs without --mptcp (once, however many runs),
# a plain zcc served by an MPTCP listener; every transmit method against
# every receive method, each byte-exact or refused before its first byte
# (zcs's zerocopy on each MPTCP connection, a plain sender still served);
# a comma list run without its refused variants; and a namespace with
# net.mptcp.enabled=0 refused in one line before any file or socket.
# Skipped, with the kernel's reason, where it opens no MPTCP socket.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
ZCS=$ZC_BIN/zcs
J=$ZC_TESTBIN/jsoncheck
lo=zc-mp-lo$$
off=zc-mp-off$$

if ! netns_new "$lo"; then
	skip "MPTCP: cannot make a network namespace (not root, or no ip)"
	finish
fi
ip -n "$lo" link set lo up
if ! ip netns exec "$lo" "$ZC_TESTBIN/mptcpprobe" 2>"$TMP/probe"; then
	skip "MPTCP: $(cat "$TMP/probe")"
	finish
fi
ZCS_PREFIX="ip netns exec $lo"
head -c 3000000 /dev/urandom >"$TMP/a"
head -c 70000 /dev/urandom >"$TMP/b"

# in_lo COMMAND...: run it in the loopback namespace, 30 s at most.
in_lo() { timeout 30 ip netns exec "$lo" "$@"; }

# same_bytes WHAT ZCC_OUT ZCS_OUT: zcc's sent bytes equal zcs's done bytes
# (-J on both), and zcs saw a whole, well-formed stream.
same_bytes() {
	_s=$("$J" -E sent -g bytes "$2" | tail -n 1)
	_d=$("$J" -E done -g bytes "$3" | tail -n 1)
	check "$1: $_s bytes sent, $_d received, the stream whole" \
		[ -n "$_s" ] && [ "$_s" = "$_d" ]
}

# --- MPTCP on both ends ------------------------------------------------------
zcs_up mp --mptcp -1 -J -d
in_lo "$ZCC" --mptcp -J -d -n 2 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" "$TMP/b" \
	>"$TMP/zcc.out" 2>"$TMP/zcc.err"
check "zcc --mptcp to zcs --mptcp: exit 0" [ $? -eq 0 ]
within 50 proc_ended "$ZCS_PID"
same_bytes "MPTCP both ends" "$TMP/zcc.out" "$WORK/mp.out"
check "zcc: no fall-back line" sh -c "! grep -q 'fell back' '$TMP/zcc.err'"
check "zcc env: mptcp true, mptcp_asked true, mptcp_enabled 1" \
	[ "$("$J" -E env -g mptcp "$TMP/zcc.out") $("$J" -E env -g mptcp_asked "$TMP/zcc.out") $("$J" -E env -g mptcp_enabled "$TMP/zcc.out")" = "true true 1" ]
check "zcc -J: the sent line lists one subflow" \
	[ "$(grep '"event":"sent"' "$TMP/zcc.out" | grep -o '"local":' | wc -l)" -eq 1 ]
check "zcc -d: a subflow line" grep -q '^zcc: subflow 127.0.0.1 port [0-9]* -> 127.0.0.1 port' "$TMP/zcc.err"
check "zcs -d: the connection is MPTCP" grep -q ': MPTCP$' "$WORK/mp.err"
check "zcs -d: a subflow line for it" grep -q ': subflow 127.0.0.1 port' "$WORK/mp.err"
check "zcs -J: the done event lists the subflow" \
	sh -c "grep '\"event\":\"done\"' '$WORK/mp.out' | grep -q '\"subflows\":\[{\"local\":\"127.0.0.1 port'"
check "zcs env at its connection: mptcp true" \
	[ "$(grep '"event":"env"' "$WORK/mp.out" | sed -n 2p | "$J" -g mptcp)" = true ]

# --- zcc --mptcp to a zcs without it: falls back, says so once --------------
zcs_up plain -J
in_lo "$ZCC" --mptcp -J -R 3 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
check "zcc --mptcp to a plain zcs: exit 0" [ $? -eq 0 ]
check "zcc: one fall-back line over 3 runs, from the kernel's answer" \
	[ "$(grep -c 'fell back to TCP (the kernel.s TCP_IS_MPTCP is 0)' "$TMP/zcc.err")" -eq 1 ]
check "zcc: nothing else on stderr" [ "$(grep -vc 'page cache' "$TMP/zcc.err")" -eq 1 ]
check "zcc env: mptcp false, mptcp_asked true" \
	[ "$("$J" -E env -g mptcp "$TMP/zcc.out") $("$J" -E env -g mptcp_asked "$TMP/zcc.out")" = "false true" ]
stop_bg "$ZCS_PID"
check "fall-back: 3 runs of $(json_get "$TMP/zcc.out" sent bytes | head -n 1) bytes, each received whole" \
	[ "$(json_get "$TMP/zcc.out" sent bytes | sort -u)" = "$(json_get "$WORK/plain.out" done bytes | sort -u)" ] &&
	[ "$(json_get "$WORK/plain.out" done bytes | wc -l)" -eq 3 ]

# --baseline: a TCP run set beside an MPTCP one names the change.
zcs_up base -J
in_lo "$ZCC" -J -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/tcp.json" 2>/dev/null
in_lo "$ZCC" --mptcp --baseline "$TMP/tcp.json" -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" \
	>"$TMP/zcc.out" 2>/dev/null
check "--baseline of a TCP run: $(grep '^changed:' "$TMP/zcc.out")" \
	grep -q '^changed: .*mptcp_asked off -> on' "$TMP/zcc.out"
in_lo "$ZCC" -J -P 2 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/p2.out" 2>/dev/null
check "zcc -P 2 without --mptcp: exit $?, env mptcp false (a TCP socket), not null" \
	[ "$("$J" -E env -g mptcp "$TMP/p2.out")" = false ]
stop_bg "$ZCS_PID"

# --- a plain zcc to zcs --mptcp: served as TCP -------------------------------
zcs_up mpl --mptcp -1 -J -d
in_lo "$ZCC" -J -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
check "plain zcc to zcs --mptcp: exit 0" [ $? -eq 0 ]
within 50 proc_ended "$ZCS_PID"
same_bytes "plain TCP to an MPTCP listener" "$TMP/zcc.out" "$WORK/mpl.out"
check "zcs -d: the connection is plain TCP" grep -q ': plain TCP (the kernel' "$WORK/mpl.err"
check "zcc env: mptcp false, mptcp_asked false" \
	[ "$("$J" -E env -g mptcp "$TMP/zcc.out") $("$J" -E env -g mptcp_asked "$TMP/zcc.out")" = "false false" ]

# --- every transmit method x every receive method, MPTCP on both ends ------
# Each works byte-exact or is refused by the kernel before its first byte,
# in one line naming the method and the kernel's error. zcs's zerocopy
# (TCP_ZEROCOPY_RECEIVE) is refused once per zcs, before any data is read.
for rx in $("$ZCS" -h | sed -n '/^Methods/,$s/^  \([a-z-]*\) .*/\1/p'); do
	zcs_up "rx-$rx" --mptcp -J -M "$rx" -T 10
	for tx in $(zcc_methods); do
		in_lo "$ZCC" --mptcp -J -M "$tx" -n 2 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" "$TMP/b" \
			>"$TMP/zcc.out" 2>"$TMP/zcc.err"
		rc=$?
		if grep -q 'refuses' "$TMP/zcc.err"; then
			check "-M $tx over MPTCP: refused in one line naming it, exit 1 ($rc): $(grep refuses "$TMP/zcc.err")" \
				[ $rc -eq 1 ] && [ "$(grep -c "^zcc: $tx: the kernel refuses" "$TMP/zcc.err")" -eq 1 ]
			continue
		fi
		[ "$rx" = zerocopy ] && break
		# zcs prints its done line before it closes, which zcc waits for.
		check "-M $tx to zcs -M $rx over MPTCP: exit $rc, byte-exact" [ $rc -eq 0 ] &&
			[ "$(json_get "$TMP/zcc.out" sent bytes)" = "$(json_get "$WORK/rx-$rx.out" done bytes | tail -n 1)" ]
	done
	if [ "$rx" != zerocopy ]; then
		check "zcs -M $rx: the refused methods' connections carried 0 bytes" \
			[ "$(json_get "$WORK/rx-$rx.out" broken bytes | sort -u)" = 0 ]
	else
		# Refused on each MPTCP connection, before any data is read;
		# a plain TCP sender is served still.
		in_lo "$ZCC" -J -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
		check "zcs --mptcp -M zerocopy: an MPTCP connection refused in one line, before any data: $(cat "$WORK/rx-$rx.err")" \
			[ "$(grep -c 'zerocopy: mmap() of the socket.*an MPTCP connection; plain TCP senders are still served' "$WORK/rx-$rx.err")" -eq 1 ]
		sent=$(json_get "$TMP/zcc.out" sent bytes)
		check "zcs --mptcp -M zerocopy: a plain TCP sender after it served byte-exact ($sent), the only done line" \
			[ -n "$sent" ] && [ "$sent" = "$(json_get "$WORK/rx-$rx.out" done bytes)" ]
	fi
	stop_bg "$ZCS_PID"
done

# A comma list: the refused variants leave, the others are compared (with
# io_uring switched off, uring-zc is left out before connecting).
zcs_up cmp --mptcp -J
in_lo "$ZCC" --mptcp -M sendfile,uring-zc,send -R 2 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" \
	>"$TMP/zcc.out" 2>"$TMP/zcc.err"
check "-M sendfile,uring-zc,send --mptcp: exit 0 ($?), one line for uring-zc: $(cat "$TMP/zcc.err")" \
	[ "$(grep -c '^zcc: -M uring-zc: uring-zc: the kernel refuses IORING_OP_SEND_ZC.*compared without it$\|^zcc: left out: uring-zc: the kernel refuses io_uring (sysctl kernel.io_uring_disabled' "$TMP/zcc.err")" -eq 1 ]
check "the comparison holds sendfile and send, 2 rounds each, no uring-zc" \
	[ "$(grep -c '^round [12]/2 \(sendfile\|send\):' "$TMP/zcc.out") $(grep -c 'uring-zc' "$TMP/zcc.out")" = "4 0" ] &&
	grep -q '^send  .*[0-9]' "$TMP/zcc.out"
stop_bg "$ZCS_PID"

# -P: each stream's own word and subflows; a refused variant still leaves.
zcs_up mpp --mptcp -J
in_lo "$ZCC" --mptcp -J -P 2 -M sendfile -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" \
	>"$TMP/zcc.out" 2>"$TMP/zcc.err"
check "zcc --mptcp -P 2: exit $?, each stream event says mptcp true" \
	[ "$("$J" -E stream -g mptcp "$TMP/zcc.out" | tr '\n' ' ')" = "true true " ]
check "zcc --mptcp -P 2: each stream lists a subflow that carried bytes" \
	[ "$(grep '"event":"stream"' "$TMP/zcc.out" | grep -c '"subflows":\[{"local":"127.0.0.1 port [0-9]*".*"bytes_sent":[1-9]')" -eq 2 ]
# A subflow torn down once zcs has read all can stay listed a while with
# its addresses and counters wiped: it must show as gone, with its figures
# as last seen, never as a subflow to port 0 (about one run in twenty
# caught it here before the fix, so it is tried a dozen times).
_bad=0
for _i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	in_lo "$ZCC" --mptcp -J -P 2 -M sendfile -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" \
		>"$TMP/zcc.rep" 2>>"$TMP/zcc.err" || _bad=$((_bad + 1))
	grep '"event":"stream"' "$TMP/zcc.rep" >"$TMP/zcc.st"
	[ "$(grep -c '"bytes_sent":[1-9]' "$TMP/zcc.st")" -eq 2 ] || _bad=$((_bad + 1))
	grep -q 'port 0"' "$TMP/zcc.st" && _bad=$((_bad + 1))
done
check "zcc --mptcp -P 2, 12 runs: every stream's subflows carried bytes, none listed to port 0 ($_bad bad)" \
	[ "$_bad" -eq 0 ]
check "--mptcp -M sendfile: the sent line says the kernel reports no copying" \
	[ "$("$J" -E sent -g copy_unreported "$TMP/zcc.out")" = true ]
in_lo "$ZCC" --mptcp -P 2 -d -M sendfile -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" \
	>"$TMP/zcc.out" 2>"$TMP/zcc.err"
check "zcc --mptcp -P 2 -d: a subflow line for each stream" \
	[ "$(grep -c '^zcc: stream [12]: subflow 127.0.0.1 port [0-9]* -> 127.0.0.1 port' "$TMP/zcc.err")" -eq 2 ]
check "--mptcp -M sendfile, text: the sent line says so" \
	grep -q '^sent: .*(--mptcp: the kernel does not report whether sendfile copied; -M sendfile,send -c compares)' "$TMP/zcc.out"
in_lo "$ZCC" --mptcp -J -M send -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zcc.out" 2>/dev/null
check "--mptcp -M send (a copy by design): no such key" \
	[ -z "$("$J" -E sent -g copy_unreported "$TMP/zcc.out" 2>/dev/null)" ]
in_lo "$ZCC" --mptcp -P 2 -M zerocopy,send -R 2 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" \
	>"$TMP/zcc.out" 2>"$TMP/zcc.err"
check "-P 2 -M zerocopy,send --mptcp: exit 0 ($?), one line for zerocopy: $(cat "$TMP/zcc.err")" \
	[ "$(grep -c '^zcc: -M zerocopy: zerocopy: the kernel refuses MSG_ZEROCOPY.*compared without it' "$TMP/zcc.err")" -eq 1 ] &&
	[ "$(grep -c '^round [12]/2 send:' "$TMP/zcc.out")" -eq 2 ]
in_lo "$ZCC" --mptcp -P 2 -M zerocopy -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
check "-P 2 -M zerocopy --mptcp alone: exit 1 ($?), the kernel's refusal named" \
	grep -q 'zerocopy: the kernel refuses MSG_ZEROCOPY' "$TMP/zcc.err"
stop_bg "$ZCS_PID"

usage_refused "zcc -C --mptcp" "$ZCC" -C --mptcp

# --- net.mptcp.enabled=0 in a namespace of our own ----------------------------
if netns_new "$off" && ip -n "$off" link set lo up &&
	ip netns exec "$off" sysctl -qw net.mptcp.enabled=0 2>"$TMP/sysctl.err"; then
	timeout 20 ip netns exec "$off" "$ZCC" --mptcp -s 127.0.0.1 "$TMP/no-such-file" \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "net.mptcp.enabled=0: zcc --mptcp exit 1 ($rc), one line naming the sysctl, before the file: $(cat "$TMP/err")" \
		[ $rc -eq 1 ] && [ "$(grep -c '' "$TMP/err")" -eq 1 ] &&
		grep -q 'net.mptcp.enabled is 0' "$TMP/err" && [ ! -s "$TMP/out" ]
	timeout 20 ip netns exec "$off" "$ZCS" --mptcp -p 0 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "net.mptcp.enabled=0: zcs --mptcp exit 1 ($rc), one line, never listening: $(cat "$TMP/err")" \
		[ $rc -eq 1 ] && [ "$(grep -c '' "$TMP/err")" -eq 1 ] &&
		grep -q 'net.mptcp.enabled is 0' "$TMP/err" && [ ! -s "$TMP/out" ]
else
	skip "net.mptcp.enabled=0: cannot set it in a namespace: $(cat "$TMP/sysctl.err")"
fi

finish
