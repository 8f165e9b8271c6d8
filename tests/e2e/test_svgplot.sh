#!/bin/sh
# svgplot: the benchmark's own SVG writer. A small CSV gives well-formed SVG
# with one marked point per data line; bad data exits 1, bad usage exits 2,
# and a failed run leaves no half-written output behind.
. "$ZC_TOP/tests/lib.sh"

plot=$ZC_TESTBIN/svgplot
[ -x "$plot" ] || { not_ok "svgplot built in $ZC_TESTBIN"; finish; }

cat >"$TMP/sweep.csv" <<EOF
# a comment, then a header, then five points
chunk_bytes,us_per_kb
256,2.5
1024,0.9

4096,0.45
16384,0.38
65536,0.36
EOF

"$plot" -l -t 'chunk <cost> & "size"' -o "$TMP/sweep.svg" "$TMP/sweep.csv" 2>"$TMP/err"
rc=$?
check "valid CSV: exit 0 (got $rc), nothing on stderr" sh -c "[ $rc -eq 0 ] && [ ! -s '$TMP/err' ]"
check "SVG written" [ -s "$TMP/sweep.svg" ]
check "starts with the XML declaration" \
	sh -c "head -n 1 '$TMP/sweep.svg' | grep -q '^<?xml version=\"1.0\"'"
check "one <svg> root, closed at the end" \
	sh -c "[ \$(grep -c '<svg ' '$TMP/sweep.svg') -eq 1 ] && tail -n 1 '$TMP/sweep.svg' | grep -qx '</svg>'"
n=$(grep -c '<circle ' "$TMP/sweep.svg")
check "five points drawn (got $n)" [ "$n" -eq 5 ]
pairs=$(sed -n 's/.*<polyline[^>]* points="\([^"]*\)".*/\1/p' "$TMP/sweep.svg" | tr ' ' '\n' | grep -c '^[0-9.]*,[0-9.]*$')
check "one curve through the five points (got $pairs)" [ "$pairs" -eq 5 ]
check "title escaped, not raw" \
	grep -q 'chunk &lt;cost&gt; &amp; &quot;size&quot;' "$TMP/sweep.svg"
check "header names become axis labels" \
	sh -c "grep -q '>chunk_bytes</text>' '$TMP/sweep.svg' && grep -q '>us_per_kb</text>' '$TMP/sweep.svg'"
check "log axis labels sizes as 256, 1K, 64K" \
	sh -c "grep -q '>256</text>' '$TMP/sweep.svg' && grep -q '>1K</text>' '$TMP/sweep.svg' && grep -q '>64K</text>' '$TMP/sweep.svg'"
# Every coordinate inside the canvas: a scaling slip would throw points out.
check "every point inside the 720x440 canvas" \
	awk -F'"' '/<circle / { if ($2 < 0 || $2 > 720 || $4 < 0 || $4 > 440) bad = 1 } END { exit bad }' "$TMP/sweep.svg"
# The smallest chunk costs the most: its point must be the highest (least y).
check "highest cost drawn highest" \
	awk -F'"' '/<circle / { n++; if (n == 1) first = $4; else if ($4 <= first) bad = 1 } END { exit bad }' "$TMP/sweep.svg"
if command -v xmllint >/dev/null 2>&1; then
	check "xmllint: well-formed" xmllint --noout "$TMP/sweep.svg"
else
	skip "xmllint not installed: well-formedness checked by the lines above only"
fi

# stdin to stdout, linear axis, negative values allowed (loads can be).
printf '1,-0.5\n2,3\n3,1e1\n' | "$plot" >"$TMP/lin.svg" 2>"$TMP/err"
rc=$?
check "stdin to stdout, linear axis: exit 0 (got $rc)" [ "$rc" -eq 0 ]
n=$(grep -c '<circle ' "$TMP/lin.svg")
check "three points from stdin (got $n)" [ "$n" -eq 3 ]

# refuses: runs STATUS PATTERN what: svgplot with stdin from $TMP/in must
# exit STATUS, say PATTERN on stderr, and write no output file.
refuses() {
	_status=$1 _pattern=$2 _what=$3
	shift 3
	rm -f "$TMP/out.svg"
	"$plot" -o "$TMP/out.svg" "$@" <"$TMP/in" >/dev/null 2>"$TMP/err"
	_rc=$?
	if [ "$_rc" -eq "$_status" ] && grep -q "$_pattern" "$TMP/err" && [ "$(wc -l <"$TMP/err")" -ge 1 ] &&
		[ ! -e "$TMP/out.svg" ] && [ -z "$(ls "$TMP" | grep 'out.svg.tmp')" ]; then
		ok "refuses $_what: exit $_status"
	else
		not_ok "refuses $_what: want exit $_status and '$_pattern', got $_rc: $(head -n 1 "$TMP/err")"
	fi
}

