#!/bin/sh
# needs: meter
# zcc --rr in rounds: -R's summary of the transaction rate and the
# percentiles, lists of -b, --gap, --proto and -M as variants through the
# comparison table, --decide's figures, and what is refused at the door.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
NUM='[0-9]+(\.[0-9]+)?'

run_zcc() {
	captured 60 "$ZCC" "$@"
}

# --- at the door ---------------------------------------------------------------
for m in sendfile mmap splice zerocopy uring-zc; do
	usage_refused "--rr -M $m" "$ZCC" --rr -s 0 -M "send,$m"
	check "--rr -M $m: the line gives the reason" \
		grep -Eq "^zcc: --rr -M $m: .*(file|pins|send, write or uring)" "$TMP/err"
done
usage_refused "--decide p99 without --rr" "$ZCC" -s 0 -M send,write --decide p99 /dev/null
check "--decide p99 without --rr: named --rr's" grep -q "for --rr" "$TMP/err"
usage_refused "--rr --decide sender" "$ZCC" --rr -s 0 -b 1,2 --decide sender
usage_refused "--rr --decide p42" "$ZCC" --rr -s 0 -b 1,2 --decide p42
usage_refused "--rr --decide us/Tran without -c" "$ZCC" --rr -s 0 -b 1,2 --decide us/Tran
check "us/Tran without -c: says -c" grep -q "with -c" "$TMP/err"
usage_refused "--rr --decide with one variant" "$ZCC" --rr -s 0 --decide p50
usage_refused "--gap list with 0" "$ZCC" --rr -s 0 --gap 1ms,0
check "--gap's list names --gap: $(cat "$TMP/err")" grep -q "^zcc: --gap: '0'" "$TMP/err"
usage_refused "--gap 1ms,1000us: one time twice" "$ZCC" --rr -s 0 --gap 1ms,1000us
usage_refused "--proto tcp,sctp" "$ZCC" --rr -s 0 --proto tcp,sctp
check "--proto's list names --proto: $(cat "$TMP/err")" grep -q "^zcc: --proto: 'sctp'" "$TMP/err"
usage_refused "--proto tcp,udp -b 1: too small a datagram" "$ZCC" --rr -s 0 --proto tcp,udp -b 1
usage_refused "more than 64 variants" "$ZCC" --rr -s 0 -b 64,65,66,67,68,69,70,71,72 \
	--gap 1,2,3,4,5,6,7,8
usage_refused "--rr --baseline without a list" "$ZCC" --rr -s 0 -R 2 --baseline /dev/null

zcs_start || { not_ok "zcs starts: $(cat "$TMP/zcs.err")"; finish; }

# --- -R alone: N runs, then the summary ---------------------------------------
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 300 -R 3
check "-R 3: exit 0, three rr: lines: $(cat "$TMP/err")" \
	eval '[ "$RC" -eq 0 ] && count_is "$TMP/out" "^rr: 300 transactions" 3'
check "-R 3: the summary: $(tail -n 1 "$TMP/out")" has_line "$TMP/out" \
	"^summary: 3 runs, median $NUM transactions/sec \(min $NUM, max $NUM\), p50 median $NUM us \(min $NUM, max $NUM\), p99 median $NUM us \(min $NUM, max $NUM\)$"
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 200 -R 2 -J
check "-R 2 -J: the summary event's keys" eval '[ "$RC" -eq 0 ] &&
	grep "\"event\":\"summary\"" "$TMP/out" | grep -q "\"runs\":2,\"transactions_per_sec_median\":.*\"transactions_per_sec_max\":.*\"p50_us_median\":.*\"p99_us_max\":"'

# --- lists: variants in rounds, the table on p99 ------------------------------
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 200 -R 2 -b 64,200
check "-b 64,200 -R 2: exit 0, four round lines: $(cat "$TMP/err")" \
	eval '[ "$RC" -eq 0 ] && count_is "$TMP/out" "^round [12]/2 (64|200): $NUM transactions/sec, p50 $NUM us, p90 $NUM us, p99 $NUM us, p99.9 $NUM us, zcc itself $NUM us/Tran$" 4'
