#!/bin/sh
# Where zcs's receive calls copy to. The kernel's copy to user memory runs
# slower when source and destination sit at different offsets within a
# 64-byte line; a file sent from the page cache (zcc's default) comes with
# its byte X at X mod 64 of a line, and the 2001 protocol's words shift
# the stream. With -M read (the default), at -b 16 KiB (the default), 64
# KiB, 128 KiB and 350 KiB, most of the file bytes copied land at their
# own offset within a line (zcs picks where in its buffer each read goes),
# and every byte is counted; with -M discard,
# whose header words alone are copied, no call copies to a buffer off a
# line. Counted by tests/shim_recvcalls.so, which follows each receive
# call's buffer through the stream (ZC_SHIM_RECV_FILE: one file a loop).
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

shim_ready recvcalls

head -c 131072 /dev/urandom >"$TMP/a"
LOOPS=50
WANT=$((4 + LOOPS * (4 + 4 + 131072)))

# lined [SIZE]: zcs [-b SIZE] under the shim receives LOOPS loops of one
# 128 KiB file, whole, every file byte copied once, and enough of them at
# their own offset within a 64-byte line: a read no larger than a file
# lines up the file it mostly holds, so half of them or more (76% to 99%
# in runs by hand); a larger read holds parts of several files, each off
# the last by the words between them, and lines up one whole one, so
# 128 KiB / SIZE of the bytes, less a tenth (47% to 69% by hand, at 350
# KiB). The reads at the buffer's start that came before lined up 12% to
# 14% here, and 24% at 350 KiB.
lined() {
	_what="-M read${1:+ -b $1}" _sz=${1:-16384}
	export ZC_SHIM_RECV_FILE=131072
	shim_transfer "$_what" -M read ${1:+-b "$1"}
	_rc=$?
	unset ZC_SHIM_RECV_FILE
	[ $_rc -eq 0 ] || return
	_data=$(shim_sum data)
	_lined=$(shim_sum lined)
	if [ "$_sz" -le 131072 ]; then
		_need="half" _enough=$((_lined * 2 >= _data))
	else
		_need="a file a read" _enough=$((_lined * _sz * 10 >= _data * 131072 * 9))
	fi
	if [ "$_data" -eq $((LOOPS * 131072)) ] && [ "$_enough" = 1 ]; then
		ok "$_what: $_lined of $_data file bytes copied to their own offset within a 64-byte line ($_need or more)"
	else
		not_ok "$_what: $_lined of $_data file bytes (of $((LOOPS * 131072))) copied to their own offset within a 64-byte line: under $_need"
	fi
}

# aligned METHOD [SIZE]: zcs -M METHOD [-b SIZE] under the shim receives
# LOOPS loops of one 128 KiB file, whole, and no receive call on the
# socket copies to a buffer off a 64-byte line.
aligned() {
	_what="-M $1${2:+ -b $2}"
	shim_transfer "$_what" -M "$1" ${2:+-b "$2"} || return
	_calls=$(shim_sum calls)
	_off=$(shim_sum misaligned)
	if [ "$_calls" -eq 0 ] || [ "$_off" -ne 0 ]; then
		not_ok "$_what: $_off of $_calls receive calls copied to a buffer off a 64-byte line"
	else
		ok "$_what: none of $_calls receive calls copied to a buffer off a 64-byte line," \
			"every byte counted"
	fi
}

lined
lined 65536
lined 131072
lined 358400
aligned discard 131072

finish