printf '1,2\nabc,3\n' >"$TMP/in";   refuses 1 'stdin:2: not a number' "a word after the first line"
printf '1,2\n3,4x\n' >"$TMP/in";    refuses 1 'stdin:2: not a number' "trailing garbage"
printf '1,2,3\n' >"$TMP/in";        refuses 1 'stdin:1: want two fields' "three fields"
printf '1\n' >"$TMP/in";            refuses 1 'stdin:1: want two fields' "one field"
printf '1,nan\n' >"$TMP/in";        refuses 1 'not a number' "NaN"
printf '1,1e999\n' >"$TMP/in";      refuses 1 'not a number' "an overflowing value"
printf '# only\nx,y\n' >"$TMP/in";  refuses 1 'no data points' "a file with no points"
: >"$TMP/in";                       refuses 1 'no data points' "empty input"
printf '0,1\n' >"$TMP/in";          refuses 1 'log axis' "x of 0 on a log axis" -l
printf '1,2\n' >"$TMP/in";          refuses 1 'open' "a missing input file" "$TMP/nonexistent.csv"
printf '1,2\n' >"$TMP/in";          refuses 2 'invalid option' "an unknown option" -q
printf '1,2\n' >"$TMP/in";          refuses 2 'one input file at most' "two input files" a.csv b.csv

# An unwritable destination: exit 1, and the message names it.
printf '1,2\n' | "$plot" -o "$TMP/no/such/dir/x.svg" >/dev/null 2>"$TMP/err"
rc=$?
check "unwritable output: exit 1 naming the file (got $rc)" \
	sh -c "[ $rc -eq 1 ] && grep -q 'no/such/dir' '$TMP/err'"

"$plot" -h >"$TMP/help" 2>/dev/null
rc=$?
check "-h: usage on stdout, exit 0 (got $rc)" sh -c "[ $rc -eq 0 ] && grep -q '^usage: svgplot' '$TMP/help'"

# Several series: the header names them, an empty field is a missing point,
# each series gets its own curve and the legend names it.
printf 'chunk,ours,2001\n256,3.1,1.83\n512,2.0,\n8192,1,1\n65536,1.2,1.27\n' >"$TMP/multi.csv"
"$plot" -l -o "$TMP/multi.svg" "$TMP/multi.csv" 2>"$TMP/err"
rc=$?
check "two series: exit 0 (got $rc)" [ "$rc" -eq 0 ]
n=$(grep -c '<circle ' "$TMP/multi.svg")
check "two series: 7 points, the empty field skipped (got $n)" [ "$n" -eq 7 ]
n=$(grep -c '<polyline ' "$TMP/multi.svg")
check "two series: two curves (got $n)" [ "$n" -eq 2 ]
check "the legend names both series" \
	sh -c "grep -q '>ours</text>' '$TMP/multi.svg' && grep -q '>2001</text>' '$TMP/multi.svg'"
printf 'chunk,ours,2001\n256,3.1\n' >"$TMP/in"
refuses 1 'stdin:2: want 3 fields' "a line shorter than the header"

# A scatter with the ideal line: no curve, a dashed y = x.
printf 'truth,-r,default\n0.5,0.9,\n25,,26.1\n50,49,\n' | "$plot" -p -i >"$TMP/acc.svg" 2>"$TMP/err"
rc=$?
check "scatter with the ideal line: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "-p: no curve" sh -c "! grep -q '<polyline' '$TMP/acc.svg'"
check "-i: the ideal line" grep -q '<line class="ideal"' "$TMP/acc.svg"
n=$(grep -c '<circle ' "$TMP/acc.svg")
check "scatter: 3 points (got $n)" [ "$n" -eq 3 ]

# Grouped bars with error bars.
printf 'method,rate,us_per_kb,lo,hi\nsendfile,100mbit,0.9,0.5,1.2\nsend,100mbit,1.3,1,1.6\nsendfile,4gbit,0.2,0.15,0.25\nsend,4gbit,0.6,0.55,0.65\n' |
	"$plot" -G -t bars >"$TMP/bars.svg" 2>"$TMP/err"
rc=$?
check "bars: exit 0 (got $rc)" [ "$rc" -eq 0 ]
n=$(sed -n '/<g class="bars">/,/<\/g>/p' "$TMP/bars.svg" | grep -c '<rect ')
check "bars: four bars (got $n)" [ "$n" -eq 4 ]
n=$(grep -c '<path class="err"' "$TMP/bars.svg")
check "bars: four error bars (got $n)" [ "$n" -eq 4 ]
check "bars: the value and its interval in the title" grep -q '<title>send, 4gbit: 0.6 (0.55 to 0.65)</title>' "$TMP/bars.svg"
check "bars: groups along x, axis named by the header" \
	sh -c "grep -q '>sendfile</text>' '$TMP/bars.svg' && grep -q '>us_per_kb</text>' '$TMP/bars.svg'"
if command -v xmllint >/dev/null 2>&1; then
	check "xmllint: series, scatter and bars well-formed" \
		xmllint --noout "$TMP/multi.svg" "$TMP/acc.svg" "$TMP/bars.svg"
fi
printf 'g,s,v\na,b,x\n' >"$TMP/in"; refuses 1 'stdin:2: not a number' "a bar's value that is no number" -G
printf 'a,b,1,2\n' >"$TMP/in";       refuses 1 'want "group,series,value' "a bar of four fields" -G
printf 'a,b,1\n' >"$TMP/in";         refuses 2 'for curves' "-G with -l" -G -l

finish
