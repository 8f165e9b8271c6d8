#!/bin/sh
# make install: PREFIX and DESTDIR honoured, the four programs executable,
# nothing written outside DESTDIR. The programs are already built by the
# time tests run, so this only copies.
. "$ZC_TOP/tests/lib.sh"

dest=$TMP/dest
make -s -C "$ZC_TOP" install DESTDIR="$dest" PREFIX=/opt/zc >"$TMP/out" 2>&1
rc=$?
check "make install DESTDIR=... PREFIX=/opt/zc: exit 0 ($rc: $(head -c 300 "$TMP/out"))" [ "$rc" -eq 0 ]
for p in zcc zcs cyclesoak run_rr; do
	check "$p installed executable under DESTDIR/opt/zc/bin" [ -x "$dest/opt/zc/bin/$p" ]
done
check "nothing else under DESTDIR: $(cd "$dest" && find . | tr '\n' ' ')" \
	[ "$(cd "$dest" && find . -type f | wc -l)" -eq 4 ]
"$dest/opt/zc/bin/zcs" -h >"$TMP/out" 2>&1
check "the installed zcs runs (-h)" grep -q '^usage: zcs' "$TMP/out"

make -s -C "$ZC_TOP" install DESTDIR="$dest" BINDIR=/usr/bin >/dev/null 2>&1
check "BINDIR overrides PREFIX's bin" [ -x "$dest/usr/bin/zcc" ]

finish
