#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A retransmission timeout is not an idle period.  After a timeout Linux
# marks everything in flight lost, so the first retransmission finds
# nothing in flight and raises CA_EVENT_TX_START, with the time since the
# last ACK as the gap.  aicc used to take that for a resume after idle
# (stats/idle_restarts): it put back the window of the busy period before
# the timeout, undoing the cut of aicc_on_rto(), and did so again at
# every backed-off retransmission.
#
# One aicc_bulk flow (its own profile, so its counters are its own; the
# server's side is aicc_lat) through the dumbbell; after 2 s the ACK path
# drops everything for 1.5 s (netem loss 100 %), which times out the flow
# four times with its backoff (6.1 and 6.12), then delivers again.  The sender
# never runs out of data (12 s of it), so no gap of its own is an idle
# period.
#
#   1. topology and server
#   2. the blackout timed the flow out (stats/rto_resets grew)
#   3. and no idle restart was counted (stats/idle_restarts unchanged)
#   4. the flow delivered again after the blackout: 500 KB within 8 s
#      (about 1 s on the stock kernels, up to several on the debug kernel,
#      whose backed-off timer can fire 2 s or more after the blackout)

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"

topo_require_testbed
port=6095
st=/sys/kernel/aicc/aicc_bulk/stats

ktap_plan 4

topo_test_module "$TOPO_KO"
[ -r "$st/idle_restarts" ] || ktap_skip_all "no $st/idle_restarts"

topo_start_server $port --cc aicc_lat

topo_gen 1 bulk -p $port -t 12 --interval 500 --cc aicc_bulk \
	> "$TOPO_TMP/bulk.json" 2> "$TOPO_TMP/bulk.err" &
gen=$!
sleep 2
r0=$(cat "$st/rto_resets") i0=$(cat "$st/idle_restarts")
topo_rcv tc qdisc change dev eth0 root netem delay "$TOPO_DELAY" \
	limit 100000 loss 100%
sleep 1.5
topo_rcv tc qdisc change dev eth0 root netem delay "$TOPO_DELAY" \
	limit 100000 loss 0%
rx0=$(topo_rx_bytes) t0=$SECONDS
# the backed-off retransmission timer decides when delivery resumes: on
# the stock kernels within a second, on the debug kernel up to seconds
again() { [ $(($(topo_rx_bytes) - rx0)) -gt 500000 ]; }
mod_wait_until 8 "500 KB delivered after the blackout" again
rx1=$(topo_rx_bytes) secs=$((SECONDS - t0))
r1=$(cat "$st/rto_resets") i1=$(cat "$st/idle_restarts")
wait "$gen"
ktap_info "rto_resets $r0 -> $r1, idle_restarts $i0 -> $i1, received after the blackout $((rx1 - rx0)) bytes in $secs s"
ktap_expect "the blackout timed the flow out (rto_resets +$((r1 - r0)))" \
	"$r1 -gt $r0"
ktap_expect "no idle restart counted (idle_restarts +$((i1 - i0)))" \
	"$i1 -eq $i0"
ktap_expect "the flow delivered again ($((rx1 - rx0)) bytes in $secs s)" \
	"$((rx1 - rx0)) -gt 500000"
ktap_finish
