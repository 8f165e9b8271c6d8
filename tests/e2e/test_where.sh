#!/bin/sh
# needs: alone-plain long
# -W end to end: where the CPU went, in cyclesoak, zcs -c and zcc -c.
# Known loads against the split: a user-space burner (tests/loadgen) reads
# as user, a loop of one-byte system calls as system, a loopback transfer
# shows softirq work and NET_RX on some CPU; the classes add up to the load;
# sampling refused to a user without the right (nobody, perf_event_paranoid
# 2 or more) costs one line and the rest still prints; the JSON keys;
# -d names other's symbols; the net: line's us/packet and bytes/call;
# cyclesoak's view of other network namespaces (read, or named when not).
#
# The classes are of the whole machine: other work running beside this
# test (a compiler) is in them too. So the burner checks need a quiet
# machine and are tried up to 3 times; when the meter's load stays over
# 2 points above what the burner used, they are skipped as "busy", not
# failed. Judging accuracy, this test runs alone in the plain pass; the
# sanitizer pass skips every check that judges a figure (saying so) and
# runs beside other tests, so what it checks must hold there: the lines,
# the keys, work that shows (others only add to it).
. "$ZC_TOP/tests/lib.sh"
meter_slot

cs=$ZC_BIN/cyclesoak
jc=$ZC_TESTBIN/jsoncheck

# as_nobody OUT ERR ARGS...: cyclesoak ARGS as nobody, from a directory
# nobody may read, stdout in OUT and stderr in ERR.
as_nobody() {
	_out=$1 _err=$2
	shift 2
	(cd / && exec timeout 60 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$cs" "$@") >"$_out" 2>"$_err"
}

# where_peers N: zcs -d's where: lines name N peers or more ($peers).
where_peers() {
	peers=$(sed -n 's/^\(.* port [0-9]*\): where: .*/\1/p' "$TMP/zcs.out" | sort -u | wc -l)
	[ "$peers" -ge "$1" ]
}
ncpus=$(getconf _NPROCESSORS_ONLN)
meter_wait_others

# field OBJECT KEY: a number KEY of a flat JSON object's text.
field() {
	echo "$1" | sed -n "s/.*\"$2\":\(-\{0,1\}[0-9.]*\).*/\1/p"
}

# within_pts A B PTS: |A - B| <= PTS.
within_pts() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }'
}

# above A B: A > B.
above() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 > b + 0) }'
}

# --- options ------------------------------------------------------------------

usage_refused "zcc -W without -c" "$ZC_BIN/zcc" -W -s 127.0.0.1 /dev/null
usage_refused "zcc -W with -C" "$ZC_BIN/zcc" -W -C -f "$TMP/none"
usage_refused "zcs -W without -c" "$ZC_BIN/zcs" -W
usage_refused "cyclesoak -W with -C" "$cs" -W -C -f "$TMP/none"
for p in zcc zcs cyclesoak; do
	"$ZC_BIN/$p" -h >"$TMP/h" 2>&1
	check "$p -h describes -W" grep -Eq '^ +-W[ ,]' "$TMP/h"
done

# --- cyclesoak -W: the lines, the keys, the sum ---------------------------------

run_cs -r -W -1 >"$TMP/out" 2>"$TMP/err"
rc=$?
check "cyclesoak -W -1: exit 0 ($rc)" [ "$rc" -eq 0 ]
# net: may take a second line, when NET_RX ran but no interface this
# process sees moved packets: other tests' namespaces, beside this one in
# a parallel make check, do that.
check "cyclesoak -W: System load, where:, cpus:, net: in that order: $(tr '\n' '|' <"$TMP/out")" \
	[ "$(grep -E '^(System load|where|cpus|net):' "$TMP/out" | cut -d: -f1 | uniq | tr '\n' ,)" = "System load,where,cpus,net," ]
check "cyclesoak -W: a second net: line only for traffic it cannot see" \
	sh -c "grep '^net:' '$TMP/out' | sed 1d | grep -v '^net: NET_RX ran but no interface this process sees moved packets' | grep -q . && exit 1 || exit 0"
