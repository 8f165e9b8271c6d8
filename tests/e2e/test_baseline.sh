#!/bin/sh
# zcc --baseline FILE: files that cannot be a baseline are refused before
# connecting (one line, exit 2); a baseline across an MTU change on a
# namespace's loopback and across TSO toggled on a veth pair names the
# difference above the verdict.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
J=$ZC_TESTBIN/jsoncheck
head -c 2000000 /dev/urandom >"$TMP/a"

# --- refusals -----------------------------------------------------------------
# Port 1 of 127.0.0.1: a zcc that got as far as connecting would fail with
# exit 1, so exit 2 shows the file was refused first.
refused() {
	_w=$1
	shift
	usage_refused "$_w" "$ZCC" -s 127.0.0.1 -p 1 "$@" "$TMP/a"
	check "$_w: says why" grep -q -- "$WHY" "$TMP/err"
}
head -c 3000 /dev/urandom >"$TMP/junk"
WHY="not a zcc -J run" refused "a file of junk" --baseline "$TMP/junk"
: >"$TMP/empty"
WHY="empty: not a zcc -J run" refused "an empty file" --baseline "$TMP/empty"
printf '{"program":"zcs","event":"listening","time":1.0,"port":2222}\n' >"$TMP/zcs.json"
WHY="written by zcs" refused "another program's JSON" --baseline "$TMP/zcs.json"
printf '{"a":1}\n' >"$TMP/other.json"
WHY='no "program"' refused "JSON that is not ours" --baseline "$TMP/other.json"
WHY="No such file" refused "a missing file" --baseline "$TMP/nonexistent"
printf '%s\n' '{"program":"zcc","event":"sent","time":1.0,"bytes":8,"method":"sendfile","interrupted":true,"own_us_per_kb":0.5}' \
	>"$TMP/intr.json"
WHY="no whole run" refused "only an interrupted run" --baseline "$TMP/intr.json"
printf '%s\n%s' '{"program":"zcc","event":"sent","time":1.0,"bytes":8,"method":"sendfile","interrupted":false,"own_us_per_kb":0.5}' \
	'{"program":"zcc","event":"sent","ti' >"$TMP/cut.json"
WHY="line 2: " refused "a file cut short" --baseline "$TMP/cut.json"
head -n 1 "$TMP/cut.json" >"$TMP/one.json"
WHY="its variants (sendfile) are not this run's (send)" \
	refused "mismatched variants" -M send --baseline "$TMP/one.json"
usage_refused "--baseline with -C" "$ZCC" -C --baseline "$TMP/one.json"
# Round events (a run of several variants) name the variants.
printf '%s\n%s\n%s\n' '{"program":"zcc","event":"round","time":1.0,"variant":"sendfile","own_us_per_kb":0.5}' \
	'{"program":"zcc","event":"round","time":1.0,"variant":"send","own_us_per_kb":0.7}' \
	'{"program":"zcc","event":"compare","time":1.0,"variant":"sendfile"}' >"$TMP/rounds.json"
WHY="its variants (sendfile, send) are not this run's (sendfile)" \
	refused "a baseline of two variants against one" --baseline "$TMP/rounds.json"

# --- a namespace's loopback, its MTU changed ----------------------------------
ns=zc-bl$$
remove_ns() { ip netns delete "$ns" 2>/dev/null; }
if ! ip netns add "$ns" 2>/dev/null; then
	skip "baseline across an MTU change: cannot make a network namespace (not root, or no ip)"
	finish
