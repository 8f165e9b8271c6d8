#!/bin/sh
# make bench [PART=name]: the benchmark that shows what a byte sent costs
# the CPU, beside the 2001 figures.
#
#   sh tests/bench/run.sh [loopback|sweep|peers|accuracy|perturb|scale|link|rr|latency]...
#
# Each part is one file next to this one, sourced here, and a thin script
# over the programs' own output (their -J); the statistics
# (median, spread, Student-t interval, the "target met" verdict) come from
# tests/tools/zcstat (lib/base/stats.c); two things compared are compared by paired
# rounds, each round's ratio the figure (ratio_of). Prints the machine, an estimate of the run
# time, every command it runs and a table per part; writes the figures to
# build/bench/bench.csv (part,case,metric,value,unit: a run of some parts
# replaces only those parts' rows) and the pictures (SVG) beside it.
# Targets are reported as "target met" or "TARGET NOT MET", never adjusted.
#
# Environment: ZC_BENCH_OUT (output directory), ZC_BENCH_REPS (loopback
# runs per method, default 3), ZC_BENCH_PEER_REPS (paired rounds in peers,
# default 5), ZC_BENCH_LINK_REPS (rounds per rate in link, default 5, at
# least 2), ZC_BENCH_PERTURB_REPS (paired rounds in perturb, default 5;
# ZC_BENCH_PERTURB_METHODS its meters, default -K -r -L),
# ZC_BENCH_LINK_RATES (tc rates, default "100mbit 4gbit"),
# ZC_BENCH_LOOPBACK_SECS (the length of a loopback run, default 2; the
# tests' short run takes 0.5), ZC_BENCH_RR_* (tests/bench/rr.sh),
# ZC_BENCH_LATENCY_SECS, _REPS and _GAPS (tests/bench/latency.sh), ZC_BIN
# and ZC_TESTBIN as for the tests.
ZC_TOP=$(cd "$(dirname "$0")/../.." && pwd)
BENCH_DIR=$ZC_TOP/tests/bench
HARNESS_GRACE=10
. "$ZC_TOP/tests/lib.sh"

ALL_PARTS="loopback sweep peers accuracy perturb scale link rr latency"
OUT=${ZC_BENCH_OUT:-$ZC_TOP/build/bench}
REPS=${ZC_BENCH_REPS:-3}
PEER_REPS=${ZC_BENCH_PEER_REPS:-5}
LINK_REPS=${ZC_BENCH_LINK_REPS:-5}
LINK_RATES=${ZC_BENCH_LINK_RATES:-100mbit 4gbit}
LB_SECS=${ZC_BENCH_LOOPBACK_SECS:-2}
NEW_CSV=$WORK/new.csv
: >"$NEW_CSV"

parts=${*:-$ALL_PARTS}
for p in $parts; do
	case " $ALL_PARTS " in
	*" $p "*) ;;
	*)
		echo "bench: unknown part '$p' (parts: $ALL_PARTS)" >&2
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
[ -n "$(echo $LINK_RATES)" ] || die "ZC_BENCH_LINK_RATES is empty"
case $LB_SECS in
'' | *[!0-9.]* | *.*.* | .) LB_SECS=x ;;
esac
awk -v s="$LB_SECS" 'BEGIN { exit !(s != "x" && s + 0 > 0) }' ||
	die "ZC_BENCH_LOOPBACK_SECS must be seconds above 0, such as 2 or 0.5 (got '${ZC_BENCH_LOOPBACK_SECS-}')"
for p in zcc zcs cyclesoak; do
	[ -x "$ZC_BIN/$p" ] || die "$ZC_BIN/$p not built (run make)"
done
for p in svgplot loadgen zcstat subreaper; do
	[ -x "$ZC_TESTBIN/$p" ] || die "$ZC_TESTBIN/$p not built (run make tests)"
done
mkdir -p "$OUT" || die "cannot create $OUT"

