#!/bin/sh
# needs: meter
# zcc --rr -c asks zcs for its report (the hello's RR_ASK_REPORT) and its
# cpu: line gains the far end's CPU per transaction: with zcs -c its load,
# CPUs and us/Tran, the same figures zcs's own answered: line gives; zcs
# without -c sends its own CPU alone (JSON). Over UDP the same by a bye
# that zcs answers with its report; a UDP server that answers the bye
# with nothing, a line that is not a report, or a count zcc did not make:
# one line, zcc's figures alone, exit 0. A client that does not ask (no
# -c) and a 2001 stream to the same zcs see nothing new.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
NUM='[0-9]+(\.[0-9]+)?'

run_zcc() {
	captured 60 "$ZCC" "$@"
}

# near A B: decimals A and B within 1% of each other (or both under 0.01).
near() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d
		m = a > b ? a : b; exit !(d <= m / 100 || m < 0.01) }'
}


meter_slot
if ! zcs_metered -c; then
	not_ok "zcs -c starts: $(cat "$TMP/zcs.err")"
	meter_slot_free
	finish
fi

# --- both ends metered: the far end's figures, the same as zcs says -----------
metered "$TMP/err" run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 20000 -b 200 -c
cline=$(grep '^cpu:' "$TMP/out")
check "zcc -c against zcs -c: exit 0, nothing on stderr ($(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && [ ! -s "$TMP/err" ]'
check "the cpu: line gains zcs's figures: $cline" sh -c 'echo "$1" | grep -Eq \
	"^cpu: load $2% of [0-9]+ CPUs, $2 us/Tran, zcc itself $2 us/Tran; zcs: load $2% of [0-9]+ CPUs, $2 us/Tran, zcs itself $2 us/Tran$"' \
	sh "$cline" "$NUM"
wait_for "$TMP/zcs.out" '^answered: 20000 requests'
aline=$(grep '^answered: 20000 requests' "$TMP/zcs.out")
far=$(echo "$cline" | sed -n 's/.*; zcs: load [0-9.]*% of [0-9]* CPUs, \([0-9.]*\) us\/Tran, zcs itself \([0-9.]*\) us\/Tran$/\1 \2/p')
own=$(echo "$aline" | sed -n 's/.*CPUs, \([0-9.]*\) us\/Tran, zcs itself \([0-9.]*\) us\/Tran$/\1 \2/p')
# shellcheck disable=SC2086
same_as_zcs() {
	[ $# -eq 4 ] && near "$1" "$3" && near "$2" "$4"
}
# shellcheck disable=SC2086
check "zcs's us/Tran and its own, as its answered: line says ($far; $own)" \
	same_as_zcs $far $own

metered "$TMP/err" run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 2000 -b 1 -c -J
check "-J: the cpu event's server keys ($(grep '"cpu"' "$TMP/out" | head -c 400))" \
	eval '[ "$RC" -eq 0 ] && grep "\"event\":\"cpu\"" "$TMP/out" | grep -q \
	"\"server_load_pct\":.*\"server_ncpus\":.*\"server_us_per_tran\":[0-9.]*,\"server_own_us_per_tran\":[0-9.]*"'

# --- asking for nothing: nothing new -------------------------------------------
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 500
check "no -c: no cpu: line, nothing on stderr" \
	eval '[ "$RC" -eq 0 ] && ! grep -q "^cpu:" "$TMP/out" && [ ! -s "$TMP/err" ]'
metered "$TMP/err" run_zcc --rr --proto udp -s 127.0.0.1 -p "$ZCS_PORT" -n 500 -b 100 -c -J
check "UDP -c: zcs's figures by the bye's report, nothing on stderr ($(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && [ ! -s "$TMP/err" ] && grep "\"event\":\"cpu\"" "$TMP/out" | grep -q \
	"\"server_load_pct\":.*\"server_ncpus\":.*\"server_us_per_tran\":[0-9.]*,\"server_own_us_per_tran\":[0-9.]*"'
metered "$TMP/err" run_zcc --rr --proto udp -s 127.0.0.1 -p "$ZCS_PORT" -n 500 -b 100 -c \
	--gap 100us
cline=$(grep '^cpu:' "$TMP/out")
check "UDP --gap -c: the cpu: line with zcs's: $cline" sh -c 'echo "$1" | grep -Eq \
	"^cpu: load $2% of [0-9]+ CPUs, $2 us/Tran, zcc itself $2 us/Tran; zcs: load $2% of [0-9]+ CPUs, $2 us/Tran, zcs itself $2 us/Tran$"' \
	sh "$cline" "$NUM"
printf 'data\n' >"$TMP/a"
run_zcc -s 127.0.0.1 -p "$ZCS_PORT" "$TMP/a"
check "a 2001 stream to the same zcs: sent: ($(cat "$TMP/err"))" \
	eval '[ "$RC" -eq 0 ] && grep -q "^sent: 17 bytes" "$TMP/out"'
check "zcs: its done: line" wait_for "$TMP/zcs.out" '^done: 17 bytes in'
stop_bg "$ZCS_PID"
check "zcs -c said nothing on stderr ($(head -c 300 "$TMP/zcs.err"))" [ ! -s "$TMP/zcs.err" ]

# --- UDP: no report, a bad one, a wrong count: zcc's figures alone -------------
for how in none bad count; do
	peer_start "$ZC_TESTBIN/rrpeer" udpbye $how || not_ok "rrpeer udpbye $how starts"
	metered "$TMP/err" run_zcc --rr --proto udp -s 127.0.0.1 -p "$PEER_PORT" -n 50 -b 100 -c
	case $how in
	none) why="the receiver sent no report over UDP" ;;
	bad) why="the receiver's report is malformed: " ;;
	*) why="the server's report counts 999999 transactions, zcc sent 50 and had 50 answered" ;;
	esac
	check "UDP, the bye answered by $how: exit 0, one line ($(cat "$TMP/err"))" eval '
		[ "$RC" -eq 0 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -q "^zcc: 127.0.0.1 port $PEER_PORT: $why.*: the figures are zcc'"'"'s alone$" "$TMP/err" &&
		grep -Eq "^cpu: load $NUM% of [0-9]+ CPUs, $NUM us/Tran, zcc itself $NUM us/Tran$" "$TMP/out"'
	[ $how != none ] || check "rrpeer saw the bye 5 times" wait_for "$TMP/peer.out" '^byes: 5$'
	stop_bg "$PEER_PID"
done

# --- zcs without -c: its own CPU, in the JSON only ------------------------------
zcs_start || { not_ok "zcs starts: $(cat "$TMP/zcs.err")"; meter_slot_free; finish; }
metered "$TMP/err" run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 2000 -b 1 -c -J
check "zcs unmetered: server_own_us_per_tran alone ($(grep '"cpu"' "$TMP/out" | head -c 400))" \
	eval '[ "$RC" -eq 0 ] && grep "\"event\":\"cpu\"" "$TMP/out" | grep -q "\"server_own_us_per_tran\":[0-9.]*" &&
	! grep -q "server_load_pct" "$TMP/out" && [ ! -s "$TMP/err" ]'
stop_bg "$ZCS_PID"
meter_slot_free
finish
