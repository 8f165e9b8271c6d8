#!/bin/sh
# zcc --rr holds nothing per message: the histogram and one message are
# all it keeps, so a closed loop of many transactions peaks at the same
# resident memory as one of few (subreaper's maxrss, the kernel's peak of
# the process). make bench PART=rr's memory row is the long version.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
FEW=2000
MANY=100000

zcs_start || { not_ok "zcs starts: $(cat "$TMP/zcs.err")"; finish; }

# peak_kb N [ZCC ARGS...]: zcc's peak VmRSS (kB) over a closed loop of N.
peak_kb() {
	_pn=$1
	shift
	timeout 120 "$ZC_TESTBIN/subreaper" -s -o "$TMP/rep" "$ZCC" --rr -s 127.0.0.1 \
		-p "$ZCS_PORT" -n "$_pn" "$@" >"$TMP/out" 2>"$TMP/err" || return 1
	grep -q "^rr: $_pn transactions" "$TMP/out" || return 1
	sed -n 's/^maxrss \([0-9]*\)$/\1/p' "$TMP/rep"
}

for b in 1 200; do
	few=$(peak_kb $FEW -b $b)
	many=$(peak_kb $MANY -b $b)
	check "-b $b: $MANY transactions peak within 1 MiB of $FEW's (${few:-?} kB, ${many:-?} kB; $(head -c 200 "$TMP/err"))" \
		sh -c '[ -n "$1" ] && [ -n "$2" ] && [ $(($2 - $1)) -lt 1024 ]' sh "$few" "$many"
done
few=$(peak_kb 200 -b 64 --gap 100us)
many=$(peak_kb 20000 -b 64 --gap 100us)
check "--gap 100us: 20000 requests peak within 1 MiB of 200's (${few:-?} kB, ${many:-?} kB)" \
	sh -c '[ -n "$1" ] && [ -n "$2" ] && [ $(($2 - $1)) -lt 1024 ]' sh "$few" "$many"
stop_bg "$ZCS_PID"
finish
