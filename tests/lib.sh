# The one shell harness of the tests, make demo and make bench: sourced,
# not run. POSIX sh.
#
# The sourcing script sets ZC_TOP (tests/run.sh exports it; demo and bench
# work it out from their own path). Everything a script starts goes through
# bg / start_bg / run_fg, so that cleanup kills it by PID however the script
# ends (Ctrl-C included); every file it makes lives under $TMP (also called
# $WORK), removed at the end. Tests print "ok - what", "not ok - what" or
# "skip - why" for tests/run.sh to count.
#
# HARNESS_GRACE: tenths of a second cleanup gives its processes to end on
# SIGTERM before SIGKILL (tests: 0, straight to SIGKILL; bench: 10).
#
# Its parts, one job each, in tests/harness/:
#   script.sh    the script's life: its $TMP, cleanup, verdicts, background
#                processes, waits
#   proc.sh      processes as /proc shows them
#   sock.sh      TCP sockets as ss shows them: what a transfer has done
#   together.sh  cases side by side
#   meter.sh     one meter at a time, the machine's CPU time, the calibration
#   zc.sh        the programs: their output, zcs and zcc runs, test files
# and, sourced by the tests that need it (not by demo or bench), e2e.sh:
# what the kernel allows, the bytes on the wire, the shims.

: "${ZC_TOP:?ZC_TOP: the top directory of zc}"
for _part in script proc sock together meter zc; do
	. "$ZC_TOP/tests/harness/$_part.sh"
done
