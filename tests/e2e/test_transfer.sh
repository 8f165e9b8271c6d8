#!/bin/sh
# needs: meter
# End to end over loopback: zcc -> zcs -1. Byte accounting in each send
# mode, the options that touch the connection, the exact bytes on the wire
# (through tests/tools/sink), and zcc -c.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

ZCC=$ZC_BIN/zcc

# 20 files of assorted sizes: empty, tiny, odd, around page and chunk edges.
SIZES="0 1 3 7 77 999 4095 4096 4097 12345 54321 65535 65536 65537 100003
131071 250000 333333 0 1000001"
mkdir "$TMP/files"
FILES= SUM=0 NF=0
for s in $SIZES; do
	NF=$((NF + 1))
	f=$TMP/files/f$NF
	head -c "$s" /dev/urandom >"$f"
	FILES="$FILES $f"
	SUM=$((SUM + s))
done
# What both ends must count for N loops, worked out here independently.
expected() { echo $((4 + $1 * (4 + 4 * NF) + $1 * SUM)); }

# transfer WHAT N ZCC-ARGS...: zcc to a fresh zcs -1; checks that zcc and
# zcs both exit 0 and that sent: == done: == expected(N). A zcc -c refused
# by a meter that is not this run's (another user's) is a skip, and false.
transfer() {
	tr_what=$1 tr_n=$2; shift 2
	if ! zcs_start -1; then
		not_ok "$tr_what: zcs did not start: $(cat "$TMP/zcs.err")"
		return
	fi
	timeout 60 "$ZCC" -p "$ZCS_PORT" -n "$tr_n" "$@" >"$TMP/zcc.out" 2>"$TMP/zcc.err"
	_rc=$?
	# A zcc that never connected leaves zcs -1 waiting: stop it.
	[ "$_rc" -ne 0 ] && ! grep -q '^sent: ' "$TMP/zcc.out" && stop_bg "$ZCS_PID"
	wait "$ZCS_PID"
	_zrc=$?
	if [ "$_rc" -eq 1 ] && grep -q 'another meter is running' "$TMP/zcc.err"; then
		skip "$tr_what: $(cat "$TMP/zcc.err")"
		return 1
	fi
	# (A zero-copy method's line may end with what the kernel copied.)
	_sent=$(sed -n 's/^sent: \([0-9]*\) bytes in [0-9.]* s, [0-9]* kbytes\/sec\( (zero-copy: .*)\)*$/\1/p' "$TMP/zcc.out")
	_done=$(sed -n 's/^done: \([0-9]*\) bytes in .*/\1/p' "$TMP/zcs.out")
	_want=$(expected "$tr_n")
	if [ "$_rc" -eq 0 ] && [ "$_zrc" -eq 0 ] && [ "$_sent" = "$_want" ] \
	   && [ "$_done" = "$_want" ]; then
		ok "$tr_what: sent $_sent = done $_done = expected $_want"
	else
		not_ok "$tr_what: zcc exit $_rc sent '$_sent', zcs exit $_zrc done '$_done'," \
			"expected $_want; zcc: $(cat "$TMP/zcc.out" "$TMP/zcc.err");" \
			"zcs: $(cat "$TMP/zcs.err")"
	fi
}

# --- -c -----------------------------------------------------------------------
# A second line whose form is checked here, not its figures: the transfer
# is short and the machine may be shared; the accuracy of the load meter is
# the meter's tests' business, and zcc -C is test_calib.sh's. So -L reads a
# made-up calibration in ./counts_per_sec. First: the run's meter slot is
# then taken early, before the tests that hold it long have started.
mkdir "$TMP/cal" && cd "$TMP/cal" || exit 1
printf '100000000\nncpus %s\n' "$(getconf _NPROCESSORS_ONLN)" >counts_per_sec
J=$ZC_TESTBIN/jsoncheck
meter_slot
meter_wait_others
for meter in "" -r -L; do
	transfer "-c $meter" 20 -c $meter -s 127.0.0.1 $FILES || continue
	line=$(grep '^cpu: ' "$TMP/zcc.out")
	pct=$(echo "$line" | sed -n 's/^cpu: load \(-\{0,1\}[0-9]*\)\.[0-9]% of [0-9]* CPUs, service demand -\{0,1\}[0-9]*\.[0-9][0-9][0-9] us\/KB, zcc itself [0-9]*\.[0-9][0-9][0-9] us\/KB$/\1/p')
	if [ -n "$pct" ]; then
		ok "-c $meter: $line"
	else
		not_ok "-c $meter: no sane cpu: line: '$line'"
	fi
done
# -R 2 -c: the summary of the load and the service demand too.
zcs_start
timeout 60 "$ZCC" -R 2 -c -r -s 127.0.0.1 -p "$ZCS_PORT" -n 5 $FILES >"$TMP/zcc.out" 2>"$TMP/zcc.err"
rc=$?
kill "$ZCS_PID"; wait "$ZCS_PID" 2>/dev/null
if [ "$rc" -eq 1 ] && grep -q 'another meter is running' "$TMP/zcc.err"; then
	skip "-R 2 -c: $(cat "$TMP/zcc.err")"
