#!/bin/sh
# tests/tools/jsoncheck: the strict JSON Lines checker every -J test relies on.
# What it must accept, what it must reject (each with its line and column),
# and its -k, -E and -g for the scripts.
. "$ZC_TOP/tests/lib.sh"
# Each run of the checker reads one small file and exits, which frees what
# it holds: no leak check in the sanitizer pass (it would triple the
# test's time). The -J tests run it on the programs' output with it on.
no_leak_check "each run reads one small file and exits"

J=$ZC_TESTBIN/jsoncheck

# accepts WHAT TEXT: printf-style TEXT (one or more lines) is valid.
accepts() {
	printf "$2" >"$TMP/in"
	"$J" "$TMP/in" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	check "accepts $1 ($_rc: $(cat "$TMP/err"))" [ "$_rc" -eq 0 ]
}

# rejects WHAT TEXT [LINE:COLUMN]: exit 1 and one line naming where.
rejects() {
	printf "$2" >"$TMP/in"
	"$J" "$TMP/in" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	_where=${3:-1:}
	if [ "$_rc" -eq 1 ] && [ "$(grep -c '' "$TMP/err")" -eq 1 ] &&
	    grep -q "^jsoncheck: $TMP/in:$_where" "$TMP/err"; then
		ok "rejects $1: $(sed "s|$TMP/||" "$TMP/err")"
	else
		not_ok "rejects $1: exit $_rc, want 1 at $_where: $(cat "$TMP/err")"
	fi
}

accepts "an empty input" ''
accepts "an empty object" '{}\n'
accepts "a -J line" '{"program":"zcc","event":"sent","time":1700000000.123456,"bytes":1048576,"seconds":1.000,"kbytes_per_sec":1024.0,"method":"sendfile","interrupted":false}\n'
accepts "every kind of value, nested" '{"a":[1,-0,0.5,-1.25e-3,2E+10,3e0],"b":{"c":[true,false,null,[]],"d":{}},"s":""}\n'
accepts "white space around tokens" ' { "a" : [ 1 , 2 ] ,\t"b" : "x" } \r\n'
accepts "every escape" '{"e":"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0041 \\u00e9 \\ud83d\\ude00"}\n'
accepts "UTF-8 text" '{"s":"caf\303\251 \342\202\254 \360\237\230\200"}\n'
accepts "empty lines between objects" '{"a":1}\n\n{"a":2}\n'
accepts "a last line without its newline" '{"a":1}\n{"a":2}'
accepts "the same key in two objects" '{"a":{"x":1},"b":{"x":2}}\n'
accepts "keys that differ only in case" '{"a":1,"A":2}\n'

rejects "a trailing comma in an object" '{"a":1,}\n' 1:8
rejects "a trailing comma in an array" '{"a":[1,2,]}\n' 1:11
rejects "NaN" '{"a":NaN}\n' 1:6
rejects "Infinity" '{"a":Infinity}\n' 1:6
rejects "-Infinity" '{"a":-Infinity}\n' 1:7
rejects "a leading zero" '{"a":012}\n' 1:7
rejects "a leading plus" '{"a":+1}\n' 1:6
rejects "a bare point" '{"a":.5}\n' 1:6
rejects "a point without digits after it" '{"a":1.}\n' 1:8
rejects "an exponent without digits" '{"a":1e}\n' 1:8
rejects "hexadecimal" '{"a":0x10}\n' 1:7
rejects "an invalid escape" '{"a":"\\x41"}\n' 1:8
rejects "a short \\u escape" '{"a":"\\u12"}\n' 1:11
rejects "a lone high surrogate" '{"a":"\\ud83d"}\n' 1:13
rejects "a lone low surrogate" '{"a":"\\ude00"}\n' 1:13
rejects "a raw tab in a string" '{"a":"x\ty"}\n' 1:8
rejects "a NUL byte in a string" '{"a":"x\000y"}\n' 1:8
rejects "invalid UTF-8 (a lone continuation byte)" '{"a":"\200"}\n' 1:7
rejects "invalid UTF-8 (an overlong /)" '{"a":"\300\257"}\n' 1:7
rejects "invalid UTF-8 (a surrogate encoded)" '{"a":"\355\240\200"}\n' 1:7
rejects "invalid UTF-8 (cut short)" '{"a":"\303"}\n' 1:7
rejects "a duplicate key" '{"a":1,"b":2,"a":3}\n' 1:14
rejects "a duplicate key, one escaped" '{"a":1,"\\u0061":2}\n' 1:8
rejects "a duplicate key in a nested object" '{"o":{"x":1,"x":2}}\n' 1:13
rejects "text after the object" '{"a":1} x\n' 1:9
rejects "two objects on one line" '{"a":1}{"a":2}\n' 1:8
rejects "an array at the top" '[1,2]\n' 1:1
rejects "a number at the top" '42\n' 1:1
rejects "a line of white space" '{"a":1}\n \n' 2:2
rejects "single quotes" "{'a':1}\n" 1:2
rejects "a key without quotes" '{a:1}\n' 1:2
rejects "a missing colon" '{"a" 1}\n' 1:6
rejects "a missing comma" '{"a":1 "b":2}\n' 1:8
rejects "an unterminated string" '{"a":"xyz}\n' 1:11
rejects "an unclosed object" '{"a":1\n' 1:7
rejects "True" '{"a":True}\n' 1:6
rejects "a truncated literal" '{"a":nul}\n' 1:6
rejects "a comment" '{"a":1} // c\n' 1:9
rejects "the bad line among good ones, by its number" '{"a":1}\n{"a":2}\n{"a":3,}\n{"a":4}\n' 3:8

