#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# aicc through a real bottleneck, against cubic in the same guest run
# (selftests/lib/topo.sh: htb bottleneck, RED step ECN marking, netem delay
# on the ACK path, offloads off, fq on the sender):
#
#   1. one bulk flow: aicc's goodput (after the first 2 s) is at least 0.8
#      of the bottleneck rate (target 0.9); its p99 queueing delay
#      (bottleneck backlog sampled every 5 ms by qmon) over the same
#      window at most 1.5 times cubic's, and over the whole run, start-up
#      included, half of cubic's (the target);
#   2. four flows joining 2 s apart from one sender: Jain's index over the
#      time all four run is at least 0.9 (target 0.95), and their goodput
#      at least 0.8 of cubic's single flow in the same run (until 5
#      December 2026, of the configured rate).
#
# The targets are issue 2's; a miss is reported "not ok ... # TODO" (a
# known gap, counted as skipped) while the hard checks, with margins wide
# enough for this noisy emulated machine, guard against regressions.  On
# the debug kernel (AICC_DEBUG_KERNEL=1) those margins are informational
# too (ktap_expect_perf in selftests/lib/ktap.sh).
#
# Margins measured 20 runs in a row per kernel on the 2-core build host,
# otherwise idle (make check-repeat TEST=net/test_aicc_behaviour N=20
# KERNEL=6.1, then 6.12; commit c53e40f, the tuned default knobs of that
# time): every hard check passed 40 of 40; the whole-run target was met
# in 15 of 20 runs per kernel, the misses being fast start's overshoot.
# With the defaults of 1 December 2026 (make tune on core 6632ba4, with
# the start and testbed-stagger cases, Documentation/tuning.rst), 8 runs
# per kernel, min / median / max, 6.1 and 6.12:
#   utilisation                      0.956/0.956/0.956  0.955/0.956/0.957
#   p99 after 2 s / cubic's          0.524/0.547/0.667  0.524/0.524/0.619
#   Jain, four staggered flows       0.999/1.000/1.000  0.999/1.000/1.000
#   utilisation, staggered           0.955/0.956/0.956  0.956/0.956/0.956
# Every hard check passed 16 of 16.  The whole-run target (0.5) was met
# in 7 of 8 runs per kernel (0.22-0.37); start-up peaks were 7-10 ms in 6
# runs and 17-39 ms in ten, and the two misses (0.52 on 6.1, 1.16 on
# 6.12) were such peaks.  The table before it (make tune of 6c1e448) gave
# 0.891-0.956 utilisation and peaks of 6-9 ms in 11 of 16 runs.
# Then 20 runs per kernel (commit 56417e1, same table): every hard check
# passed 40 of 40; utilisation 0.951-0.957, p99 after 2 s 0.48-0.76 of
# cubic's, Jain 0.996-1.000.  The whole-run target was met in 20 of 20
# runs on 6.1 (start-up peaks 7-11 ms in 17 runs, 16-17 ms in three) but
# only 13 of 20 on 6.12 (peaks 19-38 ms in 11 runs; misses 0.63-1.08).
# Then the fast-start exit fix (the exit window sized also when the
# round's minimum sample is the base; Documentation/algorithm.rst, "Known
# limits"), same table: 20 runs on 6.12 and 8 on 6.1, every hard check
# passed 28 of 28; utilisation 0.947-0.956, p99 after 2 s 0.48-0.76 of
# cubic's, Jain 0.999-1.000.  The whole-run target was met in 20 of 20
# runs on 6.12 (0.22-0.37; peaks of 19-38 ms in 7 runs no longer reach
# the 99th percentile) and 7 of 8 on 6.1 (the miss, 0.55, with a 7.9 ms
# peak: cubic's own p99 was low in that run).
# Both ends run aicc (the receiver's aicc ACKs lone segments at once and
# echoes CE per packet); cubic talks to a cubic listener.

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"

topo_require_testbed
ko=$TOPO_KO

RATE_MBIT=${RATE_MBIT:-20}
DELAY_MS=${DELAY_MS:-10}
SECS=${SECS:-10}
port=5990

ktap_plan 8

topo_test_module "$ko"