check "the table decides on p99: $(grep '^compare:' "$TMP/out")" has_line "$TMP/out" \
	"^compare: 2 rounds, each variant against 64 on the round trip's p99 \(us\)"
check "the table's columns are --rr's" has_line "$TMP/out" \
	"^variant +tran/s +p50 us +p90 us +p99 us +p99.9 us +zcc us/Tran +ratio +interval +agree +verdict$"
check "the row of 200 has a ratio and a verdict word" has_line "$TMP/out" \
	"^200 +[0-9]+ .* $NUM +$NUM\.\.$NUM +[0-9]+/2 +(cheaper|dearer|~)"
check "no stream column" eval '! grep -q "kbytes/sec" "$TMP/out"'

run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 50 -R 1 -b 64 --proto tcp,udp --gap 2ms,1ms -J
check "--proto tcp,udp --gap 2ms,1ms: four variants, each once: $(cat "$TMP/err")" eval '[ "$RC" -eq 0 ] &&
	for v in tcp/2ms tcp/1ms udp/2ms udp/1ms; do
		grep "\"event\":\"round\"" "$TMP/out" | grep -q "\"variant\":\"$v\".*\"request_bytes\":64,\"transactions_per_sec\":" || exit 1
	done'
check "compare events on p99_us, udp's lost counted in its rr events" eval '
	[ "$(grep -c "\"event\":\"compare\".*\"figure\":\"p99_us\"" "$TMP/out")" -eq 3 ] &&
	grep -q "\"event\":\"rr\".*\"proto\":\"udp\",\"lost\":" "$TMP/out"'

run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 200 -R 2 -M send,write --decide p50
check "-M send,write --decide p50: decided on p50: $(grep '^compare:' "$TMP/out") $(cat "$TMP/err")" \
	eval '[ "$RC" -eq 0 ] && grep -q "^compare: .* against send on the round trip.s p50 (us)" "$TMP/out" &&
	has_line "$TMP/out" "^write +[0-9]+ "'

# calls MODE: of the 1-byte requests in $TMP/st (strace's), those made by MODE.
calls() {
	grep -Ec "^[0-9]+ +$1\([0-9]+, \"\\\\0\", 1(, MSG_NOSIGNAL, NULL, 0)?\) += 1" "$TMP/st"
}
if command -v strace >/dev/null; then
	for m in send write; do
		strace -f -e trace=write,sendto -o "$TMP/st" "$ZCC" --rr -s 127.0.0.1 \
			-p "$ZCS_PORT" -n 5 -M "$m" >/dev/null 2>&1
		check "-M $m: the 5 requests go by $m (write $(calls write), sendto $(calls sendto))" \
			eval '[ "$(calls "$( [ "$m" = send ] && echo sendto || echo write)")" -eq 5 ]'
	done
	# -M uring: no send() or write() of a request, two io_uring_enter a
	# transaction (the request's send, the answer's receive).
	strace -f -e trace=write,sendto,io_uring_enter -o "$TMP/st" "$ZCC" --rr -s 127.0.0.1 \
		-p "$ZCS_PORT" -n 5 -M uring >"$TMP/out" 2>&1
	check "-M uring: 5 transactions, no request by send or write ($(calls write), $(calls sendto))" \
		eval 'grep -q "^rr: 5 transactions" "$TMP/out" && [ "$(calls write)" -eq 0 ] &&
		[ "$(calls sendto)" -eq 0 ]'
	check "-M uring: io_uring_enter for each request and each answer" \
		eval '[ "$(grep -c "io_uring_enter(.*) = 1$" "$TMP/st")" -eq 10 ]'
else
	skip "-M write, uring: strace is not installed to see the calls"
