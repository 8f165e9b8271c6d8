#!/bin/sh
# needs: meter
# The receiver's report: zcs writes one line after a whole stream, zcc
# --receiver-report reads it and prints the receiver: line (JSON: the
# receiver event). A hand-written receiver (tests/tools/rxpeer) sends
# none, a malformed, oversized, late, doubled or reset one: one line on
# zcc's stderr each, the sender's figures and exit 0 as usual. A sender
# that closes without reading (the 2001 zcc) gets no error line from zcs.
# The bytes from zcc to zcs are the same with the option or without.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

ZCC=$ZC_BIN/zcc
ZCS=$ZC_BIN/zcs
J=$ZC_TESTBIN/jsoncheck
PEER=$ZC_TESTBIN/rxpeer
SEND=$ZC_TESTBIN/zc_send
SINK=$ZC_TESTBIN/sink

head -c 100000 /dev/urandom >"$TMP/f"
SENT_RE='^sent: [0-9]+ bytes in [0-9.]+ s, [0-9]+ kbytes/sec$'

# peer NAME RXPEER-ARGS...: rxpeer started, its port in PEER_PORT.
peer() {
	_n=$1
	shift
	bg "$PEER" "$@" >"$TMP/$_n.peer" 2>&1
	PEER_PID=$!
	wait_for "$TMP/$_n.peer" '^listening on port' || not_ok "$_n: rxpeer started"
	PEER_PORT=$(sed -n 's/^listening on port //p' "$TMP/$_n.peer")
}

# against NAME WANT RXPEER-ARGS...: zcc --receiver-report -n 2 against
# rxpeer; exit 0, the sent line, and exactly one line on stderr matching
# WANT (an ERE).
against() {
	_n=$1
	_want=$2
	shift 2
	peer "$_n" "$@"
	run_fg timeout 60 "$ZCC" --receiver-report -s 127.0.0.1 -p "$PEER_PORT" -n 2 "$TMP/f" \
		>"$TMP/$_n.out" 2>"$TMP/$_n.err"
	_rc=$?
	reap_pid "$PEER_PID" 50
	forget_bg "$PEER_PID"
	check "$_n: zcc exits 0 (got $_rc)" [ "$_rc" -eq 0 ]
	check "$_n: the sent line as usual" grep -Eq "$SENT_RE" "$TMP/$_n.out"
	check "$_n: no receiver line" sh -c "! grep -q '^receiver:' '$TMP/$_n.out'"
	check "$_n: one line on stderr: $(cat "$TMP/$_n.err")" \
		sh -c "[ \$(grep -c '' '$TMP/$_n.err') -eq 1 ] && grep -Eq \"\$1\" '$TMP/$_n.err'" sh "$_want"
}

GOOD='zc-report 1 method=read read_bytes=4096 bytes={bytes} seconds=0.5 own_us_per_kb=0.25 boot_id=feed-beef'

# --- a hand-written receiver ------------------------------------------------
against "no report (a 2001 zcs)" ': the receiver sent no report .*: the figures are the sender.s alone$'
against "malformed" "report is malformed: no read_bytes" -l 'zc-report 1 method=read'
against "not a report" "report is malformed: not a zc-report line" -l 'HTTP/1.0 400 Bad Request'
against "oversized" "report is over 512 bytes without a newline" -L 600
against "late" "report is late" -d 3000 -l "$GOOD"
against "two lines" "more than its report's one line" -l "$GOOD" -l "$GOOD"
against "a reset within the report" "reset the connection once its report had begun" -L 20 -R
against "a count other than the bytes sent" "counts 7 bytes, zcc sent" \
	-l 'zc-report 1 method=read read_bytes=1 bytes=7 seconds=1 own_us_per_kb=1 boot_id=-'
against "no newline before the close" "ended without a newline after 20 bytes" -L 20

