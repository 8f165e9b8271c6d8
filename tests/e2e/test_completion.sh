#!/bin/sh
# completion/zc.bash: sourced in bash, its completion function asked for a
# few partial command lines; its option and method lists checked against
# the manual pages and -h, so that they cannot drift either.
. "$ZC_TOP/tests/lib.sh"

if ! command -v bash >/dev/null; then
	skip "bash completion: bash is not installed"
	finish
fi
comp=$ZC_TOP/completion/zc.bash

# complete WORD...: what the completion offers for the command line WORD...
# (the last word is the one being completed), sorted, on one line.
complete_line() {
	bash -c '
		. "$0" || exit 1
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMPREPLY=()
		_zc_complete
		((${#COMPREPLY[@]})) || exit 0
		printf "%s\n" "${COMPREPLY[@]}" | sort -u | tr "\n" " "' "$comp" "$@"
}

# offers WANT WORD...: the completion offers exactly the words of WANT.
offers() {
	_want=$(for _w in $1; do echo "$_w"; done | sort -u | tr '\n' ' ')
	shift
	_got=$(complete_line "$@")
	check "'$*' offers '$_want' (got '$_got')" [ "$_got" = "$_want" ]
}

# has WANT WORD...: the completion offers WANT among others.
has() {
	_want=$1
	shift
	_got=$(complete_line "$@")
	case " $_got" in
	*" $_want "*) ok "'$*' offers $_want" ;;
	*) not_ok "'$*' offers $_want (got '$(echo "$_got" | cut -c1-200)')" ;;
	esac
}

check "zc.bash sources cleanly in bash and registers the four programs" \
	eval '[ "$(bash -c ". \"$comp\" && complete -p zcc zcs cyclesoak run_rr" 2>&1 | grep -c _zc_complete)" -eq 4 ]'

offers "uring uring-zc" zcc -M u
offers "--streams" zcc --str
offers "discard" zcs -M d
offers "uring uring-zc" zcc --method u
offers "sendfile,uring sendfile,uring-zc" zcc -M sendfile,u
offers "--rate" zcc --ra
offers "uring uring-zc" zcc --meth=u
offers "sendfile send splice" zcc -dM s
offers "--cpu --cpu-load --cpus" zcc --cpu
offers "--period --period-ms --per-cpu" cyclesoak --per
offers "--priority" run_rr --pr
offers "" zcs -p 2
offers "tcp,udp" zcc --rr --proto tcp,u
offers "p90 p99 p99.9" zcc --rr --decide p9
offers "us/Tran" zcc --rr --decide u
offers "" zcc -n ""
offers "" zcc --bogus

cpus=$(bash -c '. "$0"; _zc_cpus' "$comp" | tr '\n' ' ')
check "the online CPUs are known ($cpus)" [ -n "$cpus" ]
offers "$cpus" zcc -B ""
offers "$cpus" zcs --cpu ""
offers "$(for c in $cpus; do echo "0,$c"; done)" zcc -B 0,

echo x >"$TMP/file-one"
echo x >"$TMP/file-two"
offers "$TMP/file-one $TMP/file-two" zcc -s 0 "$TMP/file-"
offers "$TMP/file-one $TMP/file-two" zcc -s 0 -f "$TMP/file-"
offers "$TMP/file-one $TMP/file-two" cyclesoak --calibration-file="$TMP/file-"
has true run_rr -p 1 tru
has echo cyclesoak -- ec
has --json zcc -s 0 "$TMP/file-one" --js

# The lists against the pages (which test_manpages holds to -h): every
# option short and long, those that take a value, and the method names.
for prog in zcc zcs cyclesoak run_rr; do
	sed -n 's/\\-/-/g; /^\\fB-/p' "$ZC_TOP/man/$prog.1" |
		sed -n 's/^\\fB\(-.\)\\fR, \\fB\(--[a-z0-9-]*\)\\fR.*/\1 \2/p;
			s/^\\fB\(--[a-z0-9-]*\)\\fR.*/\1/p' | tr ' ' '\n' | sort >"$TMP/man"
	sed -n 's/\\-/-/g; /^\\fB-/p' "$ZC_TOP/man/$prog.1" |
		sed -n 's/^\\fB\(-.\)\\fR, \\fB\(--[a-z0-9-]*\)\\fR \\fI.*/\1 \2/p;
			s/^\\fB\(--[a-z0-9-]*\)\\fR \\fI.*/\1/p' | tr ' ' '\n' | sort >"$TMP/man.valued"
	bash -c '. "$0"; v=_zc_opts_$1; printf "%s\n" ${!v}' "$comp" "$prog" | sort >"$TMP/comp"
	bash -c '. "$0"; v=_zc_valued_$1; printf "%s\n" ${!v}' "$comp" "$prog" |
		sort >"$TMP/comp.valued"
	check "$prog: the completion's options are the manual page's ($(comm -3 "$TMP/man" "$TMP/comp" | tr -d '\t' | tr '\n' ' '))" \
		cmp -s "$TMP/man" "$TMP/comp"
	check "$prog: so are those that take a value ($(comm -3 "$TMP/man.valued" "$TMP/comp.valued" | tr -d '\t' | tr '\n' ' '))" \
		cmp -s "$TMP/man.valued" "$TMP/comp.valued"
done
for prog in zcc zcs; do
	"$ZC_BIN/$prog" -h | sed -n '/^Methods (-M):/,/^$/s/^  \([a-z-]*\) .*/\1/p' | sort >"$TMP/h"
	bash -c '. "$0"; v=_zc_methods_$1; printf "%s\n" ${!v}' "$comp" "$prog" | sort >"$TMP/c"
	check "$prog: the completion's methods are -h's ($(tr '\n' ' ' <"$TMP/h"))" \
		eval '[ -s "$TMP/h" ] && cmp -s "$TMP/h" "$TMP/c"'
done

finish
