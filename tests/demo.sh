#!/bin/sh
# make demo: the experiment this suite exists for, in under a minute.
#
# Over loopback, zcc streams a generated file set to zcs three ways
# (sendfile, read+send, read+write) while the cyclesoak meter (zcc -c)
# measures what the whole machine spent; one table compares them.
#
# ZC_DEMO_QUICK=1: a few small files and short runs, for tests/test_demo.sh;
# the calibration is then ZC_DEMO_CALIB (made there when missing) or, when
# that is not set, a fresh one that is not kept.
. "$(dirname "$0")/bench_lib.sh"

if [ "${ZC_DEMO_QUICK:-0}" = 1 ]; then
	n_files=8 file_size=65536 secs_per_mode=0.5
	if [ -n "${ZC_DEMO_CALIB:-}" ]; then
		CALIB_FILE=$ZC_DEMO_CALIB
	else
		CALIB_FRESH=1 CALIB_KEEP=no
	fi
else
	# The original README's example: the 63 shared libraries of a 2001
	# system, about 350 KB each.
	n_files=63 file_size=358400 secs_per_mode=4
fi

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

# Short sendfile runs first, to see how fast this machine is, so that each
# mode then runs about secs_per_mode seconds.
probe_loops $secs_per_mode -s 127.0.0.1 -p "$ZCS_PORT" "$@"
loops=$LOOPS
echo "each mode sends the set $loops times with load measurement (zcc -c)"
echo

rows=
for mode in sendfile send write; do
	case $mode in
	sendfile) flags= label="sendfile" ;;
	send) flags=-S label="read+send (-S)" ;;
	write) flags="-S -w" label="read+write (-S -w)" ;;
	esac
	# shellcheck disable=SC2086
	run_zcc "$WORK/$mode" -s 127.0.0.1 -p "$ZCS_PORT" -n "$loops" -c $flags "$@" ||
		die "zcc $flags failed"
	if [ -z "$CPU_LOAD" ] || [ -z "$CPU_SD" ]; then
		sed 's/^/  /' "$WORK/$mode" "$WORK/$mode.err" >&2
		die "zcc -c printed no cpu: line"
	fi
	rows="$rows$label|$SENT_RATE|$CPU_LOAD|$CPU_SD|$SENT_BYTES|$SENT_SECS
"
done

# zcs's own count must match what zcc sent, byte for byte.
zcs_agrees zcs || echo "warning: zcs received $ZCS_DONE_BYTES bytes in $ZCS_DONE_RUNS connections," \
	"zcc sent $SENT_TOTAL in $SENT_RUNS" >&2
stop_bg "$ZCS_PID"

echo
printf '%s' "$rows" | awk -F'|' -v cpus="$CPU_N" '
BEGIN {
	printf "%-20s %12s %15s %22s\n", "mode", "kbytes/sec", "system load %", "service demand us/KB"
	printf "%-20s %12s %15s %22s\n", "----", "----------", "-------------", "--------------------"
}
{ printf "%-20s %12.0f %15.1f %22.3f\n", $1, $2, $3, $4; secs = secs " " $6 }
END {
	printf "\nload is of all %s CPUs together; service demand = load x CPUs x time\n", cpus
	printf "per KB sent (lower is cheaper). Run times (s):%s\n", secs
}'
