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

shim_ready recvcalls

head -c 131072 /dev/urandom >"$TMP/a"
LOOPS=50
WANT=$((4 + LOOPS * (4 + 4 + 131072)))

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

aligned read
aligned read 65536
aligned read 131072
aligned read 358400
aligned discard 131072

finish
