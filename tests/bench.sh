#!/bin/sh
# make bench [PART=name]: the benchmark that shows zc's speed and accuracy.
#
#   sh tests/bench.sh [loopback|sweep|peers|accuracy|scale|link]...
#
# Prints the machine, every command it runs and a table per part; writes
# the figures to build/bench/bench.csv (part,case,metric,value,unit: a run
# of some parts replaces only those parts' rows) and the chunk-size curve
# to build/bench/sweep.svg. Targets it checks are reported as "target met"
# or "TARGET NOT MET", never adjusted to pass.
#
# Environment: ZC_BENCH_OUT (output directory), ZC_BENCH_REPS (loopback
# repetitions, default 5), ZC_BENCH_PEER_REPS (alternating zcc/iperf3
# throughput runs in peers, default 5), ZC_BENCH_LINK_REPS (rounds of the
# link part, default 6, at least 2), ZC_BIN and ZC_TESTBIN as for the tests.
. "$(dirname "$0")/bench_lib.sh"

ALL_PARTS="loopback sweep peers accuracy scale link"
OUT=${ZC_BENCH_OUT:-$TOP/build/bench}
REPS=${ZC_BENCH_REPS:-5}
PEER_REPS=${ZC_BENCH_PEER_REPS:-5}
LINK_REPS=${ZC_BENCH_LINK_REPS:-6}
NEW_CSV=$WORK/new.csv
: >"$NEW_CSV"

parts=${*:-$ALL_PARTS}
for p in $parts; do
	case " $ALL_PARTS " in
	*" $p "*) ;;
	*)
		echo "bench.sh: unknown part '$p' (parts: $ALL_PARTS)" >&2
		exit 2
		;;
	esac
done
# reps_ok NAME VALUE MIN: a whole number of repetitions, or stop.
reps_ok() {
	case $2 in
	'' | *[!0-9]*) die "$1 must be a whole number (got '$2')" ;;
	esac
	[ "$2" -ge "$3" ] || die "$1 must be at least $3 (got $2)"
}
reps_ok ZC_BENCH_REPS "$REPS" 1
reps_ok ZC_BENCH_PEER_REPS "$PEER_REPS" 1
reps_ok ZC_BENCH_LINK_REPS "$LINK_REPS" 2
for p in zcc zcs cyclesoak; do
	[ -x "$ZC_BIN/$p" ] || die "$ZC_BIN/$p not built (run make)"
done
for p in svgplot loadgen; do
	[ -x "$ZC_TESTBIN/$p" ] || die "$ZC_TESTBIN/$p not built (run make tests)"
done
mkdir -p "$OUT" || die "cannot create $OUT"

# csv PART CASE METRIC VALUE UNIT: one figure for the CSV file.
csv() {
	echo "$1,$2,$3,$4,$5" >>"$NEW_CSV"
}

# show COMMAND...: print a command the way it is about to be run.
show() {
	echo "  \$ $*"
}

section() {
	echo
	echo "=== $* ==="
}

# verdict MET WHAT: the plain sentence about a target.
VERDICTS=
verdict() {
	if [ "$1" = 1 ]; then _v="target met: $2"; else _v="TARGET NOT MET: $2"; fi
	echo "  -> $_v"
	VERDICTS="$VERDICTS  $_v
"
}

# Floating-point helpers (sh has only integers).
calc() {
	awk "BEGIN { printf \"%.6g\\n\", $* }"
}
is_true() {
	awk "BEGIN { exit !($*) }"
}
# need VALUE...: every value a number, or stop: a verdict on a figure that
# failed to come out would be worse than none.
need() {
	for _v in "$@"; do
		case $_v in
		'' | *[!0-9.eE+-]* | *[eE]*[eE]*) die "a figure did not come out as a number ('$_v')" ;;
		esac
	done
}

machine() {
	section "machine"
	echo "host:    $(uname -a)"
	echo "cpu:     $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) x $(nproc)"
	echo "memory:  $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "kernel:  $(uname -r)"
	echo "zc:      $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min averages before the run)"
	csv machine host nproc "$(nproc)" cpus
	csv machine host memory "$(awk '/^MemTotal/ { print int($2 / 1024) }' /proc/meminfo)" MiB
	csv machine host kernel "$(uname -r)" ""
	t0=$(cpu_ticks)
	sleep 1
	idle_busy=$(cpu_share "$t0" "$(cpu_ticks)")
	echo "busy:    $idle_busy% of the CPUs in use by others in the second before the run"
	csv machine host busy_before "$idle_busy" %
	if awk -v b="$idle_busy" 'BEGIN { exit !(b > 5) }'; then
		echo "WARNING: this machine is not idle: the CPU-load figures below will be off"
	fi
}

# The meter's calibration for zcc -c: always a fresh one for a benchmark.
CALIBRATED=
calibrate_once() {
	[ -n "$CALIBRATED" ] && return 0
	show "zcc -C   (a fresh calibration for zcc -c, in $WORK)"
	CALIB_FRESH=1
	CALIB_KEEP=no
	calib_ready
	csv calibration zcc loops_per_sec "$(head -n 1 "$WORK/counts_per_sec")" loops/s
	if grep -q warning "$WORK/calib.err"; then
		echo "  NOTE: the calibration was not clean (see the warning): CPU-load figures are suspect"
		csv calibration zcc clean 0 bool
	else
		csv calibration zcc clean 1 bool
	fi
	CALIBRATED=1
}

# The 63 files of about 350 KB of the original README's example.
BIG_FILES=
big_files() {
	if [ -z "$BIG_FILES" ]; then
		make_files "$WORK/big" 63 358400
		BIG_FILES=1
	fi
}

# byte_check NAME: zcs's received total against zcc's sent total.
byte_check() {
	if zcs_agrees "$1"; then
		echo "  bytes: zcc sent $SENT_TOTAL in $SENT_RUNS connections, zcs received the same"
	else
		echo "  bytes: MISMATCH: zcc sent $SENT_TOTAL in $SENT_RUNS connections," \
			"zcs received $ZCS_DONE_BYTES in $ZCS_DONE_RUNS"
	fi
}