# --- what every part uses ---------------------------------------------------
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

# verdict MET WHAT: the plain sentence about a target, kept for the end.
VERDICTS=
verdict() {
	if [ "$1" = 1 ]; then _v="target met: $2"; else _v="TARGET NOT MET: $2"; fi
	echo "  -> $_v"
	VERDICTS="$VERDICTS  $_v
"
}

# calc EXPRESSION: floating-point arithmetic, a result of 6 significant
# digits (sh has only integers); is_true EXPRESSION: a comparison of
# such figures. These two are the bench's only awk: the statistics are
# zcstat's, the fields of -J output jsoncheck's.
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

# The statistics of a table FILE the bench wrote: the numbers are every
# word of FILE, or with zcstat's OPTIONS (-k 3: field 3 of each line; -k 3,9:
# a pair; -w 2=64: only lines whose field 2 is 64) some of them.
#
# stat_of FILE PREFIX [OPTIONS]: the summary as shell variables PREFIXmedian,
# PREFIXmin, PREFIXmax, PREFIXlo, PREFIXhi, ...
stat_of() {
	_f=$1 _p=$2
	shift 2
	eval "$("$ZC_TESTBIN/zcstat" -s "$_p" "$@" <"$_f")" || die "zcstat $* <$_f failed"
}

# compare_of FILE PREFIX [OPTIONS]: the verdict on A against B, "A B" a
# round: PREFIXverdict, PREFIXwhy, PREFIXbelow, PREFIXratio, PREFIXa_median
# ... PREFIXb_hi.
compare_of() {
	stat_of "$@" -c
}

# ratio_of FILE PREFIX [OPTIONS]: the paired view of "A B" rounds, through
# zcstat -r: PREFIXn, PREFIXmedian (of the rounds' ratios A/B), PREFIXlo,
# PREFIXhi (its distribution-free interval), PREFIXconf, PREFIXabove,
# PREFIXbelow (rounds above, below 1), and PREFIXverdict: less when the
# whole interval lies below 1, more when above, else unresolved (then
# PREFIXwhy says so). One wild round moves one ratio, not the verdict.
ratio_of() {
	stat_of "$@" -r
	eval "_rlo=\$${2}lo _rhi=\$${2}hi"
	if [ "$_rlo" != nan ] && is_true "$_rhi < 1"; then
		eval "${2}verdict=less ${2}why="
	elif [ "$_rlo" != nan ] && is_true "$_rlo > 1"; then
		eval "${2}verdict=more ${2}why="
	else
		eval "${2}verdict=unresolved ${2}why='the interval of the ratio holds 1'"
	fi
}

# column FILE N: the Nth field of every line (fields apart by blanks).
column() {
	tr -s ' \t' '  ' <"$1" | sed 's/^ //' | cut -d' ' -f"$2"
}

# columns FILE N M: "A B", the Nth and the Mth field, of every line.
columns() {
	column "$1" "$2" >"$WORK/col.a"
	column "$1" "$3" >"$WORK/col.b"
	paste -d' ' "$WORK/col.a" "$WORK/col.b"
}

# The meter: zcc -c and cyclesoak use the machine's default method; on a
# machine where that is the loop counts, one fresh calibration for the
# whole bench.
CALIBRATED=
calibrate_once() {
	[ -n "$CALIBRATED" ] && return 0
	CALIBRATED=1
	CALIB_FRESH=1 CALIB_KEEP=no
	calib_ready
	[ -s "$WORK/counts_per_sec" ] || return 0
	csv calibration zcc loops_per_sec "$(head -n 1 "$WORK/counts_per_sec")" loops/s
	if grep -q warning "$WORK/calib.err"; then
		echo "  NOTE: the calibration was not clean (see the warning): CPU-load figures are suspect"
	fi
}

