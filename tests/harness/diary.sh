# Sourced by tests/e2e/test_nodiary.sh: what a diary looks like in a
# comment or a manual page. A comment or a manual states the rule and the
# mechanism; a measured run (the machine it ran on, a figure set against
# another, a slow-down, the rounds counted, a was/now, a commit id) goes
# in a commit message or README.zc's Results, where it can be dated.

# diary_text FILE: the text of FILE that states rules to a reader, as
# "FILE:LINE: text": a C file's comments, a shell script's comment lines,
# a manual page less its .TH line and roff comments, and README.zc down to
# its Results section (where measured runs belong).
diary_text() {
	case $1 in
	*.c | *.h)
		awk -v f="$1" '
		{
			line = $0; out = ""
			while (line != "") {
				if (inc) {
					e = index(line, "*/")
					if (!e) { out = out " " line; line = ""; break }
					out = out " " substr(line, 1, e - 1); line = substr(line, e + 2); inc = 0
				} else {
					s = index(line, "/*"); d = index(line, "//")
					if (d && (!s || d < s)) { out = out " " substr(line, d + 2); line = ""; break }
					if (!s) break
					line = substr(line, s + 2); inc = 1
				}
			}
			if (out ~ /[^[:space:]*]/) print f ":" NR ":" out
		}' "$1" ;;
	*.sh | Makefile | */run | *.bash)
		grep -n '^[[:space:]]*#' "$1" | sed "s#^#$1:#" ;;
	man/*)
		grep -nv '^\.\(TH\|\\"\)' "$1" | sed "s#^#$1:#" ;;
	README.zc)
		awk -v f="$1" 'NR > 1 && $0 ~ /^[=-]+$/ && prev == "Results" { exit }
			{ if (NR > 1) print f ":" NR - 1 ":" prev; prev = $0 }' "$1" ;;
	esac
}

# The marks of a diary: a machine the figure was taken on, a figure set
# against another, a speed or a slow-down measured, rounds counted, a
# was/now, a commit id (seven to twelve hex digits, letters and digits
# both, not a 0x constant).
DIARY_RE="AMD EPYC|Xeon|KVM guest|this project'?s( (VM|machine|guest)|[[:space:]]*$)|[0-9]\\.[0-9]+ ?(us|ns|ms|%|us/KB|GB/s|MB/s)? against [0-9]|[0-9](\\.[0-9]+)?% (slower|faster)|[0-9]\\.[0-9]+ ?(GB|MB|kB|Gbit|Mbit)/s|[0-9]+ (paired )?rounds (of|on|each)[[:space:]]|as before|was [^.;]{1,40}, now "
DIARY_HEX='(^|[^0-9A-Za-z_x])([0-9a-f]*[0-9][0-9a-f]*[a-f][0-9a-f]*|[0-9a-f]*[a-f][0-9a-f]*[0-9][0-9a-f]*)([^0-9A-Za-z_]|$)'

# diary_find FILE...: every line of their rule text that reads as a
# diary, as "FILE:LINE: text".
diary_find() {
	for _f; do
		diary_text "$_f"
	done | awk -v re="$DIARY_RE" -v hex="$DIARY_HEX" '
	{
		t = $0; sub(/^[^:]*:[0-9]+:/, "", t)
		if (tolower(t) ~ tolower(re)) { print; next }
		while (match(t, hex)) {
			w = substr(t, RSTART, RLENGTH); gsub(/[^0-9a-f]/, "", w)
			if (length(w) >= 7 && length(w) <= 12) { print; next }
			t = substr(t, RSTART + RLENGTH - 1)
		}
	}'
}
