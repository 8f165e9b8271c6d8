#!/bin/sh
# needs: alone
# A CPU taken offline and brought back under a running meter: each change
# is one "no figure" line in the period it happened, the figures between
# cover the CPUs left ("over 1 CPU online"), and afterwards every soaker is
# pinned to its own CPU again (the kernel widens a moved task's mask and
# never narrows it back). It offlines the highest CPU, so it runs alone,
# and brings it back however the script ends.
. "$ZC_TOP/tests/lib.sh"
meter_slot

cs=$ZC_BIN/cyclesoak
ncpus=$(getconf _NPROCESSORS_ONLN)
last=$((ncpus - 1))
online=/sys/devices/system/cpu/cpu$last/online

if [ "$ncpus" -lt 2 ] || [ ! -w "$online" ]; then
	skip "hotplug: needs 2 CPUs and a writable $online (root, a CPU that may go offline)"
	finish
fi

bring_back() {
	echo 1 >"$online" 2>/dev/null
}
on_cleanup bring_back
meter_wait_others

start_bg "$cs" -r -m 300 >"$TMP/out" 2>"$TMP/err"
CS=$!
if ! wait_for "$TMP/out" '^System load' 100; then
	skip "hotplug: cyclesoak did not start: $(cat "$TMP/err")"
	finish
fi
# Whether the CPU may go offline is the kernel's to say: a refusal (a CPU
# that cannot be hot-unplugged, a hypervisor's veto) is a skip with its words.
if ! echo 0 2>"$TMP/off.err" >"$online"; then
	skip "hotplug: the kernel refuses to take CPU $last offline: $(cat "$TMP/off.err")"
	finish
fi
check "CPU $last offline: 'no figure: CPU $last went offline' within a period" \
	wait_for "$TMP/out" "^no figure: CPU $last went offline\$" 50
check "then figures over the CPUs left" \
	wait_for "$TMP/out" "^System load: -?[0-9]+\\.[0-9]% over $last CPUs? online" 20
bring_back
check "CPU $last back: 'no figure: CPU $last came back online' within a period" \
	wait_for "$TMP/out" "^no figure: CPU $last came back online\$" 20
# soakers_pinned: every soaker on a CPU of its own (their masks in
# $TMP/masks).
soakers_pinned() {
	for s in $(proc_children "$CS" | awk '{ print $1 }'); do
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$s/status"
	done >"$TMP/masks"
	[ "$(grep -Ec '^[0-9]+$' "$TMP/masks")" -eq "$ncpus" ] &&
		[ "$(sort -u "$TMP/masks" | wc -l)" -eq "$ncpus" ]
}
within 50 soakers_pinned
check "every soaker on its own CPU again: $(tr '\n' ' ' <"$TMP/masks")" soakers_pinned
# figures_again: a System load line over every CPU after the CPU came back.
figures_again() {
	sed -n "/came back online/,\$p" "$TMP/out" |
		grep -Eq "^System load: -?[0-9]+\.[0-9]%( \(host took [0-9.]+% unseen\))?\$"
}
within 100 figures_again
check "figures for every CPU again: $(tail -n 1 "$TMP/out")" figures_again
stop_bg "$CS"
check "cyclesoak said nothing on stderr but the host's time: $(head -c 300 "$TMP/err")" \
	eval '! grep -v "the host took" "$TMP/err" | grep -q .'
finish