fi
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 100 -M uring --gap 100us -b 200
check "-M uring --gap: the open loop's reader on a ring of its own: $(head -c 200 "$TMP/err")" \
	eval '[ "$RC" -eq 0 ] && grep -q "^rr: 100 transactions" "$TMP/out"'
usage_refused "--rr -M uring --proto udp" "$ZCC" --rr -s 0 -M uring --proto udp
check "-M uring with UDP: the line says TCP only" grep -q "over TCP only" "$TMP/err"
usage_refused "--rr -M uring --stamps" "$ZCC" --rr -s 0 -M uring --stamps
check "-M uring --stamps: the line says why" grep -q "recvmsg's control data" "$TMP/err"
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 50 -M uring --call-times
check "-M uring --call-times: 50 send and 50 receive calls timed: $(grep -c '^call-times' "$TMP/out") lines" \
	eval '[ "$RC" -eq 0 ] && grep -q "^call-times: 50 send calls, p50 " "$TMP/out" &&
	grep -q "^call-times: 50 recv calls, p50 " "$TMP/out"'

run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 200 -R 2 -b 200,1300 --plot "$TMP/rr.svg"
check "--plot: an SVG of the p99 against the request size" eval '[ "$RC" -eq 0 ] &&
	grep -q "<svg" "$TMP/rr.svg" && grep -q "p99" "$TMP/rr.svg"'

# --- --baseline: a saved --rr comparison beside this one -------------------------
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 200 -R 2 -b 64,200 -J
mv "$TMP/out" "$TMP/base.json"
run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 200 -R 2 -b 64,200 --baseline "$TMP/base.json"
check "--baseline: a table per variant on p99 against the baseline's rounds: $(cat "$TMP/err")" \
	eval '[ "$RC" -eq 0 ] && [ "$(grep -c "^compare: 2 rounds, each variant against baseline:.* on the round trip.s p99 (us), unpaired" "$TMP/out")" -eq 2 ]'
check "--baseline: the baseline's row" has_line "$TMP/out" "^baseline:200 +[0-9]+ +$NUM "
run_zcc -s 127.0.0.1 -p "$ZCS_PORT" -n 1 -R 2 -M send,write -J "$ZC_TOP/README.zc"
mv "$TMP/out" "$TMP/stream.json"
usage_refused "--rr --baseline of a stream's rounds" "$ZCC" --rr -s 127.0.0.1 -p "$ZCS_PORT" \
	-n 10 -R 2 -M send,write --baseline "$TMP/stream.json"
check "a stream's baseline: named so: $(cat "$TMP/err")" grep -q "a stream's, this run's request/response" "$TMP/err"
usage_refused "a stream run with --rr's baseline" "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -n 1 \
	-b 64,200 --baseline "$TMP/base.json" "$ZC_TOP/README.zc"

# --- -c: us/Tran decides -------------------------------------------------------
meter_slot
metered "$TMP/err" run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 2000 -R 2 -b 64,200 -c \
	--decide us/Tran
check "-c --decide us/Tran: exit 0, decided on it: $(grep '^compare:' "$TMP/out") $(cat "$TMP/err")" \
	eval '[ "$RC" -eq 0 ] && grep -q "^compare: .* on CPU time per transaction (us/Tran)" "$TMP/out"'
check "-c: the load and us/Tran columns" has_line "$TMP/out" \
	"^variant +tran/s +p50 us +p90 us +p99 us +p99.9 us +load % +us/Tran +zcc us/Tran "
metered "$TMP/err" run_zcc --rr -s 127.0.0.1 -p "$ZCS_PORT" -n 1000 -R 2 -c
check "-R 2 -c: the summary ends with us/Tran: $(tail -n 1 "$TMP/out")" has_line "$TMP/out" \
	"^summary: 2 runs, .*, cpu median $NUM us/Tran \(min $NUM, max $NUM\)$"
meter_slot_free
stop_bg "$ZCS_PID"
finish