# No report, twice in one run (-R 2): said once.
peer twice -c 2
run_fg timeout 60 "$ZCC" --receiver-report -R 2 -s 127.0.0.1 -p "$PEER_PORT" -n 1 "$TMP/f" \
	>"$TMP/twice.out" 2>"$TMP/twice.err"
rc=$?
reap_pid "$PEER_PID" 50
forget_bg "$PEER_PID"
check "no report in two runs: exit 0 ($rc), two sent lines" \
	sh -c "[ $rc -eq 0 ] && [ \$(grep -Ec '$SENT_RE' '$TMP/twice.out') -eq 2 ]"
check "said once ($(grep -c '' "$TMP/twice.err") lines)" [ "$(grep -c 'no report' "$TMP/twice.err")" -eq 1 ]

# A good line from another kernel; and the same line without the option.
peer good -c 2 -l "$GOOD"
run_fg timeout 60 "$ZCC" --receiver-report -s 127.0.0.1 -p "$PEER_PORT" -n 2 "$TMP/f" \
	>"$TMP/good.out" 2>"$TMP/good.err"
check "a good report: the receiver line ($(grep receiver "$TMP/good.out"))" \
	grep -Eq '^receiver: read/4096, [0-9]+ bytes in 0.500 s, zcs itself 0.250 us/KB$' "$TMP/good.out"
check "a good report: nothing on stderr" [ ! -s "$TMP/good.err" ]
run_fg timeout 60 "$ZCC" -s 127.0.0.1 -p "$PEER_PORT" -n 2 "$TMP/f" >"$TMP/plain.out" 2>"$TMP/plain.err"
check "without the option: exit 0, no receiver line, nothing on stderr" \
	sh -c "[ $? -eq 0 ] && ! grep -q receiver '$TMP/plain.out' && [ ! -s '$TMP/plain.err' ]"
reap_pid "$PEER_PID" 50
forget_bg "$PEER_PID"

# A reset before any report: the server failed, as without the option.
peer reset -R
run_fg timeout 60 "$ZCC" --receiver-report -s 127.0.0.1 -p "$PEER_PORT" -n 2 "$TMP/f" \
	>"$TMP/reset.out" 2>"$TMP/reset.err"
rc=$?
reap_pid "$PEER_PID" 50
forget_bg "$PEER_PID"
check "a reset with no report begun: exit 1 as before ($rc: $(cat "$TMP/reset.err"))" [ "$rc" -eq 1 ]

# --- the wire: the same bytes with the option or without ----------------------
for how in with without; do
	bg "$SINK" -o "$TMP/wire.$how" >"$TMP/sink.$how" 2>&1
	sink=$!
	wait_for "$TMP/sink.$how" '^listening on port' || not_ok "sink started"
	port=$(sed -n 's/^listening on port //p' "$TMP/sink.$how")
	opt=
	[ "$how" = with ] && opt=--receiver-report
	run_fg timeout 60 "$ZCC" $opt -s 127.0.0.1 -p "$port" -n 3 "$TMP/f" >/dev/null 2>&1
	reap_pid "$sink" 50
	forget_bg "$sink"
done
check "the bytes on the wire are the same with --receiver-report" cmp -s "$TMP/wire.with" "$TMP/wire.without"

# --- zcs writes it -------------------------------------------------------------
zcs_start -1 -b 8K -M discard || { not_ok "zcs started"; finish; }
run_fg timeout 60 "$ZCC" -J --receiver-report -s 127.0.0.1 -p "$ZCS_PORT" -n 5 "$TMP/f" \
	>"$TMP/j.out" 2>"$TMP/j.err"
check "zcc -J: exit 0, nothing on stderr ($(cat "$TMP/j.err"))" [ ! -s "$TMP/j.err" ]
check "valid JSON Lines" "$J" "$TMP/j.out"
check "the receiver event and its keys" "$J" -E receiver -k method -k read_bytes -k bytes \
	-k seconds -k own_us_per_kb -k boot_id -k same_machine -k version "$TMP/j.out"
