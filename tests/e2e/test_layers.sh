#!/bin/sh
# lib/ depends downward only (programs -> their engines lib/zcc, lib/zcs,
# lib/cyclesoak -> app -> meter, wire -> base; no engine includes another), and
# below lib/app a helper hands its failure back as a message: it does not
# exit, print to stderr or name a program's option in that message. Read
# from the sources, so that a new file that breaks the rule fails here.
. "$ZC_TOP/tests/lib.sh"
plain_only "lib/ layering, read from the sources"

# code TOP FOLDER: the folder's C without its comments, "folder/file:line: text"
# (read once, kept in $TMP).
code() {
	_code=$TMP/code.$(echo "$1/$2" | tr / _)
	[ -f "$_code" ] ||
		for _f in "$1/$2"/*.[ch]; do
			sed -E 's#/\*.*\*/##; s#//.*##; s#^[[:space:]]*(/\*|\* |\*$|\*/).*##' "$_f" |
				grep -n . | sed "s#^#$2/${_f##*/}:#"
		done >"$_code"
	cat "$_code"
}

# hits: the "folder/file:line" of each line read, on one line.
hits() {
	cut -d: -f1,2 | tr '\n' ' '
}

# includes TOP FOLDER HIGHER: where FOLDER includes from the folders HIGHER names.
includes() {
	code "$1" "$2" | grep -E "#include \"($3)/" | hits
}

# exits TOP FOLDER: where FOLDER exits or prints. A soaker, a child
# process of its own, ends with _exit, which is not exit.
exits() {
	code "$1" "$2" |
		grep -E '(^|[^_a-z])(exit|error|err|errx|warn|warnx|perror|printf|puts)[[:space:]]*\(|f(printf|puts)[[:space:]]*\([[:space:]]*std(out|err)' |
		hits
}

# options TOP FOLDER: where a string in FOLDER names an option ("-T", "(-b;").
# The shell's "ulimit -l", the limit a message tells the user to raise, is
# no option of ours.
options() {
	code "$1" "$2" | grep -E '"[^"]*(^|[ (])-[A-Za-z]([] ,;:)]|")' |
		grep -Ev 'ulimit -[a-z]' | hits
}

lib=$ZC_TOP/lib
for higher in 'base zcc|zcs|cyclesoak|app|meter|wire' 'wire zcc|zcs|cyclesoak|app|meter' \
	'meter zcc|zcs|cyclesoak|app|wire' 'app zcc|zcs|cyclesoak' 'zcc zcs|cyclesoak' \
	'zcs zcc|cyclesoak' 'cyclesoak zcc|zcs'; do
	set -- $higher
	_hits=$(includes "$lib" "$1" "$2")
	check "lib/$1 includes nothing from $2 (${_hits:-none})" [ -z "$_hits" ]
done
for dir in base wire meter; do
	_hits=$(exits "$lib" "$dir")
	check "lib/$dir neither exits nor prints (${_hits:-none})" [ -z "$_hits" ]
	_hits=$(options "$lib" "$dir")
	check "lib/$dir names no option in a string (${_hits:-none})" [ -z "$_hits" ]
done

# Each check above can fail: a made-up folder that breaks every rule once.
mkdir -p "$TMP/lib/bad"
cat >"$TMP/lib/bad/x.c" <<'EOF'
#include "app/opt.h"
/* exit(1) in a comment, "-T" too: not code */
static void f(void) { fprintf(stderr, "no answer (-T)\n"); }
static void g(void) { exit(1); }
EOF
check "a made-up breach is seen: the include ($(includes "$TMP/lib" bad app))" \
	[ "$(includes "$TMP/lib" bad app)" = "bad/x.c:1 " ]
check "a made-up breach is seen: the print and the exit ($(exits "$TMP/lib" bad))" \
	[ "$(exits "$TMP/lib" bad)" = "bad/x.c:3 bad/x.c:4 " ]
check "a made-up breach is seen: the option ($(options "$TMP/lib" bad))" \
	[ "$(options "$TMP/lib" bad)" = "bad/x.c:3 " ]
finish