check "cyclesoak -W: a where: line with every class and unattributed" \
	grep -Eq '^where: user -?[0-9.]+%, system -?[0-9.]+%, irq -?[0-9.]+%, softirq -?[0-9.]+%, steal -?[0-9.]+%, unattributed -?[0-9.]+% of the machine$' "$TMP/out"
check "cyclesoak -W: cpus: names each of the $ncpus CPUs" \
	[ "$(grep '^cpus:' "$TMP/out" | grep -o 'cpu[0-9]* [0-9.-]*% (softirq' | wc -l)" -eq "$ncpus" ]
if grep -q 'kernel work not sampled' "$TMP/err"; then
	skip "cyclesoak -W: kernel: line: sampling refused here: $(cat "$TMP/err")"
else
	check "cyclesoak -W: a kernel: line with each kind and the sample count" \
		grep -Eq '^kernel: copy [0-9.]+%, checksum [0-9.]+%, tcp_ip [0-9.]+%, device [0-9.]+%, skb [0-9.]+%, memory [0-9.]+%, page_cache [0-9.]+%, lock [0-9.]+%, scheduler [0-9.]+%, syscall [0-9.]+%, other [0-9.]+%, user [0-9.]+% of [0-9]+ samples$' "$TMP/out"
	check "cyclesoak -W without -d: no other: line" sh -c "! grep -q '^other:' '$TMP/out'"
	run_cs -r -W -d -1 >"$TMP/outd" 2>"$TMP/err"
	check "cyclesoak -W -d: an other: line naming symbols with shares, or none: $(grep '^other:' "$TMP/outd")" \
		grep -Eq '^other:( none| [^ ,]+ [0-9.]+%(, [^ ,]+ [0-9.]+%){0,4})$' "$TMP/outd"
	if [ "$ncpus" -gt 1 ]; then
		check "cyclesoak -W: a kernel cpuN: line for each of the $ncpus CPUs" \
			[ "$(grep -Ec '^kernel cpu[0-9]+: copy [0-9.]+%, .*, user [0-9.]+% of [0-9]+ samples$' "$TMP/out")" -eq "$ncpus" ]
	fi
fi

# The command's 3 s are the window measured: nothing to wait for.
run_cs -r -W -J -p 1 -- sleep 3 >"$TMP/js" 2>"$TMP/err"
check "cyclesoak -W -J: valid JSON with the -W keys on the command event" \
	"$jc" -E command -k class_pct -k cpus -k net -k kernel_pct -k kernel_samples "$TMP/js"
run_cs -r -W -J -m 500 -1 >"$TMP/js1" 2>"$TMP/err"
check "cyclesoak -W -J: and on each load event" \
	"$jc" -E load -k load_pct -k class_pct -k cpus -k net -k kernel_pct -k kernel_samples "$TMP/js1"
cls=$(json_get "$TMP/js" command class_pct)
if [ "$ZC_PASS" = san ]; then
	skip "cyclesoak -W -J: idle, the classes' sum: judged in the plain pass (this is 'san'): $cls"
else
	# Idle, as its own load figure says: over 5% means other work ran.
	load=$(json_get "$TMP/js" command load_pct)
	if above "$load" 5; then
		skip "cyclesoak -W -J: idle, the classes' sum: machine busy (load $load%): $cls"
	else
		check "cyclesoak -W -J: idle (load $load%), the classes add up to the load within 2 points: $cls" \
			within_pts "$(field "$cls" unattributed)" 0 2
	fi
fi
check "cyclesoak -W -J: cpus holds an object per CPU" \
	[ "$(json_get "$TMP/js" command cpus | grep -o '"cpu":' | wc -l)" -eq "$ncpus" ]
check "cyclesoak -W -J: each CPU has its classes (class_pct)" \
	[ "$(json_get "$TMP/js" command cpus | grep -o '"class_pct":{"user":[0-9.-]*,"system":[0-9.-]*,"irq":[0-9.-]*,"softirq":[0-9.-]*,"steal":[0-9.-]*}' | wc -l)" -eq "$ncpus" ]

# --- known loads ----------------------------------------------------------------