# 200 levels of arrays: refused as too deep, not a crash.
deep=$(awk 'BEGIN { for (i = 0; i < 200; i++) printf "["; for (i = 0; i < 200; i++) printf "]" }')
rejects "nesting 200 deep" "{\"a\":$deep}\n" 1:

# -k, -E, -g.
cat >"$TMP/lines" <<'EOF'
{"program":"zcc","event":"sent","time":1.5,"bytes":100,"method":"send\tfile"}
{"program":"zcc","event":"cpu","time":1.6,"load_pct":null}
{"program":"zcc","event":"sent","time":1.7,"bytes":200,"method":"mmap"}
EOF
"$J" -k program -k event -k time <"$TMP/lines" >"$TMP/out" 2>"$TMP/err"
check "-k: every line has the keys ($(cat "$TMP/err"))" [ $? -eq 0 ]
"$J" -k program -k bytes <"$TMP/lines" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "-k bytes: the cpu line lacks it, exit 1 naming line 2 ($rc: $(cat "$TMP/err"))" \
	[ "$rc" -eq 1 ] && grep -q '^jsoncheck: stdin:2:.*no key "bytes"' "$TMP/err"
"$J" -E sent -k bytes -g bytes <"$TMP/lines" >"$TMP/out" 2>"$TMP/err"
check "-E sent -g bytes: one value per sent line ($(tr '\n' ' ' <"$TMP/out"))" \
	[ "$(tr '\n' ' ' <"$TMP/out")" = "100 200 " ]
"$J" -g method -E sent <"$TMP/lines" >"$TMP/out" 2>&1
check "-g: a string decoded (a tab, not backslash t)" \
	[ "$(head -1 "$TMP/out")" = "$(printf 'send\tfile')" ]
"$J" -E cpu -g load_pct <"$TMP/lines" >"$TMP/out" 2>&1
check "-g: null as written" [ "$(cat "$TMP/out")" = null ]
"$J" -g bytes <"$TMP/lines" >"$TMP/out" 2>"$TMP/err"
check "-g KEY on a kept line without it: exit 1" [ $? -eq 1 ]
printf '{"event":"sent"}\n{"event":"sent",}\n' | "$J" -E cpu >/dev/null 2>&1
check "a line -E leaves out is still checked" [ $? -eq 1 ]

# -s: a line as shell assignments, nested values by their path.
printf '%s\n' '{"event":"load","load_pct":-1.5,"class_pct":{"user":2,"system":0.5},"kernel_pct":null,' \
	'"cpus":[{"cpu":3,"ok":true},{"cpu":5,"ok":false}],"why":"it'"'"'s $HOME\n`x`","a-b":[],"e":{}}' |
	tr -d '\n' >"$TMP/s"
echo >>"$TMP/s"
"$J" -s x_ "$TMP/s" >"$TMP/out" 2>"$TMP/err"
check "-s: one line of assignments for the line ($?: $(cat "$TMP/err"))" [ "$(grep -c '' "$TMP/out")" -eq 1 ]
eval "$(cat "$TMP/out")"
check "-s: numbers, null, true and false as written ($x_load_pct $x_kernel_pct $x_cpus_0_ok $x_cpus_1_ok)" \
	[ "$x_load_pct $x_kernel_pct $x_cpus_0_ok $x_cpus_1_ok" = "-1.5 null true false" ]
check "-s: an object's values by key, an array's by index ($x_class_pct_user $x_class_pct_system $x_cpus_0_cpu $x_cpus_1_cpu)" \
	[ "$x_class_pct_user $x_class_pct_system $x_cpus_0_cpu $x_cpus_1_cpu" = "2 0.5 3 5" ]
check "-s: a string decoded, quoted, nothing in it run (a newline as a space: $x_why)" \
	[ "$x_why" = "it's \$HOME \`x\`" ]
check "-s: an empty array or object sets nothing" sh -c "! grep -q 'x_a_b\|x_e=' '$TMP/out'"
"$J" -E sent -s y_ <"$TMP/lines" >"$TMP/out" 2>&1
check "-s with -E: a line per kept line, the last one's bytes 200" \
	sh -c "[ \$(grep -c '' '$TMP/out') -eq 2 ] && eval \"\$(tail -n 1 '$TMP/out')\" && [ \"\$y_bytes\" = 200 ]"
for bad in "-s a-b" "-s ''" "-s x_ -g bytes"; do
	eval "\"\$J\" $bad" </dev/null >/dev/null 2>&1
	check "jsoncheck $bad: a usage error" [ $? -eq 2 ]
done

"$J" -x </dev/null >/dev/null 2>&1
check "an unknown option: exit 2" [ $? -eq 2 ]
"$J" "$TMP/no such file" >/dev/null 2>&1
check "a file that cannot be read: exit 2" [ $? -eq 2 ]
"$J" -h >"$TMP/out" 2>&1
check "-h: usage with the exit statuses, exit 0" grep -q 'exit status' "$TMP/out"

finish