check "its method and read size are zcs's" \
	[ "$(json_get "$TMP/j.out" receiver method)/$(json_get "$TMP/j.out" receiver read_bytes)" = discard/8192 ]
check "it counted the bytes zcc sent" \
	[ "$(json_get "$TMP/j.out" receiver bytes)" = "$(json_get "$TMP/j.out" sent bytes)" ]
check "one kernel: same_machine" [ "$(json_get "$TMP/j.out" receiver same_machine)" = true ]
reap_pid "$ZCS_PID" 50
forget_bg "$ZCS_PID"

# -P 3: the streams' reports summed, the bytes all of theirs.
zcs_start || { not_ok "zcs started"; finish; }
run_fg timeout 60 "$ZCC" --receiver-report -P 3 -s 127.0.0.1 -p "$ZCS_PORT" -n 4 "$TMP/f" \
	>"$TMP/p.out" 2>"$TMP/p.err"
sent=$(sed -n 's/^sent: \([0-9]*\) bytes.*/\1/p' "$TMP/p.out")
check "-P 3: one receiver line with every stream's bytes ($sent: $(grep receiver "$TMP/p.out"))" \
	grep -Eq "^receiver: read/16384, $sent bytes in [0-9.]+ s, zcs itself [0-9.]+ us/KB \(this machine\)\$" "$TMP/p.out"
check "-P 3: nothing on stderr" [ ! -s "$TMP/p.err" ]
stop_bg "$ZCS_PID"

# A sender that closes without reading (the 2001 zcc): no error line.
zcs_start || { not_ok "zcs started"; finish; }
run_fg "$SEND" -p "$ZCS_PORT" f1,3,5000 >/dev/null 2>&1
run_fg "$SEND" -p "$ZCS_PORT" f2,1,200000 >/dev/null 2>&1
run_fg timeout 60 "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 2 "$TMP/f" >/dev/null 2>&1
check "three done lines" \
	within 50 sh -c "[ \$(grep -c '^done: ' '$TMP/zcs.out') -eq 3 ]"
stop_bg "$ZCS_PID"
check "senders that do not read the report: nothing on zcs's stderr ($(head -c 300 "$TMP/zcs.err"))" \
	[ ! -s "$TMP/zcs.err" ]

# --- metered: zcs -c in one namespace, zcc in another, one kernel ---------------
tx=zc-rxr-t$$
rx=zc-rxr-r$$
zcs_across "$tx" "$rx" ns -c -r || finish
run_fg ip netns exec "$tx" timeout 60 "$ZCC" --receiver-report -t 1 -s 192.0.2.2 -p "$ZCS_PORT" \
	"$TMP/f" >"$TMP/ns.out" 2>"$TMP/ns.err"
wait_for "$WORK/ns.out" '^done: ' 50
meter_slot_free
stop_bg "$ZCS_PID"
rline=$(grep '^receiver:' "$TMP/ns.out")
dline=$(grep '^done:' "$WORK/ns.out")
check "over the veth, zcs metering: the receiver's load and demand ($rline)" \
	sh -c 'echo "$1" | grep -Eq "^receiver: read/16384, [0-9]+ bytes in [0-9.]+ s, zcs itself [0-9.]+ us/KB, load [0-9.]+% of [0-9]+ CPUs, service demand [0-9.]+ us/KB \(this machine\)$"' sh "$rline"
load_r=$(echo "$rline" | sed -n 's/.*, load \([0-9.]*\)% of \([0-9]*\) CPUs, service demand \([0-9.]*\) us.*/\1 \3/p')
load_d=$(echo "$dline" | sed -n 's/.*, load \([0-9.]*\)% of [0-9]* CPUs, \([0-9.]*\) us\/KB$/\1 \2/p')
check "the same load and demand as zcs's done line ($load_r; $load_d)" [ -n "$load_r" ] && [ "$load_r" = "$load_d" ]
finish