# burner PCT: cyclesoak -W over loadgen -u -l PCT for 3 s (-u: all user
# time; without it loadgen reads its CPU clock, a system call, every 10 us,
# and 30% of its load is system time): user within 2 points
# of what loadgen used, system under 2 points, the classes adding up to
# the load within 2. Tried 3 times while the machine is busy.
burner() {
	_try=1
	while :; do
		run_cs -r -W -J -- sh -c "\"$ZC_TESTBIN/loadgen\" -u -l $1 -t 3 | tail -n 1 >\"$TMP/lg\"" \
			>"$TMP/b" 2>"$TMP/berr"
		_true=$(sed -n 's/^cpu: \([0-9.]*\)%$/\1/p' "$TMP/lg")
		_load=$(json_get "$TMP/b" command load_pct)
		_cls=$(json_get "$TMP/b" command class_pct)
		_user=$(field "$_cls" user)
		_sys=$(field "$_cls" system)
		_msg="loadgen ${_true:-?}%, load ${_load:-?}%: $_cls"
		within_pts "$_load" "$_true" 2 && break
		if [ $_try -ge 3 ]; then
			skip "$1% burner: machine busy (load over 2 points above the burner's): $_msg"
			return 0
		fi
		_try=$((_try + 1))
	done
	check "$1% burner reads as user within 2 points: $_msg" within_pts "$_user" "$_true" 2
	check "$1% burner: system under 2 points" above 2 "$_sys"
	check "$1% burner: the classes add up to the load within 2 points" \
		within_pts "$(field "$_cls" unattributed)" 0 2
}
# The known loads measure, they do not check memory: the plain pass runs
# them, the sanitizer pass (whose cyclesoak -W runs above) does not.
known_loads() {
	burner 25
	burner 50

	# One-byte reads and writes, /dev/zero to /dev/null: system calls back to
	# back, one CPU's worth, 30 to 40 points of system alone on 2 CPUs. Other
	# work beside it (over 5 points more than dd's CPU) is tried again, then
	# skipped as busy.
	# reads_system SYSTEM USER: system over user and at least 15 points.
	reads_system() {
		above "$1" "$2" && above "$1" 14.99
	}
	try=1
	while :; do
		run_cs -r -W -J -- timeout 3 dd if=/dev/zero of=/dev/null bs=1 status=none \
			>"$TMP/dd" 2>"$TMP/err"
		cls=$(json_get "$TMP/dd" command class_pct)
		load=$(json_get "$TMP/dd" command load_pct)
		above "$load" $((100 / ncpus + 5)) || break
		try=$((try + 1))
		[ $try -le 3 ] || break
	done
	if above "$load" $((100 / ncpus + 5)); then
		skip "system calls in a loop: machine busy (load $load%, dd's $((100 / ncpus))): $cls"
	else
		check "system calls in a loop read as system, over user, at least 15 points: $cls" \
			reads_system "$(field "$cls" system)" "$(field "$cls" user)"
	fi
	kp=$(json_get "$TMP/dd" command kernel_pct)
	if [ "$kp" = null ]; then
		skip "system calls: kernel kinds: sampling refused here"
	elif above "$load" $((100 / ncpus + 5)); then
		# The kinds are the whole machine's: others' transfers dilute dd's.
		skip "system calls: kernel kinds: machine busy (load $load%): $kp"
	else
		check "system calls: the syscall kind is over 10% of the samples: $kp" \
			above "$(field "$kp" syscall)" 10
	fi

}
if [ "$ZC_PASS" = san ]; then
	skip "known loads: only in the plain pass (this is 'san'; they measure)"
else
	known_loads
fi

# --- loopback transfers -------------------------------------------------------------

