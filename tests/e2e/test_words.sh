#!/bin/sh
# The protocol's header words never cost zcc a socket call of their own:
# counted by tests/shim_sockcalls.so, every method that zcc drives through
# the C library makes per file just the calls its data needs (sendfile:
# the words by send(MSG_MORE), held for the file, and one sendfile(); the
# chunked methods: one per chunk), and no call on the socket carries fewer
# than 16 bytes unless held by MSG_MORE for the data behind it. No method
# corks the connection (TCP_CORK, seen by the shim's setsockopt) unless -k
# asks, as in 2001: what a segment's end costs is the method's. The
# io_uring methods send from inside the kernel, out of a shim's sight.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
SHIM=$ZC_TESTBIN/shim_sockcalls.so
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

if [ ! -f "$SHIM" ]; then
	skip "no $SHIM: build the tests first"
	finish
fi

# Two files: two chunks of 64 KiB, and three and a bit.
head -c 131072 /dev/urandom >"$TMP/a"
head -c 200000 /dev/urandom >"$TMP/b"
LOOPS=50
zcs_start -a 127.0.0.1 || { not_ok "zcs started"; finish; }

# counted METHOD CALLS_PER_LOOP CORK [ZCC-OPTION]: zcc -M METHOD under the
# shim sends the whole stream with at most CALLS_PER_LOOP socket calls a
# loop (a tenth more for sends the kernel cut short), none that carries
# words alone, and every call (CORK all) or none (CORK none) on a corked
# socket.
counted() {
	: >"$TMP/count"
	# shellcheck disable=SC2086 # ${4:-}: no word at all when no option
	LD_PRELOAD=$SHIM ZC_SHIM_SOCKCALLS=$TMP/count timeout 30 "$ZCC" -M "$1" ${4:-} \
		-s 127.0.0.1 -p "$ZCS_PORT" -n $LOOPS "$TMP/a" "$TMP/b" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	_want=$((4 + LOOPS * (4 + 8 + 131072 + 200000)))
	_how="-M $1${4:+ $4}"
	# "calls N small M stream S corked K": the shim's line, into $4..$11.
	# shellcheck disable=SC2046
	set -- "$1" "$2" "$3" $(cat "$TMP/count")
	_most=$(( $2 * LOOPS + $2 * LOOPS / 10 ))
	case $3 in all) _corked=$9 ;; *) _corked=0 ;; esac
	if [ "$_rc" -ne 0 ] || ! grep -q "^sent: $_want bytes" "$TMP/out"; then
		not_ok "$_how: exit $_rc: $(cat "$TMP/out" "$TMP/err")"
	elif [ "$4" != calls ] || [ "$7" != 0 ] || [ "$5" -gt "$_most" ]; then
		not_ok "$_how: $5 socket calls for $LOOPS loops of 2 files (at most $_most)," \
			"$7 of them under 16 bytes (header words alone; want 0)"
	elif [ "${10}" != corked ] || [ "${11}" != "$_corked" ]; then
		not_ok "$_how: ${11:-no count} of the $9 calls on the TCP socket made while" \
			"it was corked (want $_corked)"
	else
		ok "$_how: $5 socket calls for $LOOPS loops of 2 files (at most $_most)," \
			"none for words alone; ${11} of the $9 on the TCP socket corked"
	fi
}

counted sendfile 4 none
counted sendfile 4 all -k
counted send 6 none
counted send 6 all -k
counted write 6 none
counted mmap 6 none
counted splice 6 none
counted zerocopy 6 none

# A kernel that refuses TCP_CORK (the shim says ENOPROTOOPT): -k stops
# with one line naming it, before a byte is sent.
for how in "-M sendfile -k" "-M send -k"; do
	# shellcheck disable=SC2086
	ZC_SHIM_FAIL_CORK=1 LD_PRELOAD=$SHIM timeout 30 "$ZCC" $how -s 127.0.0.1 \
		-p "$ZCS_PORT" "$TMP/a" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q 'TCP_CORK.*Protocol not available' "$TMP/err"; then
		ok "$how, TCP_CORK refused: exit 1, one line: $(cat "$TMP/err")"
	else
		not_ok "$how, TCP_CORK refused: exit $rc, want 1 and one line naming TCP_CORK:" \
			"$(cat "$TMP/out" "$TMP/err")"
	fi
done

# --- the bytes on the wire ------------------------------------------------------
# A file of several of sendfile's pieces and of splice's pipefuls, between
# two small ones and an empty one, two loops, byte for byte through
# tests/sink.
SINK=$ZC_TESTBIN/sink
printf 'abc' >"$TMP/w1"
: >"$TMP/w2"
head -c 3145733 /dev/urandom >"$TMP/w3"
{
	u32 2
	for _ in 1 2; do
		u32 4
		u32 3; cat "$TMP/w1"
		u32 0
		u32 3145733; cat "$TMP/w3"
		u32 3; cat "$TMP/w1"
	done
} >"$TMP/wire.want"
for m in sendfile splice zerocopy send mmap uring uring-zc; do
	: >"$TMP/sink.out"
	bg "$SINK" -o "$TMP/wire.got" >"$TMP/sink.out" 2>&1
	spid=$!
	wait_for "$TMP/sink.out" '^listening on port'
	port=$(sed -n 's/^listening on port //p' "$TMP/sink.out")
	timeout 20 "$ZCC" -s 127.0.0.1 -p "$port" -n 2 -M $m "$TMP/w1" "$TMP/w2" "$TMP/w3" "$TMP/w1" \
		>"$TMP/zcc.out" 2>&1
	rc=$?
	wait "$spid"
	if [ "$rc" -ne 0 ] && grep -q 'io_uring' "$TMP/zcc.out"; then
		skip "wire bytes (-M $m): $(head -1 "$TMP/zcc.out")"
	elif [ "$rc" -eq 0 ] && cmp -s "$TMP/wire.want" "$TMP/wire.got"; then
		ok "wire bytes (-M $m, a 3 MiB file among small ones): identical"
	else
		not_ok "wire bytes (-M $m): zcc exit $rc, $(cmp "$TMP/wire.want" "$TMP/wire.got" 2>&1)"
	fi
done

# zerocopy lends each file's words to the kernel from an arena of 64 KiB,
# reused once every send is notified: 24000 files of 4-byte words wrap it.
mkdir "$TMP/many"
i=0
while [ $i -lt 2000 ]; do printf 'x' >"$TMP/many/m$i"; i=$((i + 1)); done
zcs_start -1 -a 127.0.0.1 || { not_ok "zcs started"; finish; }
timeout 60 "$ZCC" -M zerocopy -s 127.0.0.1 -p "$ZCS_PORT" -n 12 "$TMP"/many/* >"$TMP/out" 2>"$TMP/err"
rc=$?
wait "$ZCS_PID"
zrc=$?
want=$((4 + 12 * (4 + 2000 * 5)))
check "zerocopy: 24000 files, the words' arena wrapped: zcc $rc, zcs $zrc, $(cat "$TMP/out" "$TMP/err")" \
	sh -c "[ $rc -eq 0 ] && [ $zrc -eq 0 ] && grep -q '^sent: $want bytes' '$TMP/out'"

finish
