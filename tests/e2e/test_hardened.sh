#!/bin/sh
# needs: meter
# A host that refuses a method: zcc asks the kernel before connecting, so
# a refused method opens no connection; a lone method is one line with the
# kernel's true reason and exit 1, a method of a list is left out with
# that line and the rest run to their table, and make demo runs to its
# table naming what it left out. io_uring is refused by a seccomp filter
# of our own (tests/tools/noring, as Docker's default profile does), never
# by the machine's sysctl; the limits by ulimit -l for an unprivileged user
# (setpriv), root's CAP_IPC_LOCK being above them.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
NORING=$ZC_TESTBIN/noring
head -c 300000 /dev/urandom >"$TMP/a"
zcs_up zcs -J

# refused WHAT WANT COMMAND...: exit 1, one line on stderr holding WANT.
refused() {
	_w=$1 _want=$2
	shift 2
	timeout 30 "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	check "$_w: exit 1, one line ($_rc: $(cat "$TMP/err"))" \
		[ "$_rc" -eq 1 ] && [ "$(grep -c '' "$TMP/err")" -eq 1 ]
	check "$_w: the reason" grep -q -- "$_want" "$TMP/err"
}
# connections: how many connections zcs has seen end, whole or not.
connections() { grep -c '"event":"\(done\|broken\)"' "$WORK/zcs.out"; }

# --- io_uring refused by a seccomp filter --------------------------------------
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null)" != 0 ]; then
	skip "kernel.io_uring_disabled is not 0 here: io_uring is refused already"
	finish
fi
before=$(connections)
refused "seccomp EPERM, -M uring" \
	"uring: io_uring_setup is refused (EPERM) with kernel.io_uring_disabled at 0: a seccomp filter" \
	"$NORING" "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -M uring "$TMP/a"
check "seccomp EPERM: the sysctl is not blamed" sh -c "! grep -q 'disabled is' '$TMP/err'"
refused "seccomp EPERM, -M uring-zc" "uring-zc: io_uring_setup is refused (EPERM)" \
	"$NORING" "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -M uring-zc "$TMP/a"
refused "seccomp ENOSYS, -M uring" "uring: the kernel has no io_uring" \
	"$NORING" -e ENOSYS "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -M uring "$TMP/a"
timeout 30 "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >/dev/null 2>&1
within 100 sh -c "[ \$(grep -c '\"event\":\"done\"' '$WORK/zcs.out') -gt $before ]"
check "no connection for a refused method: zcs saw only the one run after ($before -> $(connections))" \
	[ "$(connections)" -eq $((before + 1)) ]
check "zcs logged no cut stream" sh -c "! grep -q truncated '$WORK/zcs.out' '$WORK/zcs.err'"

# In a list: left out with one line, the rest to their table.
"$NORING" "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -M sendfile,uring-zc,send,uring -R 2 -n 2 \
	"$TMP/a" >"$TMP/list" 2>"$TMP/list.err"
check "a list: exit 0 ($(cat "$TMP/list.err"))" [ $? -eq 0 ]
check "a list: uring and uring-zc left out, a line each" \
	[ "$(grep -c '^zcc: left out: uring\(-zc\)*: io_uring_setup is refused (EPERM)' "$TMP/list.err")" -eq 2 ]
check "a list: the table of the rest" \
	sh -c "grep -q '^compare: 2 rounds, each variant against sendfile' '$TMP/list' &&
		grep -Eq '^send +[0-9]+ ' '$TMP/list' && ! grep -q '^uring' '$TMP/list'"
"$NORING" "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -M sendfile,uring -R 2 -n 2 \
	"$TMP/a" >"$TMP/one" 2>"$TMP/one.err"
check "a list left with one method: its table still ($(cat "$TMP/one.err"))" \
	sh -c "[ $? -eq 0 ] && grep -Eq '^sendfile +[0-9]+ .*\(reference\)\$' '$TMP/one'"
check "a lone reference row: no coverage of a ratio there is not" \
	sh -c "! grep -q '^interval: distribution-free' '$TMP/one'"
refused "a list of refused methods only" "every method of the list is refused" \
	"$NORING" "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -M uring,uring-zc "$TMP/a"

