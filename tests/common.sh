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