elif [ "$rc" -eq 0 ] && [ "$(grep -c '^cpu: ' "$TMP/zcc.out")" -eq 2 ] \
   && grep -Eq '^summary: 2 runs, median [0-9]+ kbytes/sec \(min [0-9]+, max [0-9]+\)$' "$TMP/zcc.out" \
   && grep -Eq '^summary cpu: load median -?[0-9]+\.[0-9]% \(min -?[0-9.]+, max -?[0-9.]+\), service demand median -?[0-9]+\.[0-9]{3} us/KB \(min -?[0-9.]+, max -?[0-9.]+\)$' "$TMP/zcc.out"; then
	ok "-R 2 -c: $(grep '^summary cpu' "$TMP/zcc.out")"
else
	not_ok "-R 2 -c: exit $rc, $(cat "$TMP/zcc.out" "$TMP/zcc.err")"
fi
# -J -c: the cpu object with its keys, beside the sent one.
zcs_start -1
timeout 60 "$ZCC" -J -c -r -s 127.0.0.1 -p "$ZCS_PORT" -n 5 $FILES >"$TMP/zcc.out" 2>"$TMP/zcc.err"
rc=$?
[ "$rc" -ne 0 ] && stop_bg "$ZCS_PID"
wait "$ZCS_PID"
if [ "$rc" -eq 1 ] && grep -q 'another meter is running' "$TMP/zcc.err"; then
	skip "-J -c: $(cat "$TMP/zcc.err")"
elif [ "$rc" -eq 0 ] && "$J" -k program -k event -k time "$TMP/zcc.out" \
   && [ "$("$J" -E sent -g bytes "$TMP/zcc.out")" = "$(expected 5)" ] \
   && "$J" -E cpu -k load_pct -k ncpus -k service_demand_us_per_kb -k own_us_per_kb -k meter \
	"$TMP/zcc.out" >/dev/null && [ "$(grep -c '"event":"cpu"' "$TMP/zcc.out")" -eq 1 ] \
   && [ "$("$J" -E cpu -g meter "$TMP/zcc.out")" = "run time" ]; then
	ok "-J -c: $(grep -c '' "$TMP/zcc.out") JSON lines, sent and cpu with their keys"
else
	not_ok "-J -c: exit $rc, $(cat "$TMP/zcc.out" "$TMP/zcc.err")"
fi
meter_slot_free
cd "$TMP" || exit 1

# --- byte accounting in the three send modes --------------------------------
transfer "sendfile, -n 3" 3 -s 127.0.0.1 $FILES
transfer "-S, -n 3" 3 -s 127.0.0.1 -S $FILES
transfer "-S -w, -n 3" 3 -s 127.0.0.1 -S -w $FILES
transfer "-S -b 1000 (chunks smaller than most files), -n 2" 2 -s 127.0.0.1 -S -b 1000 $FILES
for m in sendfile send write mmap splice zerocopy uring uring-zc; do
	if method_refused "$m"; then
		skip "-M $m, -n 2: $REFUSED"
		continue
	fi
	transfer "-M $m, -n 2" 2 -s 127.0.0.1 -M $m $FILES
done
transfer "-M mmap -b 1000, -n 2" 2 -s 127.0.0.1 -M mmap -b 1000 $FILES
transfer "-M splice -b 4096, -n 2" 2 -s 127.0.0.1 -M splice -b 4096 $FILES

# The zero-copy methods count the kernel's verdicts: a -d line, and two
# keys in -J's sent object (on loopback the kernel copies: copied = sends).
for m in zerocopy uring-zc; do
	if method_refused "$m"; then
		skip "-M $m -d, and -J's zero-copy keys: $REFUSED"
		continue
	fi
	transfer "-M $m -d" 1 -s 127.0.0.1 -M $m -d $FILES
	if grep -Eq '^zcc: zero-copy: [1-9][0-9]* sends, [0-9]+ copied by the kernel$' "$TMP/zcc.err"; then
		ok "-M $m -d: $(grep '^zcc: zero-copy' "$TMP/zcc.err")"
	else
		not_ok "-M $m -d: no zero-copy line: $(cat "$TMP/zcc.err")"
	fi
	zcs_start -1
	timeout 60 "$ZCC" -J -M $m -s 127.0.0.1 -p "$ZCS_PORT" $FILES >"$TMP/zcc.out" 2>"$TMP/zcc.err"
	rc=$?
	wait "$ZCS_PID"
	if [ "$rc" -eq 0 ] && "$ZC_TESTBIN/jsoncheck" -E sent -k zc_sends -k zc_copied "$TMP/zcc.out" >/dev/null; then
		ok "-J -M $m: zc_sends $("$ZC_TESTBIN/jsoncheck" -E sent -g zc_sends "$TMP/zcc.out"), zc_copied $("$ZC_TESTBIN/jsoncheck" -E sent -g zc_copied "$TMP/zcc.out")"
	else
		not_ok "-J -M $m: exit $rc, $(cat "$TMP/zcc.out" "$TMP/zcc.err")"
	fi
