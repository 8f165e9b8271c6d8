#!/bin/sh
# The protocol's header words cost zcs no receive call of their own where
# the kernel lets them come with data: counted by tests/shim_recvcalls.so,
# zcs -M splice and -M zerocopy take the words in the call that takes the
# data around them (none of their calls on the socket asks for fewer than
# 16 bytes); -M discard, whose MSG_TRUNC cannot copy, reads all the words
# between two files in one call (one a file, not one a word); -M read
# reads whole buffers. Every byte is still counted.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

shim_ready recvcalls

head -c 131072 /dev/urandom >"$TMP/a"
LOOPS=200
WANT=$((4 + LOOPS * (4 + 4 + 131072)))

# counted METHOD MOST_SMALL: zcs -M METHOD under the shim receives LOOPS
# loops of one 128 KiB file, whole, with at most MOST_SMALL calls on the
# socket that ask for fewer than 16 bytes (header words alone).
counted() {
	shim_transfer "-M $1" -M "$1" || return
	_calls=$(shim_sum calls)
	_small=$(shim_sum small)
	if [ "$_small" -gt "$2" ]; then
		not_ok "-M $1: $_small of $_calls receive calls asked for under 16 bytes" \
			"(header words alone) in $LOOPS loops; want at most $2"
	else
		ok "-M $1: $_calls receive calls, $_small of them under 16 bytes (at most $2)," \
			"$LOOPS loops, every byte counted"
	fi
}

# A tenth of the loops as slack, for words that arrive cut in two or a
# file's last bytes taken alone; before, each of these methods read every
# word in a call of its own: 2 * LOOPS + 1 of them.
counted read $((LOOPS / 10))
counted splice $((LOOPS / 10))
counted zerocopy $((LOOPS / 10))
counted discard $((LOOPS + 1 + LOOPS / 10))

finish
