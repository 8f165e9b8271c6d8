# Processes as /proc shows them. Part of tests/lib.sh.

# --- processes, from /proc --------------------------------------------------
# proc_table: "PID PPID STATE" of every process, one a line, from
# /proc/*/stat. A command name (in brackets) may hold spaces and brackets,
# so the fields are counted after its last ") ". The one /proc scanner of
# the tests and the bench; the helpers below filter it.
proc_table() {
	cat /proc/[0-9]*/stat 2>/dev/null |
		awk '{ pid = $1; sub(/.*\) /, ""); print pid, $2, $1 }'
}

# proc_children PID: "PID STATE" of each child of PID, zombies included.
proc_children() {
	proc_table | awk -v p="$1" '$2 == p { print $1, $3 }'
}

# proc_descendants PID...: every process whose parent chain leads to one
# of the PIDs.
proc_descendants() {
	proc_table | awk -v roots="$*" '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) root[r[i]] = 1 }
		{ parent[$1] = $2 }
		END {
			for (p in parent) {
				q = parent[p]
				while (!(q in root) && q in parent && q > 1)
					q = parent[q]
				if (q in root)
					print p
			}
		}'
}

# proc_state PID: PID's state letter (R, S, T, Z...), empty once it is gone.
proc_state() {
	_st=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	_st=${_st##*) }
	echo "${_st%% *}"
}

# proc_alive PID: PID exists and is not a zombie.
proc_alive() {
	_st=$(proc_state "$1")
	[ -n "$_st" ] && [ "$_st" != Z ]
}

# proc_ended PID: PID has exited (gone, or a zombie not yet reaped).
proc_ended() {
	! proc_alive "$1"
}
