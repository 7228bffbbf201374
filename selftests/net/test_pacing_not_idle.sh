#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Linux raises CA_EVENT_TX_START whenever it sends with nothing in flight.
# Without fq on the sender, TCP paces by itself and keeps a packet in the
# stack until its time, so a flow paced slower than its ACKs return
# empties the pipe between two packets of one burst.  aicc took every
# such start more than a round trip after the last ACK for an idle
# period and resumed: the round restarted and lost its samples, the
# window neither grew nor took a delay cut, and the next packet was held
# back.  aicc_idle_start() now also asks for two packet times at the
# flow's rate since the last ACK, which the pacer's own wait never is.
#
# The regime needs small windows paced slowly: the fabric-256 table
# (tools/tune/results/fabric-256.conf: pacing gain 1 below two packets,
# a flow-scaling target of twice the base RTT there), 16 aicc bulk flows
# through the 20 Mbit/s, 5 ms dumbbell (8 packets in flight between
# them), the sender's device without a qdisc (veth: noqueue).  None of
# the flows is ever idle: a resume is such a start.  Before: 11-36
# resumes in 6 s (6.1 and 6.12); now 0-3, most runs 0 (the bound leaves
# room for pacing timers that fire late on a busy host).
#
#   1. topology and server
#   2. the table loaded, the sender without fq, the run complete
#   3. idle resumes (stats/idle_restarts) during the run: at most 8

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"

topo_require_testbed
port=6120
tool=$dir/../../build/aicc
table=$dir/../../tools/tune/results/fabric-256.conf
st=/sys/kernel/aicc/aicc/stats

ktap_plan 3

topo_test_module "$TOPO_KO"
[ -x "$tool" ] || ktap_skip_all "no $tool (make tools)"
[ -r "$st/idle_restarts" ] || ktap_skip_all "no $st/idle_restarts"

TOPO_RATE=20mbit TOPO_DELAY=5ms
topo_start_server $port
set_ok=1
"$tool" profile save "$TOPO_TMP/saved.conf" &&
	topo_atexit "'$tool' profile load '$TOPO_TMP/saved.conf'" &&
	"$tool" profile load "$table" || set_ok=0
qd=$(topo_snd 1 tc qdisc show dev eth0 | head -1)
case $qd in *" fq "*) set_ok=0 ;; esac
r0=$(cat "$st/idle_restarts")
topo_gen_to bulk 1 bulk -p $port -n 16 -t 6 --cc aicc
grc=$?
r1=$(cat "$st/idle_restarts")
ktap_info "sender qdisc: $qd; idle_restarts $r0 -> $r1"
ktap_expect "the table loaded, the sender without fq, the run complete (aiccgen exit $grc)" \
	"$set_ok -eq 1 -a $grc -eq 0"
ktap_expect_range "idle resumes during 6 s of bulk flows" "$((r1 - r0))" 0 8
ktap_finish
