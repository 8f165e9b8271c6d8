# bash completion for zc's programs: zcc, zcs, cyclesoak and run_rr.
#
# Completes options (short and long, also --opt=VALUE), the method names
# of -M (zcc's -M takes a list: sendfile,send), CPU numbers for -B (zcc's
# -B takes a list: 0,2,4-7), host names for zcc -s, file names for zcc's
# files, -f, --plot, --baseline and --log, and the command of run_rr and of
# cyclesoak after --. Installed as share/bash-completion/completions/zcc,
# with zcs, cyclesoak and run_rr as links to it; or source it by hand:
#   . completion/zc.bash
# tests/e2e/test_completion.sh checks the lists below against each program's -h
# and manual page.

# Each program's options; those taking a value in _zc_valued.
_zc_opts_zcc='-s --server -p --port -n --loops -t --time -M --method -S --copy
	-w --write -b --chunk-size -k --cork -i --recv-buffer -o --send-buffer
	-B --cpu -D --so-debug -d --debug -I --interval -R --repeat
	-T --stall-timeout -c --cpu-load -W --where -r --run-time -L --loop-counts -K --kernel-time
	-C --calibrate -f --calibration-file -N --cpus -P --streams -J --json
	--rate --plot --baseline --files-from --receiver-report --decide --mptcp
	--rr --response --gap --budget --proto --log --clocks-synced --call-times --stamps
	--busy-poll --ip-proto --ifname -h --help --version'
_zc_opts_zcs='-p --port -a --address -b --read-size -M --method -t --period
	-T --stall-timeout -m --max-conns -1 --once -i --recv-buffer
	-o --send-buffer -B --cpu -d --debug -c --cpu-load -W --where
	-r --run-time -L --loop-counts -K --kernel-time -f --calibration-file -N --cpus -J --json
	--plot --mptcp --call-times --budget --stamps --proto --ip-proto --ifname -h --help --version'
_zc_opts_cyclesoak='-C --calibrate -f --calibration-file -N --cpus -p --period
	-m --period-ms -B --per-cpu -1 --once -n --nice -r --run-time
	-L --loop-counts -K --kernel-time -W --where -d --debug -J --json -h --help --version'
_zc_opts_run_rr='-p --priority -l --rt-limit -h --help --version'

_zc_valued_zcc='-s --server -p --port -n --loops -t --time -M --method
	-b --chunk-size -i --recv-buffer -o --send-buffer -B --cpu -I --interval
	-R --repeat -T --stall-timeout -f --calibration-file -N --cpus -P --streams
	--rate --plot --baseline --files-from --decide --response --gap --budget
	--proto --log --busy-poll --ip-proto --ifname'
_zc_valued_zcs='-p --port -a --address -b --read-size -M --method -t --period
	-T --stall-timeout -m --max-conns -i --recv-buffer -o --send-buffer
	-B --cpu -f --calibration-file -N --cpus --plot --budget --proto --ip-proto --ifname'
_zc_valued_cyclesoak='-f --calibration-file -N --cpus -p --period -m --period-ms'
_zc_valued_run_rr='-p --priority -l --rt-limit'

_zc_methods_zcc='sendfile send write mmap splice zerocopy uring uring-zc'
_zc_methods_zcs='read discard splice zerocopy'

