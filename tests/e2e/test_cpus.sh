#!/bin/sh
# needs: meter-long
# The meter on the CPUs it may use: under taskset and in a cpuset the
# soakers cover the affinity mask, one each, and the using line says so;
# -N beyond the mask is a usage error naming the CPU; a soaker whose
# pinning was dropped is pinned again within a period; under a cgroup CPU
# quota one line names the limit and each load says it is a share of it,
# with the periods throttled. The cgroups are made here and removed by the
# cleanup. How close the figures come to /proc/stat is the bench's to judge
# (tests/bench/accuracy.sh): other work on the machine moves them.
. "$ZC_TOP/tests/lib.sh"
meter_slot

cs=$ZC_BIN/cyclesoak
ncpus=$(getconf _NPROCESSORS_ONLN)
meter_wait_others

# soakers PID: each soaker of cyclesoak PID, as "PID CPULIST".
soakers() {
	for _s in $(proc_children "$1" | awk '{ print $1 }'); do
		echo "$_s $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$_s/status")"
	done
}

# The checks name CPUs 0 and 1: both online, as the kernel's list of
# online CPUs says (the one the programs read), not merely two CPUs.
online=$(cat /sys/devices/system/cpu/online 2>/dev/null)
if [ "$ncpus" -lt 2 ] || ! echo ",$online" | grep -Eq '^,0(-[1-9][0-9]*|,1([,-]|$))'; then
	skip "the allowed CPUs: needs CPUs 0 and 1 online; online: ${online:-?} ($ncpus)"
	finish
fi

# --- taskset ----------------------------------------------------------------

run_cs -r -1 -m 10 >/dev/null 2>&1 # waits for another meter, if one runs
taskset -c 1 "$cs" -r -1 -m 200 -B >"$TMP/out" 2>"$TMP/err"
rc=$?
if grep -q 'another meter is running' "$TMP/err"; then
	skip "taskset -c 1: another meter runs: $(cat "$TMP/err")"
else
	check "taskset -c 1: 'using 1 of $ncpus CPUs (cpuset: 1)' ($rc: $(head -n 1 "$TMP/out"))" \
		eval '[ "$rc" -eq 0 ] && [ "$(head -n 1 "$TMP/out")" = "using 1 of $ncpus CPUs (cpuset: 1)" ]'
	check "taskset -c 1 -B: one free share, of CPU 1: $(grep System "$TMP/out")" \
		grep -Eq '^System load: .* \|\| Free: -?[0-9]+\.[0-9]%\(1\)$' "$TMP/out"
fi
taskset -c 1 "$cs" -r -1 -m 200 -J >"$TMP/out" 2>"$TMP/err"
if ! grep -q 'another meter is running' "$TMP/err"; then
	jc=$ZC_TESTBIN/jsoncheck
	check "taskset -c 1 -J: using {ncpus 1, online_cpus $ncpus, cpus \"1\"}" \
		eval '[ "$("$jc" -E using -g ncpus "$TMP/out")" = 1 ] &&
		      [ "$("$jc" -E using -g online_cpus "$TMP/out")" = "$ncpus" ] &&
		      [ "$("$jc" -E using -g cpus "$TMP/out")" = 1 ]'
	check "-J: the load event has unseen_steal_pct" \
		"$jc" -E load -k load_pct -k unseen_steal_pct "$TMP/out"
fi

usage_refused "taskset -c 1, -N 2" taskset -c 1 "$cs" -N 2 -1
check "-N 2 outside the mask: names CPU 0 and the mask" \
	grep -q "CPU 0 is not in its CPU mask (cpuset: 1)" "$TMP/err"
usage_refused "taskset -c 1, -B -N 2" taskset -c 1 "$cs" -B -N 2 -1
usage_refused "taskset -c 1, zcc -C -N 2" taskset -c 1 "$ZC_BIN/zcc" -C -N 2 -f "$TMP/cal"
check "zcc -C -N 2 outside the mask: names CPU 0" grep -q "CPU 0 is not in its CPU mask" "$TMP/err"

# --- a soaker's pinning, dropped and mended -----------------------------------

# start_meter OUT [COMMAND PREFIX...]: cyclesoak -m 300 in the background,
# metered; its PID in CS, 1 when it never ran.
start_meter() {
	metered "$1.err" meter_once "$@"
}
meter_once() {
	_out=$1
	shift
	start_bg "$@" "$cs" -r -m 300 >"$_out" 2>"$_out.err"
	CS=$!
	within 100 meter_started "$_out" "$CS" && has_line "$_out" '^System load' && return 0
	stop_bg "$CS"
	return 1
}
# meter_started OUT PID: its first figure is out, or it is gone.
meter_started() {
	has_line "$1" '^System load' || proc_ended "$2"
}

if start_meter "$TMP/pin"; then
	soakers "$CS" >"$TMP/soakers"
	check "every soaker pinned to one CPU of its own: $(tr '\n' ' ' <"$TMP/soakers")" \
		eval '[ "$(awk "\$2 ~ /^[0-9]+\$/" "$TMP/soakers" | sort -u -k2 | wc -l)" -eq "$ncpus" ]'
	victim=$(awk '$2 == 1 { print $1 }' "$TMP/soakers")
	taskset -pc 0-1 "$victim" >/dev/null
	check "a dropped pinning: 'no figure: ... pinned again' within a period" \
		wait_for "$TMP/pin" '^no figure: the soaker for CPU 1 had lost its pinning \(CPUs 0-1\): pinned again$' 20
	check "and the soaker is on CPU 1 alone again: $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$victim/status")" \
		eval '[ "$(sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" "/proc/$victim/status")" = 1 ]'
	check "figures go on after it" \
		within 50 eval 'sed -n "/pinned again/,\$p" "$TMP/pin" | grep -q "^System load"'
	stop_bg "$CS"
