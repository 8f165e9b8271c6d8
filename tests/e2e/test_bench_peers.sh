#!/bin/sh
# needs: long
# make bench PART=peers, short (1 round of 1 s a side, a 64 MiB file, the
# calls counted in the first row only: their extra run of each side would
# double the test's time and count the same code in every row): every
# row against iperf3 with the receivers reading alike and saying so, what
# each side's data is, each receiver's own CPU per KB and its target in
# the rows of the same work, the send and write rows judged as the same
# work (on one receive queue as root; on the machine's loopback, saying
# why, as another user), the unpinned row, the one large file against
# netperf (with NETPERF) or against zcc's 128 KiB file with no target
# (without), the
# 2001 default receiver's row named, each row's why (each side's CPU, what
# bounded the rate, the calls per MiB, the segments a MiB), the protocol's
# cost a file, the level pairs printed with no target, every byte counted,
# the CSV's new columns. Skipped where iperf3 is not installed.
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/e2e.sh"

bench=$ZC_TOP/tests/bench/run.sh
mkdir -p "$TMP/tmp" "$TMP/out"
bench_run_here "bench peers run"
if ! command -v iperf3 >/dev/null 2>&1; then
	skip "bench peers run: iperf3 is not installed (Debian package iperf3; .ci/run does not need it)"
