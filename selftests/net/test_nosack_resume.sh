#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Without SACK, Linux leaves a recovery only once data above high_seq is
# acknowledged (tcp_try_undo_recovery(), tcp_try_undo_loss(): the NewReno
# rule against false fast retransmits).  A burst that lost a packet and
# whose recovery ended with its last byte stays in Recovery, or Loss,
# through the idle gap after it.  aicc used to ignore CA_EVENT_TX_START in
# those states, taking them for the first retransmission after a timeout,
# so the next burst of such a connection was no resume (no idle_restarts,
# no resume hold, and after a long gap no restart in fast start).  It now
# ignores the event only while packets are out, which a retransmission has
# and an idle start has not.
#
# One aicc connection with SACK off (the sender's net.ipv4.tcp_sack 0)
# sends 30 iterations of 64 KB, 100 ms apart, through the 20 Mbit/s
# dumbbell; the sender's own qdisc (netem) drops 5 % of its packets, so
# most bursts lose one and recover by NewReno.  The gaps are far shorter
# than rate_memory_ms, so every iteration after the flow's fast start
# ended is a resume.  The server's side runs cubic: its replies, whose
# ACKs the sender's netem drops too, would count their own resumes in the
# same profile.  (More resumes than gaps are counted, 30-38 with the fix,
# 18-24 before it, in runs of 6.1 and 6.12: a trace of the core's
# transmit starts shows each extra one 10-20 ms into a burst, 5-15 ms
# after the last ACK, with every byte written so far acknowledged -- the
# application's next write came late, a pause of more than a base RTT
# with nothing to send.  Not the pacer's wait between two packets, which
# aicc_idle_start() has not counted since 7 December 2026: the counts
# were the same with and without it.)
#
#   1. topology and server
#   2. the bursts lost packets: loss_reductions grew by 5 or more
#   3. resumes (stats/idle_restarts) in at least iterations - 3

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"

topo_require_testbed
port=6096
iters=30
st=/sys/kernel/aicc/aicc/stats

ktap_plan 3

topo_test_module "$TOPO_KO"
[ -r "$st/idle_restarts" ] || ktap_skip_all "no $st/idle_restarts"

TOPO_RATE=20mbit TOPO_DELAY=5ms TOPO_AQM=none
topo_start_server $port --cc cubic
set_ok=1
topo_snd 1 sysctl -qw net.ipv4.tcp_sack=0 || set_ok=0
topo_snd 1 tc qdisc replace dev eth0 root netem loss 5% limit 10000 || set_ok=0

l0=$(cat "$st/loss_reductions") r0=$(cat "$st/idle_restarts")
topo_gen 1 incast -p $port -n 1 --size 64K --iters $iters --gap 100 \
	--cc aicc > "$TOPO_TMP/incast.json" 2> "$TOPO_TMP/incast.err"
grc=$?
l1=$(cat "$st/loss_reductions") r1=$(cat "$st/idle_restarts")
ktap_info "aiccgen exit $grc; loss_reductions $l0 -> $l1, idle_restarts $r0 -> $r1 over $iters iterations"
ktap_expect "the bursts lost packets (loss_reductions +$((l1 - l0)), aiccgen exit $grc, SACK off and netem $set_ok)" \
	"$set_ok -eq 1 -a $grc -eq 0 -a $((l1 - l0)) -ge 5"
ktap_expect "every burst after fast start a resume (idle_restarts +$((r1 - r0)) of $((iters - 1)) gaps)" \
	"$((r1 - r0)) -ge $((iters - 3))"
ktap_finish
