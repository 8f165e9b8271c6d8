#!/bin/sh
# The protocol's header words never cost zcc a socket call of their own:
# counted by tests/shim_sockcalls.so, every method that zcc drives through
# the C library makes per file just the calls its data needs (sendfile:
# the words by send(MSG_MORE), held for the file, and one sendfile(); the
# chunked methods: one per chunk), and no call on the socket carries fewer
# than 16 bytes unless held by MSG_MORE for the data behind it. No method
# corks the connection (TCP_CORK, asked of the socket at each call) unless
# -k asks, as in 2001. sendfile turns Nagle's algorithm off (TCP_NODELAY)
# for a file of 64 KiB or more and back on for a smaller one, and never on
# a corked connection; no other method touches it. The io_uring methods
# send from inside the kernel, out of a shim's sight.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

ZCC=$ZC_BIN/zcc
shim_ready sockcalls

# Two files: two chunks of 64 KiB, and three and a bit.
head -c 131072 /dev/urandom >"$TMP/a"
head -c 200000 /dev/urandom >"$TMP/b"
LOOPS=50
zcs_start -a 127.0.0.1 || { not_ok "zcs started"; finish; }

# counted METHOD CALLS_PER_LOOP CORK NODELAY [ZCC-OPTION]: zcc -M METHOD
# under the shim sends the whole stream with at most CALLS_PER_LOOP socket
# calls a loop (a tenth more for sends the kernel cut short), none that
# carries words alone, and every call (CORK all) or none (CORK none) on a
# corked socket, every call or none with TCP_NODELAY on (NODELAY likewise).
counted() {
	: >"$TMP/count"
	# shellcheck disable=SC2086 # ${5:-}: no word at all when no option
	LD_PRELOAD=$SHIM ZC_SHIM_SOCKCALLS=$TMP/count timeout 30 "$ZCC" -M "$1" ${5:-} \
		-s 127.0.0.1 -p "$ZCS_PORT" -n $LOOPS "$TMP/a" "$TMP/b" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	_want=$((4 + LOOPS * (4 + 8 + 131072 + 200000)))
	_how="-M $1${5:+ $5}"
	# "calls N small M stream S corked K nodelay D", a line from each
	# process that ran under the shim: summed, into $5..$9.
	# shellcheck disable=SC2046
	set -- "$1" "$2" "$3" "$4" $(awk '$1 == "calls" { c += $2; s += $4; t += $6; k += $8; d += $10 }
		END { print c + 0, s + 0, t + 0, k + 0, d + 0 }' "$TMP/count")
	_most=$(( $2 * LOOPS + $2 * LOOPS / 10 ))
	case $3 in all) _corked=$7 ;; *) _corked=0 ;; esac
	case $4 in all) _nodelay=$7 ;; *) _nodelay=0 ;; esac
	if [ "$_rc" -ne 0 ] || ! grep -q "^sent: $_want bytes" "$TMP/out"; then
		not_ok "$_how: exit $_rc: $(cat "$TMP/out" "$TMP/err")"
	elif ! grep -q '^calls ' "$TMP/count"; then
		not_ok "$_how: the shim wrote no count"
	elif [ "$6" != 0 ] || [ "$5" -gt "$_most" ]; then
		not_ok "$_how: $5 socket calls for $LOOPS loops of 2 files (at most $_most)," \
			"$6 of them under 16 bytes (header words alone; want 0)"
	elif [ "$8" != "$_corked" ]; then
		not_ok "$_how: $8 of the $7 calls on the TCP socket made while it was corked" \
			"(want $_corked)"
	elif [ "$9" != "$_nodelay" ]; then
		not_ok "$_how: $9 of the $7 calls on the TCP socket made with TCP_NODELAY on" \
			"(want $_nodelay)"
	else
		ok "$_how: $5 socket calls for $LOOPS loops of 2 files (at most $_most)," \
			"none for words alone; of the $7 on the TCP socket $8 corked," \
			"$9 with TCP_NODELAY"
	fi
}

counted sendfile 4 none all
counted sendfile 4 all none -k
counted send 6 none none
counted send 6 all none -k
counted write 6 none none
counted mmap 6 none none
counted splice 6 none none
counted zerocopy 6 none none

# sendfile, files of 128 KiB and of 3000 bytes in turn: Nagle's algorithm
# off for each large one and back on for each small one, so exactly the
# small files' two calls a loop (the words, the data) go with it on.
head -c 3000 /dev/urandom >"$TMP/s"
: >"$TMP/count"
LD_PRELOAD=$SHIM ZC_SHIM_SOCKCALLS=$TMP/count timeout 30 "$ZCC" -M sendfile \
	-s 127.0.0.1 -p "$ZCS_PORT" -n $LOOPS "$TMP/a" "$TMP/s" >"$TMP/out" 2>"$TMP/err"
rc=$?
# Every process's line summed ("calls N small M stream S corked K nodelay D").
stream=$(awk '$5 == "stream" { n += $6 } END { print n + 0 }' "$TMP/count")
nodelay=$(awk '$9 == "nodelay" { n += $10 } END { print n + 0 }' "$TMP/count")
if [ $rc -eq 0 ] && [ "$stream" -gt $((2 * LOOPS)) ] && [ $((stream - nodelay)) -eq $((2 * LOOPS)) ]; then
	ok "-M sendfile, 128 KiB and 3000-byte files in turn: $nodelay of the $stream calls with TCP_NODELAY, the $((2 * LOOPS)) of the small files without"
else
	not_ok "-M sendfile, 128 KiB and 3000-byte files in turn: exit $rc, $nodelay of the $stream" \
		"calls with TCP_NODELAY; want all but the small files' $((2 * LOOPS)) ($(cat "$TMP/count"))"
fi

# A kernel that refuses TCP_CORK or TCP_NODELAY (the shim says
# ENOPROTOOPT): -k, or sendfile with a file of 64 KiB and up, stops with
# one line naming it, before a byte of the file is sent.
for how in "CORK -M sendfile -k" "CORK -M send -k" "NODELAY -M sendfile"; do
	opt=TCP_${how%% *}
	# shellcheck disable=SC2086
	env "ZC_SHIM_FAIL_${how%% *}=1" LD_PRELOAD="$SHIM" timeout 30 "$ZCC" ${how#* } \
		-s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q "$opt.*Protocol not available" "$TMP/err"; then
		ok "${how#* }, $opt refused: exit 1, one line: $(cat "$TMP/err")"
	else
		not_ok "${how#* }, $opt refused: exit $rc, want 1 and one line naming $opt:" \
			"$(cat "$TMP/out" "$TMP/err")"
	fi
done

# --- the bytes on the wire ------------------------------------------------------
# A file of several of sendfile's pieces and of splice's pipefuls, between
# two small ones and an empty one, two loops, byte for byte through
# tests/sink.
printf 'abc' >"$TMP/w1"
: >"$TMP/w2"
head -c 3145733 /dev/urandom >"$TMP/w3"
wire_stream 2 "$TMP/w1" "$TMP/w2" "$TMP/w3" "$TMP/w1" >"$TMP/wire.want"
for m in sendfile splice zerocopy send mmap uring uring-zc; do
	if method_refused "$m"; then
		skip "wire bytes (-M $m): $REFUSED"
		continue
	fi
	wire_got -n 2 -M $m "$TMP/w1" "$TMP/w2" "$TMP/w3" "$TMP/w1"
	if [ "$rc" -eq 0 ] && cmp -s "$TMP/wire.want" "$TMP/wire.got"; then
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