MODES="sendfile send write"
mode_flags() {
	case $1 in
	sendfile) echo "" ;;
	send) echo "-S" ;;
	write) echo "-S -w" ;;
	esac
}
mode_label() {
	case $1 in
	sendfile) echo "sendfile" ;;
	send) echo "read+send (-S)" ;;
	write) echo "read+write (-S -w)" ;;
	esac
}

# ---------------------------------------------------------------------------
part_loopback() {
	section "1. loopback: the demo's table, median of $REPS runs per mode"
	calibrate_once
	big_files
	SENT_TOTAL=0 SENT_RUNS=0
	zcs_up lb -t 3600
	show "zcs -p 0 -t 3600   (port $ZCS_PORT)"
	probe_loops 2 -s 127.0.0.1 -p "$ZCS_PORT" "$WORK"/big/f*
	echo "  63 files, $(cat "$WORK"/big/f* | wc -c) bytes, sent $LOOPS times per run (about 2 s)"
	for m in $MODES; do eval "rate_$m= load_$m= sd_$m="; done
	rep=1
	while [ $rep -le "$REPS" ]; do
		QUIET=$([ $rep = 1 ] || echo 1)
		for m in $MODES; do
			# shellcheck disable=SC2046
			run_zcc "$WORK/lb.$m" -s 127.0.0.1 -p "$ZCS_PORT" -n "$LOOPS" -c $(mode_flags $m) \
				"$WORK"/big/f* || die "zcc failed"
			[ -n "$CPU_SD" ] || die "zcc -c printed no cpu: line"
			eval "rate_$m=\"\$rate_$m $SENT_RATE\" load_$m=\"\$load_$m $CPU_LOAD\" sd_$m=\"\$sd_$m $CPU_SD\""
		done
		rep=$((rep + 1))
	done
	QUIET=
	[ "$REPS" -gt 1 ] && echo "  ... the same $((REPS - 1)) times more"
	byte_check lb
	stop_bg "$ZCS_PID"
	echo
	printf '  %-20s %12s %15s %22s %20s\n' mode "kbytes/sec" "system load %" "service demand us/KB" "kbytes/sec min-max"
	for m in $MODES; do
		eval "r=\$rate_$m l=\$load_$m s=\$sd_$m"
		# shellcheck disable=SC2086
		mr=$(median $r) ml=$(median $l) ms=$(median $s)
		# shellcheck disable=SC2086
		lo=$(least $r) hi=$(most $r)
		printf '  %-20s %12.0f %15.1f %22.3f %20s\n' "$(mode_label $m)" "$mr" "$ml" "$ms" "$lo-$hi"
		csv loopback "$m" kbytes_per_sec "$mr" KiB/s
		csv loopback "$m" system_load "$ml" %
		csv loopback "$m" service_demand "$ms" us/KB
	done
}

# ---------------------------------------------------------------------------
part_sweep() {
	section "2. sweep: cost of read()+send() by chunk size (zcc -S -b SIZE -c), median of 3"
	calibrate_once
	big_files
	SENT_TOTAL=0 SENT_RUNS=0
	zcs_up sw -t 3600
	show "zcs -p 0 -t 3600   (port $ZCS_PORT)"
	echo "  63 files of about 350 KB; each run about 1.5 s"
	echo
	printf '  %-10s %12s %15s %22s\n' "chunk" "kbytes/sec" "system load %" "service demand us/KB"
	echo "chunk_bytes,us_per_kb" >"$WORK/sweep.csv"
	for size in 256 512 1024 2048 4096 8192 16384 32768 65536 sendfile; do
		if [ $size = sendfile ]; then flags=; else flags="-S -b $size"; fi
		# shellcheck disable=SC2086
		probe_loops 1.5 -s 127.0.0.1 -p "$ZCS_PORT" $flags "$WORK"/big/f*
		r= l= s=
		for rep in 1 2 3; do
			# shellcheck disable=SC2086
			QUIET=1
			run_zcc "$WORK/sw" -s 127.0.0.1 -p "$ZCS_PORT" -n "$LOOPS" -c $flags \
				"$WORK"/big/f* || die "zcc failed"
			QUIET=
			[ -n "$CPU_SD" ] || die "zcc -c printed no cpu: line"
			r="$r $SENT_RATE" l="$l $CPU_LOAD" s="$s $CPU_SD"
		done
		# shellcheck disable=SC2086
		mr=$(median $r) ml=$(median $l) ms=$(median $s)
		printf '  %-10s %12.0f %15.1f %22.3f   $ zcc -s 127.0.0.1 -p %s -n %s -c %s FILES\n' \
			"$size" "$mr" "$ml" "$ms" "$ZCS_PORT" "$LOOPS" "${flags:-(sendfile)}"
		if [ $size = sendfile ]; then
			csv sweep sendfile service_demand "$ms" us/KB
			csv sweep sendfile kbytes_per_sec "$mr" KiB/s
		else
			echo "$size,$ms" >>"$WORK/sweep.csv"
			csv sweep "$size" service_demand "$ms" us/KB
			csv sweep "$size" kbytes_per_sec "$mr" KiB/s
			csv sweep "$size" system_load "$ml" %
		fi
	done
	byte_check sw
	stop_bg "$ZCS_PID"
	cp "$WORK/sweep.csv" "$OUT/sweep.csv"
	show "svgplot -l -o $OUT/sweep.svg $OUT/sweep.csv"
	if "$ZC_TESTBIN/svgplot" -l -t "CPU cost of read()+send() by chunk size ($(uname -r), loopback)" \
		-x "send() chunk size (bytes)" -y "service demand (us of CPU per KB sent)" \
		-o "$OUT/sweep.svg" "$OUT/sweep.csv"; then
		echo "  curve: $OUT/sweep.svg (data: $OUT/sweep.csv)"
	else
		echo "  svgplot failed: no SVG written"
	fi
}