make_files "$TMP/files" 4 4000000
if zcs_metered -1 -c -W -J; then
	# Two seconds, not a count of loops: 60 loops of these files took
	# from 0.2 s to under 0.1 s as the machine ran faster or slower, a
	# window of a few ticks a CPU, where the classes' sum (tick-sampled)
	# came out 4.5 points off the meter once in a quiet make check.
	run_fg "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -t 2 "$TMP"/files/f* >"$TMP/zcc.out" 2>"$TMP/zcc.err"
	wait "$ZCS_PID"
	rc=$?
	forget_bg "$ZCS_PID"
	check "zcs -c -W -J -1: exit 0 ($rc)" [ "$rc" -eq 0 ]
	check "zcs -W -J: the done event has the -W keys and class_us_per_kb" \
		"$jc" -E done -k load_pct -k class_pct -k class_us_per_kb -k cpus -k net -k kernel_pct -k kernel_samples "$TMP/zcs.out"
	net=$(json_get "$TMP/zcs.out" done net)
	check "zcs -W -J: net has us_per_packet and bytes_per_call (receive calls): $net" \
		sh -c "echo '$net' | grep -Eq '\"us_per_packet\":[0-9.]+,\"bytes_per_call\":[1-9][0-9]*,'"
	cls=$(json_get "$TMP/zcs.out" done class_pct)
	check "loopback receive: softirq work shows: $cls" above "$(field "$cls" softirq)" 0.5
	cpus=$(json_get "$TMP/zcs.out" done cpus)
	check "loopback receive: NET_RX on some CPU: $cpus" \
		sh -c "echo '$cpus' | grep -Eq '\"net_rx_per_sec\":[1-9]'"
	net=$(json_get "$TMP/zcs.out" done net)
	check "loopback receive: the interface is lo, packets counted: $net" \
		sh -c "echo '$net' | grep -Eq '\"name\":\"lo\",\"rx_packets_per_sec\":[1-9]'"
	# A figure to judge, the plain pass's, with a wide tolerance: over a
	# window of seconds the tick-sampled classes and the meter still
	# differ by a few points on this 2-vCPU VM. The 2-point target is
	# judged by make bench's accuracy part, over longer windows.
	if [ "$ZC_PASS" = san ]; then
		skip "loopback receive: the classes' sum: judged in the plain pass (this is 'san'): $cls"
	else
		check "loopback receive: classes add up to the load within 4 points: $cls" \
			within_pts "$(field "$cls" unattributed)" 0 4
	fi
else
	not_ok "zcs -c -W did not start: $(cat "$TMP/zcs.err")"
fi

# Several connections at once (zcc -P) with -d: each -W line names its
# peer as the rate lines do, so the connections' lines are told apart.
if zcs_metered -c -W -d -t 0.3; then
	run_fg "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -P 2 -n 60 "$TMP"/files/f* >"$TMP/zcc.out" 2>"$TMP/zcc.err"
	rc=$?
	within 50 where_peers 2
	stop_bg "$ZCS_PID"
	check "zcs -c -W -d, zcc -P 2 (exit $rc): where: lines name two peers ($peers)" \
		[ "$rc.$peers" = 0.2 ]
	check "zcs -c -W -d: no where:, cpus:, net: or kernel: line without its peer" \
		sh -c "! grep -Eq '^(where|cpus|net|kernel):' '$TMP/zcs.out'"
	check "zcs -c -W -d: a peer's net: line after its where: line" \
		sh -c "grep -Eq ' port [0-9]*: net: ' '$TMP/zcs.out'"
else
	not_ok "zcs -c -W -d did not start: $(cat "$TMP/zcs.err")"
fi

zcs_start
run_metered "$TMP/zcc.err" "$ZC_BIN/zcc" -c -W -I 0.3 -s 127.0.0.1 -p "$ZCS_PORT" -n 120 \
	"$TMP"/files/f* >"$TMP/zcc.out"
rc=$?
check "zcc -c -W -I: exit 0 ($rc)" [ "$rc" -eq 0 ]
check "zcc -c -W: where: (with us/KB) after cpu:, then cpus:, net: on lo" \
	sh -c "grep -A4 '^cpu: load' '$TMP/zcc.out' | grep -v '^others: ' | sed -n 2,4p >'$TMP/after' &&
		grep -q '^where: .*; us/KB: user ' '$TMP/after' && grep -q '^net: .*; lo rx ' '$TMP/after'"
check "zcc -c -W: net: gives us/packet, bytes/call and interrupts/packet: $(grep '^net:' "$TMP/zcc.out" | tail -n 1)" \
	sh -c "grep '^net:' '$TMP/zcc.out' | tail -n 1 | grep -Eq '; [0-9.]+ us/packet, [0-9]+ bytes/call, [0-9]+\.[0-9]{3} interrupts/packet'"
