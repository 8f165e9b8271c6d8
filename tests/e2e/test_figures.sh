#!/bin/sh
# needs: meter
# No figure without something behind it: zcs's period on a handful of
# bytes has no us/KB ("-", null); a zero-copy method that copied
# everything says so on its text line; zcs's splice reads smaller than -b
# are said; a file that shrank below what a mapping method had sent names
# the offset reached; a file that stat calls empty but reads more is
# named; the JSON events of a run have the same keys on every line.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
ZCS=$ZC_BIN/zcs
J=$ZC_TESTBIN/jsoncheck
head -c 1000000 /dev/urandom >"$TMP/a"
cat "$TMP/a" >/dev/null

# --- a period on 13 bytes: no demand --------------------------------------------
meter_slot
# A stream's first words and 1 byte of data, then 1.5 s of nothing.
trickle() { "$ZC_TESTBIN/zc_send" -p "$ZCS_PORT" w1 w1 w100 d1 s1500 R >/dev/null 2>&1; }
zcs_up few -c -t 0.4
trickle
within 50 grep -q 'kbytes/sec' "$WORK/few.out"
stop_bg "$ZCS_PID"
check "zcs -c: rate lines ($(grep -c 'kbytes/sec' "$WORK/few.out"))" grep -q 'kbytes/sec' "$WORK/few.out"
check "no bytes or 13: '- us/KB', never a figure ($(grep 'us/KB' "$WORK/few.out" | head -n 2 | tr '\n' '|'))" \
	sh -c "grep -q ', - us/KB' '$WORK/few.out' && ! grep -Eq '[0-9] us/KB' '$WORK/few.out'"
zcs_up fewj -c -W -t 0.4 -J
trickle
within 50 grep -q '"event":"rate"' "$WORK/fewj.out"
stop_bg "$ZCS_PID"
check "-J: the demand is null ($("$J" -E rate -g service_demand_us_per_kb "$WORK/fewj.out" | sort -u | tr '\n' ' '))" \
	[ "$("$J" -E rate -g service_demand_us_per_kb "$WORK/fewj.out" | sort -u)" = null ]
check "-J -W: every rate event has the -W keys, null where no figure" \
	"$J" -E rate -k load_pct -k service_demand_us_per_kb -k class_pct -k class_us_per_kb \
	-k cpus -k net -k kernel_pct -k kernel_samples -k kernel_us_per_kb "$WORK/fewj.out"
check "-J -W: class_us_per_kb null on so few bytes" \
	[ "$("$J" -E rate -g class_us_per_kb "$WORK/fewj.out" | sort -u)" = null ]

# zcc's interval events, the last one short: the same keys each.
zcs_up iv
timeout 30 "$ZCC" -c -W -J -I 0.3 -t 1 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" \
	>"$TMP/iv.json" 2>"$TMP/iv.err"
check "zcc -c -W -I: exit 0 $(cat "$TMP/iv.err")" [ $? -eq 0 ]
check "zcc -W: every interval event has the -W keys ($("$J" -E interval -g seconds "$TMP/iv.json" | tr '\n' ' '))" \
	"$J" -E interval -k class_pct -k class_us_per_kb -k cpus -k net -k kernel_pct \
	-k kernel_samples -k kernel_us_per_kb "$TMP/iv.json"

# cyclesoak -d without a calibration: load_counts_pct null, not missing.
timeout 30 "$ZC_BIN/cyclesoak" -1 -J -d -r -m 300 -f "$TMP/no-calibration" \
	>"$TMP/cs.json" 2>/dev/null
check "cyclesoak -d: load_counts_pct null without a calibration" \
	[ "$("$J" -E load -g load_counts_pct "$TMP/cs.json")" = null ]
meter_slot_free

# --- zero-copy that copied everything says so ------------------------------------
zcs_up zc -M zerocopy
timeout 30 "$ZCC" -M zerocopy -n 4 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zc" 2>"$TMP/zc.err"
timeout 30 "$ZCC" -J -M zerocopy -n 4 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >"$TMP/zc.json"
within 50 sh -c "[ \$(grep -c '^done:' '$WORK/zc.out') -eq 2 ]"
stop_bg "$ZCS_PID"
sends=$("$J" -E sent -g zc_sends "$TMP/zc.json")
copied=$("$J" -E sent -g zc_copied "$TMP/zc.json")
if [ "$sends" = "$copied" ]; then
	check "zcc: every send copied ($copied of $sends): said on the sent: line" \
		grep -Eq '^sent: .* \(zero-copy: the kernel copied all [0-9]+ sends\)$' "$TMP/zc"
