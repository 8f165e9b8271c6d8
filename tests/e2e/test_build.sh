#!/bin/sh
# The build as a distribution's packager runs it, in a copy of the tracked
# files (what a fresh clone holds): from a read-only tree as a user other
# than root, out of tree (make O=... BIN=...) builds and links, creating
# BIN; in place, it stops at once with one line naming O= and BIN=, having
# compiled nothing. gcc is the compiler unless CC says otherwise, and the
# flags are recorded: new CFLAGS rebuild, the same ones rebuild nothing.
. "$ZC_TOP/tests/lib.sh"
plain_only "the build from a read-only tree"

if ! copy_tracked "$TMP/src"; then
	skip "the build from a copy: not a git checkout here"
	finish
fi
src=$TMP/src
# build ARGS...: make in the copy, as a user's shell would (no CC, CFLAGS
# from run.sh's environment), into $TMP/out and $TMP/err; its status.
build() {
	(cd "$src" && fresh_env -u CC -u CFLAGS -u CPPFLAGS -u LDFLAGS make -j2 "$@") \
		>"$TMP/out" 2>"$TMP/err"
}

# --- gcc by default; flags recorded ---------------------------------------------
obj=$TMP/o/obj/lib/base/err.o
build -s O="$TMP/o" "$obj"
check "one object built out of tree ($(head -c 300 "$TMP/err"))" [ -f "$obj" ]
check "the compiler, CC unset, is gcc ($(cat "$TMP/o/flags" 2>/dev/null))" \
	grep -q '^gcc |' "$TMP/o/flags"
build O="$TMP/o" "$obj"
check "the same flags again: nothing compiled ($(grep -c -- ' -c ' "$TMP/out"))" \
	sh -c "! grep -q -- ' -c ' '$TMP/out'"
build O="$TMP/o" CFLAGS="-O1 -g" "$obj"
check "new CFLAGS: the object compiled again, with them" \
	grep -q -- "-O1 -g -c -o $obj" "$TMP/out"
build O="$TMP/o" CC=cc CFLAGS="-O1 -g" "$obj"
check "CC=cc: compiled again with cc" grep -q "^cc .* -c -o $obj" "$TMP/out"

# --- a read-only tree, another user ---------------------------------------------
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null || ! id daemon >/dev/null 2>&1; then
	skip "a read-only tree as another user: needs root, setpriv and the user daemon"
	finish
fi
rm -rf "$TMP/o"
chmod -R a-w "$src"
chmod a+rx "$TMP"
mkdir "$TMP/x"
chown daemon "$TMP/x"
# as_daemon ARGS...: build ARGS as the user daemon.
as_daemon() {
	build_as="setpriv --reuid=daemon --regid=daemon --clear-groups"
	(cd "$src" && fresh_env -u CC -u CFLAGS -u CPPFLAGS -u LDFLAGS $build_as make -s -j2 "$@") \
		>"$TMP/out" 2>"$TMP/err"
}
as_daemon
rc=$?
check "in place, read-only: exit 2, one line ($rc: $(cat "$TMP/err"))" \
	eval '[ "$rc" -eq 2 ] && [ "$(grep -c "" "$TMP/err")" -eq 1 ]'
check "the line names O= and BIN=" eval 'grep -q "O=" "$TMP/err" && grep -q "BIN=" "$TMP/err"'
check "compiled nothing first" [ ! -s "$TMP/out" ]
as_daemon O="$TMP/x/build" BIN="$TMP/x/bin"
rc=$?
check "out of tree as daemon: exit 0 ($rc: $(head -c 300 "$TMP/err"))" [ "$rc" -eq 0 ]
for p in zcc zcs cyclesoak run_rr; do
	check "$p linked into the BIN it made" [ -x "$TMP/x/bin/$p" ]
done
"$TMP/x/bin/zcc" -h >"$TMP/out" 2>&1
check "the built zcc runs" grep -q '^usage: zcc' "$TMP/out"
chmod -R u+w "$src"
finish
