# Sockets as ss(8) shows them, for waits on what a transfer has done.
# Part of tests/lib.sh.

# --- TCP sockets of a port ----------------------------------------------------
# tcp_bytes PORT: "READ QUEUED CONNS" over the established TCP sockets
# whose local port is PORT (the receiving end of a sink's or zcs's
# connections): bytes the program has read (the kernel's bytes_received
# less what still waits in the receive queue), bytes waiting unread, and
# how many of the connections it has read something from.
tcp_bytes() {
	ss -Htin state established "( sport = :$1 )" 2>/dev/null | awk '
		/^[0-9]/ { q = $1; queued += q; next }
		{ r = 0
		  if (match($0, /bytes_received:[0-9]+/))
			r = substr($0, RSTART + 15, RLENGTH - 15) - q
		  got += r; conns += r > 0; q = 0 }
		END { printf "%d %d %d\n", got, queued, conns }'
}

# tcp_read PORT BYTES: the program on PORT has read BYTES or more, over
# all its connections.
tcp_read() {
	[ "$(tcp_bytes "$1" | cut -d' ' -f1)" -ge "$2" ]
}

# tcp_streams PORT N: the program on PORT has read from N connections
# or more.
tcp_streams() {
	[ "$(tcp_bytes "$1" | cut -d' ' -f3)" -ge "$2" ]
}

# tcp_queued PORT: bytes wait unread at PORT: a sender is under way and
# the receiver (a sink told not to read) holds them.
tcp_queued() {
	[ "$(tcp_bytes "$1" | cut -d' ' -f2)" -gt 0 ]
}

# tcp_peer_done PORT: a connection on PORT has had the sender's FIN (it
# is in CLOSE-WAIT): the sender has sent all it will and waits for the
# close.
tcp_peer_done() {
	[ -n "$(ss -Htn state close-wait "( sport = :$1 )" 2>/dev/null)" ]
}

# tcp_conns PORT N [STATE]: N or more TCP sockets on local port PORT are in
# STATE (default established); PORT 0: any port (a namespace's own).
tcp_conns() {
	_tf="( sport = :$1 )"
	[ "$1" = 0 ] && _tf=
	[ "$(ss -Htn state "${3:-established}" $_tf 2>/dev/null | wc -l)" -ge "$2" ]
}
