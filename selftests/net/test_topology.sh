#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Checks the testbed itself (selftests/lib/topo.sh), so that the behaviour
# tests built on it measure aicc and not a broken rig:
#   - every veth on the path has TSO/GSO/GRO off;
#   - netem adds the configured delay: ping min RTT >= TOPO_DELAY;
#   - the htb bottleneck is enforced: one cubic bulk flow gets 0.7..1.05 of
#     the configured rate (goodput, so headers already cost ~4 %);
#   - RED step marking sets CE on an ECN flow (marks > 0) and the flow
#     loses (almost) nothing at the bottleneck;
#   - fq_codel's ce_threshold variant marks CE too;
#   - topo_cleanup removes every namespace of the run.
# Only stock algorithms (cubic) are used: this runs without the module.
# Margins are wide on purpose: the emulated machine is shared and noisy.
# On the debug kernel (AICC_DEBUG_KERNEL=1) the rate margin is
# informational (ktap_expect_perf in selftests/lib/ktap.sh).

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"

ktap_require_root
ktap_require ip tc ethtool ping iperf3 ss

RATE_MBIT=${RATE_MBIT:-20}
DELAY_MS=${DELAY_MS:-10}
SECS=${SECS:-8}

ktap_plan 8

TOPO_RATE=${RATE_MBIT}mbit TOPO_DELAY=${DELAY_MS}ms TOPO_AQM=red TOPO_ECN_K=30000
if ! topo_setup; then
	ktap_fail "topology setup"
	ktap_finish
fi
ktap_pass "topology setup"
ktap_info "namespaces: ${TOPO_NS_SND[1]} $TOPO_NS_RTR $TOPO_NS_RCV"

# 1. offloads
bad=
for pair in "${TOPO_NS_SND[1]}:eth0" "$TOPO_NS_RTR:s1" "$TOPO_NS_RTR:r0" "$TOPO_NS_RCV:eth0"; do
	ns=${pair%%:*} dev=${pair#*:}
	k=$(topo_exec "$ns" ethtool -k "$dev")
	for f in tcp-segmentation-offload generic-segmentation-offload generic-receive-offload; do
		echo "$k" | grep -q "^$f: off" || bad+=" $ns/$dev:$f"
	done
done
if [ -z "$bad" ]; then
	ktap_pass "offloads off on every veth"
else
	ktap_fail "offloads off on every veth" "still on:$bad"
fi

# 2. netem delay on the ACK path
read -r rmin ravg rmax < <(topo_ping_rtt 1 10)
ktap_info "ping RTT min/avg/max: $rmin/$ravg/$rmax ms (netem ${DELAY_MS} ms)"
ktap_expect_range "ping min RTT >= netem delay" "${rmin:-}" "$DELAY_MS" $((DELAY_MS + 100)) " ms"

# 3+4. rate enforced, RED marks
topo_iperf_server 5201 || { ktap_fail "iperf3 server"; ktap_finish; }
m0=$(topo_qstat marks)
d0=$(topo_qstat drops)
p0=$(topo_qstat sent_pkts)
bps=$(topo_bulk 1 cubic "$SECS" 5201)
m1=$(topo_qstat marks)
d1=$(topo_qstat drops)
p1=$(topo_qstat sent_pkts)
ratio=$(awk -v b="${bps:-0}" -v r="$TOPO_RATE_BPS" 'BEGIN { printf "%.3f", b / r }')
ktap_info "cubic: $bps bit/s over ${SECS}s = $ratio x ${RATE_MBIT} Mbit/s"
ktap_expect_perf "htb enforces the rate (cubic goodput / rate)" "$ratio" 0.70 1.05
marks=$((m1 - m0))
drops=$((d1 - d0))
pkts=$((p1 - p0))
ktap_info "red: $pkts packets, $marks CE marks, $drops drops"
ktap_expect "red marks CE on an ECN flow" "$marks -gt 0" "no CE marks (marks $m0 -> $m1)"
# An ECN flow should not overflow a 400 KB buffer; allow 1 % for slow start.
ktap_expect "ECN flow is not dropped at the bottleneck (< 1 %)" \
	"$((drops * 100)) -le $pkts" "drops $drops of $pkts packets"

# 5. cleanup removes every namespace of the run
id=$TOPO_ID
topo_cleanup
left=$(ip netns list | grep -c "aicc-$id-")
ktap_expect "cleanup removes the namespaces" "$left -eq 0" "$left namespaces left"

# 6. fq_codel ce_threshold variant, on a fresh topology
TOPO_AQM=fq_codel TOPO_CE_THRESHOLD=2ms
if topo_setup && topo_iperf_server 5202 && topo_bulk 1 cubic 4 5202 > /dev/null; then
	m=$(topo_qstat marks)
	ktap_info "fq_codel: ${m:-?} CE marks"
	ktap_expect "fq_codel ce_threshold marks CE" "${m:-0} -gt 0" "no CE marks"
else
	ktap_fail "fq_codel ce_threshold marks CE" "setup or traffic failed"
fi
topo_cleanup

ktap_finish