if grep -q '^kernel:' "$TMP/zcc.out"; then
	check "zcc -c -W: kernel us/KB: after kernel:, each kind" \
		sh -c "grep -A1 '^kernel:' '$TMP/zcc.out' | grep -Eq '^kernel us/KB: copy [0-9.]+, .*, other [0-9.]+, user [0-9.]+$'"
fi
check "zcc -W -I: a where: line after an interval line: $(grep -c 'kbytes/sec$' "$TMP/zcc.out") of them" \
	sh -c "grep -A1 -E '^[0-9]+ kbytes/sec$' '$TMP/zcc.out' | grep -q '^where: '"
run_metered "$TMP/zcc.err" "$ZC_BIN/zcc" -J -c -W -d -s 127.0.0.1 -p "$ZCS_PORT" -n 20 \
	"$TMP"/files/f* >"$TMP/zcc.js"
check "zcc -c -W -J: the cpu event has the -W keys" \
	"$jc" -E cpu -k class_pct -k class_us_per_kb -k cpus -k net -k kernel_pct -k kernel_samples "$TMP/zcc.js"
net=$(json_get "$TMP/zcc.js" cpu net)
check "zcc -c -W -J: net has us_per_packet, bytes_per_call, interrupts_per_packet, super_packets, drops: $net" \
	sh -c "echo '$net' | grep -q '\"super_packets\":' &&
		echo '$net' | grep -Eq '\"rx_dropped\":[0-9]+,\"tx_dropped\":[0-9]+,\"errors\":[0-9]+,' &&
		echo '$net' | grep -Eq '\"us_per_packet\":[0-9.]+,\"bytes_per_call\":[1-9][0-9]*,\"interrupts_per_packet\":[0-9.]+,'"
if [ "$(json_get "$TMP/zcc.js" cpu kernel_pct)" != null ]; then
	check "zcc -c -W -d -J: kernel_us_per_kb and kernel_other" \
		"$jc" -E cpu -k kernel_us_per_kb -k kernel_other "$TMP/zcc.js"
	keys=$(json_get "$TMP/zcc.js" cpu kernel_pct | grep -o '"[a-z_]*":' | tr -d '":' | tr '\n' ' ')
	check "zcc -c -W -J: kernel_pct has the twelve kinds: $keys" \
		[ "$keys" = "copy checksum tcp_ip device skb memory page_cache lock scheduler syscall other user " ]
fi
# Each CPU's kinds: their samples add up to the machine's.
cpus=$(json_get "$TMP/zcc.js" cpu cpus)
if [ "$(json_get "$TMP/zcc.js" cpu kernel_pct)" = null ]; then
	skip "zcc -c -W -J: kernel kinds by CPU: sampling refused here"
else
	check "zcc -c -W -J: each CPU has kernel_pct and kernel_samples: $cpus" \
		[ "$(echo "$cpus" | grep -o '"kernel_pct":{"copy":' | wc -l)" -eq "$ncpus" ]
	check "zcc -c -W -J: the CPUs' kernel_samples add up to the machine's" \
		[ "$(echo "$cpus" | grep -o '"kernel_samples":[0-9]*' | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }')" \
		-eq "$(json_get "$TMP/zcc.js" cpu kernel_samples)" ]
fi
# -P: where's counters start with the run too (they once started at boot,
# so the classes' us/KB summed to thousands beside a service demand under 1).
run_metered "$TMP/zcc.err" "$ZC_BIN/zcc" -c -W -P 2 -s 127.0.0.1 -p "$ZCS_PORT" -n 40 \
	"$TMP"/files/f* >"$TMP/zcc.out"
demand=$(sed -n 's/^cpu: .*service demand \([0-9.]*\) us\/KB.*/\1/p' "$TMP/zcc.out")
usum=$(sed -n 's/^where: .*; us\/KB: //p' "$TMP/zcc.out" |
	awk -F', ' '{ for (i = 1; i <= NF; i++) { split($i, w, " "); s += w[2] } } END { print s }')
if [ "$ZC_PASS" = san ]; then
	# Beside other tests the machine's classes hold their work too: only
	# counters from boot (thousands of us/KB) are told from that here.
	check "zcc -c -W -P 2: the classes' us/KB from the run, not from boot ($usum, $demand)" \
		above "$(awk -v d="$demand" 'BEGIN { print 20 * d + 5 }')" "$usum"
	skip "zcc -c -W -P 2: the classes' us/KB against the service demand: judged in the plain pass (this is 'san'): $usum, $demand"
