# The programs: their output, zcs and zcc runs, the files the demo and the
# bench send. Part of tests/lib.sh.

# --- the programs' output -------------------------------------------------------
# json_get FILE EVENT KEY: KEY's value in every EVENT object of a -J
# output file, one a line.
json_get() {
	[ -x "$ZC_TESTBIN/jsoncheck" ] ||
		die "$ZC_TESTBIN/jsoncheck is not built: cannot read the programs' -J output (make tests builds it)"
	"$ZC_TESTBIN/jsoncheck" -E "$2" -g "$3" "$1" 2>/dev/null
}

# is_json FILE: FILE is JSON Lines (the program took -J).
is_json() {
	[ "$(head -c 1 "$1" 2>/dev/null)" = "{" ]
}

# zcs_port FILE: the port of zcs's listening line (text or JSON).
zcs_port() {
	if is_json "$1"; then
		json_get "$1" listening port | head -n 1
	else
		sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$1"
	fi
}

# zcs_start [ZCS OPTIONS...]: start zcs on a kernel-chosen port with output
# in $TMP/zcs.out and $TMP/zcs.err; sets ZCS_PID and ZCS_PORT.
zcs_start() {
	: >"$TMP/zcs.out"
	bg "$ZC_BIN/zcs" -p 0 "$@" >"$TMP/zcs.out" 2>"$TMP/zcs.err"
	ZCS_PID=$!
	within 50 zcs_listening "$TMP/zcs.out" "$ZCS_PID"
	has_line "$TMP/zcs.out" "$ZCS_LISTENING" || return 1
	ZCS_PORT=$(zcs_port "$TMP/zcs.out")
}
ZCS_LISTENING='^listening on port [0-9]+|"event": *"listening"'

# peer_start PROGRAM ARGS...: a test server that prints "listening on port
# N" (tests/tools/listen_once.h), output in $TMP/peer.out and .err; sets
# PEER_PID and PEER_PORT, false when it does not listen.
peer_start() {
	: >"$TMP/peer.out"
	bg "$@" >"$TMP/peer.out" 2>"$TMP/peer.err"
	PEER_PID=$!
	wait_for "$TMP/peer.out" '^listening on port [0-9]+' || return 1
	PEER_PORT=$(sed -n 's/^listening on port \([0-9]*\).*/\1/p' "$TMP/peer.out")
}

# zcs_listening FILE PID: zcs (PID) said it listens, or is gone.
zcs_listening() {
	has_line "$1" "$ZCS_LISTENING" || proc_ended "$2"
}

# zcs_metered [ZCS OPTIONS...]: zcs_start (for zcs -c), metered. False
# when it does not listen; $TMP/zcs.err says why.
zcs_metered() {
	metered "$TMP/zcs.err" zcs_try "$@"
}
zcs_try() {
	zcs_start "$@" && return 0
	stop_bg "$ZCS_PID"
	return 1
}

# zcs_up NAME [ZCS OPTIONS...]: start zcs on a kernel-chosen port, output in
# $WORK/NAME.out and .err; sets ZCS_PID and ZCS_PORT, or dies. ZCS_PREFIX,
# when set, goes before zcs (ip netns exec NS).
zcs_up() {
	_name=$1
	shift
	: >"$WORK/$_name.out"
	# shellcheck disable=SC2086
	start_bg $ZCS_PREFIX "$ZC_BIN/zcs" -p 0 "$@" >"$WORK/$_name.out" 2>"$WORK/$_name.err"
	ZCS_PID=$!
	if ! wait_for "$WORK/$_name.out" "$ZCS_LISTENING"; then
		cat "$WORK/$_name.err" >&2
		die "zcs did not start"
	fi
	ZCS_PORT=$(zcs_port "$WORK/$_name.out")
}

# --- demo and bench: files, zcc runs, the calibration -------------------------
# make_files DIR COUNT SIZE: COUNT files of about SIZE bytes (each a little
# different, as real files are), random data so nothing compresses, each
# written whole (write_whole).
make_files() {
	mkdir -p "$1"
	_i=0
	while [ $_i -lt "$2" ]; do
		_sz=$(($3 + (_i * 4099) % ($3 / 8 + 1)))
		head -c $_sz /dev/urandom | write_whole "$1/f$_i" $_sz || die "cannot write $1/f$_i"
		_i=$((_i + 1))
	done
}

