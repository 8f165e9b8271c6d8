#!/bin/sh
# Addresses as users give them (lib/wire/net.c), in a network namespace of
# our own: an IPv6-only host (lo up, a global IPv6 address, no IPv4 but
# lo's 127.0.0.1) where -s 127.0.0.1, 0 and localhost still reach this
# machine; link-local addresses with and without their interface; the
# bracket forms ([addr], [addr%if]) users paste, for zcc -s and zcs -a.
# Needs root and ip(8); skipped otherwise.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
ZCS=$ZC_BIN/zcs
ns=zc-net$$

if ! netns_new "$ns"; then
	skip "cannot make a network namespace (not root, or no ip)"
	finish
fi

# No duplicate address detection: the addresses are usable at once.
ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
if ! { ip -n "$ns" link set lo up && ip -n "$ns" link add v0 type veth peer name v1 &&
	ip -n "$ns" link set v0 up && ip -n "$ns" link set v1 up &&
	ip -n "$ns" addr add 2001:db8::1/64 dev v0 nodad; } 2>"$TMP/err"; then
	skip "cannot set up the namespace's links: $(cat "$TMP/err")"
	finish
fi
# The link-local address of v1 (the kernel makes one when the link is up).
ll=
within 50 eval 'll=$(ip -n "$ns" -6 -o addr show dev v1 scope link |
	sed -n "s|.* inet6 \(fe80:[0-9a-f:]*\)/.*|\1|p" | head -n 1); [ -n "$ll" ]'
v4=$(ip -n "$ns" -4 -o addr show | awk '{ print $4 }' | tr '\n' ' ')
check "the namespace is IPv6-only: its one IPv4 address is lo's ($v4)" \
	test "$v4" = "127.0.0.1/8 "
check "v1 has a link-local address ($ll)" test -n "$ll"

head -c 5000 /dev/urandom >"$TMP/a"
ZCS_PREFIX="ip netns exec $ns"
zcs_up zcs
port=$ZCS_PORT

# reaches HOST: zcc -s HOST sends the file to zcs in the namespace.
reaches() {
	timeout 20 ip netns exec "$ns" "$ZCC" -T 5 -s "$1" -p "$port" "$TMP/a" \
		>"$TMP/out" 2>"$TMP/err"
	_rc=$?
	check "-s '$1' on an IPv6-only host: sent, exit 0 ($_rc: $(cat "$TMP/err"))" \
		eval '[ "$_rc" -eq 0 ] && grep -q "^sent: 5012 bytes" "$TMP/out"'
}
for h in 127.0.0.1 0 localhost ::1 '[::1]' 2001:db8::1 '[2001:db8::1]' \
	"$ll%v1" "[$ll%v1]"; do
	reaches "$h"
done

# refused HOST WORD...: zcc -s HOST fails, exit 1, one line holding every WORD.
refused() {
	_h=$1
	shift
	timeout 20 ip netns exec "$ns" "$ZCC" -T 5 -s "$_h" -p "$port" "$TMP/a" \
		>"$TMP/out" 2>"$TMP/err"
	_rc=$?
	_ok=1
	[ "$_rc" -eq 1 ] && [ "$(grep -c '' "$TMP/err")" -eq 1 ] || _ok=0
	for _w; do grep -qF -- "$_w" "$TMP/err" || _ok=0; done
	if [ $_ok = 1 ]; then
		ok "-s '$_h': exit 1, one line: $(cat "$TMP/err")"
	else
		not_ok "-s '$_h': want exit 1 and one line with '$*', got $_rc: $(cat "$TMP/err")"
	fi
}
refused "$ll" "add %INTERFACE" "here: " "v1" "$ll%v1"
refused "[$ll]" "add %INTERFACE" "$ll%v1"
refused "$ll%zc-nosuch" "no interface named zc-nosuch"
refused "[::1]:$port" "the port goes apart"
refused "[::1" "no ']'"

# zcs -a: the same forms.
timeout 5 ip netns exec "$ns" "$ZCS" -p 0 -a "$ll" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "zcs -a '$ll': exit 1, one line saying to add %INTERFACE ($rc: $(cat "$TMP/err"))" \
	eval '[ "$rc" -eq 1 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ] &&
	grep -q "add %INTERFACE" "$TMP/err"'
stop_bg "$ZCS_PID"
zcs_up zcs2 -a "[$ll%v1]"
timeout 20 ip netns exec "$ns" "$ZCC" -T 5 -s "$ll%v1" -p "$ZCS_PORT" "$TMP/a" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "zcs -a '[$ll%v1]' listens there; zcc reaches it ($rc: $(cat "$TMP/err"))" \
	eval '[ "$rc" -eq 0 ] && grep -q "^sent: 5012 bytes" "$TMP/out"'
stop_bg "$ZCS_PID"

finish