# ---------------------------------------------------------------------------
# iperf_run PORT OUTFILE IPERF-CLIENT-ARGS...: one iperf3 transfer against a
# one-shot server; sets IPERF_RATE (KiB/s, sender side) and IPERF_SECS.
iperf_run() {
	_port=$1 _o=$2
	shift 2
	start_bg iperf3 -s -1 -p "$_port" >"$_o.srv" 2>&1
	_spid=$!
	port_listening "$_port" || { stop_bg $_spid; return 1; }
	run_fg "$@" >"$_o" 2>&1
	_rc=$?
	stop_bg $_spid
	[ $_rc -eq 0 ] || { sed 's/^/  /' "$_o" >&2; return 1; }
	# The JSON's end.sum_sent: bytes and seconds on the sender side.
	IPERF_BYTES=$(awk '/"sum_sent"/ { s = 1 } s && /"bytes"/ { gsub(/[^0-9]/, ""); print; exit }' "$_o")
	IPERF_SECS=$(awk '/"sum_sent"/ { s = 1 } s && /"seconds"/ { sub(/.*: */, ""); sub(/,.*/, ""); print; exit }' "$_o")
	IPERF_CPU=$(awk '/"cpu_utilization_percent"/ { s = 1 } s && /"host_total"/ { sub(/.*: */, ""); sub(/,.*/, ""); print; exit }' "$_o")
	[ -n "$IPERF_BYTES" ] && [ -n "$IPERF_SECS" ] || return 1
	IPERF_RATE=$(calc "$IPERF_BYTES / 1024 / $IPERF_SECS")
}

# port_listening PORT: wait (up to 5 s) until something listens on PORT.
# (iperf3's "listening" line sits in its stdio buffer when sent to a file.)
port_listening() {
	_n=50
	while [ $_n -gt 0 ]; do
		ss -Htln "sport = :$1" 2>/dev/null | grep -q . && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

# A TCP port nobody listens on, for iperf3 (which cannot be told "any port").
free_port() {
	_p=$((20000 + $$ % 20000))
	while ss -Htln "sport = :$_p" 2>/dev/null | grep -q .; do _p=$((_p + 1)); done
	echo $_p
}

# meter OUTFILE COMMAND...: the machine's load over COMMAND's life with the
# same calibration as zcc -c; sets METER_LOAD (percent).
meter() {
	_o=$1
	shift
	run_fg in_work "$ZC_BIN/cyclesoak" -f "$WORK/counts_per_sec" -- "$@" >"$_o" 2>"$_o.err"
	METER_LOAD=$(sed -n 's/^System load: *\(-\{0,1\}[0-9.]*\)%.*/\1/p' "$_o" | tail -n 1)
	[ -n "$METER_LOAD" ]
}

part_peers() {
	section "3. peers: zcc/zcs against iperf3 and netperf, same run, matched sizes"
	if command -v netperf >/dev/null 2>&1; then
		echo "  netperf: skipped: installed, but its TCP_SENDFILE comparison is not written yet"
	else
		echo "  netperf: skipped: netperf not installed"
	fi
	if ! command -v iperf3 >/dev/null 2>&1; then
		echo "  iperf3: skipped: iperf3 not installed"
		return 0
	fi
	calibrate_once
	secs=3
	ncpu=$(nproc)
	# Matched to iperf3 -l 128K: it sends one 128 KiB buffer (a file, with
	# -Z) over and over, so zcc sends one 128 KiB file over and over, one
	# sendfile() or read()+write() of 128 KiB each, and zcs reads 128 KiB
	# at a time as iperf3's server does. The third case, 160 different
	# files (20 MiB that no CPU cache holds), shows what the cache-hot
	# buffer is worth; its ratio is printed, not judged.
	make_files "$WORK/peer" 160 131072
	SENT_TOTAL=0 SENT_RUNS=0
	zcs_up peer -b 131072 -t 3600
	show "zcs -p 0 -b 131072 -t 3600   (port $ZCS_PORT)"
	port=$(free_port)
	echo "  zcc and iperf3 alternate, $PEER_REPS runs each of about $secs s with no meter, for the"
	echo "  throughput (median); then one run each under cyclesoak, for the CPU"
	for kind in sendfile write sendfile_160files; do
		case $kind in
		sendfile)
			zflags= iflags=-Z zname="zcc (sendfile)" iname="iperf3 -Z"
			set -- "$WORK/peer/f0" ;;
		write)
			zflags="-S -w -b 131072" iflags= zname="zcc -S -w -b 128K" iname="iperf3 (write)"
			set -- "$WORK/peer/f0" ;;
		sendfile_160files)
			zflags= iflags=-Z zname="zcc, 160 files" iname="iperf3 -Z (above)"
			set -- "$WORK"/peer/f* ;;
		esac
		# shellcheck disable=SC2086
		probe_loops $secs -s 127.0.0.1 -p "$ZCS_PORT" $zflags "$@"
		zloops=$LOOPS
		zr= ir= icpu=
		rep=0
		while [ $((rep += 1)) -le "$PEER_REPS" ]; do
			QUIET=$([ $rep = 1 ] || echo 1)
			# shellcheck disable=SC2086
			run_zcc "$WORK/pz" -s 127.0.0.1 -p "$ZCS_PORT" -n "$zloops" $zflags "$@" || die "zcc failed"
			QUIET=
			zr="$zr $SENT_RATE"
			[ $kind = sendfile_160files ] && continue
			[ $rep = 1 ] && show "iperf3 -s -1 -p $port; iperf3 -c 127.0.0.1 -p $port ${iflags:+$iflags }-l 128K -t $secs -J"
			# shellcheck disable=SC2086
			iperf_run "$port" "$WORK/pi" iperf3 -c 127.0.0.1 -p "$port" $iflags -l 128K -t $secs -J ||
				die "iperf3 failed"
			ir="$ir $IPERF_RATE" icpu="$icpu $IPERF_CPU"
		done
		# shellcheck disable=SC2086
		zrate=$(median $zr)
		# Sender CPU: the same meter, the same calibration, for both.
		show "cyclesoak -f counts_per_sec -- zcc -s 127.0.0.1 -p $ZCS_PORT -n $zloops ${zflags:+$zflags }peer/... ($# file$([ $# = 1 ] || echo s))"
		# shellcheck disable=SC2086
		meter "$WORK/mz" "$ZC_BIN/zcc" -s 127.0.0.1 -p "$ZCS_PORT" -n "$zloops" $zflags "$@" ||
			die "cyclesoak -- zcc failed"
		parse_zcc "$WORK/mz"
		SENT_TOTAL=$((SENT_TOTAL + SENT_BYTES)) SENT_RUNS=$((SENT_RUNS + 1))
		zload=$METER_LOAD
		zsd=$(calc "$zload / 100 * $ncpu * $SENT_SECS * 1e6 / ($SENT_BYTES / 1024)")
		if [ $kind != sendfile_160files ]; then
			# shellcheck disable=SC2086
			irate=$(median $ir) icpu=$(median $icpu)
			show "cyclesoak -f counts_per_sec -- iperf3 -c 127.0.0.1 -p $port ${iflags:+$iflags }-l 128K -t $secs -J"
			start_bg iperf3 -s -1 -p "$port" >"$WORK/mi.srv" 2>&1
			spid=$!
			port_listening "$port" || die "iperf3 server did not start"
			# shellcheck disable=SC2086
			meter "$WORK/mi" iperf3 -c 127.0.0.1 -p "$port" $iflags -l 128K -t $secs -J ||
				die "cyclesoak -- iperf3 failed"
			stop_bg $spid
			iload=$METER_LOAD
			ib=$(awk '/"sum_sent"/ { s = 1 } s && /"bytes"/ { gsub(/[^0-9]/, ""); print; exit }' "$WORK/mi")
			is=$(awk '/"sum_sent"/ { s = 1 } s && /"seconds"/ { sub(/.*: */, ""); sub(/,.*/, ""); print; exit }' "$WORK/mi")
			isd=$(calc "$iload / 100 * $ncpu * $is * 1e6 / ($ib / 1024)")
			if [ $kind = sendfile ]; then
				sf_irate=$irate sf_iload=$iload sf_isd=$isd sf_icpu=$icpu
			fi
		else
			irate=$sf_irate iload=$sf_iload isd=$sf_isd icpu=$sf_icpu
		fi
		echo
		printf '  %-20s %12s %15s %22s %18s\n' "$kind" "kbytes/sec" "system load %" "service demand us/KB" "own CPU (iperf3)"
		printf '  %-20s %12.0f %15.1f %22.3f %18s\n' "$zname" "$zrate" "$zload" "$zsd" "-"
		printf '  %-20s %12.0f %15.1f %22.3f %17.1f%%\n' "$iname" "$irate" "$iload" "$isd" "$icpu"
		need "$zrate" "$irate" "$zload" "$iload" "$zsd" "$isd"
		tratio=$(calc "$zrate / $irate")
		cratio=$(calc "$zsd / $isd")
		need "$tratio" "$cratio"
		printf '  ratio zc/iperf3: throughput %.3f, service demand %.3f (below 1: zc cheaper)\n' "$tratio" "$cratio"
		csv peers "zcc_$kind" kbytes_per_sec "$zrate" KiB/s
		csv peers "zcc_$kind" system_load "$zload" %
		csv peers "zcc_$kind" service_demand "$zsd" us/KB
		if [ $kind != sendfile_160files ]; then
			csv peers "iperf3_$kind" kbytes_per_sec "$irate" KiB/s
			csv peers "iperf3_$kind" system_load "$iload" %
			csv peers "iperf3_$kind" service_demand "$isd" us/KB
			csv peers "iperf3_$kind" own_cpu "$icpu" %
		fi
		csv peers "$kind" throughput_ratio "$tratio" zc/iperf3
		csv peers "$kind" service_demand_ratio "$cratio" zc/iperf3
		if [ $kind = sendfile ]; then
			if is_true "$tratio >= 1.0"; then met=1; else met=0; fi
			verdict $met "loopback sendfile throughput zc/iperf3 -Z = $(printf '%.3f' "$tratio") (target >= 1.0)"
			csv peers sendfile target_met $met bool
		fi
	done
	byte_check peer
	stop_bg "$ZCS_PID"
}