# write_whole FILE SIZE: standard input into FILE in writes of SIZE bytes,
# 4 MiB at most (dd gathers its 64 KiB reads into output blocks of obs);
# false when FILE cannot be written. Run at a pipe's end, in a subshell:
# its caller says so and stops.
# How a file was written shapes its page cache where the file system caches
# in large folios: a file written 4 KiB at a time, as head and tr write,
# lands mostly in small folios, one written 4 MiB at a time mostly in
# large ones (FilePmdMapped of a mapping of it shows it); sendfile() does
# per folio what it would do per page.
# iperf3 -Z writes its file in one write(): so do the bench's files.
write_whole() {
	_ob=$2
	[ "$_ob" -le 4194304 ] || _ob=4194304
	dd ibs=65536 obs="$_ob" of="$1" 2>/dev/null
}

# parse_zcc OUTFILE: from zcc's output (-J or text) set SENT_BYTES
# SENT_SECS SENT_RATE (and with -J SENT_OWN, zcc's own CPU per KB, and
# SENT_RTX, TCP's retransmitted segments), and
# with -c CPU_LOAD CPU_N CPU_SD (service demand)
# and OWN_USKB (zcc's own CPU per KB); the last run's figures.
parse_zcc() {
	if is_json "$1"; then
		SENT_BYTES=$(json_get "$1" sent bytes | tail -n 1)
		SENT_SECS=$(json_get "$1" sent seconds | tail -n 1)
		SENT_RATE=$(json_get "$1" sent kbytes_per_sec | tail -n 1)
		SENT_OWN=$(json_get "$1" sent own_us_per_kb | tail -n 1)
		SENT_RTX=$(json_get "$1" sent retransmits | tail -n 1)
		CPU_LOAD=$(json_get "$1" cpu load_pct | tail -n 1)
		CPU_N=$(json_get "$1" cpu ncpus | tail -n 1)
		CPU_SD=$(json_get "$1" cpu service_demand_us_per_kb | tail -n 1)
		OWN_USKB=$(json_get "$1" cpu own_us_per_kb | tail -n 1)
		return 0
	fi
	SENT_BYTES=$(sed -n 's/^sent: \([0-9]*\) bytes in .*/\1/p' "$1" | tail -n 1)
	SENT_SECS=$(sed -n 's/^sent: [0-9]* bytes in \([0-9.]*\) s,.*/\1/p' "$1" | tail -n 1)
	SENT_RATE=$(sed -n 's/^sent: .*, \([0-9.]*\) kbytes\/sec.*/\1/p' "$1" | tail -n 1)
	CPU_LOAD=$(sed -n 's/^cpu: load \(-\{0,1\}[0-9.]*\)% of .*/\1/p' "$1" | tail -n 1)
	CPU_N=$(sed -n 's/^cpu: load .* of \([0-9]*\) CPUs.*/\1/p' "$1" | tail -n 1)
	CPU_SD=$(sed -n 's/.*service demand \(-\{0,1\}[0-9.]*\) us\/KB.*/\1/p' "$1" | tail -n 1)
	OWN_USKB=$(sed -n 's/.*zcc itself \(-\{0,1\}[0-9.]*\) us\/KB.*/\1/p' "$1" | tail -n 1)
}

# zcc_has FLAG: this zcc knows the option (its -h lists it).
zcc_has() {
	"$ZC_BIN/zcc" -h 2>&1 | grep -q -- "^ *$1[ ,]"
}

# zcc_methods: the transmit methods this zcc has, from zcc itself: its
# refusal of an unknown -M lists them in brackets, "unknown method (a, b)".
# "sendfile send write" from the options of a zcc without -M.
zcc_methods() {
	if ! zcc_has -M; then
		echo "sendfile send write"
		return 0
	fi
	_ms=$("$ZC_BIN/zcc" -M help -s 0 /dev/null 2>&1 | sed -n 's/.*unknown method[^(]*(\([^)]*\)).*/\1/p' |
		head -n 1 | tr -d ',')
	[ -n "$_ms" ] || die "zcc -M help listed no methods"
	echo $_ms
}

