#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A connection that did not negotiate ECN sends without ECT.  aicc flags
# that it needs ECN, so Linux marks the socket ECN-capable (ECT(0)) for
# its SYN and again when the congestion control is set up, and clears it
# only for an algorithm without that flag; the handshake's outcome does
# not change it.  A peer that refuses ECN -- a Linux listener whose own
# algorithm does not need ECN does, whatever its tcp_ecn, for a SYN that
# is itself ECT -- then got every data packet ECN-capable, a marking
# switch marked them instead of dropping, and no receiver echoed the
# marks.  The module now moves such a connection to an unregistered twin
# of its profile without the flag (as DCTCP moves to its Reno), the same
# law on delay and loss, and counts it (stats/no_ecn_inits).
#
# One aicc bulk flow for 4 s through the 20 Mbit/s dumbbell whose RED leaf
# marks, or drops what is not ECN-capable, above 3 KB (two packets:
# below aicc's delay target, so the queue crosses it all the time), to a
# cubic listener and then to an aicc one.
#
#   1. topology and servers
#   2. to the cubic listener: the flow ran and each new aicc flow was
#      counted in no_ecn_inits
#   3. ... the RED leaf marked none of its packets (5288 before the fix)
#   4. ... and dropped some: the queue did cross the threshold
#   5. to the aicc listener (ECN negotiated): not counted, and the leaf
#      marked its packets -- the counter and the marks tell the cases
#      apart

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"

topo_require_testbed
plain=6131
ecn=6132
st=/sys/kernel/aicc/aicc/stats
TOPO_ECN_K=3000

ktap_plan 5

topo_test_module "$TOPO_KO"
[ -r "$st/no_ecn_inits" ] || ktap_skip_all "no $st/no_ecn_inits"

if ! topo_setup || ! topo_gen_server $plain --cc cubic ||
	! topo_gen_server $ecn --cc aicc; then
	ktap_fail "topology and servers"
	ktap_finish
fi
ktap_pass "topology and servers"

# run NAME PORT: one aicc bulk flow for 4 s; sets ran, n (no_ecn_inits
# added), i (flows_total added), mk (packets marked), dr (packets dropped)
run()
{
	local n0 i0 m0 d0

	read -r n0 i0 < <(topo_stats aicc no_ecn_inits flows_total)
	m0=$(topo_qstat marks) d0=$(topo_qstat drops)
	topo_gen_to "$1" 1 bulk -p "$2" -t 4 --cc aicc && ran=1 || ran=0
	read -r n i < <(topo_stats aicc no_ecn_inits flows_total)
	n=$((n - n0)) i=$((i - i0))
	mk=$(($(topo_qstat marks) - m0)) dr=$(($(topo_qstat drops) - d0))
	ktap_info "$1: no_ecn_inits +$n, flows_total +$i, marked $mk, dropped $dr"
}

run plain $plain
ktap_expect "to cubic: the flow ran, each new aicc flow counted without ECN" \
	"$ran -eq 1 -a $n -ge 1 -a $n -eq $i"
ktap_expect_range "to cubic: its packets marked" "$mk" 0 0
ktap_expect_range "to cubic: its packets dropped above the threshold" \
	"$dr" 1 1000000000

run ecn $ecn
ktap_expect "to aicc: the flow ran, ECN negotiated (not counted), packets marked" \
	"$ran -eq 1 -a $n -eq 0 -a $mk -gt 0"
ktap_finish
