#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A loss recovery or timeout that TCP finds spurious gives its cut back.
# Reordering (adaptive routing, packet spraying) makes TCP take late
# packets for lost ones; the DSACKs, or the timestamps of the first copies,
# then show that nothing was lost, and TCP undoes the recovery through the
# congestion control's undo_cwnd.  aicc's window goes back to at least
# what it was when the recovery began (tp->prior_cwnd, aicc_on_undo()).
#
# Two aicc connections through the dumbbell; a netem on the sender's
# interface holds one packet in twenty back by 3 ms (five packet times at
# 20 Mbit/s), so that later packets overtake it.
#
#   1. topology and server
#   2. reordering made TCP undo recoveries (the namespace's TCP*Undo
#      counters, aiccgen's netns.undos)
#   3. aicc counted undos (stats/undos), never more than TCP's: aicc is
#      told only of undos where TCP saved a prior window
#   4. after every undo the window is at least the one the recovery began
#      with, where that was above the kernel's floor of two packets
#      (aicc:aicc_core records: the call's argument and the state after it)
#   5. and some undo raised the window it found: the cut was given back

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"
. "$dir/../lib/trace.sh"

topo_require_testbed
port=6097
st=/sys/kernel/aicc/aicc/stats

ktap_plan 5

topo_test_module "$TOPO_KO"
[ -r "$st/undos" ] || ktap_skip_all "no $st/undos"
trace_have aicc_core ||
	ktap_skip_all "no aicc:aicc_core tracepoint (tracefs missing?)"

topo_start_server $port --cc aicc

u0=$(cat "$st/undos")
topo_snd 1 tc qdisc replace dev eth0 root netem delay 3ms reorder 95%
trace_start aicc_core
topo_gen_to bulk 1 bulk -p $port -n 2 -t 4 --cc aicc
trace_stop "$TOPO_TMP/trace"
topo_snd 1 tc qdisc del dev eth0 root
u1=$(cat "$st/undos")

tcp=$(topo_gen_netns "$TOPO_TMP/bulk.json" undos)
tcp=${tcp:-0}
ktap_info "reordering: TCP undid $tcp recoveries, aicc counted $((u1 - u0))"
ktap_expect "reordering made TCP undo recoveries ($tcp)" "$tcp -gt 0"
ktap_expect "aicc counted undos, at most TCP's ($((u1 - u0)) <= $tcp)" \
	"$((u1 - u0)) -gt 0 -a $((u1 - u0)) -le $tcp"

# Per undo record (call 6, AICC_TC_UNDO): the prior window (arg 0), the
# window after (the first 8 bytes of the state, Q16, little-endian) and
# the window before (the same socket's previous record).
read -r n low raised < <(python3 - "$TOPO_TMP/trace" <<'EOF'
import re, sys
last = {}
n = low = raised = 0
rec = re.compile(r'sk=(\S+) call=(\d+) ret=\S+ arg=([0-9a-f]+),\S* in=\S* out=([0-9a-f]{16})')
for line in open(sys.argv[1]):
    m = rec.search(line)
    if not m:
        continue
    sk, call, arg0, out = m.group(1), int(m.group(2)), m.group(3), m.group(4)
    cwnd = int.from_bytes(bytes.fromhex(out), 'little')
    if call == 6:
        n += 1
        prior = int(arg0, 16)
        if prior > 2 and cwnd < prior << 16:
            low += 1
        if sk in last and cwnd > last[sk]:
            raised += 1
    last[sk] = cwnd
print(n, low, raised)
EOF
)
ktap_info "trace: $n undo calls, $low below their prior window, $raised raised the window"
ktap_expect "every undo restored the window the recovery began with" \
	"${n:-0} -gt 0 -a ${low:-1} -eq 0"
ktap_expect "undos gave cuts back ($raised of $n raised the window)" \
	"${raised:-0} -gt 0"
ktap_finish