# --- limits, for a user without CAP_IPC_LOCK ---------------------------------------
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "RLIMIT_MEMLOCK: needs root and setpriv to run as another user"
else
	pub=$(mktemp -d /tmp/zc-hard.XXXXXX)
	remove_pub() { rm -rf "$pub"; }
	on_cleanup remove_pub
	cp "$ZCC" "$TMP/a" "$pub/" && chmod 755 "$pub" "$pub/zcc" && chmod 644 "$pub/a"
	# as_nobody LIMIT ARGS...: a command, zcc with ulimit -l LIMIT (KiB) as nobody.
	nobody='l=$1 && shift && ulimit -l "$l" &&
		exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"'
	as_nobody() {
		_l=$1
		shift
		set -- sh -c "$nobody" sh "$_l" "$pub/zcc" -s 127.0.0.1 -p "$ZCS_PORT" "$@" "$pub/a"
		"$@"
	}
	before=$(connections)
	refused "ulimit -l 0, -M uring" \
		"uring: io_uring_setup: the rings are over RLIMIT_MEMLOCK (ulimit -l is 0): try ulimit -l 64" \
		sh -c "$nobody" sh 0 "$pub/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -M uring "$pub/a"
	refused "ulimit -l 64, -M uring-zc -b 4K" \
		"uring-zc: the 512 KiB it may pin at once are over RLIMIT_MEMLOCK (ulimit -l is 64): try ulimit -l 1024" \
		sh -c "$nobody" sh 64 "$pub/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -M uring-zc -b 4K "$pub/a"
	refused "ulimit -l 0, -M zerocopy" \
		"zerocopy: the 68 KiB it may pin at once are over RLIMIT_MEMLOCK (ulimit -l is 0): try ulimit -l 256" \
		sh -c "$nobody" sh 0 "$pub/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -M zerocopy "$pub/a"
	if [ "$(cat /proc/sys/fs/pipe-max-size)" -lt 4194304 ]; then
		refused "-M splice -b 4M over fs.pipe-max-size" \
			"splice: a pipe for a chunk of 4194304 bytes (fs.pipe-max-size is [0-9]*: raise it" \
			sh -c "$nobody" sh 8192 "$pub/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -M splice -b 4M "$pub/a"
	else
		skip "-M splice -b 4M: fs.pipe-max-size allows a pipe of 4 MiB here"
	fi
	check "no connection for a method over the limit ($before -> $(connections))" \
		[ "$(connections)" -eq "$before" ]
	as_nobody 0 -M sendfile,zerocopy,uring,send -R 2 -n 2 >"$TMP/lim" 2>"$TMP/lim.err"
	check "ulimit -l 0, a list: exit 0 ($(cat "$TMP/lim.err"))" [ $? -eq 0 ]
	check "ulimit -l 0, a list: zerocopy and uring left out naming the limit" \
		[ "$(grep -c '^zcc: left out: .*RLIMIT_MEMLOCK (ulimit -l is 0)' "$TMP/lim.err")" -eq 2 ]
	check "ulimit -l 0, a list: the table of the rest" grep -Eq '^send +[0-9]+ ' "$TMP/lim"
fi

# --- MSG_ZEROCOPY's notifications over net.core.optmem_max ----------------------------
# The sysctl is the network namespace's: set in one of our own.
ns=zc-hard$$
if netns_new "$ns" && ip -n "$ns" link set lo up &&
	ip netns exec "$ns" sysctl -qw net.core.optmem_max=256 2>/dev/null &&
	[ "$(ip netns exec "$ns" cat /proc/sys/net/core/optmem_max)" = 256 ]; then
	ZCS_PREFIX="ip netns exec $ns"
	zcs_up optmem
	refused "zerocopy with optmem_max 256" \
		"zerocopy: send to 127.0.0.1 port $ZCS_PORT: No buffer space available (the notifications: net.core.optmem_max is 256: raise it)" \
		ip netns exec "$ns" "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -M zerocopy -n 5 "$TMP/a"
	stop_bg "$ZCS_PID"
	ZCS_PREFIX=
else
	skip "optmem_max: no namespace of our own with its own net.core.optmem_max here"
fi

# --- make demo with io_uring refused ------------------------------------------------
meter_slot
TMPDIR=$TMP ZC_DEMO_QUICK=1 ZC_DEMO_PLOT=$TMP/demo.svg ZC_DEMO_RR_PLOT=$TMP/demo-rr.svg "$NORING" sh "$ZC_TOP/tests/demo.sh" \
	>"$TMP/demo" 2>"$TMP/demo.err"
rc=$?
check "the demo with io_uring refused: exit 0 (got $rc)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/# /' "$TMP/demo" "$TMP/demo.err"
check "the demo: its table" grep -q '^compare: 3 rounds, each variant against sendfile' "$TMP/demo"
check "the demo names what it left out, and why" \
	[ "$(grep -c '^left out by this kernel: uring\(-zc\)*: io_uring_setup is refused (EPERM)' "$TMP/demo")" -eq 2 ]
check "the demo: a row for the others" grep -Eq '^send +[0-9]+ ' "$TMP/demo"
finish
