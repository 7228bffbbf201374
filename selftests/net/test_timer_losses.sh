#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Losses that no ACK reports reach aicc's law.  A rate sample counts only
# the packets its own ACK marks lost; the packets RACK's reordering timer
# marks (tcp_rack_reo_timeout(), outside any ACK) are in none, and aicc,
# which takes losses from the rate sample (cong_control), never heard of
# them.  The module now compares the stack's count of lost packets
# (tp->lost) with what the samples report and adds the difference to the
# next ACK's losses (stats/timer_losses).
#
# Short synchronized bursts (16 KB, twelve packets, on four aicc_bulk
# connections) through the dumbbell: a lost packet followed within a
# quarter of the minimum RTT by a delivered one is what RACK's timer
# finds.  The data path drops 10 % of the packets (netem on the sender's
# interface) in the second phase only: 40-60 such packets in 100
# iterations, on 6.1 and 6.12 (with 3-packet bursts, none or a few: most
# of their losses are the tail's, which probes and timeouts repair).
#
#   1. topology and server
#   2. without loss, nothing is counted
#   3. with loss, timer_losses grows
#   4. ... by no more than the packets sent again (every packet marked
#      lost is retransmitted): the count is of lost packets, not of ACKs

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"

topo_require_testbed
port=6096
st=/sys/kernel/aicc/aicc_bulk/stats

ktap_plan 4

topo_test_module "$TOPO_KO"
[ -r "$st/timer_losses" ] || ktap_skip_all "no $st/timer_losses"

topo_start_server $port --cc aicc_lat

bursts()
{
	topo_gen_to "$1" 1 incast -p $port -n 4 --size 16K --iters 100 \
		--gap 10 --cc aicc_bulk
}

t0=$(cat "$st/timer_losses")
bursts clean && ran=1 || ran=0
t1=$(cat "$st/timer_losses")
ktap_expect "no loss, nothing counted (timer_losses +$((t1 - t0)))" \
	"$ran -eq 1 -a $t1 -eq $t0" "the clean bursts ran: $ran"

topo_snd 1 tc qdisc replace dev eth0 root netem loss 10%
bursts lossy
t2=$(cat "$st/timer_losses")
topo_snd 1 tc qdisc del dev eth0 root
r=$(topo_gen_netns "$TOPO_TMP/lossy.json" retrans_segs)
ktap_info "10 % loss: timer_losses +$((t2 - t1)), segments sent again $r"
ktap_expect "losses found outside ACKs were counted (+$((t2 - t1)))" \
	"$t2 -gt $t1"
ktap_expect "no more than the packets sent again ($((t2 - t1)) <= $r)" \
	"$((t2 - t1)) -le ${r:-0}"
ktap_finish
