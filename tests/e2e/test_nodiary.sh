#!/bin/sh
# No diary in a comment or a manual page: they state the rule and the
# mechanism; measured runs, the machine they ran on and commit ids live in
# README.zc's Results and the bench's own output. Read from the tracked
# sources, so that a new diary fails here (tests/harness/diary.sh says
# what one looks like).
. "$ZC_TOP/tests/lib.sh"
. "$ZC_TOP/tests/harness/diary.sh"
plain_only "diaries in comments and manual pages, read from the sources"

cd "$ZC_TOP" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files=$(git ls-files '*.c' '*.h' '*.sh' 'man/*.1' Makefile .ci/run completion/zc.bash README.zc)
else
	files=$(find . -path ./build -prune -o \( -name '*.[ch]' -o -name '*.sh' -o -name '*.1' \
		-o -name Makefile -o -name README.zc -o -name zc.bash \) -type f -print | sed 's#^\./##')
fi
# This file and diary.sh hold made-up diaries on purpose: not read.
files=$(echo "$files" | grep -v -e '^tests/e2e/test_nodiary.sh$' -e '^tests/harness/diary.sh$')
_hits=$(diary_find $files)
check "no measured run or commit id outside README.zc's Results ($(echo "$_hits" | head -n 5))" \
	[ -z "$_hits" ]

# Each mark is seen, and rules are not taken for runs: made-up files.
mkdir -p "$TMP/t/man"
cat >"$TMP/t/x.c" <<'EOF2'
/*
 * On an AMD EPYC guest this took 10% more.
 * zcs's own CPU 0.072 us against 0.085 with one buffer.
 */
static int a = 0x5a43d2f1; /* a constant, not a commit */
int b; // one buffer, as before
/* kept since 9c9b34c */
/* this machine's loopback; a run more than 5% short says so */
EOF2
cat >"$TMP/t/x.sh" <<'EOF2'
# on this project's
# VM, 8 rounds each: 4.2 GB/s
echo "2.5 GB/s, 8 rounds each" # in code, not a comment line
# waits 3 s for the line, at most 1.05x the peer's
EOF2
cat >"$TMP/t/man/x.1" <<'EOF2'
.TH X 1 2026-12-07
.\" a roff comment: 0.1 against 0.2
The rule: at most 5 points apart.
send was 13% slower with Nagle.
EOF2
printf 'zc\n\nOn the 2-CPU KVM guest it ended:\n\nResults\n-------\n\n1.2 GB/s against 1.1 on an AMD EPYC, a3f9c21.\n' \
	>"$TMP/t/README.zc"
_got=$(cd "$TMP/t" && diary_find x.c x.sh man/x.1 README.zc | cut -d: -f1,2 | tr '\n' ' ')
check "a made-up diary is seen, a rule is not ($_got)" \
	[ "$_got" = "x.c:2 x.c:3 x.c:6 x.c:7 x.sh:1 x.sh:2 man/x.1:4 README.zc:3 " ]
finish