# ---------------------------------------------------------------------------
# acc_level LABEL PCT CYCLESOAK_OPTION...: one row of the accuracy table, for
# loadgen at PCT% measured by cyclesoak with those options; keeps the worst
# error in $worst (and where, in $worst_at).
acc_level() {
	_label=$1 pct=$2
	shift 2
	t0=$(cpu_ticks)
	sleep 1
	t1=$(cpu_ticks)
	bgload=$(cpu_share "$t0" "$t1")
	# /proc/stat is read just before and after loadgen, inside the
	# measured command: the same window as the meter's and loadgen's.
	run_fg in_work "$ZC_BIN/cyclesoak" "$@" -- sh -c \
		'head -n 1 /proc/stat >"$0.before"; "$@"; rc=$?; head -n 1 /proc/stat >"$0.after"; exit $rc' \
		"$WORK/stat" "$ZC_TESTBIN/loadgen" -l "$pct" -t 4 \
		>"$WORK/acc.out" 2>"$WORK/acc.err" || { cat "$WORK/acc.err" >&2; die "cyclesoak -- loadgen failed"; }
	ps=$(cpu_share "$(cpu_ticks "$WORK/stat.before")" "$(cpu_ticks "$WORK/stat.after")")
	cs=$(sed -n 's/^System load: *\(-\{0,1\}[0-9.]*\)%.*/\1/p' "$WORK/acc.out" | tail -n 1)
	lg=$(sed -n 's/^cpu: *\([0-9.]*\)%.*/\1/p' "$WORK/acc.out" | tail -n 1)
	[ -n "$cs" ] && [ -n "$lg" ] || { cat "$WORK/acc.out" "$WORK/acc.err" >&2; die "no figures"; }
	need "$lg" "$bgload" "$cs" "$ps"
	truth=$(calc "$lg + $bgload")
	err=$(calc "$cs - $truth")
	perr=$(calc "$ps - $truth")
	need "$truth" "$err" "$perr"
	printf '  %-4s %5s%% %9.2f %11.2f %8.2f %10.1f %+9.2f %12.2f %+9.2f\n' \
		"$_label" "$pct" "$lg" "$bgload" "$truth" "$cs" "$err" "$ps" "$perr"
	csv accuracy "${_label}_$pct" loadgen "$lg" %
	csv accuracy "${_label}_$pct" background "$bgload" %
	csv accuracy "${_label}_$pct" cyclesoak "$cs" %
	csv accuracy "${_label}_$pct" proc_stat "$ps" %
	csv accuracy "${_label}_$pct" error "$err" points
	if awk -v e="$err" -v w="$worst" 'BEGIN { exit !((e < 0 ? -e : e) > (w < 0 ? -w : w)) }'; then
		worst=$err worst_at="$_label, $pct% level"
	fi
}

