#!/bin/sh
# make lint: cppcheck and clang-tidy over every C file of the tree (the
# programs, lib/ and tests/), the whole tree built once with clang and
# -Werror (where clang is installed; else a skip line), groff -ww and
# mandoc -T lint over the manual pages (man/); exits 1 if any of them
# finds anything.
#
# Needs the Debian packages cppcheck, clang-tidy, groff and mandoc. Suppressions are few
# and each is justified where it is made: the tree-wide ones below and in
# tests/cppcheck.supp, single lines in the code with
# "// cppcheck-suppress ID" or "// NOLINT(check)" and the reason beside it.

cd "$(dirname "$0")/.." || exit 1

missing=
for tool in cppcheck clang-tidy groff mandoc; do
	command -v "$tool" >/dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	echo "lint: not installed:$missing (Debian packages of the same names)" >&2
	exit 1
fi

set -- ./*.c lib/*/*.c tests/*/*.c
tmp=$(mktemp -d "${TMPDIR:-/tmp}/zc-lint.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

# The build's own view of the code: the Makefile's ZC_CFLAGS.
cflags="-std=gnu11 -D_GNU_SOURCE -Ilib -Itests"

# ---- cppcheck ----
# posix and gnu: what glibc's functions do (which return what, which never
# return); -D_GNU_SOURCE checks the one configuration the build uses.
cppcheck --quiet --error-exitcode=1 --inline-suppr \
	--enable=warning,style,performance,portability \
	--std=c11 --library=posix --library=gnu -D_GNU_SOURCE -Ilib -Itests \
	--suppressions-list=tests/cppcheck.supp \
	--template='{file}:{line}: cppcheck {severity}: {message} [{id}]' \
	"$@" 2>"$tmp/cppcheck" >/dev/null
cppcheck_rc=$?
cppcheck_n=$(grep -c ': cppcheck ' "$tmp/cppcheck")
cat "$tmp/cppcheck"
if [ "$cppcheck_rc" -ne 0 ] && [ "$cppcheck_n" -eq 0 ]; then
	echo "lint: cppcheck failed (status $cppcheck_rc)" >&2
	cppcheck_n=1
fi

# ---- clang-tidy ----
checks='-*'
checks="$checks,bugprone-*"
# Flags every function with two neighbouring parameters of one type, i.e.
# every (fd, len) and (host, port): a naming heuristic, not a bug finder.
checks="$checks,-bugprone-easily-swappable-parameters"
checks="$checks,clang-analyzer-*"
# Asks for the C11 Annex K functions (memcpy_s, snprintf_s...), which glibc
# does not have; the code passes explicit sizes to the standard ones.
checks="$checks,-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling"
checks="$checks,performance-*,portability-*"
# atoi/sscanf conversions that cannot report errors (all numbers go
# through lib/base/parse.h), and system() with its shell.
checks="$checks,cert-err34-c,cert-env33-c"

# One file per clang-tidy process: clang-tidy 14's valist checker carries
# state from one file to the next and then reports va_start'ed lists as
# uninitialised. Two at a time, each into its own file, printed in order.
i=0
for f; do
	i=$((i + 1))
	printf '%s %s\n' "$f" "$tmp/tidy.$(printf %03d $i)"
done | xargs -P "$(nproc 2>/dev/null || echo 2)" -L 1 sh -c '
	clang-tidy --quiet --checks="$0" --header-filter="(lib|tests)/.+\.h\$" \
		"$2" -- $1 >"$3.out" 2>"$3.err"
	echo $? >"$3.rc"' "$checks" "$cflags"
tidy_fail=0
for out in "$tmp"/tidy.*.out; do
	[ -f "$out" ] || continue
	cat "$out"
	base=${out%.out}
	# Diagnostics are on stdout; stderr has only the "N warnings
	# generated" tallies unless clang-tidy itself broke.
	grep -v -e 'warnings\? generated\.$' -e '^Suppressed [0-9]* warnings' \
		-e '^Use -header-filter' -e '^$' "$base.err"
	if [ "$(cat "$base.rc")" -ne 0 ]; then
		tidy_fail=$((tidy_fail + 1))
	fi
done
tidy_n=$(cat "$tmp"/tidy.*.out 2>/dev/null |
	grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error): ' | sort -u | wc -l)
if [ "$tidy_fail" -gt 0 ] && [ "$tidy_n" -eq 0 ]; then
	echo "lint: clang-tidy failed on $tidy_fail file(s)" >&2
	tidy_n=$tidy_fail
fi

# ---- clang ----
# The Makefile's own warnings (-Wall -Wextra) as errors, out of tree.
if command -v clang >/dev/null; then
	env -u MAKEFLAGS -u MAKELEVEL make -s -k -j"$(nproc 2>/dev/null || echo 2)" O="$tmp/clang" BIN="$tmp/clang/bin" \
		CC=clang CFLAGS="-O2 -Werror" all tests >"$tmp/clang.out" 2>&1
	clang_rc=$?
	clang_n=$(grep -c ': error: ' "$tmp/clang.out")
	cat "$tmp/clang.out"
	[ "$clang_rc" -ne 0 ] && [ "$clang_n" -eq 0 ] && clang_n=1
	clang_said="clang -Werror $clang_n finding(s);"
else
	echo "skip - clang -Werror: no clang (Debian package clang)"
	clang_n=0 clang_said="clang skipped;"
fi

# ---- the manual pages ----
# groff -ww: every warning; -z: no output but the warnings. mandoc -T lint
# reports style as well as errors; its every line is a finding.
pages=$(ls man/*.[1-9])
for page in $pages; do
	groff -ww -z -man "$page" 2>&1 | sed "s|^|$page: groff: |"
	mandoc -T lint "$page" 2>&1
done >"$tmp/man"
man_n=$(wc -l <"$tmp/man")
cat "$tmp/man"

echo "lint: cppcheck $cppcheck_n finding(s), clang-tidy $tidy_n finding(s) in $# files;" \
	"$clang_said groff and mandoc $man_n finding(s) in $(echo "$pages" | wc -w) manual pages"
[ "$cppcheck_n" -eq 0 ] && [ "$tidy_n" -eq 0 ] && [ "$clang_n" -eq 0 ] && [ "$man_n" -eq 0 ]