else
	check "zcc -c -W -P 2: the classes' us/KB add up to the service demand ($usum, $demand)" \
		within_pts "$usum" "$demand" "$(awk -v d="$demand" 'BEGIN { print d / 4 + 0.05 }')"
fi
stop_bg "$ZCS_PID"

# --- other network namespaces ---------------------------------------------------------

# Traffic between two namespaces of the test's own (a veth pair between
# them): cyclesoak -W in this one reads their interfaces; as nobody, who
# may not enter them, it names them as unread.
nsa=zcw$$a
nsb=zcw$$b
drop_ns() {
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
}
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null || ! ip netns add "$nsa" 2>/dev/null; then
	skip "other namespaces: needs root and ip netns"
else
	on_cleanup drop_ns
	ip netns add "$nsb" && ip link add "${nsa}v" type veth peer name "${nsb}v" &&
		ip link set "${nsa}v" netns "$nsa" && ip link set "${nsb}v" netns "$nsb" &&
		ip -n "$nsa" addr add 10.199.0.1/24 dev "${nsa}v" &&
		ip -n "$nsb" addr add 10.199.0.2/24 dev "${nsb}v" &&
		ip -n "$nsa" link set "${nsa}v" up && ip -n "$nsb" link set "${nsb}v" up
	ZCS_PREFIX="ip netns exec $nsa" zcs_up nszcs -a 10.199.0.1
	start_bg ip netns exec "$nsb" "$ZC_BIN/zcc" -s 10.199.0.1 -p "$ZCS_PORT" -t 60 \
		"$TMP"/files/f* >"$TMP/nszcc.out" 2>&1
	nszcc=$!
	run_cs -W -1 >"$TMP/ns" 2>"$TMP/nserr"
	check "cyclesoak -W: the other namespaces' interfaces, by name: $(grep '^net:' "$TMP/ns")" \
		grep -Eq "^net: .*$nsa/${nsa}v rx [1-9][0-9]* tx [1-9]" "$TMP/ns"
	if command -v setpriv >/dev/null; then
		metered "$TMP/nsnberr" as_nobody "$TMP/nsnb" "$TMP/nsnberr" -W -1
		rc=$?
		# Named, or (other tests' namespaces fill the line) counted whole.
		check "cyclesoak -W as nobody: the namespaces it cannot enter, named: $(grep 'cannot' "$TMP/nsnb")" \
			grep -Eq "^net: cannot read: (.*$nsa \(|.*\), and [0-9]+ more$)" "$TMP/nsnb"
	else
		skip "cyclesoak -W as nobody: needs setpriv"
	fi
	stop_bg "$nszcc"
	stop_bg "$ZCS_PID"
	drop_ns
fi

# --- sampling refused ---------------------------------------------------------------

# As nobody, with perf_event_paranoid 2 or more (raised for the test when
# lower, and put back), neither perf_event_open nor kallsyms' addresses are
# allowed: one line says why, the rest of -W is printed.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
restore_paranoid() {
	echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
}
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "sampling refused: needs root (to become nobody) and setpriv"
else
	if [ "${paranoid:-2}" -lt 2 ]; then
		on_cleanup restore_paranoid
		echo 2 >/proc/sys/kernel/perf_event_paranoid
	fi
	metered "$TMP/nberr" as_nobody "$TMP/nb" "$TMP/nberr" -r -W -1
	rc=$?
	[ "${paranoid:-2}" -lt 2 ] && restore_paranoid
	check "sampling refused: exit 0 ($rc)" [ "$rc" -eq 0 ]
	check "sampling refused: one line says why: $(cat "$TMP/nberr")" \
		[ "$(grep -c 'kernel work not sampled: ' "$TMP/nberr")" -eq 1 ]
	check "sampling refused: where:, cpus:, net: still printed, no kernel:" \
		sh -c "grep -q '^where: ' '$TMP/nb' && grep -q '^cpus: ' '$TMP/nb' &&
			grep -q '^net: ' '$TMP/nb' && ! grep -q '^kernel' '$TMP/nb'"
fi
finish