acc_header() {
	printf '  %-4s %6s %9s %11s %8s %10s %9s %12s %9s\n' run level loadgen% background% truth% \
		cyclesoak% "error" "/proc/stat%" "error"
}

# acc_verdict WHAT CSV_CASE: the target verdict on $worst.
acc_verdict() {
	if awk -v w="$worst" 'BEGIN { exit !((w < 0 ? -w : w) <= 1.5) }'; then met=1; else met=0; fi
	verdict $met "$1: worst meter error $(printf '%+.2f' "$worst") points${worst_at:+ ($worst_at)} (target within 1.5)"
	csv accuracy "$2" worst_error "$worst" points
	csv accuracy "$2" target_met $met bool
}

part_accuracy() {
	section "4. accuracy: cyclesoak against loadgen's exact CPU use, 3 fresh calibrations"
	echo "  truth = loadgen's own CPU share (CLOCK_PROCESS_CPUTIME_ID) + the background"
	echo "  measured by /proc/stat in the idle second just before; target: |error| <= 1.5 points."
	echo "  /proc/stat% is its busy share (user, system, irq, softirq, steal) over loadgen's run."
	echo "  First the 2001 method (loop counts against a calibration), then -r (the"
	echo "  soakers' exact run time from the scheduler; no calibration)."
	worst=0 worst_at=
	for cal in 1 2 3; do
		show "cyclesoak -C -f cal$cal"
		run_fg in_work "$ZC_BIN/cyclesoak" -C -f "$WORK/cal$cal" >"$WORK/cal.out" 2>&1 ||
			{ cat "$WORK/cal.out" >&2; die "calibration failed"; }
		grep -v '^calibrating:' "$WORK/cal.out" | sed 's/^/    /'
		grep -q warning "$WORK/cal.out" &&
			echo "    NOTE: calibration $cal was not clean: its errors below are suspect"
		csv accuracy "cal$cal" loops_per_sec "$(head -n 1 "$WORK/cal$cal")" loops/s
		[ $cal = 1 ] && show "cyclesoak -f cal$cal -- sh -c '(read /proc/stat) loadgen -l PCT -t 4 (read /proc/stat)'   (PCT: 0 25 50 75)"
		acc_header
		for pct in 0 25 50 75; do
			acc_level "cal$cal" $pct -f "$WORK/cal$cal"
		done
	done
	acc_verdict "loop counts" all

	worst=0 worst_at=
	show "cyclesoak -r -- sh -c '(read /proc/stat) loadgen -l PCT -t 4 (read /proc/stat)'   (PCT: 0 25 50 75, 3 rounds)"
	acc_header
	for round in 1 2 3; do
		for pct in 0 25 50 75; do
			acc_level "r$round" $pct -r
		done
	done
	acc_verdict "run time (-r)" runtime
}

# ---------------------------------------------------------------------------
part_scale() {
	section "5. scale: 10,000 small files x 10, and 64 clients at once"
	# One split makes all 10,000 files: a process per file would take longer
	# than sending them.
	mkdir -p "$WORK/small"
	show "head -c 20480000 /dev/urandom | split -b 2048 -a 4 -d - small/f"
	head -c 20480000 /dev/urandom | (cd "$WORK/small" && split -b 2048 -a 4 -d - f) ||
		die "cannot make the small files"
	zcs_up sc -t 3600
	show "zcs -p 0 -t 3600   (port $ZCS_PORT)"
	SENT_TOTAL=0 SENT_RUNS=0
	echo
	printf '  %-20s %12s %12s %12s\n' mode files/sec "us per file" kbytes/sec
	for m in sendfile send; do
		# shellcheck disable=SC2046
		QUIET=1
		run_zcc "$WORK/sc.$m" -s 127.0.0.1 -p "$ZCS_PORT" -n 10 $(mode_flags $m) \
			"$WORK"/small/f* || die "zcc failed"
		QUIET=
		fps=$(calc "100000 / $SENT_SECS")
		usf=$(calc "$SENT_SECS * 1e6 / 100000")
		printf '  %-20s %12.0f %12.2f %12.0f   $ zcc -s 127.0.0.1 -p %s -n 10 %ssmall/f0000..f9999\n' \
			"$(mode_label $m)" "$fps" "$usf" "$SENT_RATE" "$ZCS_PORT" "$(mode_flags $m | sed 's/..*/& /')"
		csv scale "small_$m" files_per_sec "$fps" files/s
		csv scale "small_$m" us_per_file "$usf" us
		csv scale "small_$m" kbytes_per_sec "$SENT_RATE" KiB/s
	done
	byte_check sc
	stop_bg "$ZCS_PID"

	big_files
	zcs_up cc -t 3600
	echo
	show "zcs -p 0 -t 3600   (port $ZCS_PORT)"
	show "64 x: zcc -s 127.0.0.1 -p $ZCS_PORT -n 20 FILES   (8 of the 350 KB files each)"
	t0=$(date +%s.%N)
	pids=
	i=0
	while [ $i -lt 64 ]; do
		start_bg in_work "$ZC_BIN/zcc" -s 127.0.0.1 \
			-p "$ZCS_PORT" -n 20 "$WORK"/big/f1[0-7] >"$WORK/cc.$i" 2>"$WORK/cc.$i.err"
		pids="$pids $!"
		i=$((i + 1))
	done
	fails=0
	for p in $pids; do wait "$p" || fails=$((fails + 1)); done
	t1=$(date +%s.%N)
	BG_PIDS=$(for p in $BG_PIDS; do case " $pids " in *" $p "*) ;; *) printf ' %s' "$p" ;; esac; done)
	sent=$(cat "$WORK"/cc.[0-9] "$WORK"/cc.[0-9][0-9] | sed -n 's/^sent: \([0-9]*\) bytes.*/\1/p' | awk '{ s += $1 } END { printf "%.0f\n", s }')
	nsent=$(cat "$WORK"/cc.[0-9] "$WORK"/cc.[0-9][0-9] | grep -c '^sent: ')
	SENT_TOTAL=$sent SENT_RUNS=64
	zcs_agrees cc && agree=1 || agree=0
	stop_bg "$ZCS_PID"
	secs=$(calc "$t1 - $t0")
	agg=$(calc "$sent / 1024 / $secs")
	echo "  64 clients: $nsent finished with a sent: line, $fails failed; wall time $(printf '%.2f' "$secs") s"
	echo "  zcc total sent $sent bytes; zcs total received $ZCS_DONE_BYTES bytes in $ZCS_DONE_RUNS connections"
	if [ "$agree" = 1 ] && [ $fails -eq 0 ]; then
		echo "  every byte counted: the two totals are equal"
	else
		echo "  BYTES LOST OR CLIENTS FAILED: the totals differ or clients failed"
		sed 's/^/    /' "$WORK"/cc.*.err | head -n 10
	fi
	printf '  aggregate rate: %.0f kbytes/sec\n' "$agg"
	csv scale clients64 kbytes_per_sec "$agg" KiB/s
	csv scale clients64 bytes_sent "$sent" bytes
	csv scale clients64 bytes_received "$ZCS_DONE_BYTES" bytes
	csv scale clients64 failed_clients "$fails" clients
	csv scale clients64 bytes_equal "$agree" bool
}