TOPO_RATE=${RATE_MBIT}mbit TOPO_DELAY=${DELAY_MS}ms TOPO_AQM=red
TOPO_ECN_K=${TOPO_ECN_K:-40000} TOPO_SENDER_QDISC=fq
# The listener's algorithm decides whether ECN is negotiated (an ECN-capable
# SYN from aicc is accepted only by a listener whose algorithm needs ECN):
# one server per algorithm.
if ! topo_setup || ! topo_gen_server $port --cc aicc ||
   ! topo_gen_server $((port + 1)) --cc cubic; then
	ktap_fail "topology and server"
	ktap_finish
fi
ktap_pass "topology and server"

# goodput (Mbit/s, first 2 s excluded) and Jain's index from aiccgen JSON
summary()
{
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
iv = [i for i in r["intervals"] if i["start_s"] >= 2]
mb = sum(i["total_mbps"] for i in iv) / max(len(iv), 1)
j = (r.get("fairness") or {}).get("jain")
print("%.3f %s" % (mb, "-" if j is None else "%.4f" % j))
' "$1"
}

# bulk CC PORT -> "goodput_mbit p99_us steady_p99_us startup_peak_us":
# goodput after the first 2 s; the p99 queueing delay of the whole run
# (the issue's measure); the p99 after the first 2 s (the window goodput
# is measured over: 400 samples at 5 ms), which no start-up overshoot
# decides; and the largest delay of the first 2 s.
bulk()
{
	local cc=$1 j=$TOPO_TMP/bulk-$1.json

	topo_qsample_start 5
	topo_gen 1 bulk -p "$2" -n 1 -t "$SECS" --cc "$cc" \
		> "$j" 2> "$TOPO_TMP/bulk-$cc.err"
	topo_qsample_stop
	read -r mb _ < <(summary "$j")
	head -n 400 "$TOPO_QSAMPLE_FILE" > "$TOPO_TMP/qstart-$cc"
	echo "$mb $(topo_qsample_delay_us 99) $(topo_qsample_delay_us 99 400)" \
		"$(TOPO_QSAMPLE_FILE=$TOPO_TMP/qstart-$cc topo_qsample_delay_us 100)"
}

read -r a_mb a_q a_qs a_peak < <(bulk aicc $port)
read -r c_mb c_q c_qs c_peak < <(bulk cubic $((port + 1)))
ktap_info "aicc:  ${a_mb:-?} Mbit/s, p99 queueing delay ${a_q:-?} us, after 2 s ${a_qs:-?} us, start-up peak ${a_peak:-?} us"
ktap_info "cubic: ${c_mb:-?} Mbit/s, p99 queueing delay ${c_q:-?} us, after 2 s ${c_qs:-?} us, start-up peak ${c_peak:-?} us"
util=$(awk -v m="${a_mb:-0}" -v r="$RATE_MBIT" 'BEGIN { printf "%.3f", m / r }')
# against cubic's goodput in the same run: what the rig moves depends on
# how busy the host is (the target below is the configured rate's share)
ktap_expect_perf "aicc single flow goodput / cubic's" \
	"$(topo_ratio "${a_mb:-0}" "${c_mb:-0}")" 0.85 1.15
ktap_target "aicc single flow utilisation, target 0.9" "$util" 0.90 1.10
ktap_expect_perf "aicc p99 queueing delay after 2 s / cubic's" \
	"$(topo_ratio "$a_qs" "$c_qs")" 0 1.5
ktap_target "aicc p99 queueing delay / cubic's, target 0.5" \
	"$(topo_ratio "$a_q" "$c_q")" 0 0.5

# Four staggered flows from one sender.
j=$TOPO_TMP/stagger.json
topo_gen 1 bulk -p $port -n 4 -t $((SECS + 6)) --stagger 2000 --cc aicc \
	> "$j" 2> "$TOPO_TMP/stagger.err"
read -r mb jain < <(summary "$j")
ktap_info "4 staggered aicc flows: ${mb:-?} Mbit/s, Jain ${jain:-?}"
ktap_expect_perf "four staggered flows: Jain's index" "${jain:-x}" 0.90 1.0
ktap_target "four staggered flows: Jain's index, target 0.95" "${jain:-x}" 0.95 1.0
# against cubic's single flow in the same run, as the single flow's check:
# the configured rate is not what the rig moves when the host is busy
ktap_expect_perf "four staggered flows: goodput / cubic's single flow" \
	"$(topo_ratio "${mb:-0}" "${c_mb:-0}")" 0.80 1.15

ktap_finish