fi
on_cleanup remove_ns
ip -n "$ns" link set lo up
ZCS_PREFIX="ip netns exec $ns"
zcs_up lo
# zcc_ns OUT ARGS...: zcc in the namespace to its zcs, 5 runs.
zcc_ns() {
	_o=$1
	shift
	timeout 60 ip netns exec "$ns" "$ZCC" -R 5 -s 127.0.0.1 -p "$ZCS_PORT" "$@" "$TMP/a" \
		>"$TMP/$_o" 2>"$TMP/$_o.err"
}
zcc_ns base.json -J
check "the baseline run: exit 0 $(cat "$TMP/base.json.err")" [ $? -eq 0 ]
zcc_ns same.txt --baseline "$TMP/base.json"
check "against itself unchanged: exit 0 $(cat "$TMP/same.txt.err")" [ $? -eq 0 ]
check "against itself unchanged: nothing changed" \
	grep -Eq '^changed: nothing (in the environment record or the settings$|known; unknown in both runs: )' "$TMP/same.txt"
check "the verdict's table after the summary" \
	sh -c "grep -Eq '^baseline:sendfile +[0-9]+ +[0-9.]+ +1 +- +- +\(reference\)\$' '$TMP/same.txt' &&
		grep -Eq '^sendfile +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+\.\.[0-9.]+ +- +(cheaper|dearer|~)\$' '$TMP/same.txt'"
# A file with round events (a run of several variants, one of them here)
# is read by its rounds; its sent events are not rounds of their own.
: >"$TMP/r.json"
for own in 0.5 0.6 0.7 0.8; do
	printf '{"program":"zcc","event":"sent","time":1.0,"bytes":8,"method":"sendfile","interrupted":false,"own_us_per_kb":9}\n' >>"$TMP/r.json"
	printf '{"program":"zcc","event":"round","time":1.0,"variant":"sendfile","kbytes_per_sec":1000,"own_us_per_kb":%s}\n' "$own" >>"$TMP/r.json"
done
printf '{"program":"zcc","event":"compare","time":1.0,"variant":"sendfile"}\n' >>"$TMP/r.json"
zcc_ns r.txt --baseline "$TMP/r.json"
check "round events: their 4 rounds, median 0.650 ($(grep '^baseline:' "$TMP/r.txt"))" \
	sh -c "grep -Eq '^baseline:sendfile +1000 +0\.650 +1 ' '$TMP/r.txt' &&
		grep -q 'this run.s 5 rounds against the baseline.s 4' '$TMP/r.txt'"
# -P: the streams' own CPU is counted (it once read 0 without -c).
zcc_ns p2.json -J -P 2
zcc_ns p2.txt -P 2 --baseline "$TMP/p2.json"
check "-P 2 against -P 2: a ratio $(grep '^sendfile ' "$TMP/p2.txt")" \
	grep -Eq '^sendfile +[0-9]+ +[0-9.]*[1-9][0-9.]* +[0-9.]+ +[0-9.]+\.\.' "$TMP/p2.txt"
# Several variants (-M sendfile,send, 4 rounds): after the table, each
# variant against the baseline's rounds of the same name.
zcc_ns v.json -J -M sendfile,send -R 4
zcc_ns v.txt -M send,sendfile -R 4 --baseline "$TMP/v.json"
check "variants against variants: exit 0 $(cat "$TMP/v.txt.err")" [ $? -eq 0 ]
check "variants: a table for each, after the run's ($(grep -c '^baseline:' "$TMP/v.txt"))" \
	sh -c "grep -q '^baseline:send ' '$TMP/v.txt' && grep -q '^baseline:sendfile ' '$TMP/v.txt' &&
		[ \$(grep -c 'against baseline:send.* this run.s 4 rounds against the baseline.s 4' '$TMP/v.txt') -eq 2 ] &&
		[ \$(grep -n '^baseline:' '$TMP/v.txt' | head -n 1 | cut -d: -f1) -gt \$(grep -n 'verdict' '$TMP/v.txt' | head -n 1 | cut -d: -f1) ]"
WHY="its variants (sendfile, send) are not this run's (sendfile, mmap)" \
	refused "variants that differ" -M sendfile,mmap --baseline "$TMP/v.json"
printf '%s\n' '{"program":"zcc","event":"sent","time":1.0,"bytes":8,"method":"sendfile","interrupted":false,"kbytes_per_sec":1000,"own_us_per_kb":0}' \
	>"$TMP/zero.json"
