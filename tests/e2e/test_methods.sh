#!/bin/sh
# zcc's zero-copy and io_uring methods when the kernel refuses them, played on
# any machine by tests/tools/shim_nozc.so: one line naming the method and why,
# exit 1, nothing sent by another method in its place.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

ZCC=$ZC_BIN/zcc
shim_ready nozc
if ! "$ZCC" -h 2>/dev/null | grep -q 'uring-zc'; then
	skip "this zcc has no -M uring-zc yet"
	finish
fi

head -c 300000 /dev/urandom >"$TMP/f"
zcs_start -a 127.0.0.1 || { not_ok "zcs started"; finish; }

# refused MODE METHOD PATTERN: under the shim in MODE, zcc -M METHOD exits 1
# with one line on stderr naming the method and matching PATTERN, and
# prints no sent line.
refused() {
	LD_PRELOAD=$SHIM ZC_SHIM_NOZC=$1 timeout 20 "$ZCC" -M "$2" -s 127.0.0.1 \
		-p "$ZCS_PORT" "$TMP/f" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	if [ "$_rc" -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	    grep -q "$2: .*$3" "$TMP/err" && ! grep -q sent "$TMP/out"; then
		ok "$1: -M $2 refused: $(cat "$TMP/err")"
	else
		not_ok "$1: -M $2: exit $_rc, stderr: $(cat "$TMP/err"), stdout: $(cat "$TMP/out")"
	fi
}

# EPERM is the sysctl only when it reads above 0; else a filter's.
eperm='refused (EPERM) with kernel.io_uring_disabled at 0: a seccomp filter'
[ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null)" = 0 ] ||
	eperm='refuses io_uring (sysctl kernel.io_uring_disabled is [12]'
refused eperm uring "$eperm"
refused eperm uring-zc "$eperm"
refused enosys uring 'no io_uring (ENOSYS'
refused enosys uring-zc 'no io_uring (ENOSYS'
# The shim hides SEND_ZC from a ring the kernel gave: none here, none to hide.
if method_refused uring-zc; then
	skip "nosendzc: -M uring-zc refused: $REFUSED"
else
	refused nosendzc uring-zc 'lacks IORING_OP_SEND_ZC'
fi
refused enosys zerocopy 'SO_ZEROCOPY.*Operation not supported'

# The probe is per opcode: without SEND_ZC, plain uring still sends
# (where the kernel allows io_uring at all).
if method_refused uring; then
	skip "nosendzc: -M uring still sends: $REFUSED"
else
	LD_PRELOAD=$SHIM ZC_SHIM_NOZC=nosendzc timeout 20 "$ZCC" -M uring -s 127.0.0.1 \
		-p "$ZCS_PORT" "$TMP/f" >"$TMP/out" 2>"$TMP/err"
	check "nosendzc: -M uring still sends ($(cat "$TMP/out" "$TMP/err"))" \
		grep -q '^sent: 300012 bytes' "$TMP/out"
fi

finish
