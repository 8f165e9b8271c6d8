#!/bin/sh
# zcc --baseline compares like with like: the run's own settings (the
# settings event after env) are compared as the environment's keys are,
# a key neither run could read is said to be unknown in both, -P records
# the interface, a file of two runs or of a run cut short is refused,
# --baseline - reads standard input, and the verdict is the comparison
# table's.
. "$ZC_TOP/tests/lib.sh"

ZCC=$ZC_BIN/zcc
J=$ZC_TESTBIN/jsoncheck
head -c 300000 /dev/urandom >"$TMP/a"
head -c 100000 /dev/urandom >"$TMP/b"
zcs_up zcs

# run OUT ARGS...: zcc to zcs on loopback, stdout in $TMP/OUT.
run() {
	_o=$1
	shift
	timeout 60 "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" "$@" >"$TMP/$_o" 2>"$TMP/$_o.err"
}
# changed OUT: OUT's changed: line.
changed() { grep '^changed:' "$TMP/$1"; }

# --- the settings record --------------------------------------------------------
run send256.json -J -R 3 -M send -b 256 "$TMP/a"
check "a -J run: exit 0 $(cat "$TMP/send256.json.err")" [ $? -eq 0 ]
check "the settings event follows env" \
	[ "$("$J" -g event "$TMP/send256.json" | head -n 2 | tr '\n' ' ')" = "env settings " ]
check "the settings event has its keys" "$J" -E settings -k methods -k chunk_bytes \
	-k streams -k rate_bits_per_sec -k loops -k time_ms -k files -k file_bytes -k runs \
	"$TMP/send256.json"
check "settings: its figures are numbers ($("$J" -E settings -s s_ "$TMP/send256.json"))" \
	[ "$("$J" -E settings -s s_ "$TMP/send256.json" | sed 's/^.*s_time=[0-9.]* //')" = \
	"s_methods='send' s_chunk_bytes='256' s_streams=1 s_rate_bits_per_sec=0 s_loops=1 s_time_ms=0 s_files=1 s_file_bytes=300000 s_runs=3" ]

# --- a setting that differs is named ---------------------------------------------
run send64k.txt -R 3 -M send --baseline "$TMP/send256.json" "$TMP/a"
check "-b 256 against 64K: exit 0 $(cat "$TMP/send64k.txt.err")" [ $? -eq 0 ]
check "-b 256 against 64K: chunk_bytes named ($(changed send64k.txt))" \
	grep -q '^changed: chunk_bytes 256 -> 65536[;]*' "$TMP/send64k.txt"
run send.json -J -R 3 -M send "$TMP/a"
run rate.txt -R 3 -M send --rate 100M --baseline "$TMP/send.json" "$TMP/a"
check "--rate against none: named ($(changed rate.txt))" \
	grep -q '^changed: rate_bits_per_sec 0 -> 100000000[;]*' "$TMP/rate.txt"
run p2.txt -R 3 -M send -P 2 --baseline "$TMP/send.json" "$TMP/a"
check "-P 2 against one stream: named ($(changed p2.txt))" \
	grep -q '^changed: streams 1 -> 2[;]*' "$TMP/p2.txt"
run t.txt -R 3 -M send -t 0.2 --baseline "$TMP/send.json" "$TMP/a"
check "-t against -n: named ($(changed t.txt))" \
	grep -q '^changed: loops 1 -> 0, time_ms 0 -> 200[;]*' "$TMP/t.txt"
run files.txt -R 3 -M send --baseline "$TMP/send.json" "$TMP/a" "$TMP/b"
check "another file set: named ($(changed files.txt))" \
	grep -q '^changed: files 1 -> 2, file_bytes 300000 -> 400000[;]*' "$TMP/files.txt"
run runs.txt -R 4 -M send --baseline "$TMP/send.json" "$TMP/a"
check "another -R is no change ($(changed runs.txt))" \
	sh -c "! grep -Eq 'runs [0-9]+ -> ' '$TMP/runs.txt'"

# --- unknown against unknown is said -------------------------------------------
# The keys this machine cannot read (null in this run's env) are unknown
# in both: said so, never "nothing".
run same.json -J -R 3 -M send --baseline "$TMP/send.json" "$TMP/a"
nulls=$(tr ',' '\n' <"$TMP/send.json" | sed -n '1,/"event":"settings"/s/^"\([a-z_]*\)":null.*/\1/p' | tr '\n' ' ')
both=$("$J" -E baseline_env -g unknown_in_both "$TMP/same.json")
# Neither run asked for the receiver's report: its record's keys are unknown too.
nulls="${nulls}rx_method rx_read_bytes "
want=$(printf '%s' "$nulls" | sed 's/ $//; s/\([a-z_]*\)/"\1"/g; s/ /,/g')
check "unknown_in_both holds the keys null in both ($both, want [$want])" [ "$both" = "[$want]" ]
check "baseline_env: no change" [ "$("$J" -E baseline_env -g changes "$TMP/same.json")" = "[]" ]
run same.txt -R 3 -M send --baseline "$TMP/send.json" "$TMP/a"
if [ -n "$nulls" ]; then
	check "text: nothing known, then the unknown keys ($(changed same.txt))" \
		grep -q "^changed: nothing known; unknown in both runs: $(printf '%s' "$nulls" | sed 's/ $//; s/ /, /g')\$" \
		"$TMP/same.txt"
else
	check "text: nothing changed ($(changed same.txt))" \
		grep -q '^changed: nothing in the environment record or the settings$' "$TMP/same.txt"
