#!/bin/sh
# zcc -P: a stop signal ends the run promptly while streams are still
# connecting. A stream's thread has the signals blocked, so its connect()
# is not cut short by them; the stop must reach it another way, or
# Ctrl-C waits for -T (60 s by default; with -T 0, the kernel's two
# minutes). The server is a neighbour whose MAC nobody owns (the other
# end of a veth pair, with no address) in a namespace of our own: it
# never answers a SYN.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
ns=zcc-ps$$

remove_ns() {
	ip netns delete "$ns" 2>/dev/null
}

if ! ip netns add "$ns" 2>/dev/null; then
	skip "-P stopped while connecting: cannot make a network namespace (not root, or no ip)"
	finish
fi
on_cleanup remove_ns
if ! { ip -n "$ns" link add v0 type veth peer name v1 &&
	ip -n "$ns" addr add 192.0.2.1/24 dev v0 &&
	ip -n "$ns" link set v0 up && ip -n "$ns" link set v1 up &&
	ip -n "$ns" neigh add 192.0.2.2 lladdr 02:00:00:00:00:99 dev v0 nud permanent; }; then
	not_ok "cannot set up the namespace $ns"
	finish
fi
printf 'data\n' >"$TMP/a"

# zcc -P 4 to nobody, SIGINT once its four SYNs are out: exit 130 within
# 2 s, the interrupted sent: line of nothing, no process of it left in the
# namespace.
for T in "" "-T 0"; do
	# shellcheck disable=SC2086
	bg ip netns exec "$ns" env --default-signal=INT "$ZCC" -P 4 $T -s 192.0.2.2 "$TMP/a" \
		>"$TMP/out" 2>"$TMP/err"
	zpid=$!
	within 100 ip netns exec "$ns" sh -c '. "$ZC_TOP/tests/harness/sock.sh"; tcp_conns 0 4 syn-sent'
	timed_start
	kill -INT "$zpid"
	within 50 proc_ended "$zpid"
	timed_end
	kill -KILL "$zpid" 2>/dev/null
	wait "$zpid"
	RC=$?
	forget_bg "$zpid"
	left=$(ip netns pids "$ns" 2>/dev/null | wc -l)
	what="-P 4 ${T:+$T }connecting to nobody, SIGINT"
	check "$what: exit $RC (130), $left processes left: $(cat "$TMP/out" "$TMP/err")" \
		eval '[ "$RC" -eq 130 ] && [ "$left" -eq 0 ] &&
		grep -q "^sent: 0 bytes .*(interrupted)$" "$TMP/out" && [ ! -s "$TMP/err" ]'
	timed_check "$what: ended within 2 s" '[ "$TIMED_MS" -lt $((2000 + SLACK_MS)) ]'
done

finish