else
	skip "pinning: cyclesoak did not start: $(cat "$TMP/pin.err")"
fi

# --- cgroups made here --------------------------------------------------------

CGROUPS=
drop_cgroups() {
	for _g in $CGROUPS; do rmdir "$_g" 2>/dev/null; done
}
on_cleanup drop_cgroups

# v1_group CONTROLLER: a new group in that v1 hierarchy, its path printed;
# false when there is none or it cannot be made (not root).
v1_group() {
	_m=$(awk -v c="$1" '$9 == "cgroup" { n = split($NF, o, ","); for (i = 1; i <= n; i++) if (o[i] == c) { print $5; exit } }' /proc/self/mountinfo)
	[ -n "$_m" ] && mkdir "$_m/zc-test-$$-$1" 2>/dev/null && echo "$_m/zc-test-$$-$1"
}

# in_group DIR COMMAND...: COMMAND run as a member of cgroup DIR.
join='echo $$ >"$0/cgroup.procs" && exec "$@"'
in_group() {
	sh -c "$join" "$@"
}

if g=$(v1_group cpuset); then
	CGROUPS="$CGROUPS $g"
	cat "$(dirname "$g")/cpuset.mems" >"$g/cpuset.mems"
	echo 1 >"$g/cpuset.cpus"
	run_cs -r -1 -m 200 >/dev/null 2>&1 # waits for another meter, if one runs
	in_group "$g" "$cs" -r -1 -m 200 -B >"$TMP/out" 2>"$TMP/err"
	check "v1 cpuset.cpus=1: 'using 1 of $ncpus CPUs (cpuset: 1)': $(head -n 1 "$TMP/out")$(head -c 200 "$TMP/err")" \
		eval '[ "$(head -n 1 "$TMP/out")" = "using 1 of $ncpus CPUs (cpuset: 1)" ]'
	usage_refused "v1 cpuset.cpus=1, -B -N 2" sh -c "$join" "$g" "$cs" -B -N 2 -1
	check "-B -N 2 in the cpuset: names CPU 0" grep -q "CPU 0 is not in its CPU mask (cpuset: 1)" "$TMP/err"
else
	skip "v1 cpuset: no v1 cpuset hierarchy, or cannot make a group in it (not root)"
fi
if grep -qw cpuset /sys/fs/cgroup/cgroup.controllers /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null; then
	skip "v2 cpuset: the mask is what the meter reads, the same as v1's (checked above)"
else
	skip "v2 cpuset: cgroup2 has no cpuset controller on this machine"
fi

# quota GROUP WHAT: cyclesoak in GROUP, whose quota is half a CPU.
quota() {
	run_cs -r -1 -m 200 >/dev/null 2>&1 # waits for another meter, if one runs
	in_group "$1" "$cs" -r -1 -m 500 -J >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	check "$2: one line naming the limit: $(head -n 1 "$TMP/err")" \
		grep -Eq "^cyclesoak: CPU quota 0\.50 of $ncpus CPUs \($3 in $1\): the soakers measure within it\$" "$TMP/err"
	check "$2 -J: load {quota_cpus 0.50, throttled_periods, quota_periods} ($_rc)" \
		eval '[ "$_rc" -eq 0 ] && "$ZC_TESTBIN/jsoncheck" -E load -k throttled_periods -k quota_periods "$TMP/out" &&
		      [ "$("$ZC_TESTBIN/jsoncheck" -E load -g quota_cpus "$TMP/out")" = 0.50 ]'
	in_group "$1" "$cs" -r -1 -m 500 >"$TMP/out" 2>"$TMP/err"
	check "$2: 'System load: x% of a 0.50 CPU quota (throttled in N of M periods)': $(grep System "$TMP/out")" \
		grep -Eq '^System load: -?[0-9]+\.[0-9]% of a 0\.50 CPU quota \(throttled in [0-9]+ of [0-9]+ periods\)' "$TMP/out"
}

if g=$(v1_group cpu); then
	CGROUPS="$CGROUPS $g"
	echo 100000 >"$g/cpu.cfs_period_us"
	echo 50000 >"$g/cpu.cfs_quota_us"
	quota "$g" "v1 cfs_quota_us 50000 per 100000" \
		'cpu\.cfs_quota_us 50000 per cpu\.cfs_period_us 100000'
else
	skip "v1 cpu quota: no v1 cpu hierarchy, or cannot make a group in it (not root)"
fi
v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ -n "$v2" ] && grep -qw cpu "$v2/cgroup.controllers" 2>/dev/null &&
	grep -qw cpu "$v2/cgroup.subtree_control" 2>/dev/null &&
	mkdir "$v2/zc-test-$$" 2>/dev/null; then
	CGROUPS="$CGROUPS $v2/zc-test-$$"
	echo "50000 100000" >"$v2/zc-test-$$/cpu.max"
	quota "$v2/zc-test-$$" "v2 cpu.max 50000 100000" 'cpu\.max 50000 100000'
else
	skip "v2 cpu quota: cgroup2 ${v2:-(not mounted)} has no cpu controller enabled here"
fi
finish