fi
# A baseline whose env and settings keys are all null: each is unknown in
# both where this run cannot read it either, and a change where it can.
sed 's/"\(interface\|mtu\|tso\)":[^,]*/"\1":null/g; s/"chunk_bytes":"[0-9]*"/"chunk_bytes":null/' \
	"$TMP/send.json" >"$TMP/nulled.json"
run nulled.txt -R 3 -M send --baseline "$TMP/nulled.json" "$TMP/a"
check "a null against a value is a change ($(changed nulled.txt))" \
	grep -q '^changed: interface unknown -> lo, mtu unknown -> [0-9]*, tso unknown -> o[nf]*, chunk_bytes unknown -> 65536' \
	"$TMP/nulled.txt"
# An earlier zcc's file: no settings event.
grep -v '"event":"settings"' "$TMP/send.json" >"$TMP/old.json"
run old.txt -R 3 -M send --baseline "$TMP/old.json" "$TMP/a"
check "no settings record: said ($(changed old.txt))" \
	grep -q '; unknown: the baseline has no settings record$' "$TMP/old.txt"

# --- -P records the interface ---------------------------------------------------
run p2.json -J -P 2 -M send "$TMP/a"
check "-P 2: the interface is recorded" [ "$("$J" -E env -g interface "$TMP/p2.json")" = lo ]
check "-P 2: its mtu too" sh -c "'$J' -E env -g mtu '$TMP/p2.json' | grep -Eq '^[0-9]+\$'"

# --- the changes' values are typed as env's -----------------------------------------
sed 's/"mtu":[0-9]*/"mtu":1500/; s/"tso":[a-z]*/"tso":false/' "$TMP/send.json" >"$TMP/mtu.json"
run mtu.json.out -J -R 3 -M send --baseline "$TMP/mtu.json" "$TMP/a"
changes=$("$J" -E baseline_env -g changes "$TMP/mtu.json.out")
mtu=$("$J" -E env -g mtu "$TMP/mtu.json.out")
check "changes: numbers and booleans as env holds them ($changes)" \
	[ "$changes" = "[{\"key\":\"mtu\",\"baseline\":1500,\"now\":$mtu},{\"key\":\"tso\",\"baseline\":false,\"now\":true}]" ]

# --- the verdict is the comparison table's -------------------------------------------
check "the table: its title names the baseline and how" \
	grep -q "^compare: 3 rounds, each variant against baseline:send on zcc's own CPU time (us/KB), unpaired: this run's 3 rounds against the baseline's 3, every pair's ratio\$" \
	"$TMP/same.txt"
check "the table: the baseline's row is the reference" \
	grep -Eq '^baseline:send +[0-9]+ +[0-9.]+ +1 +- +- +\(reference\)$' "$TMP/same.txt"
check "the table: this run's row, unpaired (agree -)" \
	grep -Eq '^send +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+\.\.[0-9.]+ +- +(cheaper|dearer|~)$' "$TMP/same.txt"
check "-J: the rows are compare events against the baseline" \
	[ "$(grep -c '"event":"compare",.*"against":"baseline:send"' "$TMP/same.json")" -eq 1 ]

# --- files that are not one whole run ---------------------------------------------
refused() {
	_w=$1
	shift
	usage_refused "$_w" "$ZCC" -s 127.0.0.1 -p 1 -R 3 -M send "$@" "$TMP/a"
	check "$_w: says why" grep -q -- "$WHY" "$TMP/err"
}
cat "$TMP/send.json" "$TMP/send256.json" >"$TMP/two.json"
second=$(grep -n '"event":"env"' "$TMP/two.json" | sed -n '2s/:.*//p')
WHY="holds 2 runs, the first from line 1 (at .* UTC), the second from line $second (at .* UTC)" \
	refused "two runs in one file" --baseline "$TMP/two.json"
grep -v '"event":"summary"' "$TMP/send.json" | head -n 4 >"$TMP/cut.json"
WHY="cut short: 2 whole runs of 3 and no summary line" \
	refused "a run cut after 2 of 3 runs" --baseline "$TMP/cut.json"
head -n 3 "$TMP/send.json" >"$TMP/cut1.json"
WHY="cut short: 1 whole run of 3" refused "a run cut after 1 of 3 runs" --baseline "$TMP/cut1.json"
run v.json -J -R 2 -M send,sendfile "$TMP/a"
grep -v '"event":"compare"' "$TMP/v.json" >"$TMP/vcut.json"
usage_refused "rounds without their table" "$ZCC" -s 127.0.0.1 -p 1 -R 2 -M send,sendfile \
	--baseline "$TMP/vcut.json" "$TMP/a"
check "rounds without their table: says why" grep -q "cut short: its rounds have no table" "$TMP/err"
usage_refused "--baseline - with --files-from -" "$ZCC" -s 127.0.0.1 -p 1 --baseline - \
	--files-from -

# --- --baseline - ---------------------------------------------------------------------
timeout 60 "$ZCC" -s 127.0.0.1 -p "$ZCS_PORT" -R 3 -M send --baseline - "$TMP/a" \
	<"$TMP/send.json" >"$TMP/stdin.txt" 2>"$TMP/stdin.err"
check "--baseline -: reads standard input, exit 0 $(cat "$TMP/stdin.err")" [ $? -eq 0 ]
check "--baseline -: its table" grep -q '^baseline:send ' "$TMP/stdin.txt"
finish