zcc_ns zero.txt --baseline "$TMP/zero.json"
check "a baseline whose figure is 0: no ratio, ~ ($(grep '^sendfile ' "$TMP/zero.txt"))" \
	grep -Eq '^sendfile +[0-9]+ +[0-9.]+ +- +- +- +~$' "$TMP/zero.txt"
old_mtu=$(ip netns exec "$ns" cat /sys/class/net/lo/mtu)
ip -n "$ns" link set lo mtu 9000
zcc_ns mtu.txt --baseline "$TMP/base.json"
check "across the MTU change: exit 0" [ $? -eq 0 ]
check "the MTU change is named: mtu $old_mtu -> 9000" \
	grep -Eq "^changed: mtu $old_mtu -> 9000(;|\$)" "$TMP/mtu.txt"
check "above the verdict" \
	[ "$(grep -n '^changed:' "$TMP/mtu.txt" | cut -d: -f1)" -lt "$(grep -n '^baseline:sendfile ' "$TMP/mtu.txt" | cut -d: -f1)" ]
zcc_ns mtu.json -J --baseline "$TMP/base.json"
check "-J: the baseline_env event names mtu" \
	[ "$("$J" -E baseline_env -g changes "$TMP/mtu.json")" = "[{\"key\":\"mtu\",\"baseline\":$old_mtu,\"now\":9000}]" ]
grep '"against":"baseline:sendfile"' "$TMP/mtu.json" >"$TMP/mtu.row"
check "-J: this run's compare event with its keys" "$J" -E compare -k variant -k figure \
	-k rounds -k own_us_per_kb_median -k ratio_median -k ratio_lo -k ratio_hi \
	-k ratio_conf_pct -k verdict "$TMP/mtu.row"
check "-J: the last events are baseline_env, compare, compare" \
	[ "$("$J" -g event "$TMP/mtu.json" | tail -n 3 | tr '\n' ' ')" = "baseline_env compare compare " ]

# --- a veth pair, TSO toggled -----------------------------------------------------
nsb=zc-blb$$
remove_nsb() { ip netns delete "$nsb" 2>/dev/null; }
if ! ip netns add "$nsb" 2>/dev/null; then
	not_ok "cannot make a second namespace"
	finish
fi
on_cleanup remove_nsb
if ! { ip -n "$ns" link add v0 type veth peer name v1 netns "$nsb" &&
	ip -n "$ns" addr add 192.0.2.1/24 dev v0 && ip -n "$nsb" addr add 192.0.2.2/24 dev v1 &&
	ip -n "$ns" link set v0 up && ip -n "$nsb" link set v1 up; }; then
	not_ok "cannot set up the veth pair"
	finish
fi
ZCS_PREFIX="ip netns exec $nsb"
zcs_up veth
veth_run() {
	_o=$1
	shift
	timeout 60 ip netns exec "$ns" "$ZCC" -R 5 -s 192.0.2.2 -p "$ZCS_PORT" "$@" "$TMP/a" \
		>"$TMP/$_o" 2>"$TMP/$_o.err"
}
veth_run tso_on.json -J
check "veth baseline, TSO on: exit 0 $(cat "$TMP/tso_on.json.err")" [ $? -eq 0 ]
ip netns exec "$ns" "$ZC_TESTBIN/ifset" v0 tso off
veth_run tso_off.txt --baseline "$TMP/tso_on.json"
check "veth, TSO off: exit 0 $(cat "$TMP/tso_off.txt.err")" [ $? -eq 0 ]
check "the TSO change is named: tso on -> off" grep -Eq '^changed: tso on -> off(;|$)' "$TMP/tso_off.txt"
check "above the verdict" \
	[ "$(grep -n '^changed:' "$TMP/tso_off.txt" | cut -d: -f1)" -lt "$(grep -n '^baseline:sendfile ' "$TMP/tso_off.txt" | cut -d: -f1)" ]
finish
