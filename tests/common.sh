# Sourced by tests/lib.sh (the tests) and tests/bench_lib.sh (demo, bench):
# the few shell helpers both need. POSIX sh.

# wait_for FILE PATTERN [TENTHS]: wait until FILE has a line matching
# PATTERN (grep -E), at most TENTHS tenths of a second (default 50).
wait_for() {
	_n=${3:-50}
	while [ "$_n" -gt 0 ]; do
		grep -Eq "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

# cpu_ticks [FILE]: "OTHERS BUSY TOTAL" jiffies of the whole machine from
# the cpu line of /proc/stat (or of a copy of it in FILE). BUSY is all but
# idle and iowait; OTHERS leaves out nice too, so the meter's soakers (nice
# 19) are not in it: it is user, system, irq, softirq and steal.
cpu_ticks() {
	awk '/^cpu / { o = $2 + $4 + $7 + $8 + $9; print o, o + $3, o + $3 + $5 + $6; exit }' \
		"${1:-/proc/stat}"
}

# cpu_share T0 T1 [FIELD]: percent of the machine between two cpu_ticks
# samples in FIELD (1 OTHERS, the default; 2 BUSY), to two decimals.
cpu_share() {
	echo "$1 $2" | awk -v f="${3:-1}" '{ t = $6 - $3; printf "%.2f\n", (t > 0 ? 100 * ($(f + 3) - $f) / t : 0) }'
}
