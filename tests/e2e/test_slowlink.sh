#!/bin/sh
# Every method on a slow link: a file that takes seconds to send shows
# progress as it goes. zcc in one network namespace, zcs in another, a veth
# pair between them shaped by tc tbf to 40 Mbit/s; a 12 MiB file, -T 1
# -I 0.25 -J. The run must end whole (a method that hands the file to one
# call moves nothing the watcher can see for seconds: -T calls it a stall),
# no interval before the last byte was handed over may be empty, and the
# intervals must add up to the sent: bytes (within 1%).
# needs: long waits
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
ZCS=$ZC_BIN/zcs
tx=zc-slow-tx$$
rx=zc-slow-rx$$
port=2222

two_hosts "$tx" "$rx" || finish
if ! ip netns exec "$tx" tc qdisc add dev vt root tbf rate 40mbit burst 32kbit \
	latency 400ms 2>"$TMP/tc.err"; then
	skip "slow link: tc tbf refused: $(cat "$TMP/tc.err")"
	finish
fi

# 12 MiB at 40 Mbit/s: about 2.5 s.
head -c 12582912 /dev/zero >"$TMP/big"
bg ip netns exec "$rx" "$ZCS" -p "$port" -T 0 >"$TMP/zcs.out" 2>"$TMP/zcs.err"
# shellcheck disable=SC2016
within 50 ip netns exec "$rx" sh -c 'ss -ltn | grep -q ":$1 "' sh "$port"

for m in $(zcc_methods); do
	ip netns exec "$tx" "$ZCC" -M "$m" -T 1 -I 0.25 -J -s 192.0.2.2 -p "$port" -n 1 \
		"$TMP/big" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -ne 0 ] && grep -q "refuse\|not supported\|unsupported" "$TMP/err"; then
		skip "-M $m on a slow link: $(cat "$TMP/err")"
		continue
	fi
	sent=$(json_get "$TMP/out" sent bytes)
	# The intervals: how many, how many empty, and their bytes summed. An
	# empty one after the last that moved bytes is the zero-copy methods'
	# wait for the kernel's completions once every byte was handed over:
	# not a stall, so not counted.
	sums=$(sed -n 's/.*"event":"interval".*"bytes":\([0-9]*\).*/\1/p' "$TMP/out" |
		awk '{ n++; s += $1; if ($1 == 0) e++; else { z += e; e = 0 } }
			END { printf "%d %d %d", n, z, s }')
	# shellcheck disable=SC2086	# three numbers, split on purpose
	set -- $sums
	check "-M $m, 12 MiB at 40 Mbit/s, -T 1 -I 0.25: exit $rc, $1 intervals, $2 empty, their sum $3 of $sent sent ($(cat "$TMP/err"))" \
		awk -v rc="$rc" -v n="$1" -v z="$2" -v s="$3" -v sent="${sent:-0}" \
		'BEGIN { d = s - sent; if (d < 0) d = -d
			exit !(rc == 0 && n >= 8 && z == 0 && sent > 12582912 && d <= sent / 100) }'
done
finish