# method_refused METHOD: the kernel refuses zcc's METHOD here (io_uring
# switched off, a seccomp filter), asked the way zcc asks, by the method's
# own set-up (tests/tools/methodcheck); why, in zcc's words, in $REFUSED.
method_refused() {
	[ -x "$ZC_TESTBIN/methodcheck" ] || return 1
	REFUSED=$("$ZC_TESTBIN/methodcheck" "$1" 2>&1) && return 1
	return 0
}

# usable_methods: zcc's methods less those the kernel refuses here
# (method_refused) into USABLE, space-separated; each refused one's
# reason, a line each, into LEFT_OUT.
usable_methods() {
	USABLE='' LEFT_OUT=''
	for _um in $(zcc_methods); do
		if method_refused "$_um"; then
			LEFT_OUT="$LEFT_OUT${LEFT_OUT:+
}$REFUSED"
		else
			USABLE="$USABLE${USABLE:+ }$_um"
		fi
	done
}

# check_left_out FILE PREFIX: after usable_methods, a check for each
# method the kernel refuses here: FILE names it once, on a line that
# begins PREFIX, then "METHOD: ".
check_left_out() {
	for _lm in $(zcc_methods); do
		case " $USABLE " in *" $_lm "*) continue ;; esac
		method_refused "$_lm"
		check "'$_lm', refused here, left out in one line: $REFUSED" \
			[ "$(grep -c "^$2$_lm: " "$1")" -eq 1 ]
	done
}

# method_flags METHOD: zcc's options for a transmit method.
method_flags() {
	if zcc_has -M; then
		echo "-M $1"
		return 0
	fi
	case $1 in
	sendfile) echo "" ;;
	send) echo "-S" ;;
	write) echo "-S -w" ;;
	esac
}

