#!/bin/sh
# run_rr: policy and priority, the shell path, usage and exec errors (127
# not found, 126 found but not executable), --help and --version, a full
# stdout, the refusal without privilege, a setuid-root copy giving back the
# caller's ids, and the RLIMIT_RTTIME safety net: -l sets the soft limit,
# never raises the hard one, and is refused above it; run setuid by a user
# who is not root, both limits at most 5 s.
#
# Most checks need root (to set SCHED_RR and to become uid 65534 with
# setpriv); without it they are skipped with the reason.
. "$ZC_TOP/tests/lib.sh"

RUN_RR=$(cd "$ZC_BIN" && pwd)/run_rr
NOBODY=65534

# run COMMAND...: $rc, with stdout in $TMP/out and stderr in $TMP/err.
run() {
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# as_nobody COMMAND...: run as uid/gid 65534 with no supplementary groups and
# RLIMIT_RTPRIO 0, so that no rlimit lets it set SCHED_RR by itself.
as_nobody() {
	setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups prlimit --rtprio=0 "$@"
}

# policy_is POLICY PRIO: $TMP/out holds chrt -p output showing them.
policy_is() {
	grep -q "scheduling policy: $1\$" "$TMP/out" &&
		grep -q "scheduling priority: $2\$" "$TMP/out"
}

# one_line_naming WORD...: $TMP/err is a single line containing every WORD.
one_line_naming() {
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || return 1
	for _w; do grep -qF -- "$_w" "$TMP/err" || return 1; done
}

# ---- usage: needs no privilege ----

run "$RUN_RR" -h
check "-h: help on stdout, exit 0" \
	test "$rc" -eq 0 -a -s "$TMP/out" -a ! -s "$TMP/err"
check "-h documents -p and the RLIMIT_RTTIME option -l" \
	grep -q RLIMIT_RTTIME "$TMP/out"

# refused OPTION VALUE: run_rr OPTION VALUE true is a usage error naming both.
refused() {
	run "$RUN_RR" "$1" "$2" true
	if [ "$rc" -eq 2 ] && one_line_naming "$1" "'$2'"; then
		ok "$1 '$2': usage error naming $1, exit 2"
	else
		not_ok "$1 '$2': want exit 2 naming $1, got $rc: $(cat "$TMP/err")"
	fi
}
for bad in 0 100 x 5x -1 ""; do refused -p "$bad"; done
for bad in 0 x 86400001; do refused -l "$bad"; done
run "$RUN_RR" -p
check "-p without a value: exit 2 naming -p" \
	eval '[ "$rc" -eq 2 ] && one_line_naming "-p"'
run "$RUN_RR" -Q true
check "unknown option: exit 2 naming it" \
	eval '[ "$rc" -eq 2 ] && one_line_naming "-Q"'

run "$RUN_RR" --help
check "--help: the usage on stdout, exit 0" \
	eval '[ "$rc" -eq 0 ] && grep -q "^usage: run_rr" "$TMP/out" && [ ! -s "$TMP/err" ]'
check "-h lists the exit statuses (126, 127)" \
	eval 'grep -q "126 when" "$TMP/out" && grep -q "127 when" "$TMP/out"'
run "$RUN_RR" --version
check "--version: 'run_rr VERSION', exit 0 ($(cat "$TMP/out"))" \
	eval '[ "$rc" -eq 0 ] && grep -Eqx "run_rr [0-9]+\.[0-9]+(\.[0-9]+)?" "$TMP/out"'
run "$RUN_RR" --bogus true
check "--bogus: exit 2 naming it" eval '[ "$rc" -eq 2 ] && one_line_naming "--bogus"'
for arg in -h --help --version; do
	"$RUN_RR" "$arg" >/dev/full 2>"$TMP/err"
	rc=$?
	check "$arg >/dev/full: exit 1, one line ($rc: $(cat "$TMP/err"))" \
		eval '[ "$rc" -eq 1 ] && one_line_naming "write to stdout"'
done

# -l above the caller's hard limit: refused at the door, before anything
# runs (as root the old code raised the hard limit, as anyone else it
# failed to). Needs no privilege: the check comes before SCHED_RR.
if command -v prlimit >/dev/null; then
	run prlimit --rttime=500000:500000 "$RUN_RR" -l 1000 cat /proc/self/limits
	check "-l 1000 under a hard limit of 500 ms: exit 2 naming -l '1000', nothing run ($rc)" \
		eval '[ "$rc" -eq 2 ] && one_line_naming "-l" "'"'1000'"'" && [ ! -s "$TMP/out" ]'
else
	skip "prlimit (util-linux) not installed: no hard-limit checks"
fi

# ---- as root ----

if [ "$(id -u)" != 0 ]; then
	skip "not root: SCHED_RR, setuid and unprivileged-user checks need it"
	finish
fi
if ! command -v chrt >/dev/null; then
	skip "chrt (util-linux) not installed: cannot read the policy back"
	finish
fi
if ! chrt -r 1 true 2>/dev/null; then
	skip "even root cannot set SCHED_RR here (container or cgroup without real-time time)"
	finish
fi
max=$(chrt -m | sed -n 's|^SCHED_RR min/max priority[^0-9]*[0-9]*/\([0-9]*\).*|\1|p')
: "${max:=99}"

run "$RUN_RR" sh -c 'chrt -p $$'
check "default: SCHED_RR at the highest priority ($max)" \
	eval '[ "$rc" -eq 0 ] && policy_is SCHED_RR "$max"'
run "$RUN_RR" -p 10 sh -c 'chrt -p $$'
check "-p 10: SCHED_RR priority 10" eval '[ "$rc" -eq 0 ] && policy_is SCHED_RR 10'
run "$RUN_RR" -p 1 sh -c 'sh -c "chrt -p \$\$"'
check "-p 1: a grandchild inherits SCHED_RR priority 1" policy_is SCHED_RR 1

run "$RUN_RR" -p 5 printf '%s|' -x -p 7
check "options after the command are the command's (-x -p 7 passed on)" \
	eval '[ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = "-x|-p|7|" ]'
run "$RUN_RR" printf '%s|' --help --version
check "long options after the command are the command's" \
	eval '[ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = "--help|--version|" ]'
run "$RUN_RR" -- printf '%s|' --bogus
check "-- ends run_rr's options" \
	eval '[ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = "--bogus|" ]'
run "$RUN_RR" sh -c 'exit 7'
check "the command's exit status is run_rr's (7)" test "$rc" -eq 7

# ---- the shell path ----

shell_cmds='case $- in *i*) echo interactive;; esac; chrt -p $$; exit 0'

echo "$shell_cmds" | SHELL=/bin/sh "$RUN_RR" -p 3 >"$TMP/out" 2>"$TMP/err"
rc=$?
check "SHELL=/bin/sh: an interactive shell under SCHED_RR priority 3" \
	eval '[ "$rc" -eq 0 ] && grep -qx interactive "$TMP/out" && policy_is SCHED_RR 3'

echo "$shell_cmds" | env -u SHELL "$RUN_RR" -p 4 >"$TMP/out" 2>"$TMP/err"
rc=$?
check "SHELL unset: /bin/sh, interactive, SCHED_RR priority 4" \
	eval '[ "$rc" -eq 0 ] && grep -qx interactive "$TMP/out" && policy_is SCHED_RR 4'

echo "$shell_cmds" | SHELL= "$RUN_RR" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "SHELL empty: /bin/sh" eval '[ "$rc" -eq 0 ] && policy_is SCHED_RR "$max"'

run env SHELL="$TMP/no-such-shell" "$RUN_RR"
check "SHELL names a missing file: exit 127 naming it" \
	eval '[ "$rc" -eq 127 ] && one_line_naming "no-such-shell"'

# ---- commands that cannot be run ----

run "$RUN_RR" zc-no-such-command-here
check "missing command: exit 127 with a line naming it" \
	eval '[ "$rc" -eq 127 ] && one_line_naming zc-no-such-command-here'
printf 'echo should not run\n' >"$TMP/not-executable"
chmod 644 "$TMP/not-executable"
run "$RUN_RR" "$TMP/not-executable"
check "non-executable file: exit 126 with a line naming it ($rc)" \
	eval '[ "$rc" -eq 126 ] && one_line_naming not-executable && [ ! -s "$TMP/out" ]'
run env PATH="$TMP" "$RUN_RR" not-executable
check "non-executable file found in PATH: exit 126 ($rc)" \
	eval '[ "$rc" -eq 126 ] && one_line_naming not-executable && [ ! -s "$TMP/out" ]'
mkdir "$TMP/a-directory"
run "$RUN_RR" "$TMP/a-directory"
check "a directory: exit 126 with a line naming it ($rc)" \
	eval '[ "$rc" -eq 126 ] && one_line_naming a-directory'
run "$RUN_RR" "$TMP/not-executable/below"
check "a path through a file: not found, exit 127 ($rc)" test "$rc" -eq 127

# ---- the RLIMIT_RTTIME safety net ----

hard=$(awk '/^Max realtime timeout/ { print $5 }' /proc/self/limits)
run "$RUN_RR" -l 250 cat /proc/self/limits
check "-l 250: RLIMIT_RTTIME soft 250000 us, the inherited hard limit ($hard) left alone" \
	grep -Eq "^Max realtime timeout +250000 +$hard +us" "$TMP/out"
run prlimit --rttime=2000000:2000000 "$RUN_RR" -l 250 cat /proc/self/limits
check "-l 250 under a hard limit of 2 s: soft 250000 us, hard still 2000000" \
	grep -Eq '^Max realtime timeout +250000 +2000000 +us' "$TMP/out"
run prlimit --rttime=500000:500000 "$RUN_RR" -l 500 cat /proc/self/limits
check "-l equal to the hard limit: accepted, both 500000 us" \
	eval '[ "$rc" -eq 0 ] && grep -Eq "^Max realtime timeout +500000 +500000 +us" "$TMP/out"'

# A real-time busy loop: at -p 1 on one CPU it leaves the others free, RT
# throttling (sched_rt_runtime_us) is a second net and timeout a third.
# The kernel should stop it after ~0.2 s (SIGXCPU) and, when SIGXCPU is
# caught, after one more second (SIGKILL); 5 s is a wide margin for a busy
# machine. ulimit -c 0: SIGXCPU's default action would dump core.
# The SIGKILL is the hard limit's, which run_rr leaves as the caller set it.
busy_loop() {	# limit-ms trap-action hard-limit-us
	t0=$(date +%s%N)
	# In a subshell whose stderr is closed off: no "Killed" notice in the log.
	rc=$( { ulimit -c 0; cd "$TMP" && timeout -k 2 10 prlimit --rttime="$3:$3" \
		"$RUN_RR" -p 1 -l "$1" sh -c "trap '$2' XCPU; while :; do :; done"
		echo $?; } 2>/dev/null)
	ms=$((($(date +%s%N) - t0) / 1000000))
}
busy_loop 200 - 1200000
if [ "$rc" -eq 152 ] && [ "$ms" -lt 5000 ]; then
	ok "-l 200: RR busy loop stopped by SIGXCPU after $ms ms"
else
	not_ok "-l 200: RR busy loop: want SIGXCPU (152) within 5 s, got status $rc after $ms ms"
fi
busy_loop 200 : 1200000
if [ "$rc" -eq 137 ] && [ "$ms" -ge 1000 ] && [ "$ms" -lt 6000 ]; then
	ok "-l 200, SIGXCPU caught: killed (SIGKILL) at the caller's hard limit after $ms ms"
else
	not_ok "-l 200, SIGXCPU caught: want SIGKILL (137) at the hard limit, 1.2 s, within 1-6 s, got status $rc after $ms ms"
fi

# ---- an unprivileged user ----

if ! command -v setpriv >/dev/null || ! command -v prlimit >/dev/null; then
	skip "setpriv or prlimit (util-linux) not installed: no unprivileged-user checks"
	finish
fi

# A place uid 65534 can reach where set-user-ID bits count.
suid_dir=
extra_dirs=
trap 'for d in $extra_dirs; do rm -rf "$d"; done; cleanup' EXIT
for base in "$TMP" /var/tmp "$ZC_TOP/build"; do
	[ -d "$base" ] || continue
	if command -v findmnt >/dev/null &&
		findmnt -n -o OPTIONS -T "$base" | tr , '\n' | grep -qx nosuid; then
		continue
	fi
	d=$(mktemp -d "$base/zc-run_rr.XXXXXX") || continue
	if [ "$base" = "$TMP" ]; then
		chmod 711 "$TMP"	# only traversable: nothing in it is listed
	else
		extra_dirs="$extra_dirs $d"
	fi
	chmod 755 "$d"
	cp "$RUN_RR" "$d/run_rr" && chmod 755 "$d/run_rr" || continue
	if setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups test -x "$d/run_rr"; then
		suid_dir=$d
		break
	fi
done

if [ -z "$suid_dir" ]; then
	skip "no directory reachable by uid $NOBODY on a mount without nosuid"
	finish
fi

run as_nobody "$suid_dir/run_rr" sh -c 'echo ran'
if [ "$rc" -ne 0 ] && one_line_naming root CAP_SYS_NICE && [ ! -s "$TMP/out" ]; then
	ok "unprivileged: one line naming root/CAP_SYS_NICE, exit $rc, command not run"
else
	not_ok "unprivileged: want one refusal line naming root and CAP_SYS_NICE, got $rc: $(cat "$TMP/err")"
fi

if grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status; then
	skip "no_new_privs is set for this process tree: set-user-ID bits are ignored"
	finish
fi
chown 0:0 "$suid_dir/run_rr" && chmod 4755 "$suid_dir/run_rr"

# The policy can only be set if the setuid bit worked (RLIMIT_RTPRIO is 0);
# the ids, groups and capabilities then must all be the caller's again.
run as_nobody "$suid_dir/run_rr" sh -c 'chrt -p $$'
check "setuid copy run by uid $NOBODY: SCHED_RR priority $max was set" \
	eval '[ "$rc" -eq 0 ] && policy_is SCHED_RR "$max"'

run as_nobody "$suid_dir/run_rr" -p 7 sh -c 'chrt -p $$'
check "setuid copy: -p 7 gives SCHED_RR priority 7" \
	eval '[ "$rc" -eq 0 ] && policy_is SCHED_RR 7'

# Commands run directly, not through sh: sh itself would drop a stray
# effective uid (dash and bash do without -p) and hide the bug.
run as_nobody "$suid_dir/run_rr" id -u
check "setuid copy: the command's effective uid is $NOBODY" \
	eval '[ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = $NOBODY ]'
run as_nobody "$suid_dir/run_rr" id -g
check "setuid copy: the command's effective gid is $NOBODY" \
	eval '[ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = $NOBODY ]'

run as_nobody "$suid_dir/run_rr" cat /proc/self/status
check "setuid copy: real, effective, saved and fs uid all $NOBODY" \
	grep -Eq "^Uid:[[:space:]]+$NOBODY[[:space:]]+$NOBODY[[:space:]]+$NOBODY[[:space:]]+$NOBODY\$" "$TMP/out"
check "setuid copy: real, effective, saved and fs gid all $NOBODY" \
	grep -Eq "^Gid:[[:space:]]+$NOBODY[[:space:]]+$NOBODY[[:space:]]+$NOBODY[[:space:]]+$NOBODY\$" "$TMP/out"
check "setuid copy: no capability left (permitted and effective empty)" \
	eval 'grep -Eq "^CapPrm:[[:space:]]+0+\$" "$TMP/out" &&
	      grep -Eq "^CapEff:[[:space:]]+0+\$" "$TMP/out"'

# Supplementary groups: exactly the caller's, neither root's nor the group
# database's. Numeric groups that need not exist in /etc/group.
setpriv --reuid=$NOBODY --regid=$NOBODY --groups=4242,4343 prlimit --rtprio=0 \
	"$suid_dir/run_rr" id -G >"$TMP/out" 2>"$TMP/err"
groups=$(tr ' ' '\n' <"$TMP/out" | sort -n | tr '\n' ' ')
check "setuid copy: supplementary groups are the caller's (got: $groups)" \
	test "$groups" = "4242 4343 $NOBODY "
setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups prlimit --rtprio=0 \
	"$suid_dir/run_rr" id -G >"$TMP/out" 2>"$TMP/err"
check "setuid copy: a caller without supplementary groups gets none" \
	test "$(cat "$TMP/out")" = "$NOBODY"

# Installed setuid-root, -l must still not lift the caller's hard limit.
setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups prlimit --rtprio=0 \
	--rttime=500000:500000 "$suid_dir/run_rr" -l 1000 cat /proc/self/limits \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
check "setuid copy: -l above the caller's hard limit refused, exit 2, nothing run ($rc)" \
	eval '[ "$rc" -eq 2 ] && one_line_naming "-l" && [ ! -s "$TMP/out" ]'
setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups prlimit --rtprio=0 \
	--rttime=500000:500000 "$suid_dir/run_rr" -l 200 cat /proc/self/limits \
	>"$TMP/out" 2>"$TMP/err"
check "setuid copy: -l 200 sets the soft limit, the hard one stays 500000 us" \
	grep -Eq '^Max realtime timeout +200000 +500000 +us' "$TMP/out"

# Run setuid by a user who is not root: RLIMIT_RTTIME at most 5 s, soft and
# hard, whatever the caller had (unlimited here); -l lowers the soft limit,
# may not go above 5000, and the command cannot lift either limit again.
# A lower hard limit of the caller's stays. Root's own run is unchanged.
rt_limits_are() {	# SOFT HARD: $TMP/out, /proc/self/limits, shows them
	grep -Eq "^Max realtime timeout +$1 +$2 +us" "$TMP/out"
}
run as_nobody "$suid_dir/run_rr" cat /proc/self/limits
check "setuid copy, no -l: RLIMIT_RTTIME 5000000 us soft and hard ($rc: $(grep "realtime timeout" "$TMP/out" | tr -s " "))" \
	eval '[ "$rc" -eq 0 ] && rt_limits_are 5000000 5000000'
run as_nobody "$suid_dir/run_rr" -l 300 cat /proc/self/limits
check "setuid copy, -l 300: soft 300000 us, hard 5000000 ($(grep "realtime timeout" "$TMP/out" | tr -s " "))" \
	rt_limits_are 300000 5000000
run as_nobody "$suid_dir/run_rr" -l 5001 cat /proc/self/limits
check "setuid copy, -l 5001: above the 5000 ms default, exit 2, one line, nothing run ($rc)" \
	eval '[ "$rc" -eq 2 ] && one_line_naming "-l" "5000" && [ ! -s "$TMP/out" ]'
run as_nobody prlimit --rttime=1000000:2000000 "$suid_dir/run_rr" cat /proc/self/limits
check "setuid copy under the caller's 1 s/2 s: kept ($(grep "realtime timeout" "$TMP/out" | tr -s " "))" \
	rt_limits_are 1000000 2000000
run as_nobody "$suid_dir/run_rr" sh -c \
	'prlimit --pid $$ --rttime=unlimited:unlimited || prlimit --pid $$ --rttime=9000000:; cat /proc/self/limits'
check "setuid copy: the command cannot raise either limit ($(grep "realtime timeout" "$TMP/out" | tr -s " "))" \
	rt_limits_are 5000000 5000000
run "$suid_dir/run_rr" cat /proc/self/limits
check "setuid copy run by root: RLIMIT_RTTIME as inherited ($hard)" \
	eval '[ "$rc" -eq 0 ] && rt_limits_are "$hard" "$hard"'

# Secure mode: the dynamic linker strips what could subvert a setuid
# program (ld.so(8)) from the environment, and the command inherits that.
as_nobody env TMPDIR=/zc-t LD_LIBRARY_PATH=/zc-l ZC_KEPT=1 "$suid_dir/run_rr" env \
	>"$TMP/out" 2>"$TMP/err"
check "setuid copy run by a user: TMPDIR and LD_LIBRARY_PATH removed, others kept" \
	eval '! grep -q "^TMPDIR=" "$TMP/out" && ! grep -q "^LD_LIBRARY_PATH=" "$TMP/out" &&
	grep -qx ZC_KEPT=1 "$TMP/out"'

# The original's hole: the shell it started was root's. (dash and bash drop
# a stray effective uid themselves; the checks above are the ones that bite.)
echo 'id -u; chrt -p $$; exit 0' | SHELL=/bin/sh as_nobody "$suid_dir/run_rr" \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
check "setuid copy, no command: the shell is uid $NOBODY's, under SCHED_RR" \
	eval '[ "$rc" -eq 0 ] && grep -qx $NOBODY "$TMP/out" && policy_is SCHED_RR "$max"'

finish
