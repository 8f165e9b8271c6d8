#!/bin/sh
# make install and make uninstall: PREFIX, BINDIR and DESTDIR honoured; the
# four programs, README.zc (under share/doc/zc), the four manual pages
# (share/man/man1) and the bash completion (share/bash-completion/
# completions: zcc, the others links to it) installed, nothing written
# outside DESTDIR; uninstall removes exactly those files and the doc
# directory when it is left empty, and nothing else; RUN_RR_SETUID=1 makes
# run_rr setuid-root (mode 4755, owner root). The programs are
# already built by the time tests run, so this only copies.
. "$ZC_TOP/tests/lib.sh"
plain_only "make install and uninstall"

dest=$TMP/dest
progs="zcc zcs cyclesoak run_rr"

# files DIR: every file and directory under DIR, sorted, one line.
files() {
	(cd "$1" && find . | sort | tr '\n' ' ')
}

make -s -C "$ZC_TOP" install DESTDIR="$dest" PREFIX=/opt/zc >"$TMP/out" 2>&1
rc=$?
check "make install DESTDIR=... PREFIX=/opt/zc: exit 0 ($rc: $(head -c 300 "$TMP/out"))" [ "$rc" -eq 0 ]
for p in $progs; do
	check "$p installed executable under DESTDIR/opt/zc/bin" [ -x "$dest/opt/zc/bin/$p" ]
done
check "README.zc installed under DESTDIR/opt/zc/share/doc/zc, the same text" \
	cmp -s "$ZC_TOP/README.zc" "$dest/opt/zc/share/doc/zc/README.zc"
check "README.zc not executable" [ ! -x "$dest/opt/zc/share/doc/zc/README.zc" ]
man1=$dest/opt/zc/share/man/man1
comp=$dest/opt/zc/share/bash-completion/completions
for p in $progs; do
	check "$p.1 installed under DESTDIR/opt/zc/share/man/man1, the same text, mode 644" \
		eval 'cmp -s "$ZC_TOP/man/$p.1" "$man1/$p.1" &&
			[ "$(stat -c %a "$man1/$p.1")" = 644 ]'
done
check "the completion installed as share/bash-completion/completions/zcc, mode 644" \
	eval 'cmp -s "$ZC_TOP/completion/zc.bash" "$comp/zcc" && [ "$(stat -c %a "$comp/zcc")" = 644 ]'
for p in zcs cyclesoak run_rr; do
	check "completions/$p is a link to zcc (bash-completion loads by command name)" \
		eval '[ -L "$comp/$p" ] && [ "$(readlink "$comp/$p")" = zcc ]'
done
check "nothing else under DESTDIR: $(files "$dest")" \
	eval '[ "$(cd "$dest" && find . -type f | wc -l)" -eq 10 ] &&
		[ "$(cd "$dest" && find . -type l | wc -l)" -eq 3 ]'
if command -v man >/dev/null; then
	MANWIDTH=80 man -M "$dest/opt/zc/share/man" zcc >"$TMP/out" 2>&1
	check "man -M DESTDIR/opt/zc/share/man zcc renders the page ($(head -c 200 "$TMP/out"))" \
		eval 'grep -q "^NAME" "$TMP/out" && grep -q -- "--server" "$TMP/out"'
else
	skip "man -M ... zcc: man is not installed"
fi
"$dest/opt/zc/bin/zcs" -h >"$TMP/out" 2>&1
check "the installed zcs runs (-h)" grep -q '^usage: zcs' "$TMP/out"
check "run_rr installed mode 755 unless asked for setuid" \
	[ "$(stat -c %a "$dest/opt/zc/bin/run_rr" 2>/dev/null)" = 755 ]

# Others' files beside ours: uninstall must leave them.
echo mine >"$dest/opt/zc/bin/other-tool"
mkdir -p "$dest/opt/zc/share/doc/other"
echo mine >"$dest/opt/zc/share/doc/other/README"
echo mine >"$man1/other.1"
echo mine >"$comp/other"
before=$(files "$dest")
make -s -C "$ZC_TOP" uninstall DESTDIR="$dest" PREFIX=/opt/zc >"$TMP/out" 2>&1
rc=$?
check "make uninstall: exit 0, silent ($rc: $(head -c 300 "$TMP/out"))" \
	eval '[ "$rc" -eq 0 ] && [ ! -s "$TMP/out" ]'
