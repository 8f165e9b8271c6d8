#!/bin/sh
# make demo: the experiment this suite exists for, in under a minute.
#
# Over loopback, zcc streams a generated file set to zcs once per transmit
# method zcc has (sendfile, read+send, read+write, ...) while its meter
# (zcc -c) measures what the whole machine spent; one table compares them.
# On a virtual machine the meter's default method is run time, which needs
# no calibration file; elsewhere the user's counts_per_sec is used, or made.
#
# ZC_DEMO_QUICK=1: a few small files and short runs, for tests/e2e/test_demo.sh;
# a calibration, where one is needed, is then ZC_DEMO_CALIB (made there when
# missing) or, when that is not set, a fresh one that is not kept.
ZC_TOP=$(cd "$(dirname "$0")/.." && pwd)
HARNESS_GRACE=10
. "$ZC_TOP/tests/lib.sh"

methods=$(zcc_methods)
n_methods=$(echo $methods | wc -w)
if [ "${ZC_DEMO_QUICK:-0}" = 1 ]; then
	n_files=8 file_size=65536 secs_all=4
	if [ -n "${ZC_DEMO_CALIB:-}" ]; then
		CALIB_FILE=$ZC_DEMO_CALIB
	else
		CALIB_FRESH=1 CALIB_KEEP=no
	fi
else
	# The original README's example: the 63 shared libraries of a 2001
	# system, about 350 KB each; about 20 s of sending in all.
	n_files=63 file_size=358400 secs_all=20
fi
secs_per_method=$(awk -v t=$secs_all -v n="$n_methods" 'BEGIN { print t / n }')

for p in zcc zcs; do
	[ -x "$ZC_BIN/$p" ] || die "$ZC_BIN/$p not built (run make)"
done

echo "zc demo: $(uname -sr), $(nproc) CPUs; work files in $WORK"
calib_ready

make_files "$WORK/files" $n_files $file_size
set -- "$WORK"/files/f*
total=$(cat "$@" | wc -c)
echo "file set: $n_files files, $total bytes"

zcs_up zcs -t 3600
echo "zcs listening on port $ZCS_PORT (pid $ZCS_PID)"

# zcc -t: each method sends for secs_per_method seconds, however fast it is.
echo "each method sends the set for $secs_per_method s with load measurement (zcc -c)"
echo

: >"$WORK/rows"
for m in $methods; do
	# shellcheck disable=SC2046
	run_zcc "$WORK/$m" -s 127.0.0.1 -p "$ZCS_PORT" -t "$secs_per_method" -c $(method_flags "$m") "$@" ||
		die "zcc -M $m failed"
	if [ -z "$CPU_LOAD" ] || [ -z "$CPU_SD" ]; then
		sed 's/^/  /' "$WORK/$m" "$WORK/$m.err" >&2
		die "zcc -c printed no cpu figures"
	fi
	echo "$m $SENT_RATE $CPU_LOAD $CPU_SD ${OWN_USKB:--} $SENT_SECS" >>"$WORK/rows"
done

# zcs's own count must match what zcc sent, byte for byte.
zcs_agrees zcs || echo "warning: zcs received $ZCS_DONE_BYTES bytes in $ZCS_DONE_RUNS connections," \
	"zcc sent $SENT_TOTAL in $SENT_RUNS" >&2
stop_bg "$ZCS_PID"

echo
awk -v cpus="$CPU_N" '
BEGIN {
	printf "%-10s %12s %15s %22s %17s\n", "method", "kbytes/sec", "system load %", "service demand us/KB", "zcc itself us/KB"
	printf "%-10s %12s %15s %22s %17s\n", "------", "----------", "-------------", "--------------------", "----------------"
}
{
	own = ($5 == "-") ? "-" : sprintf("%.3f", $5)
	printf "%-10s %12.0f %15.1f %22.3f %17s\n", $1, $2, $3, $4, own
	secs = secs " " $6
}
END {
	printf "\nload is of all %s CPUs together; service demand = load x CPUs x time\n", cpus
	printf "per KB sent (lower is cheaper); zcc itself: its own CPU time per KB.\n"
	printf "Run times (s):%s\n", secs
}' "$WORK/rows"
