# Cases of one script side by side. Part of tests/lib.sh.

# --- cases side by side -----------------------------------------------------
# together NAME FUNCTION [ARGS...]: run FUNCTION in the background, in a
# subshell whose $TMP is a directory of its own, $TMP/NAME ($WORK stays the
# script's, for files the cases share), its output kept for gather. For
# checks that spend their time waiting (for a timeout to fire, a trickle
# to be cut off) and need nothing from each other. What a case starts with
# bg is killed when it ends, and with it should the script be interrupted.
# gather: wait for every case, then print their output in the order they
# were started; a "not ok" among them fails the script.
TOGETHER=

together() {
	_name=$1
	shift
	mkdir "$TMP/$_name" || return 1
	(
		TMP=$TMP/$_name BG_PIDS= CLEANUP_HOOKS=
		trap 'for _p in $BG_PIDS; do reap_pid "$_p" 0; done; exit 143' TERM
		"$@"
		for _p in $BG_PIDS; do reap_pid "$_p" 0; done
	) >"$TMP/$_name.out" 2>&1 9>&- &
	BG_PIDS="$BG_PIDS $!"
	TOGETHER="$TOGETHER $_name:$!"
}

# together_stop: end the cases now (cleanup, should the script be stopped):
# SIGTERM to each, which it acts on once what it runs is killed, by then
# reaping what it started: a case killed outright would leave those to a
# PID 1 that may never reap them.
together_stop() {
	[ -n "$TOGETHER" ] || return 0
	_cases=
	for _t in $TOGETHER; do _cases="$_cases ${_t#*:}"; done
	# shellcheck disable=SC2086
	kill -TERM $_cases 2>/dev/null
	# Not yet waited for, the cases' PIDs are still theirs.
	# shellcheck disable=SC2086
	for _p in $(proc_descendants $_cases); do kill -KILL "$_p" 2>/dev/null; done
	for _p in $_cases; do
		wait "$_p" 2>/dev/null
		forget_bg "$_p"
	done
	TOGETHER=
}

gather() {
	for _t in $TOGETHER; do
		wait "${_t#*:}"
		forget_bg "${_t#*:}"
		cat "$TMP/${_t%%:*}.out"
		grep -q '^not ok - ' "$TMP/${_t%%:*}.out" && FAILED=1
	done
	TOGETHER=
}