# show_cmd COMMAND...: print a command the way it is about to be run, the
# names of files in a directory under $WORK folded into "DIR/... (N files)".
show_cmd() {
	_show= _nf=0 _dir=
	for _a in "$@"; do
		case $_a in
		"$WORK"/*/*) _nf=$((_nf + 1)) _dir=${_a%/*} ;;
		*) _show="$_show $_a" ;;
		esac
	done
	[ $_nf -eq 1 ] && _show="$_show ${_dir#"$WORK"/}/... (1 file)"
	[ $_nf -gt 1 ] && _show="$_show ${_dir#"$WORK"/}/... ($_nf files)"
	say "  \$${_show}"
}

# in_work COMMAND...: run COMMAND in $WORK, where ./counts_per_sec is.
in_work() {
	cd "$WORK" && exec "$@"
}

# run_zcc OUTFILE ZCC-ARGS...: run zcc in $WORK (where -c finds
# counts_per_sec), with -J when it has it; print the command unless QUIET
# is set; parse its figures. Fails (with zcc's own message) when zcc fails
# or prints no sent figures. ZCC_PREFIX, when set, goes before zcc (ip
# netns exec NS).
run_zcc() {
	_out=$1
	shift
	_json=
	zcc_has -J && _json=-J
	# shellcheck disable=SC2086
	[ -z "${QUIET:-}" ] && show_cmd $ZCC_PREFIX zcc $_json "$@"
	# shellcheck disable=SC2086
	run_metered "$_out.err" in_work $ZCC_PREFIX "$ZC_BIN/zcc" $_json "$@" >"$_out"
	_rc=$?
	parse_zcc "$_out"
	SENT_TOTAL=$((${SENT_TOTAL:-0} + ${SENT_BYTES:-0}))
	SENT_RUNS=$((${SENT_RUNS:-0} + 1))
	if [ $_rc -ne 0 ]; then
		sed 's/^/  /' "$_out.err" >&2
		echo "  zcc exited with status $_rc" >&2
		return 1
	fi
	if [ -z "$SENT_RATE" ]; then
		# zcc did its part: it is the harness that could not read it.
		echo "  zcc exited 0, but its sent figures could not be read from $_out" >&2
		return 1
	fi
}

# run_metered ERRFILE COMMAND...: run_fg with stderr to ERRFILE, metered.
run_metered() {
	_rmf=$1
	shift
	metered "$_rmf" run_fg_err "$_rmf" "$@"
}
run_fg_err() {
	_rfe=$1
	shift
	run_fg "$@" 2>"$_rfe"
}

# loops_for SECONDS_WANTED PROBE_SECONDS PROBE_LOOPS: loops for a run of
# about the wanted length, judging by a probe run; at least 1.
loops_for() {
	awk -v want="$1" -v secs="$2" -v n="$3" 'BEGIN {
		per = secs / n; if (per <= 0) per = 0.0001
		l = int(want / per + 0.5); if (l < 1) l = 1; if (l > 1000000) l = 1000000
		print l }'
}

# probe_loops SECONDS ZCC-ARGS...: set LOOPS so that zcc with these
# arguments runs about SECONDS: short runs, each aimed at 0.4 s by the one
# before (but at most 64 times as many loops, as a short run is mostly the
# connection's set-up), until one lasts 0.3 s or reaches 65536 loops; then
# scaled: a few runs, where doubling from 1 takes many.
probe_loops() {
	_want=$1
	shift
	_pl=1
	while :; do
		_quiet=${QUIET:-}
		QUIET=1
		run_zcc "$WORK/probe" -n $_pl "$@" || die "probe run (zcc -n $_pl $*) gave no figures"
		QUIET=$_quiet
		_next=$(awk -v s="$SENT_SECS" -v l=$_pl 'BEGIN {
			if (s >= 0.3 || l >= 65536) exit 1
			f = s > 0 ? 0.4 / s : 64; if (f < 2) f = 2; if (f > 64) f = 64
			l = int(l * f); if (l > 65536) l = 65536
			print l }') || break
		_pl=$_next
	done
	LOOPS=$(loops_for "$_want" "$SENT_SECS" $_pl)
}

# zcs_tally NAME: ZCS_DONE_BYTES, ZCS_DONE_RUNS from zcs's done lines.
zcs_tally() {
	if is_json "$WORK/$1.out"; then
		json_get "$WORK/$1.out" done bytes >"$WORK/$1.done"
	else
		sed -n 's/^done: \([0-9]*\) bytes.*/\1/p' "$WORK/$1.out" >"$WORK/$1.done"
	fi
	ZCS_DONE_RUNS=$(wc -l <"$WORK/$1.done")
	ZCS_DONE_BYTES=$(awk '{ s += $1 } END { printf "%.0f\n", s }' "$WORK/$1.done")
}

# zcs_agrees NAME: wait until zcs has logged as many connections as zcc
# runs were made (SENT_RUNS), then compare its byte total with SENT_TOTAL.
zcs_agrees() {
	within 50 zcs_logged "$1"
	[ "$ZCS_DONE_RUNS" -eq "$SENT_RUNS" ] && [ "$ZCS_DONE_BYTES" = "$SENT_TOTAL" ]
}
zcs_logged() {
	zcs_tally "$1"
	[ "$ZCS_DONE_RUNS" -ge "$SENT_RUNS" ]
}

# --- a fresh clone ------------------------------------------------------------
# copy_tracked DIR: the files git tracks, as they are in the work tree, into
# DIR: what a fresh clone holds (nothing built, no ignored or untracked
# file). 1 outside a git checkout or without git.
copy_tracked() {
	command -v git >/dev/null 2>&1 || return 1
	git -C "$ZC_TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 1
	mkdir -p "$1" || return 1
	(cd "$ZC_TOP" && git ls-files -z | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
		tar -xf - -C "$1"
}

# fresh_env COMMAND...: run COMMAND without the variables run.sh sets to
# point at this tree's builds, as a user's shell would.
fresh_env() {
	env -u ZC_BIN -u ZC_TESTBIN -u ZC_TOP -u ZC_PASS -u MAKEFLAGS -u MAKELEVEL "$@"
}

# u32 N: N as the protocol's header word, 4 bytes big-endian, on stdout
# (printf's octal escapes only), for tests that write the expected stream.
u32() {
	# shellcheck disable=SC2059
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 >> 24 & 255)) \
		$(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)))"
}
