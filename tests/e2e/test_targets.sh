#!/bin/sh
# make demo and make bench work on a fresh clone: each target builds every
# helper program its scripts run ("$ZC_TESTBIN/NAME" in the script, in the
# parts it runs and in tests/lib.sh and the harness parts it sources). `make -n -B`
# into an empty build directory says what a target would build.
. "$ZC_TOP/tests/lib.sh"
plain_only "the helpers make demo and make bench build"

command -v make >/dev/null 2>&1 || { skip "make is not installed"; finish; }

# tools_run FILE...: the helper programs these scripts run, one a line.
tools_run() {
	grep -ho '\$ZC_TESTBIN/[a-z_][a-z_0-9]*' "$@" | sed 's/.*\///' | sort -u
}

# tools_built TARGET: the helper programs `make TARGET` builds from nothing.
tools_built() {
	(cd "$ZC_TOP" && fresh_env make -n -B O="$TMP/o" BIN="$TMP/bin" "$1" 2>/dev/null) |
		grep -o -- "-o $TMP/o/tests/[a-z_0-9]*" | sed 's/.*\///' | sort -u
}

check_target() {
	_target=$1
	shift
	tools_run "$@" >"$TMP/run.$_target"
	tools_built "$_target" >"$TMP/built.$_target"
	check "make $_target: its scripts run some helper (the check sees them)" [ -s "$TMP/run.$_target" ]
	_missing=$(comm -23 "$TMP/run.$_target" "$TMP/built.$_target" | tr '\n' ' ')
	check "make $_target builds every helper its scripts run (missing: ${_missing:-none})" [ -z "$_missing" ]
	check "make $_target builds the four programs" \
		sh -c "cd '$ZC_TOP' && make -n -B O='$TMP/o' BIN='$TMP/bin' $_target 2>/dev/null | grep -q -- '-o $TMP/bin/zcs '"
}

# The harness's parts that tests/lib.sh sources (the tests' own, e2e.sh,
# it does not).
parts=
for p in $(sed -n 's/^for _part in \(.*\); do$/\1/p' "$ZC_TOP/tests/lib.sh"); do
	parts="$parts $ZC_TOP/tests/harness/$p.sh"
done
check "the parts tests/lib.sh sources are read ($parts)" [ -n "$parts" ]
# shellcheck disable=SC2086
check_target demo "$ZC_TOP/tests/demo.sh" "$ZC_TOP/tests/lib.sh" $parts
# shellcheck disable=SC2086
check_target bench "$ZC_TOP"/tests/bench/*.sh "$ZC_TOP/tests/lib.sh" $parts

# What `make install` needs: the programs only, nothing from the tests.
_extra=$( (cd "$ZC_TOP" && fresh_env make -n -B O="$TMP/o" BIN="$TMP/bin" install 2>/dev/null) |
	grep -c -- "-o $TMP/o/tests/")
check "make install builds no test helper (got $_extra)" [ "$_extra" -eq 0 ]

# A packager's CPPFLAGS (-D_FORTIFY_SOURCE) reach every compile, and the
# caller's CFLAGS the shims too (their -fsanitize= left out).
(cd "$ZC_TOP" && fresh_env make -n -B O="$TMP/o" BIN="$TMP/bin" CPPFLAGS=-DZC_PACKAGER \
	CFLAGS="-O1 -DZC_CALLER -fsanitize=address" tests 2>/dev/null) >"$TMP/flags"
grep -- ' -c ' "$TMP/flags" >"$TMP/compiles"
_c=$(grep -vc -- '-DZC_PACKAGER' "$TMP/compiles")
check "make CPPFLAGS=...: every compile has them ($_c of $(grep -c '' "$TMP/compiles") without)" \
	eval '[ "$_c" -eq 0 ] && [ -s "$TMP/compiles" ]'
grep -- '-shared' "$TMP/flags" >"$TMP/shims"
check "make CFLAGS=...: the shims get them, less -fsanitize= ($(head -n 1 "$TMP/shims"))" \
	eval '[ -s "$TMP/shims" ] && ! grep -v -- "-DZC_PACKAGER .*-DZC_CALLER" "$TMP/shims" | grep -q . &&
	! grep -q -- -fsanitize "$TMP/shims"'

finish
