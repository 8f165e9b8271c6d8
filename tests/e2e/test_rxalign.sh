#!/bin/sh
# zcs reads into a buffer on a 64-byte line (a page's start), whatever the
# read size: the kernel's copy to user memory runs slower to an address
# off the line, and malloc put a buffer of 128 KiB or more 16 bytes past
# a page. Counted by tests/shim_recvcalls.so, which records each receive
# call's buffer address: with -M read (the default) and -M discard, at -b
# 16 KiB (the default), 64 KiB, 128 KiB and 350 KiB, no call on the socket
# copies to a misaligned buffer, and every byte is counted.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

ZCC=$ZC_BIN/zcc
shim_ready recvcalls

head -c 131072 /dev/urandom >"$TMP/a"
LOOPS=50
WANT=$((4 + LOOPS * (4 + 4 + 131072)))

# aligned METHOD [SIZE]: zcs -M METHOD [-b SIZE] under the shim receives
# LOOPS loops of one 128 KiB file, whole, and no receive call on the
# socket copies to a buffer off a 64-byte line.
aligned() {
	: >"$TMP/count"
	LD_PRELOAD=$SHIM ZC_SHIM_RECVCALLS=$TMP/count zcs_start -1 -a 127.0.0.1 -M "$1" ${2:+-b "$2"} ||
		{ not_ok "-M $1 ${2:+-b $2}: zcs started: $(cat "$TMP/zcs.err")"; return; }
	timeout 30 "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n $LOOPS "$TMP/a" >"$TMP/out" 2>&1
	_rc=$?
	wait "$ZCS_PID"
	_zrc=$?
	# Every process writes a line at exit (the parent and the child).
	_calls=$(awk '$1 == "calls" { c += $2 } END { print c + 0 }' "$TMP/count")
	_off=$(awk '$11 == "misaligned" { m += $12 } END { print m + 0 }' "$TMP/count")
	if [ "$_rc" -ne 0 ] || [ "$_zrc" -ne 0 ] || ! grep -q "^done: $WANT bytes" "$TMP/zcs.out"; then
		not_ok "-M $1 ${2:+-b $2}: zcc exit $_rc, zcs exit $_zrc: $(cat "$TMP/out" "$TMP/zcs.out" "$TMP/zcs.err")"
	elif ! grep -q ' misaligned [0-9]*$' "$TMP/count"; then
		not_ok "-M $1 ${2:+-b $2}: the shim wrote no count: $(cat "$TMP/count")"
	elif [ "$_calls" -eq 0 ] || [ "$_off" -ne 0 ]; then
		not_ok "-M $1 ${2:+-b $2}: $_off of $_calls receive calls copied to a buffer off a 64-byte line"
	else
		ok "-M $1 ${2:+-b $2}: none of $_calls receive calls copied to a buffer off a 64-byte line," \
			"every byte counted"
	fi
}

aligned read
aligned read 65536
aligned read 131072
aligned read 358400
aligned discard 131072

finish
