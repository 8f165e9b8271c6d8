#!/bin/sh
# tests/tools/wherechains, -W's walk over perf's call chains: perf script
# text becomes one line per sample (kernel frames, leaf first, user frames
# and offsets dropped); a chain file's summary counts the kinds as -W does
# (the idle task's apart, a sample where interrupts came back on charged
# to its caller); bad input is refused with one line.
. "$ZC_TOP/tests/lib.sh"

wc=$ZC_TESTBIN/wherechains

# Two samples as `perf script -F pid,ip,sym` prints them.
cat >"$TMP/perf" <<'END'
    1234 
	ffffffff8225d3a5 pvm_irq_enable+0x5
	ffffffff8100a1b2 __raw_callee_save_pvm_irq_enable+0x11
	ffffffff81c0c0de _raw_spin_unlock_irqrestore+0x1e
	ffffffff81d0f00d tcp_write_xmit+0x4ad
	           f82ad read
	           9e0a8 [unknown]

       0 
	ffffffff8225fd65 pvm_safe_halt_hc+0x5
	ffffffff82261975 default_idle+0x9

    1234 
	           f82ad read
END
"$wc" -p "$TMP/perf" >"$TMP/lines"
check "-p: one line per sample, kernel frames by name: $(tr '\n' '|' <"$TMP/lines")" \
	[ "$(tr '\n' '|' <"$TMP/lines")" = "1234 pvm_irq_enable __raw_callee_save_pvm_irq_enable _raw_spin_unlock_irqrestore tcp_write_xmit|0 pvm_safe_halt_hc default_idle|1234|" ]
sort "$TMP/lines" | uniq -c >"$TMP/chains"
"$wc" "$TMP/chains" >"$TMP/sum"
check "the irq-enable sample is tcp_ip, the idle one apart, the user one user: $(head -n 1 "$TMP/sum")" \
	grep -q '^samples 2 (idle 1 more): .* tcp_ip 50.0% .* other 0.0% user 50.0%$' "$TMP/sum"
check "the walk's depth: the caller was frame 4" grep -q '^walk: deepest charged frame 4;' "$TMP/sum"

"$wc" "$ZC_TOP/tests/unit/where_chains_pvm.txt" >"$TMP/pvm"
check "this VM's recorded chains: a summary of their kinds: $(head -n 1 "$TMP/pvm")" \
	grep -Eq '^samples [0-9]+ \(idle [0-9]+ more\): copy ' "$TMP/pvm"

echo "x 1 tcp_ack" >"$TMP/bad"
"$wc" "$TMP/bad" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "a line without a count: exit 1, one line naming it ($rc: $(cat "$TMP/err"))" \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q 'bad:1: ' '$TMP/err'"
"$wc" "$TMP/none" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "a file that is not there: exit 2 ($rc)" [ "$rc" -eq 2 ]
"$wc" -x >"$TMP/out" 2>"$TMP/err"
rc=$?
check "an unknown option: exit 2, the usage ($rc)" sh -c "[ $rc -eq 2 ] && grep -q '^usage: wherechains' '$TMP/err'"
finish
