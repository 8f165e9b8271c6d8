#!/bin/sh
# make demo: the experiment this suite exists for, in about a minute.
#
# Over loopback, zcc streams a generated file set to zcs by every transmit
# method it has (sendfile, read+send, read+write, ...) while its meter
# (zcc -c) measures what the whole machine spent. It is one zcc comparison
# (-M with a list: every method the kernel allows; zcc leaves out, naming
# why, one it refuses): rounds, each running every method once in an order
# that rotates, then each method's verdict against sendfile on service
# demand (cheaper, dearer, or ~ when the rounds do not agree enough to
# say; a verdict word needs 5 rounds, so the quick run's 3 print ~ and
# why), and the chart of it as an SVG file (--plot). Then the other half
# of the question, how long a message takes: 200-byte requests and
# answers (zcc --rr -c), closed loop, over TCP against UDP in the same
# rounds, decided on the round trip's p99, with its own chart.
# zcc -c's meter is the kernel's idle time, which needs no calibration file
# (a zcc without it: run time on a virtual machine, needing none either;
# elsewhere the user's counts_per_sec is used, or made).
#
# ZC_DEMO_QUICK=1: a few small files and short runs, for tests/e2e/test_demo.sh;
# a calibration, where one is needed, is then ZC_DEMO_CALIB (made there when
# missing) or, when that is not set, a fresh one that is not kept.
# ZC_DEMO_PLOT: where the chart goes (default zc-demo.svg here);
# ZC_DEMO_RR_PLOT: the request/response chart's (default zc-demo-rr.svg).
ZC_TOP=$(cd "$(dirname "$0")/.." && pwd)
HARNESS_GRACE=10
. "$ZC_TOP/tests/lib.sh"

methods=$(zcc_methods)
n_methods=$(echo $methods | wc -w)
plot=${ZC_DEMO_PLOT:-$PWD/zc-demo.svg}
rr_plot=${ZC_DEMO_RR_PLOT:-$PWD/zc-demo-rr.svg}
if [ "${ZC_DEMO_QUICK:-0}" = 1 ]; then
	n_files=8 file_size=65536 secs_all=6 rounds=3 rr_secs=0.2
	if [ -n "${ZC_DEMO_CALIB:-}" ]; then
		CALIB_FILE=$ZC_DEMO_CALIB
	else
		CALIB_FRESH=1 CALIB_KEEP=no
	fi
else
	# The original README's example: the 63 shared libraries of a 2001
	# system, about 350 KB each; about a minute of sending in all.
	n_files=63 file_size=358400 secs_all=60 rounds=5 rr_secs=0.6
fi
secs=$(awk -v t=$secs_all -v n="$n_methods" -v r=$rounds 'BEGIN { printf "%.2f\n", t / n / r }')

for p in zcc zcs; do
	[ -x "$ZC_BIN/$p" ] || die "$ZC_BIN/$p not built (run make)"
done

say "zc demo: $(uname -sr), $(nproc) CPUs; work files in $WORK"
calib_ready

make_files "$WORK/files" $n_files $file_size
set -- "$WORK"/files/f*
total=$(cat "$@" | wc -c)
say "file set: $n_files files, $total bytes"

zcs_up zcs -t 3600
say "zcs listening on port $ZCS_PORT (pid $ZCS_PID)"

say "each method against sendfile: $rounds rounds, each method sending for about" \
	"$secs s a round with load measurement (zcc -c), about $secs_all s in all"
list=$(echo $methods | tr ' ' ',')
show_cmd zcc -c -s 127.0.0.1 -p "$ZCS_PORT" -M "$list" -R $rounds -t "$secs" --plot "$plot" "$@"
run_metered "$WORK/cmp.err" in_work "$ZC_BIN/zcc" -c -s 127.0.0.1 -p "$ZCS_PORT" \
	-M "$list" -R $rounds -t "$secs" --plot "$plot" "$@" >"$WORK/cmp"
rc=$?
if [ $rc -ne 0 ] || ! grep -q '^compare: ' "$WORK/cmp"; then
	sed 's/^/  /' "$WORK/cmp" "$WORK/cmp.err" >&2
	die "zcc -c -M $list failed (exit $rc)"
fi
say "how long a 200-byte message takes: TCP against UDP, $rounds rounds of requests and" \
	"answers, closed loop, $rr_secs s each (zcc --rr -c)"
show_cmd zcc --rr -c -s 127.0.0.1 -p "$ZCS_PORT" -b 200 --proto tcp,udp -R $rounds \
	-t "$rr_secs" --plot "$rr_plot"
run_metered "$WORK/rr.err" in_work "$ZC_BIN/zcc" --rr -c -s 127.0.0.1 -p "$ZCS_PORT" -b 200 \
	--proto tcp,udp -R $rounds -t "$rr_secs" --plot "$rr_plot" >"$WORK/rr"
rc=$?
if [ $rc -ne 0 ] || ! grep -q '^compare: ' "$WORK/rr"; then
	sed 's/^/  /' "$WORK/rr" "$WORK/rr.err" >&2
	die "zcc --rr -c --proto tcp,udp failed (exit $rc)"
fi
stop_bg "$ZCS_PID"

# The table, then the chart's place; each run's own lines are left out.
# A method this kernel refuses (io_uring disabled or filtered, a limit
# too small) zcc asked the kernel about before connecting and left out.
sed -n '/^compare: /,$p' "$WORK/cmp" 2>/dev/null || exit 141
sed -n 's/^zcc: left out: \([a-z-]*\): /left out by this kernel: \1: /p' "$WORK/cmp.err" 2>/dev/null ||
	exit 141
grep -v -e 'too short for a steady load' -e '^zcc: left out: ' "$WORK/cmp.err" |
	sed 's/^/  /' 2>/dev/null || exit 141
say "the chart: $plot (any web browser opens it)"
sed -n '/^compare: /,$p' "$WORK/rr" 2>/dev/null || exit 141
grep -v -e 'too short for a steady load' "$WORK/rr.err" | sed 's/^/  /' 2>/dev/null || exit 141
say "its chart: $rr_plot"