# The online CPUs' numbers, one per word.
_zc_cpus()
{
	local online range lo hi i
	online=$(cat /sys/devices/system/cpu/online 2>/dev/null)
	if [[ -z $online ]]; then
		online="0-$(($(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) - 1))"
	fi
	for range in ${online//,/ }; do
		lo=${range%-*} hi=${range#*-}
		for ((i = lo; i <= hi; i++)); do
			printf '%s\n' "$i"
		done
	done
}

# The long option word names, when it is one of list or a prefix of only one.
_zc_long()
{
	local word=$1 list=$2 o found=
	[[ $word == --?* ]] || { printf '%s' "$word"; return; }
	for o in $list; do
		[[ $o == "$word" ]] && { printf '%s' "$o"; return; }
		if [[ $o == "$word"* ]]; then
			[[ -n $found ]] && { printf '%s' "$word"; return; }
			found=$o
		fi
	done
	printf '%s' "${found:-$word}"
}

# COMPREPLY for the value of option opt of program prog, cur typed so far.
_zc_value()
{
	local prog=$1 opt=$2 cur=$3 methods head words
	case $opt in
	-M | --method)
		methods=_zc_methods_$prog
		head=
		if [[ $prog == zcc && $cur == *,* ]]; then	# a list of variants: its last item
			head=${cur%,*},
			cur=${cur##*,}
		fi
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "${!methods}" -- "$cur")
		;;
	-B | --cpu)
		head=
		if [[ $prog == zcc && $cur == *,* ]]; then	# a list: complete its last item
			head=${cur%,*},
			cur=${cur##*,}
		fi
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "$(_zc_cpus)" -- "$cur")
		;;
	-f | --calibration-file | --plot | --baseline | --files-from | --log)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		;;
	-s | --server)
		mapfile -t COMPREPLY < <(compgen -A hostname -- "$cur")
		;;
	--ifname)
		mapfile -t COMPREPLY < <(compgen -W "$(ls /sys/class/net 2>/dev/null)" -- "$cur")
		;;
	--proto | --decide)	# --proto: zcc's a list of variants, its last item
		words='tcp udp ip packet'
		[[ $prog == zcs ]] && words='ip packet'
		[[ $opt == --decide ]] && words='sender receiver path p50 p90 p99 p99.9 us/Tran'
		head=
		if [[ $opt == --proto && $cur == *,* ]]; then
			head=${cur%,*},
			cur=${cur##*,}
		fi
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "$words" -- "$cur")
		;;
	*)
		COMPREPLY=()	# a number: nothing to offer
		;;
	esac
}

# The option of the short cluster word (-dM) that takes the next word as its
# value, or nothing: the first letter that takes a value takes the rest of
# the cluster, so only a last letter leaves the next word to it.
_zc_cluster()
{
	local word=$1 valued=$2 i
	for ((i = 1; i < ${#word}; i++)); do
		if [[ $valued == *" -${word:i:1} "* ]]; then
			((i == ${#word} - 1)) && printf '%s' "-${word:i:1}"
			return
		fi
	done
}

_zc_complete()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]##*/}
	local opts valued i word pending= ended=0
	case $prog in
	zcc | zcs | cyclesoak | run_rr) ;;
	*) return 0 ;;
	esac
	opts=_zc_opts_$prog
	opts=${!opts}
	valued=_zc_valued_$prog
	valued=" "$(echo ${!valued})" "
	COMPREPLY=()

	# What the words before this one leave: an option's value due, the end
	# of the options (--), or the command (run_rr, cyclesoak after --).
	for ((i = 1; i < COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		if [[ -n $pending ]]; then
			pending=
			continue
		fi
		case $word in
		--)
			ended=1
			break
			;;
		--*=*) ;;
		--?*)
			word=$(_zc_long "$word" "$valued")
			[[ $valued == *" $word "* ]] && pending=$word
			;;
		-?*)
			pending=$(_zc_cluster "$word" "$valued")
			;;
		*)
			[[ $prog == run_rr ]] && ended=1 && break
			;;
		esac
	done
	if ((ended)) && [[ $prog == run_rr || $prog == cyclesoak ]]; then
		mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		return 0
	fi
	if [[ -n $pending ]]; then
		_zc_value "$prog" "$pending" "$cur"
		return 0
	fi
	if ((!ended)) && [[ $cur == --*=* ]]; then	# --opt=VALUE
		_zc_value "$prog" "$(_zc_long "${cur%%=*}" "$valued")" "${cur#*=}"
		return 0
	fi
	if ((!ended)) && [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
		[[ $prog == cyclesoak && $cur == - ]] && COMPREPLY+=(--)
		return 0
	fi
	case $prog in
	zcc)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		;;
	run_rr)
		mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		;;
	esac
	return 0
}

complete -F _zc_complete zcc zcs cyclesoak run_rr
