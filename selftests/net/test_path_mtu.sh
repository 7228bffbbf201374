#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Packets lost to the path's MTU are no congestion.  When the path MTU
# falls under a running flow (a router answers "fragmentation needed"),
# TCP lowers its MSS, marks the packets that are now too large lost and
# sends them again in its Loss state without cutting the window
# (tcp_simple_retransmit()).  aicc must take that neither for a
# retransmission timeout nor for losses of its control law: it counts
# the packets in stats/nocong_losses.
#
# One aicc bulk flow through the dumbbell, tail drop into 400 KB (no
# marking, and no drop at 20 Mbit/s: the only losses are the MTU's);
# 1.5 s in, the router's link to the receiver drops to an MTU of 1280.
#
#   1. topology and server
#   2. the sender learned the path MTU (its route caches mtu 1280)
#   3. aicc counted the packets that were too large (nocong_losses: all
#      those out, also the ones still on their way, whose originals may
#      arrive before the copies leave) and took no timeout for them:
#      rto_resets grew no more than the sender's TCPTimeouts
#   4. nor losses for the law: no RACK-timer losses (timer_losses, which
#      a count not taken again at the MTU's Loss would report) and no
#      more loss cuts than TCP's SACK recoveries

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"

topo_require_testbed
port=6098
st=/sys/kernel/aicc/aicc/stats
TOPO_AQM=none

ktap_plan 4

topo_test_module "$TOPO_KO"
[ -r "$st/nocong_losses" ] || ktap_skip_all "no $st/nocong_losses"

topo_start_server $port --cc aicc

read -r n0 r0 l0 t0 < <(topo_stats aicc nocong_losses rto_resets \
	loss_reductions timer_losses)
(sleep 1.5; topo_rtr ip link set dev r0 mtu 1280) &
lower=$!
topo_gen_to bulk 1 bulk -p $port -n 1 -t 4 --cc aicc
wait $lower
read -r n1 r1 l1 t1 < <(topo_stats aicc nocong_losses rto_resets \
	loss_reductions timer_losses)
# the sender's TCP over the run (aiccgen's netns counters)
to=$(topo_gen_netns "$TOPO_TMP/bulk.json" rto_timeouts)
rec=$(topo_gen_netns "$TOPO_TMP/bulk.json" sack_recoveries)
to=${to:-0}
rec=${rec:-0}
route=$(topo_snd 1 ip route get "$TOPO_RCV_ADDR")

ktap_info "MTU 1280: nocong_losses +$((n1 - n0)), rto_resets +$((r1 - r0))" \
	"(TCP timeouts +$to), loss_reductions +$((l1 - l0))" \
	"(SACK recoveries +$rec), timer_losses +$((t1 - t0))"
ktap_expect "the sender learned the path MTU ($(echo "$route" | grep -o 'mtu [0-9]*'))" \
	"$(echo "$route" | grep -c 'mtu 1280') -eq 1"
ktap_expect "too large, counted, no timeout (nocong_losses +$((n1 - n0)), rto_resets +$((r1 - r0)) <= +$to)" \
	"$((n1 - n0)) -gt 0 -a $((r1 - r0)) -le $to"
ktap_expect "no losses for the law (timer_losses +$((t1 - t0)), loss_reductions +$((l1 - l0)) <= +$rec)" \
	"$((t1 - t0)) -eq 0 -a $((l1 - l0)) -le $rec"
ktap_finish