after=$(files "$dest")
check "uninstall leaves exactly the others' files and the shared directories: $after" \
	[ "$after" = ". ./opt ./opt/zc ./opt/zc/bin ./opt/zc/bin/other-tool ./opt/zc/share ./opt/zc/share/bash-completion ./opt/zc/share/bash-completion/completions ./opt/zc/share/bash-completion/completions/other ./opt/zc/share/doc ./opt/zc/share/doc/other ./opt/zc/share/doc/other/README ./opt/zc/share/man ./opt/zc/share/man/man1 ./opt/zc/share/man/man1/other.1 " ]
check "uninstall removed something (there was more before: $before)" [ "$before" != "$after" ]

make -s -C "$ZC_TOP" uninstall DESTDIR="$dest" PREFIX=/opt/zc >"$TMP/out" 2>&1
check "uninstall again, nothing to remove: exit 0" [ $? -eq 0 ]

# A file of the user's in the doc directory keeps the directory.
make -s -C "$ZC_TOP" install DESTDIR="$dest" PREFIX=/opt/zc >/dev/null 2>&1
echo notes >"$dest/opt/zc/share/doc/zc/my-notes"
make -s -C "$ZC_TOP" uninstall DESTDIR="$dest" PREFIX=/opt/zc >/dev/null 2>&1
check "a file of the user's in share/doc/zc stays, README.zc goes" \
	eval '[ -f "$dest/opt/zc/share/doc/zc/my-notes" ] && [ ! -e "$dest/opt/zc/share/doc/zc/README.zc" ]'
check "and no program is left" eval '! ls "$dest/opt/zc/bin" | grep -qvx other-tool'

make -s -C "$ZC_TOP" install DESTDIR="$dest" MANDIR=/usr/man COMPDIR=/usr/comp >/dev/null 2>&1
check "MANDIR and COMPDIR override PREFIX's" \
	eval '[ -f "$dest/usr/man/man1/zcs.1" ] && [ -L "$dest/usr/comp/zcs" ]'
make -s -C "$ZC_TOP" uninstall DESTDIR="$dest" MANDIR=/usr/man COMPDIR=/usr/comp >/dev/null 2>&1
check "uninstall with the same MANDIR and COMPDIR removes them" \
	eval '[ ! -e "$dest/usr/man/man1/zcs.1" ] && [ ! -e "$dest/usr/comp/zcs" ] &&
		[ ! -e "$dest/usr/comp/zcc" ]'

make -s -C "$ZC_TOP" install DESTDIR="$dest" BINDIR=/usr/bin >/dev/null 2>&1
check "BINDIR overrides PREFIX's bin" [ -x "$dest/usr/bin/zcc" ]
make -s -C "$ZC_TOP" uninstall DESTDIR="$dest" BINDIR=/usr/bin >/dev/null 2>&1
check "uninstall with the same BINDIR removes them" [ ! -e "$dest/usr/bin/zcc" ]

if [ "$(id -u)" -eq 0 ]; then
	make -s -C "$ZC_TOP" install DESTDIR="$dest" PREFIX=/opt/zc RUN_RR_SETUID=1 >"$TMP/out" 2>&1
	check "RUN_RR_SETUID=1: run_rr setuid-root, mode 4755 ($(stat -c '%a %U' "$dest/opt/zc/bin/run_rr" 2>&1))" \
		[ "$(stat -c '%a %U' "$dest/opt/zc/bin/run_rr" 2>&1)" = "4755 root" ]
	check "RUN_RR_SETUID=1: the other programs stay mode 755" \
		[ "$(stat -c %a "$dest/opt/zc/bin/zcc" "$dest/opt/zc/bin/zcs" "$dest/opt/zc/bin/cyclesoak" | sort -u)" = 755 ]
	make -s -C "$ZC_TOP" uninstall DESTDIR="$dest" PREFIX=/opt/zc >/dev/null 2>&1
	check "uninstall removes the setuid run_rr" [ ! -e "$dest/opt/zc/bin/run_rr" ]
else
	skip "make install RUN_RR_SETUID=1: needs root, to make run_rr root's"
fi

finish