# ---------------------------------------------------------------------------
NS_TX=zcb-tx-$$
NS_RX=zcb-rx-$$
NS_MADE=
link_cleanup() {
	for ns in $NS_MADE; do ip netns del "$ns" 2>/dev/null; done
	NS_MADE=
}

# paired_ci "A1 A2 ..." "B1 B2 ...": the per-round differences A - B as
# "MEAN CI_LOW CI_HIGH N": mean and its 95% confidence interval, Student t
# with N-1 degrees of freedom (two-sided 0.975 quantiles for 1..30, the
# normal's 1.96 above).
paired_ci() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 " \
		      "2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 " \
		      "2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
		n = split(a, x, " ")
		if (split(b, y, " ") != n || n < 2) exit 1
		for (i = 1; i <= n; i++) { d[i] = x[i] - y[i]; s += d[i] }
		mean = s / n
		for (i = 1; i <= n; i++) ss += (d[i] - mean) ^ 2
		q = (n - 1 <= 30) ? t[n - 1] : 1.96
		h = q * sqrt(ss / (n - 1)) / sqrt(n)
		printf "%.4f %.4f %.4f %d\n", mean, mean - h, mean + h, n
	}'
}

# lower_rounds "A1 A2 ..." "B1 B2 ...": in how many rounds A was below B.
lower_rounds() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		n = split(a, x, " ")
		split(b, y, " ")
		for (i = 1; i <= n; i++) k += (x[i] < y[i])
		print k + 0
	}'
}

# link_ci CASE WHAT "A..." "B...": one line of the paired statistics and its
# CSV rows; sets CI_MEAN CI_LO CI_HI CI_N.
link_ci() {
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(paired_ci "$3" "$4")
	need "$3" "$4" "$5" "$6"
	CI_MEAN=$3 CI_LO=$4 CI_HI=$5 CI_N=$6
	printf '    %-26s %+7.2f points   95%% CI [%+.2f, %+.2f]\n' "$2" "$3" "$4" "$5"
	csv link "$1" mean "$3" points
	csv link "$1" ci_low "$4" points
	csv link "$1" ci_high "$5" points
	csv link "$1" n "$6" rounds
}

# link_run_r MODE: one run of zcc in $NS_TX without -c, under cyclesoak -r
# (the machine's load from the soakers' scheduler run time) and subreaper -s
# (its cputime line: zcc's own exact CPU time; inside ip netns exec, so that
# the namespace's set-up is not counted). Sets RLOAD (%), SND_USKB (sender
# us/KB) and SND_PTS (sender CPU as points of the whole machine's load).
link_run_r() {
	rm -f "$WORK/lk.ct"
	# shellcheck disable=SC2046
	run_fg in_work "$ZC_BIN/cyclesoak" -r -- ip netns exec "$NS_TX" \
		"$ZC_TESTBIN/subreaper" -s -o "$WORK/lk.ct" "$ZC_BIN/zcc" -s 10.201.0.2 -p "$ZCS_PORT" \
		-n 2 $(mode_flags "$1") "$WORK"/big/f* >"$WORK/lkr.$1" 2>"$WORK/lkr.$1.err"
	_rc=$?
	parse_zcc "$WORK/lkr.$1"
	SENT_TOTAL=$((SENT_TOTAL + ${SENT_BYTES:-0})) SENT_RUNS=$((SENT_RUNS + 1))
	if [ $_rc -ne 0 ] || [ -z "$SENT_RATE" ]; then
		sed 's/^/  /' "$WORK/lkr.$1.err" >&2
		die "cyclesoak -r -- subreaper -s zcc in $NS_TX failed (status $_rc)"
	fi
	RLOAD=$(sed -n 's/^System load: *\(-\{0,1\}[0-9.]*\)%.*/\1/p' "$WORK/lkr.$1" | tail -n 1)
	_us=$(sed -n 's/^cputime [0-9]* [0-9]* \([0-9]*\)$/\1/p' "$WORK/lk.ct" 2>/dev/null)
	need "$RLOAD" "$_us" "$SENT_SECS" "$SENT_BYTES"
	SND_USKB=$(calc "$_us / ($SENT_BYTES / 1024)")
	SND_PTS=$(calc "$_us / 1e6 / ($SENT_SECS * $NCPU) * 100")
	need "$SND_USKB" "$SND_PTS"
}