# meter OUTFILE COMMAND...: the machine's load over COMMAND's life by
# cyclesoak's default method, from its -J; sets METER_LOAD.
meter() {
	_o=$1
	shift
	run_metered "$_o.err" in_work "$ZC_BIN/cyclesoak" -J -- "$@" >"$_o"
	_mrc=$?
	METER_LOAD=$(json_get "$_o" command load_pct | tail -n 1)
	[ $_mrc -eq 0 ] && [ -n "$METER_LOAD" ]
}

# json_last FILE EVENT PREFIX: the last EVENT of a -J output FILE as shell
# assignments, for eval: PREFIXload_pct, PREFIXclass_pct_user,
# PREFIXcpus_0_cpu and so on (jsoncheck -s: the keys and array indexes down
# to a figure joined by _).
json_last() {
	"$ZC_TESTBIN/jsoncheck" -E "$2" -s "$3" "$1" 2>/dev/null | tail -n 1
}

# cputime_us REPORT: the total CPU time (us) of subreaper's cputime line.
cputime_us() {
	sed -n 's/^cputime [0-9]* [0-9]* \([0-9]*\)$/\1/p' "$1" 2>/dev/null
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

# plot SVG CSV SVGPLOT-OPTIONS...: a picture next to bench.csv.
plot() {
	_svg=$1 _data=$2
	shift 2
	show "svgplot $* -o $_svg $_data"
	if "$ZC_TESTBIN/svgplot" "$@" -o "$OUT/$_svg" "$OUT/$_data"; then
		echo "  picture: $OUT/$_svg (data: $OUT/$_data)"
	else
		echo "  svgplot failed: no $_svg"
	fi
}

# --- the run ------------------------------------------------------------------
# Rough seconds per part on a 2-CPU machine with the default settings.
estimate() {
	_n=$(echo $(zcc_methods) | wc -w)
	_r=$(echo $LINK_RATES | wc -w)
	case $1 in
	loopback) echo $((10 + _n * REPS * 6)) ;;
	sweep) echo 60 ;;
	peers) if command -v iperf3 >/dev/null 2>&1; then echo $(((PEER_REPS * 2 + 2) * 13 * 3 + (PEER_REPS * 2) * 16 + 60)); else echo 1; fi ;;
	accuracy) echo 480 ;;
	perturb) echo $((6 * ${ZC_BENCH_PERTURB_REPS:-5} * 4 * ($(echo ${ZC_BENCH_PERTURB_METHODS:--K -r -L} | wc -w) + 1))) ;;
	scale) echo 200 ;;
	rr) echo $((${ZC_BENCH_RR_REPS:-10} * ${ZC_BENCH_RR_SECS:-5} * 7 + ${ZC_BENCH_RR_MEM_SECS:-60} + 30)) ;;
	latency) _g=$(echo ${ZC_BENCH_LATENCY_GAPS:-1 2 3 4 5 6} | wc -w) _s=${ZC_BENCH_LATENCY_SECS:-2}
		echo $((_g * _s * 7 + 6 * _s * 2 * 2 + ${ZC_BENCH_LATENCY_REPS:-3} * (10 + _g * 2) * _s + 60)) ;;
	link) if [ "$(id -u)" = 0 ]; then echo $((_r * (_n * LINK_REPS * 5 / 2 + 20))); else echo 1; fi ;;
	esac
}

# tcp_line: the "tcp:" line of the machine section and its CSV rows: the
# congestion control and loopback's qdisc, and whether the kernel paces
# each connection itself. BBR needs pacing; without the fq qdisc TCP does
# it with a timer per burst, and on loopback in a virtual machine that
# timer can cost a sender more than its calls (zcc(1)'s NOTES). Two
# machines' figures may differ by this alone.
tcp_line() {
	_cc=$(cat /proc/sys/net/ipv4/tcp_congestion_control 2>/dev/null) || _cc=unknown
	_q=$(tc qdisc show dev lo 2>/dev/null | awk 'NR == 1 { print $2 }')
	[ -n "$_q" ] || _q=unknown
	case $_cc:$_q in
	bbr*:fq) _pace="fq paces each connection" ;;
	bbr*:*) _pace="the kernel paces each connection itself, with a timer (BBR needs pacing; no fq)" ;;
	*) _pace="no pacing unless asked (zcc --rate)" ;;
	esac
	echo "tcp:     congestion control $_cc, qdisc on lo $_q: $_pace"
	csv machine host tcp_congestion "$_cc" ""
	csv machine host lo_qdisc "$_q" ""
}