done

# --- the options that touch the connection, once each ------------------------
transfer "-k (TCP_CORK)" 1 -s 127.0.0.1 -k $FILES
transfer "-i 262144 -o 262144" 1 -s 127.0.0.1 -i 262144 -o 262144 $FILES
transfer "-B 0" 1 -s 127.0.0.1 -B 0 $FILES
if [ "$(id -u)" -eq 0 ]; then
	transfer "-D (SO_DEBUG)" 1 -s 127.0.0.1 -D $FILES
else
	skip "-D: SO_DEBUG needs CAP_NET_ADMIN and this is not root"
fi
transfer "-s 0" 1 -s 0 $FILES
transfer "-s localhost" 1 -s localhost $FILES
if grep -q '^00000000000000000000000000000001 ' /proc/net/if_inet6 2>/dev/null; then
	transfer "-s ::1" 1 -s ::1 $FILES
else
	skip "-s ::1: this machine has no IPv6 loopback"
fi

# An -o the kernel will not give is an error, not a silent smaller buffer.
wmem_max=$(cat /proc/sys/net/core/wmem_max 2>/dev/null)
if [ -n "$wmem_max" ] && [ "$wmem_max" -lt 1000000000 ]; then
	zcs_start -1
	timeout 20 "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -o $((wmem_max * 4)) $FILES \
		>"$TMP/zcc.out" 2>"$TMP/zcc.err"
	rc=$?
	kill "$ZCS_PID" 2>/dev/null; wait "$ZCS_PID" 2>/dev/null
	if [ "$rc" -eq 1 ] && grep -q '^zcc: SO_SNDBUF: asked for ' "$TMP/zcc.err"; then
		ok "-o over wmem_max: exit 1, $(cat "$TMP/zcc.err")"
	else
		not_ok "-o over wmem_max: exit $rc, $(cat "$TMP/zcc.err")"
	fi
else
	skip "-o over wmem_max: cannot read net.core.wmem_max"
fi

# --- the exact bytes on the wire ---------------------------------------------
printf 'abc' >"$TMP/w1"
: >"$TMP/w2"
head -c 5000 /dev/urandom >"$TMP/w3"
wire_stream 2 "$TMP/w1" "$TMP/w2" "$TMP/w3" >"$TMP/wire.want"
for mode in "" "-S" "-S -w" "-S -b 4096" "-M mmap" "-M mmap -b 1000" "-M splice" "-M splice -b 4096" \
	"-M zerocopy" "-M uring" "-M uring-zc -b 1000"; do
	m=${mode#-M }
	if [ "$m" != "$mode" ] && method_refused "${m%% *}"; then
		skip "wire bytes ($mode): $REFUSED"
		continue
	fi
	# shellcheck disable=SC2086
	wire_got -n 2 $mode "$TMP/w1" "$TMP/w2" "$TMP/w3"
	if [ "$rc" -eq 0 ] && cmp -s "$TMP/wire.want" "$TMP/wire.got"; then
		ok "wire bytes${mode:+ ($mode)}: identical to the $(wc -c <"$TMP/wire.want" | tr -d ' ') bytes built by the test"
	else
		not_ok "wire bytes${mode:+ ($mode)}: zcc exit $rc, $(cmp "$TMP/wire.want" "$TMP/wire.got" 2>&1)"
	fi
done

# --- more header words than fit in front of one chunk --------------------------
# 1500 empty files make 6 KB of header words in a row: zcc must flush them
# on the way (sendfile: with MSG_MORE; -S: more than the room before the
# buffer), and zcs -1 must still find the stream well formed.
mkdir "$TMP/empty"
i=0
while [ $i -lt 1500 ]; do : >"$TMP/empty/e$i"; i=$((i + 1)); done
NF=1501 SUM=3
transfer "1500 empty files and one of 3 bytes, sendfile" 2 -s 127.0.0.1 "$TMP"/empty/* "$TMP/w1"
transfer "1500 empty files and one of 3 bytes, -S" 2 -s 127.0.0.1 -S "$TMP"/empty/* "$TMP/w1"
transfer "1500 empty files and one of 3 bytes, -S -w" 2 -s 127.0.0.1 -S -w "$TMP"/empty/* "$TMP/w1"
transfer "1500 empty files and one of 3 bytes, mmap" 2 -s 127.0.0.1 -M mmap "$TMP"/empty/* "$TMP/w1"
transfer "1500 empty files and one of 3 bytes, splice" 2 -s 127.0.0.1 -M splice "$TMP"/empty/* "$TMP/w1"

finish