else
	TMPDIR="$TMP/tmp" ZC_BENCH_OUT="$TMP/out" ZC_BENCH_PEER_REPS=1 ZC_BENCH_PEER_SECS=1 \
		ZC_BENCH_PEER_MIB=64 ZC_BENCH_PEER_CALLS=sf ZC_BIN="$ZC_BIN" ZC_TESTBIN="$ZC_TESTBIN" \
		timeout 600 sh "$bench" peers >"$TMP/peers.txt" 2>&1
	rc=$?
	check "bench peers, 1 round of 1 s: exit 0 (got $rc)" [ $rc -eq 0 ]
	[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/peers.txt"
	for r in "zcc sendfile / iperf3 -Z -l 128K" \
		"zcc send / iperf3 -F -l 64K" "zcc write / iperf3 -F -l 64K" \
		"zcc sendfile 63 / iperf3 -Z -l 350K" "zcc sendfile 63 unpinned / iperf3 -Z -l 350K unpinned"; do
		check "peers: a row '$r'" grep -qF "  $r " "$TMP/peers.txt"
	done
	check "peers: no row holds the large file against iperf3 -Z's one buffer" \
		sh -c "! grep -q '^  zcc sendfile 64M / iperf3' '$TMP/peers.txt'"
	check "peers: the files written back before the first round" \
		grep -q '^  the files written back to the disk (sync) before the first round$' "$TMP/peers.txt"
	if grep -q '^  netperf: skipped: ' "$TMP/peers.txt"; then
		check "peers: without netperf, the large file has no peer and no target, and why" \
			sh -c "grep -q '^  one 64 MiB file: no peer here, so no target: ' '$TMP/peers.txt' &&
				grep -q \"whose difference is the data's cache temperature\" '$TMP/peers.txt' &&
				! grep -q 'netperf TCP_SENDFILE of it' '$TMP/peers.txt'"
		same=3
	else
		for r in "zcc sendfile / netperf TCP_SENDFILE" "zcc sendfile 64M / netperf TCP_SENDFILE 64M"; do
			check "peers: a row '$r'" grep -qF "  $r " "$TMP/peers.txt"
		done
		check "peers: netperf walks the large file, as many bytes as zcc sends" \
			sh -c "grep -q 'data: a: one 64 MiB file, 31 times; b: the same file walked in 128 KiB sends (-W 512), as many bytes' '$TMP/peers.txt' &&
				grep -q 'TCP_SENDFILE -F .*/peer/large -l -2080374784 ' '$TMP/peers.txt'"
		check "peers: the large file's targets against netperf" \
			sh -c "[ \$(grep -Ec '^  -> (target met|TARGET NOT MET): zcc sendfile of one 64 MiB file against netperf TCP_SENDFILE of it: ' '$TMP/peers.txt') -eq 3 ]"
		same=5
	fi
	check "peers: the 2001 default receiver's row, named" \
		grep -q 'receivers: zcs 16 KiB (the 2001 default), iperf3 -s 128 KiB' "$TMP/peers.txt"
	check "peers: the receivers read alike in the rows against iperf3" \
		sh -c "grep -c 'receivers: zcs -b \(128K\|64K\|350K\), iperf3 -s reads' '$TMP/peers.txt' | grep -qx 5"
	n_rows=$(grep -c '^      receivers: ' "$TMP/peers.txt")
	check "peers: every row ($n_rows) says what each side's data is" \
		sh -c "[ \$(grep -Ec '^      data: a(: | and b: )[a-z0-9]' '$TMP/peers.txt') -eq $n_rows ]"
	check "peers: every row ($n_rows) has each receiver's own CPU per KB and their ratio" \
		sh -c "[ \$(grep -Ec \"^      receivers' own CPU per KB: a: [0-9]+\\.[0-9]{3} us; b: [0-9]+\\.[0-9]{3} us; a/b [0-9]+\\.[0-9]{2} \" '$TMP/peers.txt') -eq $n_rows ]"
	check "peers: the $same rows of the same work judge zcs's receiver: at most 1.05x the peer's" \
		sh -c "[ \$(grep -Ec \"^  -> (target met|TARGET NOT MET): .*: receiver's own CPU per KB [0-9.]+x .*\\(target at most 1.05x\\)\" '$TMP/peers.txt') -eq $same ]"
	check "peers: send and write against iperf3 -F judged as the same work, rate and own CPU" \
		sh -c "[ \$(grep -Ec '^  -> (target met|TARGET NOT MET): zcc (send|write) against iperf3 -F.*(throughput|own CPU per KB) .*\\(the same work: target at least level, (from 0.95|up to 1.05)\\)' '$TMP/peers.txt') -eq 4 ] &&
			! grep -Eq 'zcc (send|write) against iperf3 -F.*target at least [0-9.]+x' '$TMP/peers.txt'"
	# Each of the four verdicts and its words follow its own interval:
	# met when the rate's lower end is 0.95 or more (own CPU's upper end
	# 1.05 or less), "zc ahead" only when the whole interval is past 5% on
	# zc's side, "zc behind" exactly when missed.
	check "peers: the same-work verdicts follow their intervals" \
		awk '/^  -> (target met|TARGET NOT MET): zcc (send|write) against iperf3 -F.*\(the same work: / {
			n++; met = $2 == "target"; rate = /throughput/
			if (!match($0, /\[[0-9.]+-[0-9.]+,/)) { bad++; next }
			split(substr($0, RSTART + 1, RLENGTH - 2), iv, "-"); lo = iv[1] + 0; hi = iv[2] + 0
			ok = rate ? lo >= 0.95 : hi <= 1.05
			ahead = rate ? lo > 1.05 : hi < 0.95
			if (met != ok || !ok != /: zc behind/ || (ok && ahead) != /: zc ahead/) bad++
		} END { exit !(n == 4 && !bad) }' "$TMP/peers.txt"
	# Every "at least"/"at most" verdict follows the median it prints.
	check "peers: every verdict with a target follows its printed median" \
		awk '/^  -> (target met|TARGET NOT MET): .*\(target at (least|most) [0-9.]+x\)$/ {
			n++; met = $2 == "target"
			if (!match($0, /(throughput|own CPU per KB) [0-9.]+x \[/)) { bad++; next }
			f = substr($0, RSTART, RLENGTH); sub(/^[^0-9]*/, "", f); f += 0
			match($0, /target at (least|most) [0-9.]+x\)$/)
			t = substr($0, RSTART, RLENGTH); most = t ~ /most/
			gsub(/[^0-9.]/, "", t); t += 0
			if (met != (most ? f <= t : f >= t)) bad++
		} END { exit !(n >= 5 && !bad) }' "$TMP/peers.txt"
	# As root, the send and write rows run on a loopback of one receive
	# queue, in a namespace of the part's own, gone when the part ends.
	if [ "$(id -u)" = 0 ] && command -v ip >/dev/null 2>&1 && [ -e /sys/class/net/lo/queues/rx-0/rps_cpus ]; then
		check "peers: the send and write rows in a namespace of one receive queue" \
			sh -c "grep -Eq '^  \\$ ip netns add zcb-peers-[0-9]+; lo up, rps_cpus 2 \\(CPU 1\\)' '$TMP/peers.txt' &&
				grep -Eq '^  \\$ ip netns exec zcb-peers-[0-9]+ zcc .* -M send -b 65536 ' '$TMP/peers.txt' &&
				grep -Eq '^  \\$ ip netns exec zcb-peers-[0-9]+ taskset -c 0 iperf3 .* -F ' '$TMP/peers.txt' &&
				! grep -Eq '^  \\$ ip netns exec .* -Z ' '$TMP/peers.txt'"
		check "peers: the namespace is gone" sh -c "! ip netns list | grep -q '^zcb-peers-'"
	else
		check "peers: not root, the send and write rows on the machine's loopback, saying why" \
			grep -q "^  these rows on the machine's loopback (" "$TMP/peers.txt"
	fi
	# As root, the part once more as another user (nobody), which may not
	# make a namespace: the send and write rows on the machine's loopback,
	# the reason said, no namespace command.
	if [ "$(id -u)" != 0 ]; then
		: # the run above was that run
	elif ! command -v setpriv >/dev/null 2>&1; then
		skip "peers as another user: setpriv (util-linux) not installed"
	elif ! setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$bench" 2>/dev/null; then
		skip "peers as another user: nobody cannot read $bench"
	else
		# nobody must pass through $TMP to reach its own directory in it
		chmod o+x "$TMP" && mkdir -p "$TMP/nobody/np" && chmod -R 777 "$TMP/nobody"
		# Where perf counts only user time for a user (paranoid 2 or
		# more, perf's ":u"), a netperf given must be refused before it
		# runs: netserver's cost without its kernel time is not its cost.
		# A netperf and netserver that fail if run stand in for it.
		np=
		if [ "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 0)" -ge 2 ] &&
			command -v perf >/dev/null 2>&1; then
			np=$TMP/nobody/np/netperf
			printf '#!/bin/sh\necho ran >&2\nexit 3\n' >"$np"
			cp "$np" "$TMP/nobody/np/netserver"
			chmod 755 "$np" "$TMP/nobody/np/netserver"
		fi
		setpriv --reuid=65534 --regid=65534 --clear-groups env -u NETPERF ${np:+NETPERF="$np"} \
			HOME="$TMP/nobody" TMPDIR="$TMP/nobody" \
			ZC_BENCH_OUT="$TMP/nobody/out" ZC_BENCH_PEER_REPS=1 ZC_BENCH_PEER_SECS=1 ZC_BENCH_PEER_MIB=64 \
			ZC_BENCH_PEER_CALLS=sf ZC_BIN="$ZC_BIN" ZC_TESTBIN="$ZC_TESTBIN" \
			timeout 600 sh "$bench" peers >"$TMP/nobody.txt" 2>&1
		rc=$?
		check "peers as nobody: exit 0 (got $rc)" [ $rc -eq 0 ]
		[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/nobody.txt"
		check "peers as nobody: the send and write rows on the machine's loopback, because not root" \
			sh -c "grep -q \"^  these rows on the machine's loopback (not root): \" '$TMP/nobody.txt' &&
				grep -Eq '^  \\$ zcc .* -M send -b 65536 ' '$TMP/nobody.txt' &&
				! grep -q 'ip netns' '$TMP/nobody.txt'"
		if [ -n "$np" ]; then
			check "peers as nobody, perf counting user time only: netperf given, skipped, saying so" \
				grep -q "^  netperf: skipped: perf stat cannot count task-clock here, kernel time included" "$TMP/nobody.txt"
		else
			skip "peers as nobody with a netperf: perf counts a user's kernel time here (kernel.perf_event_paranoid under 2)"
		fi
		rm -rf "$TMP/nobody"
	fi
	check "peers: the unpinned row runs neither end pinned, with zc's targets" \
		sh -c "grep -q '^  \\$ zcs -p 0 -t 3600 -b 358400 ' '$TMP/peers.txt' &&
			grep -q '^  \\$ iperf3 -c 127.0.0.1 .* -Z -l 350K .*(server: iperf3 -s -1)' '$TMP/peers.txt' &&
			[ \$(grep -Ec '^  -> (target met|TARGET NOT MET): zcc sendfile of the 63-file set against iperf3 -Z, unpinned: ' '$TMP/peers.txt') -eq 2 ]"
	check "peers: every row ($n_rows) says why: each side's CPU and what bounded it, calls per MiB" \
		sh -c "[ \$(grep -Ec '^      why: a: sender [0-9]+% receiver [0-9]+% of a CPU \((sender|receiver|both|neither) bound\); b: ' '$TMP/peers.txt') -eq $n_rows ] &&
			[ \$(grep -c '^      calls per MiB: a: sender ' '$TMP/peers.txt') -eq $n_rows ] && [ $n_rows -ge 6 ]"
	# The one row counted (sf, the first: zcc against iperf3, so perf
	# stat watches both kinds of side) has its four figures; the rest "-".
	if grep -q '^  calls per MiB: not counted: ' "$TMP/peers.txt"; then
		skip "peers: calls per MiB: $(grep -m 1 '^  calls per MiB: not counted' "$TMP/peers.txt")"
	else
		calls=$(grep -m 1 '^      calls per MiB: ' "$TMP/peers.txt")
		check "peers: the first row's calls counted, each side's: $calls" \
			sh -c "echo '$calls' | grep -Eq '^ +calls per MiB: a: sender [0-9.]+ receiver [0-9.]+; b: sender [0-9.]+ receiver [0-9.]+$'"
		check "peers: the other $((n_rows - 1)) rows' not counted (ZC_BENCH_PEER_CALLS=sf)" \
			[ "$(grep -c '^      calls per MiB: a: sender - receiver -; b: sender - receiver -$' "$TMP/peers.txt")" -eq $((n_rows - 1)) ]
	fi
	check "peers: the protocol's cost a file, from paired rounds of zcc alone, with its interval" \
		sh -c "grep -q '^  zcc sendfile 128K files / zcc sendfile 64M ' '$TMP/peers.txt' &&
			grep -Eq \"the protocol's cost: -?[0-9.]+ \\[-?[0-9.]+, -?[0-9.]+\\] us a 128 KiB file: \" '$TMP/peers.txt'"
	# What it says follows the interval's sign: above 0, a cost; below, none.
	pc=$(sed -n "s/^  the protocol's cost: -\{0,1\}[0-9.]* \[\(-\{0,1\}[0-9.]*\), \(-\{0,1\}[0-9.]*\)\] us a 128 KiB file: \(.*\)$/\1 \2 \3/p" "$TMP/peers.txt")
	check "peers: the protocol's cost says what a system call costs here" \
		grep -Eq "a null system call costs [0-9]+\.[0-9]{3} us here" "$TMP/peers.txt"
	check "peers: the protocol's cost's words fit its interval ($pc)" \
		awk -v s="$pc" 'BEGIN { split(s, w, " "); t = substr(s, length(w[1]) + length(w[2]) + 3)
			if (w[1] > 0) exit t !~ /^a cost the rounds show/
			if (w[2] < 0) exit t !~ /^below 0/
			exit t !~ /^the interval holds 0/ }'
	check "peers: every row ($n_rows) says how many segments TCP sent again, both sides" \
		sh -c "[ \$(grep -Ec '^      segments sent again per GiB: a: [0-9]+; b: [0-9]+$' '$TMP/peers.txt') -eq $n_rows ]"
	check "peers: every row ($n_rows) says how many segments a MiB went, both sides, none zero" \
		sh -c "[ \$(grep -Ec '^      segments a MiB, both ways \(TCP OutSegs\): a: [0-9]+\.[0-9]; b: [0-9]+\.[0-9]$' '$TMP/peers.txt') -eq $n_rows ] &&
			! grep -Eq '^      segments a MiB.*: (a|b): 0\.0' '$TMP/peers.txt'"
	if zcc_methods | grep -q uring-zc && ! method_refused uring-zc; then
		check "peers: the pairs level by design have no target, their interval printed" \
			sh -c "grep -Eq '^  -> level by design, no target: uring against send\(\) from the same mapping.*\[[0-9.]+-[0-9.]+, [0-9.]+%\]: ' '$TMP/peers.txt' &&
				grep -Eq '^  -> level by design, no target: uring-zc against zerocopy.*\]: ' '$TMP/peers.txt' &&
				! grep -q 'TARGET NOT MET.*uring' '$TMP/peers.txt'"
	fi
	check "peers: every byte counted, 5 receivers" \
		sh -c "[ \$(grep -c '^  bytes: zcc sent [0-9]* in [0-9]* connections, zcs received the same' '$TMP/peers.txt') -eq 5 ]"
	for k in sender_cpu_a receiver_cpu_b bound_a sender_calls_a receiver_calls_b retransmits_a retransmits_b segments_a segments_b \
		receiver_us_per_kb_a receiver_us_per_kb_b receiver_cpu_ratio receiver_target_met; do
		check "peers: the CSV's $k column for the sendfile row" grep -q "^peers,sf,$k," "$TMP/out/bench.csv"
	done
	check "peers: the CSV's protocol cost and its interval" sh -c "grep -q '^peers,protocol,us_per_file,' '$TMP/out/bench.csv' &&
		grep -q '^peers,protocol,us_per_file_lo,' '$TMP/out/bench.csv'"
fi
check "nothing left in the work directory" sh -c "[ -z \"\$(ls -A '$TMP/tmp')\" ]"
finish