# syscall_line: the "syscall:" line: what a system call costs here
# (tests/tools/syscost, on CPU 0 where the senders run). A figure per
# call or per file, the 2001 protocol's words among them, moves with it,
# and a virtual machine's system call can cost many times bare metal's.
syscall_line() {
	_on="on CPU 0"
	SYSCALL_US=$(taskset -c 0 "$ZC_TESTBIN/syscost" 2>/dev/null) ||
		{ _on="unpinned"; SYSCALL_US=$("$ZC_TESTBIN/syscost"); } || SYSCALL_US=unknown
	echo "syscall: $SYSCALL_US us a null system call (getppid, median of 5 x 200000, $_on)"
	csv machine host syscall_us "$SYSCALL_US" us
}

machine() {
	section "machine"
	_vm="bare metal"
	is_vm && _vm="virtual machine (the CPU flags say hypervisor)"
	echo "cpu:     $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs, $_vm"
	echo "memory:  $(printf '%.1f GiB' "$(calc "$(sed -n 's/^MemTotal: *\([0-9]*\) kB$/\1/p' /proc/meminfo) / 1048576")")"
	echo "kernel:  $(uname -sr)"
	tcp_line
	syscall_line
	echo "zc:      $(git -C "$ZC_TOP" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min averages before the run)"
	csv machine host nproc "$(nproc)" cpus
	csv machine host kernel "$(uname -r)" ""
	csv machine host virtual "$(is_vm && echo 1 || echo 0)" bool
	_t0=$(cpu_ticks)
	sleep 1
	_busy=$(cpu_share "$_t0" "$(cpu_ticks)")
	echo "busy:    $_busy% of the CPUs in use by others in the second before the run"
	csv machine host busy_before "$_busy" %
	is_true "$_busy > 5" && echo "WARNING: this machine is not idle: the CPU-load figures below will be off"
	return 0
}

for p in $parts; do
	. "$BENCH_DIR/$p.sh"
done
# A part may refuse its settings before anything runs (link: tc rates).
for p in $parts; do
	command -v "check_$p" >/dev/null 2>&1 && "check_$p"
done

t_start=$(date +%s)
total=0
for p in $parts; do total=$((total + $(estimate "$p"))); done
echo "zc benchmark: parts: $parts"
echo "estimated time: about $(((total + 59) / 60)) min (each part's start and end are shown)"
machine
# The parts' own loops may use any short name: these two are the runner's.
bench_partno=0
nparts=$(echo $parts | wc -w)
for bench_part in $parts; do
	bench_partno=$((bench_partno + 1))
	t_part=$(date +%s)
	echo
	echo "[part $bench_partno of $nparts: $bench_part, at +$((t_part - t_start)) s, about $(estimate "$bench_part") s]"
	"part_$bench_part"
	echo "[part $bench_part done in $(($(date +%s) - t_part)) s]"
done

# Merge: this run's rows replace the rows of the parts it ran.
ran=$(echo "machine calibration $parts" | tr ' ' '\n' | sort -u | tr '\n' ' ')
{
	echo "part,case,metric,value,unit"
	# shellcheck disable=SC2086
	[ -f "$OUT/bench.csv" ] && sed 1d "$OUT/bench.csv" | grep -v -E "^($(echo $ran | tr ' ' '|')),"
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