part_link() {
	section "6. link: 100 Mbit/s veth between two network namespaces (tc tbf), $LINK_REPS rounds"
	if [ "$(id -u)" != 0 ]; then
		echo "  skipped: needs root (network namespaces, tc)"
		return 0
	fi
	for t in ip tc; do
		command -v $t >/dev/null 2>&1 || { echo "  skipped: $t (iproute2) not installed"; return 0; }
	done
	[ -x "$ZC_TESTBIN/subreaper" ] || die "$ZC_TESTBIN/subreaper not built (run make tests)"
	calibrate_once
	big_files
	on_cleanup link_cleanup
	vt=zcbt$$ vr=zcbr$$
	for cmd in "ip netns add $NS_TX" "ip netns add $NS_RX" \
		"ip link add $vt netns $NS_TX type veth peer name $vr netns $NS_RX" \
		"ip -n $NS_TX addr add 10.201.0.1/30 dev $vt" "ip -n $NS_RX addr add 10.201.0.2/30 dev $vr" \
		"ip -n $NS_TX link set lo up" "ip -n $NS_RX link set lo up" \
		"ip -n $NS_TX link set $vt up" "ip -n $NS_RX link set $vr up" \
		"ip netns exec $NS_TX tc qdisc add dev $vt root tbf rate 100mbit burst 32kbit latency 50ms"; do
		show "$cmd"
		# shellcheck disable=SC2086
		$cmd || { echo "  skipped: set-up failed: $cmd"; link_cleanup; return 0; }
		case $cmd in "ip netns add "*) NS_MADE="$NS_MADE ${cmd#ip netns add }" ;; esac
	done
	ZCS_PREFIX="ip netns exec $NS_RX"
	zcs_up link -a 10.201.0.2 -t 3600
	ZCS_PREFIX=
	show "ip netns exec $NS_RX zcs -p 0 -a 10.201.0.2 -t 3600   (port $ZCS_PORT)"
	SENT_TOTAL=0 SENT_RUNS=0
	NCPU=$(nproc)
	echo "  each run: the 63-file set twice (about 4 s at 100 Mbit/s), zcc in $NS_TX."
	echo "  Per round the three modes in a rotated order (drift cancels), two runs each:"
	echo "    a) zcc -c: the loop-count meter (the 2001 method)"
	echo "    b) cyclesoak -r: the soakers' scheduler run time, with zcc under subreaper for"
	echo "       the sender's own exact CPU time (getrusage, zcc and nothing else)"
	for m in $MODES; do eval "rate_$m= cl_$m= csd_$m= rl_$m= sus_$m= spt_$m="; done
	round=1
	while [ $round -le "$LINK_REPS" ]; do
		case $(((round - 1) % 3)) in
		0) order="sendfile send write" ;;
		1) order="send write sendfile" ;;
		*) order="write sendfile send" ;;
		esac
		for m in $order; do
			ZCC_PREFIX="ip netns exec $NS_TX"
			QUIET=$([ $round = 1 ] || echo 1)
			# shellcheck disable=SC2046
			run_zcc "$WORK/lk.$m" -s 10.201.0.2 -p "$ZCS_PORT" -n 2 -c $(mode_flags $m) \
				"$WORK"/big/f* || die "zcc -c in $NS_TX failed"
			QUIET= ZCC_PREFIX=
			need "$SENT_RATE" "$CPU_LOAD" "$CPU_SD"
			eval "rate_$m=\"\$rate_$m $SENT_RATE\" cl_$m=\"\$cl_$m $CPU_LOAD\" csd_$m=\"\$csd_$m $CPU_SD\""
			eval "now_cl_$m=$CPU_LOAD"
			[ $round = 1 ] && show "cyclesoak -r -- ip netns exec $NS_TX subreaper -s -o lk.ct zcc -s 10.201.0.2 -p $ZCS_PORT -n 2 $(mode_flags $m | sed 's/..*/& /')big/... (63 files)"
			link_run_r "$m"
			eval "rate_$m=\"\$rate_$m $SENT_RATE\" rl_$m=\"\$rl_$m $RLOAD\" sus_$m=\"\$sus_$m $SND_USKB\" spt_$m=\"\$spt_$m $SND_PTS\""
			eval "now_rl_$m=$RLOAD now_spt_$m=$SND_PTS"
		done
		# shellcheck disable=SC2154
		printf '  round %d (%s): load -r %.1f/%.1f/%.1f%%, counts %.1f/%.1f/%.1f%%, sender %.3f/%.3f/%.3f points\n' \
			$round "$(echo $order | tr ' ' ',')" "$now_rl_sendfile" "$now_rl_send" "$now_rl_write" \
			"$now_cl_sendfile" "$now_cl_send" "$now_cl_write" "$now_spt_sendfile" "$now_spt_send" "$now_spt_write"
		round=$((round + 1))
	done
	byte_check link
	stop_bg "$ZCS_PID"
	echo
	echo "  (loads: the whole machine, both ends, sendfile/send/write; sender: zcc's own CPU"
	echo "  time as a share of all $NCPU CPUs over its transfer)"
	echo
	printf '  %-20s %10s %7s %13s %9s %11s %13s %9s\n' mode kbytes/sec Mbit/s "load counts%" "load -r%" \
		"-r min-max" "sender us/KB" "sender%"
	for m in $MODES; do
		eval "r=\$rate_$m cl=\$cl_$m csd=\$csd_$m rl=\$rl_$m sus=\$sus_$m spt=\$spt_$m"
		# shellcheck disable=SC2086,SC2154
		mr=$(median $r) mcl=$(median $cl) mcsd=$(median $csd) mrl=$(median $rl) msus=$(median $sus) mspt=$(median $spt)
		# shellcheck disable=SC2086
		lo=$(least $rl) hi=$(most $rl)
		need "$mr" "$mcl" "$mcsd" "$mrl" "$msus" "$mspt" "$lo" "$hi"
		mbit=$(calc "$mr * 1024 * 8 / 1e6")
		printf '  %-20s %10.0f %7.1f %13.1f %9.2f %11s %13.4f %9.3f\n' "$(mode_label $m)" "$mr" "$mbit" \
			"$mcl" "$mrl" "$lo-$hi" "$msus" "$mspt"
		eval "mr_$m=$mr msus_$m=$msus"
		csv link "$m" kbytes_per_sec "$mr" KiB/s
		csv link "$m" mbit_per_sec "$mbit" Mbit/s
		csv link "$m" system_load_counts "$mcl" %
		csv link "$m" service_demand_counts "$mcsd" us/KB
		csv link "$m" system_load_r "$mrl" %
		csv link "$m" system_load_r_min "$lo" %
		csv link "$m" system_load_r_max "$hi" %
		csv link "$m" sender_cpu "$msus" us/KB
		csv link "$m" sender_cpu_load "$mspt" %
	done
	echo
	echo "  sendfile minus send, paired by round ($LINK_REPS rounds; mean and 95% confidence"
	echo "  interval, Student t, df $((LINK_REPS - 1))):"
	# shellcheck disable=SC2154
	link_ci sendfile_minus_send_counts "system load, counts:" "$cl_sendfile" "$cl_send"
	c_lo=$CI_LO c_hi=$CI_HI
	link_ci sendfile_minus_send_sender "sender's own CPU (exact):" "$spt_sendfile" "$spt_send"
	s_mean=$CI_MEAN
	# shellcheck disable=SC2154
	link_ci sendfile_minus_send_r "system load, -r (judged):" "$rl_sendfile" "$rl_send"
	# shellcheck disable=SC2154
	printf '    sender CPU per KB: send() %.4f us, sendfile %.4f us (%.1fx)\n' "$msus_send" "$msus_sendfile" \
		"$(calc "$msus_send / $msus_sendfile")"
	# shellcheck disable=SC2154
	lower=$(lower_rounds "$rl_sendfile" "$rl_send")
	need "$lower"
	echo "    sendfile's -r load below send()'s in $lower of $LINK_REPS rounds"
	csv link sendfile_minus_send_r lower_rounds "$lower" rounds
	echo "  The verdict is judged on -r, the meter that is precise on this kind of machine,"
	echo "  by two tests that must agree: the interval lies below 0, and sendfile was"
	echo "  lower in every round (a sign test: by chance alone, 1 in 2^$LINK_REPS). Bursts"
	echo "  of other work on the machine make rounds unlike one another, which the"
	echo "  interval assumes away and the sign test does not."
	echo "  The counts meter's interval [$(printf '%+.2f, %+.2f' "$c_lo" "$c_hi")] is for information only."
	# "The same throughput": within 5% of each other.
	same=$(calc "($mr_sendfile > $mr_send ? $mr_sendfile / $mr_send : $mr_send / $mr_sendfile) <= 1.05")
	at="at $(printf '%.0f' "$mr_sendfile") vs $(printf '%.0f' "$mr_send") kbytes/sec"
	dstat="sendfile - send = $(printf '%+.2f points (mean of %d rounds), 95%% CI [%+.2f, %+.2f]' "$CI_MEAN" "$CI_N" "$CI_LO" "$CI_HI")"
	half=$(calc "($CI_HI - $CI_LO) / 2")
	met=0
	if [ "$LINK_REPS" -lt 5 ]; then
		# 2^-4 = 6%: below 5 rounds even a clean sweep proves nothing.
		msg="not judged: $LINK_REPS rounds are too few for the sign test (5 or more: ZC_BENCH_LINK_REPS); $dstat, sendfile lower in $lower; $at"
	elif is_true "$CI_HI < 0" && [ "$lower" -lt "$LINK_REPS" ]; then
		msg="not resolved: $dstat lies below 0, but sendfile was lower in only $lower of $LINK_REPS rounds; the sender's exact CPU predicts $(printf '%+.2f' "$s_mean") points; $at"
	elif is_true "$CI_HI < 0"; then
		if [ "$same" = 1 ]; then
			met=1
			msg="on the 100 Mbit/s link sendfile's system load (-r) is below send()'s: $dstat, $at"
		else
			msg="sendfile's system load (-r) is below send()'s ($dstat) but the throughputs differ by more than 5% ($at)"
		fi
	elif is_true "$CI_LO > 0" && [ "$lower" -gt 0 ]; then
		msg="not resolved: $dstat lies above 0, but sendfile was lower in $lower of $LINK_REPS rounds; $at"
	elif is_true "$CI_LO > 0"; then
		msg="on the 100 Mbit/s link sendfile's system load (-r) is above send()'s: $dstat, $at"
	else
		if awk -v s="$s_mean" -v h="$half" 'BEGIN { exit !((s < 0 ? -s : s) < h) }'; then
			why="smaller than the meter's noise (the interval's half-width, $(printf '%.2f' "$half") points)"
		else
			why="not smaller than the interval's half-width ($(printf '%.2f' "$half") points), yet not seen"
		fi
		msg="not resolved: $dstat: the interval contains 0; the sender's exact CPU predicts $(printf '%+.2f' "$s_mean") points, $why; $at"
		[ "$same" = 1 ] || msg="$msg (throughputs differ by more than 5%)"
	fi
	verdict $met "$msg"
	csv link sendfile_vs_send target_met $met bool
	link_cleanup
}

# ---------------------------------------------------------------------------
t_start=$(date +%s)
echo "zc benchmark: parts: $parts"
machine
for p in $parts; do
	"part_$p"
done

# Merge: this run's rows replace the rows of the parts it ran.
ran=$(echo "machine calibration $parts" | tr ' ' '\n' | sort -u | tr '\n' ' ')
{
	echo "part,case,metric,value,unit"
	[ -f "$OUT/bench.csv" ] && awk -F, -v ran=" $ran " 'NR > 1 && index(ran, " " $1 " ") == 0' "$OUT/bench.csv"
	cat "$NEW_CSV"
} >"$OUT/bench.csv.tmp" && mv "$OUT/bench.csv.tmp" "$OUT/bench.csv"
if [ -n "$VERDICTS" ]; then
	echo
	echo "=== targets ==="
	printf '%s' "$VERDICTS"
fi
echo
echo "figures: $OUT/bench.csv ($(($(wc -l <"$OUT/bench.csv") - 1)) rows)"
echo "bench time: $(($(date +%s) - t_start)) s"
