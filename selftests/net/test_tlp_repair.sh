#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A loss that a tail-loss probe repaired reaches aicc's law.  When the
# last packets of a burst are lost, no later packet lets SACK or RACK find
# them; Linux sends the last one again as a probe, and when the ACKs then
# pass it with no D-SACK of the first copy, the probe repaired a loss
# (tcp_process_tlp_ack(), TCPLossProbeRecovery).  That copy was never
# marked lost, so no rate sample counts it, and Linux tells the congestion
# control only by entering CWR: aicc, which takes losses from the rate
# sample (cong_control), never heard of it.  The module now finds the CWR
# entry of such an ACK and reports one loss in its sample
# (stats/tlp_losses).
#
# Short synchronized bursts (4 KB, three packets, on four aicc_bulk
# connections) through a tail-drop dumbbell with no marking (an ACK that
# echoes a mark is not asked); the sender's interface drops 10 % of the
# packets (netem) in the second phase only.
#
#   1. topology and server
#   2. without loss, nothing is counted
#   3. with loss, tlp_losses grows
#   4. ... by exactly the repairs TCP counted in the sender's namespace
#      (TCPLossProbeRecovery), read once the connections have closed: a
#      probe of a burst's last packet is found to have repaired it only
#      when a later ACK passes it, the next burst's or, for the last
#      one, the FIN's.  Each reached the law, none twice, nothing else
#      was counted
#   5. and the law cut for them: loss_reductions grew by at least half
#      as many more than TCP's SACK recoveries and RACK-timer losses
#      (about one more per repair on 6.1; 0-8 more in all when the module
#      counts the repairs but does not report them to the law)

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"

topo_require_testbed
port=6099
st=/sys/kernel/aicc/aicc_bulk/stats
TOPO_AQM=none

ktap_plan 5

topo_test_module "$TOPO_KO"
[ -r "$st/tlp_losses" ] || ktap_skip_all "no $st/tlp_losses"

topo_start_server $port --cc aicc_lat

bursts()
{
	topo_gen_to "$1" 1 incast -p $port -n 4 --size 4K --iters 150 \
		--gap 10 --cc aicc_bulk
}

p0=$(topo_stats aicc_bulk tlp_losses)
bursts clean && ran=1 || ran=0
read -r p1 c1 m1 < <(topo_stats aicc_bulk tlp_losses \
	loss_reductions timer_losses)
ktap_expect "no loss, nothing counted (tlp_losses +$((p1 - p0)))" \
	"$ran -eq 1 -a $p1 -eq $p0" "the clean bursts ran: $ran"

x0=$(topo_tcpext 1 TCPLossProbeRecovery)
topo_snd 1 tc qdisc replace dev eth0 root netem loss 10%
bursts lossy
# the connections close (the FIN's ACK, a lost FIN's timeout)
sleep 2
read -r p2 c2 m2 < <(topo_stats aicc_bulk tlp_losses \
	loss_reductions timer_losses)
x1=$(topo_tcpext 1 TCPLossProbeRecovery)
topo_snd 1 tc qdisc del dev eth0 root
rep=$((${x1:--1} - ${x0:-0}))
rec=$(topo_gen_netns "$TOPO_TMP/lossy.json" sack_recoveries)
pr=$((p2 - p1)) cuts=$((c2 - c1)) tl=$((m2 - m1))
ktap_info "10 % loss: tlp_losses +$pr, TCPLossProbeRecovery +$rep," \
	"loss_reductions +$cuts, SACK recoveries ${rec:-?}, timer_losses +$tl"
ktap_expect "losses that probes repaired were counted (+$pr)" "$pr -gt 0"
ktap_expect "as many as TCP's repairs ($pr = $rep)" "$pr -eq $rep"
more=$((cuts - ${rec:-0} - tl))
ktap_expect "the law cut for them ($more more cuts, want >= $pr / 2)" \
	"$((2 * more)) -ge $pr"
ktap_finish