else
	check "zcc: $copied of $sends copied: no such word" sh -c "! grep -q 'copied all' '$TMP/zc'"
fi
# zcs: what zcc's copying send left in pages of its own is copied, not
# mapped (-d says how much of each).
zcs_up zcr -M zerocopy -d
timeout 30 "$ZCC" -M send -n 4 -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a" >/dev/null
within 50 grep -q '^done:' "$WORK/zcr.out"
stop_bg "$ZCS_PID"
if grep -q 'zero-copy: 0 bytes mapped' "$WORK/zcr.err"; then
	check "zcs: nothing mapped, said on the done: line ($(grep '^done:' "$WORK/zcr.out"))" \
		grep -q '^done: .* (zero-copy: nothing mapped, all 4000000 bytes copied)$' "$WORK/zcr.out"
else
	skip "zcs -M zerocopy mapped pages here: no copied-everything line to see"
fi

# --- zcs -M splice -b 4M where a pipe cannot hold it ---------------------------------
pub=$(mktemp -d /tmp/zc-fig.XXXXXX)
remove_pub() { rm -rf "$pub"; }
on_cleanup remove_pub
cp "$ZCS" "$pub/" && chmod 755 "$pub" "$pub/zcs"
if [ "$(cat /proc/sys/fs/pipe-max-size)" -ge 4194304 ] || ! command -v setpriv >/dev/null ||
	[ "$(id -u)" -ne 0 ]; then
	skip "zcs -M splice -b 4M: a pipe of 4M is allowed here, or no setpriv as root"
else
	timeout 2 setpriv --reuid=65534 --regid=65534 --clear-groups "$pub/zcs" -p 0 -M splice -b 4M \
		>"$TMP/sp.out" 2>"$TMP/sp.err"
	check "zcs -M splice -b 4M: the smaller pipe said ($(cat "$TMP/sp.err"))" \
		grep -Eq '^zcs: warning: splice: a pipe holds at most [0-9]+ bytes here, not the 4194304 of a read \(raise fs.pipe-max-size' \
		"$TMP/sp.err"
fi
timeout 2 "$ZCS" -p 0 -M splice >/dev/null 2>"$TMP/sp16.err"
check "zcs -M splice at the default read size: no word" [ ! -s "$TMP/sp16.err" ]

# --- a file that shrank below what a mapping had sent --------------------------------
# The sink reads nothing until $TMP/go exists: zcc is held a few hundred
# KB into the file when it is cut to 64 KiB, below what went already.
for mode in "-M mmap" "-M zerocopy" "-S"; do
	rm -f "$TMP/go"
	truncate -s 64M "$TMP/shrink"
	: >"$TMP/sink.out"
	bg "$ZC_TESTBIN/sink" -r 65536 -g "$TMP/go" >"$TMP/sink.out" 2>/dev/null
	sink=$!
	wait_for "$TMP/sink.out" '^listening on port [0-9]+'
	port=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/sink.out")
	bg "$ZCC" -s 127.0.0.1 -p "$port" -o 65536 $mode "$TMP/shrink" >/dev/null 2>"$TMP/sh.err"
	zpid=$!
	wait_for "$TMP/sink.out" '^accepted'
	# zcc's send queue full: it is blocked inside the file.
	within 50 sh -c "ss -tnH state established '( dport = :$port )' |
		awk '\$2 > 100000 { found = 1 } END { exit !found }'"
	truncate -s 64K "$TMP/shrink"
	touch "$TMP/go"
	wait "$zpid"
	wait "$sink"
	at=$(sed -n 's/.*file shrank while being sent (\([0-9]*\) of 67108864 bytes)$/\1/p' "$TMP/sh.err")
	check "$mode: shrank below what went: the offset reached (${at:-none}: $(cat "$TMP/sh.err"))" \
		[ "${at:-0}" -gt 65536 ]
done

# --- a file stat calls empty -----------------------------------------------------------
zcs_up proc
timeout 30 "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" /proc/self/status "$TMP/a" >"$TMP/proc" 2>"$TMP/proc.err"
check "a /proc file: exit 0" [ $? -eq 0 ]
check "a /proc file: named ($(cat "$TMP/proc.err"))" \
	grep -q '^zcc: warning: /proc/self/status: stat says 0 bytes but it reads more' "$TMP/proc.err"
stop_bg "$ZCS_PID"
finish
