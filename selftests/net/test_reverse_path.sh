#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Queueing on the way back is not this flow's queue.  An RPC probe (256-byte
# requests, 1 KiB responses, Poisson at 200/s, one persistent connection)
# runs under two aicc bulk flows through the bottleneck
# (selftests/lib/topo.sh).  The responses travel the uncongested reverse
# path, but their ACKs cross the bulk flows' queue, so the response flow's
# RTT carries that queue.  aicc removes it with the peer's TCP timestamps
# (aicc_fwd_rtt(), Documentation/algorithm.rst).  The results, by their
# KTAP numbers:
#
#   1. the testbed and the server start;
#   2. every request is answered;
#   3. the response flow's queueing delay, as the core saw it (the
#      aicc:aicc_update tracepoint), has a median at most half its median
#      target (without the correction it sat at the bulk flows' queue,
#      0.9 of its target, and the flow was cut on it);
#   4. at most a quarter of the request flow's idle resumes lower its
#      window: its busy periods are application-limited, so their rate is
#      the requests', not the path's (Documentation/algorithm.rst,
#      RESUME).  The module of a7c33ad, which resized the window whenever
#      the busy period met congestion, lowered it at 11-18 of 24-33
#      resumes and held it at a median of 1.8-2.8 packets (three runs,
#      6.1); the module since 50f1076, at none of 26-38, a median of 10
#      (eight runs).  Fewer than 10 resumes is a failure (no result);
#   5. the probe's p99 latency is at most 4 times the p99 of the same
#      run with the server's side on cubic (no delay signal to mistake),
#      measured in the same guest run;
#   6. the same, against the target of 1.5 times (a miss is a TODO).
#
# Then the ACK path's delay drops to 2 ms, too short for millisecond
# timestamps (a tick must be at most a quarter of the base RTT), and the
# aicc probe runs twice more: as it is, and with the route feature
# tcp_usec_ts set on both ends (6.7 and later; skipped on 6.1 and without
# bookworm-backports' iproute2, which make deps unpacks):
#
#   7. every request answered in both;
#   8. with microsecond timestamps the response flow's median queueing
#      delay is at most half its median target;
#   9. with millisecond ones it is at least half (the correction is off:
#      the case 8 tells apart; a miss is a TODO on the debug kernel only).
#
# Before the correction (commit a99e60e, stock 6.1) the p99 was 7 times
# the cubic server's (212 against 30 ms): the response flow was cut on the
# request path's queue, queued its answers behind a window of two packets
# and a pacing rate below their rate.  With it, 14 runs (make check-repeat,
# 8 on 6.12, 6 on 6.1): p99 ratio 0.87-1.32, median 0.97, and once 2.61
# (71 ms, 6.1); queue / target 0.025-0.35, median 0.07 (one run of the
# first version of check 2 parsed no rounds: the flow stayed in fast start).
# The module of a99e60e fails check 2 (0.77; its p99 ratio was 1.66 in
# that run, 4 s of requests with no earlier run to the peer).

dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"
. "$dir/../lib/trace.sh"

topo_require_testbed
ko=$TOPO_KO
port=5970

ktap_plan 9

topo_test_module "$ko"
trace_have aicc_update || ktap_skip_all "no aicc:aicc_update"

TOPO_SENDERS=3 TOPO_RATE=20mbit TOPO_DELAY=5ms TOPO_AQM=red
TOPO_ECN_K=30000 TOPO_SENDER_QDISC=fq
topo_start_server $port --cc aicc

# probe SERVER_CC OUT: the probe connects first; the bulk flows start 0.3 s
# later, the requests 1.5 s after the connection (the bench's rpc scenario).
probe()
{
	local scc=$1 out=$2 bp

	{
		sleep 0.3
		exec "$TOPO_AICCGEN" bulk -j -c "$TOPO_RCV_ADDR" -p $port \
			--netns "${TOPO_NS_SND[1]},${TOPO_NS_SND[2]}" --cc aicc \
			-n 2 -t 7
	} > "$TOPO_TMP/bulk-$scc.json" 2> /dev/null &
	bp=$!
	topo_gen 3 rpc -p $port --cc aicc --server-cc "$scc" --req 256 \
		--resp 1K --rate 200 -t 4 --seed 3 --start-delay 1.5 \
		> "$out" 2> "$out.err"
	wait "$bp"
}

# "answered sent p99_ms" of an rpc JSON
rpc_stats()
{
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print("%d %d %.2f" % (r["completed"], r["sent"], r["latency"]["p99_us"] / 1e3))
' "$1" 2> /dev/null
}

# traced_probe OUT TRACE: probe with an aicc server; the aicc:aicc_update
# events of the server's sockets and of the connections to its port (the
# request flow's and the bulk flows') into TRACE, in the order the calls
# ran (trace.sh's counter clock: client_window() compares each resume with
# the event before it, which another CPU may have recorded)
traced_probe()
{
	local filter=$TRACE_FS/events/aicc/aicc_update/filter

	echo "sport == $port || dport == $port" > "$filter"
	trace_start aicc_update
	probe aicc "$1"
	trace_stop "$2"
	echo 0 > "$filter"
}

# queue_ratio TRACE: "ratio q_us target_us rounds" of the server's response
# flow: of the sockets on the server's port, the one with the most rounds
# (the bulk flows' server sockets send no data).  Median queueing delay
# over median target, over its rounds (in fast start too: an
# application-limited flow that sees no queue stays there).
queue_ratio()
{
	python3 -c '
import re, sys
flows = {}
for l in open(sys.argv[1]):
    m = re.search(r"dport=(\d+) .*ev=0x([0-9a-f]+) .*target_us=(\d+) qdelay_us=(\d+)", l)
    if m and int(m.group(2), 16) & 1 and " sport=%s " % sys.argv[2] in l:
        flows.setdefault(m.group(1), []).append((int(m.group(3)), int(m.group(4))))
if not flows:
    sys.exit(1)
r = max(flows.values(), key=len)
if len(r) < 50:
    sys.exit(1)
med = lambda v: sorted(v)[len(v) // 2]
t, q = med([x[0] for x in r]), med([x[1] for x in r])
print("%.3f %d %d %d" % (q / t, q, t, len(r)))
' "$1" "$port"
}

# client_window TRACE: "median_cwnd resumes cut" of the request flow: of the
# connections to the server's port (the bulk flows' too; by their source
# port, as the trace hides socket addresses), the one that resumed after
# idle most often.  Its window over the events from its first
# resume on, in packets; and of its resumes, how many lowered the window
# that its previous event left.
client_window()
{
	python3 -c '
import re, sys
ev = {}
for l in open(sys.argv[1]):
    m = re.search(r" sport=(\d+) dport=%s .*ev=0x([0-9a-f]+) cwnd_x16=(\d+)" % sys.argv[2], l)
    if m:
        ev.setdefault(m.group(1), []).append((int(m.group(2), 16), int(m.group(3))))
res = lambda e: [i for i, x in enumerate(e) if x[0] & 0x80 and i]
if not ev:
    sys.exit(1)
e = max(ev.values(), key=lambda e: len(res(e)))
r = res(e)
if len(r) < 10:
    sys.exit(1)
w = sorted(x[1] for x in e[r[0]:])
cut = sum(1 for i in r if e[i][1] < e[i - 1][1])
print("%.1f %d %d" % (w[len(w) // 2] / 16, len(r), cut))
' "$1" "$port"
}

# answered NAME LABEL_A JSON_A LABEL_B JSON_B: one result, every request of
# both runs answered; their p99s (ms) left in P99_A and P99_B
answered()
{
	local n_a s_a n_b s_b

	read -r n_a s_a P99_A < <(rpc_stats "$3")
	read -r n_b s_b P99_B < <(rpc_stats "$5")
	ktap_info "$2: ${n_a:-?} of ${s_a:-?} answered, p99 ${P99_A:-?} ms"
	ktap_info "$4: ${n_b:-?} of ${s_b:-?} answered, p99 ${P99_B:-?} ms"
	ktap_expect "$1" \
		"${n_a:-0} -eq ${s_a:--1} -a ${n_b:-0} -eq ${s_b:--1} -a ${s_a:-0} -gt 0"
}

# flow_queue LABEL TRACE: the response flow's queue_ratio into Q_RATIO,
# the numbers behind it as a diagnostic
flow_queue()
{
	local q t r

	read -r Q_RATIO q t r < <(queue_ratio "$2")
	ktap_info "response flow, $1: median queueing delay ${q:-?} us, target ${t:-?} us, ${r:-?} rounds"
}

traced_probe "$TOPO_TMP/rpc-aicc.json" "$TOPO_TMP/trace.txt"
probe cubic "$TOPO_TMP/rpc-cubic.json"

answered "every request answered" "responses on aicc" \
	"$TOPO_TMP/rpc-aicc.json" "responses on cubic" "$TOPO_TMP/rpc-cubic.json"
p99_ratio=$(topo_ratio "${P99_A:-}" "${P99_B:-}")
flow_queue "aicc server" "$TOPO_TMP/trace.txt"
ktap_expect_range "response flow: median queueing delay / target" \
	"${Q_RATIO:-x}" 0 0.5
read -r C_WND C_RES C_CUT < <(client_window "$TOPO_TMP/trace.txt")
ktap_info "request flow: median window ${C_WND:-?} packets; ${C_CUT:-?} of its ${C_RES:-?} resumes cut it"
ktap_expect_perf "request flow: resumes that cut its window / all" \
	"$(topo_ratio "${C_CUT:-}" "${C_RES:-}")" 0 0.25
ktap_expect_perf "probe p99 with aicc responses / with cubic's" \
	"$p99_ratio" 0 4.0
ktap_target "probe p99 with aicc responses / with cubic's, target 1.5" \
	"$p99_ratio" 0 1.5

# Microsecond timestamps.  At a base RTT of 2 ms a millisecond tick is more
# than a quarter of it, so aicc_fwd_rtt() corrects nothing and the response
# flow sees the bulk flows' queue as its own; with the route feature
# tcp_usec_ts (6.7 and later) on both ends, the timestamps tick in
# microseconds and it does not.  iproute2 6.1 cannot set the feature:
# make deps unpacks bookworm-backports' into /opt/aicc-iproute2.
ipb=${AICC_IPROUTE2:-/opt/aicc-iproute2/bin/ip}
us_names=("2 ms base RTT: every request answered"
	  "us timestamps at 2 ms: median queueing delay / target"
	  "ms timestamps at 2 ms: median queueing delay / target")
# us_none skip|fail REASON: the same result for each of the three
us_none()
{
	local n

	for n in "${us_names[@]}"; do
		"ktap_$1" "$n" "$2"
	done
}

if [ ! -x "$ipb" ]; then
	us_none skip "no $ipb (make deps)"
elif ! topo_rcv "$ipb" route add 10.77.250.0/24 via 10.77.200.254 \
	features tcp_usec_ts 2> "$TOPO_TMP/feat.err"; then
	ktap_info "$(head -1 "$TOPO_TMP/feat.err")"
	us_none skip "the kernel has no route feature tcp_usec_ts (6.7+)"
elif ! topo_rcv tc qdisc change dev eth0 root netem delay 2ms limit 100000; then
	us_none fail "cannot set the ACK path to 2 ms"
else
	topo_rcv "$ipb" route del 10.77.250.0/24
	traced_probe "$TOPO_TMP/rpc-ms.json" "$TOPO_TMP/trace-ms.txt"
	if ! topo_rcv "$ipb" route replace default via 10.77.200.254 \
		features tcp_usec_ts ||
	   ! topo_snd 3 "$ipb" route replace default via 10.77.3.254 \
		features tcp_usec_ts; then
		us_none fail "cannot set tcp_usec_ts on the default routes"
	else
		traced_probe "$TOPO_TMP/rpc-us.json" "$TOPO_TMP/trace-us.txt"
		answered "${us_names[0]}" "2 ms, ms timestamps" \
			"$TOPO_TMP/rpc-ms.json" "2 ms, us timestamps" \
			"$TOPO_TMP/rpc-us.json"
		flow_queue "us timestamps" "$TOPO_TMP/trace-us.txt"
		ktap_expect_range "${us_names[1]}" "${Q_RATIO:-x}" 0 0.5
		flow_queue "ms timestamps" "$TOPO_TMP/trace-ms.txt"
		ktap_expect_perf "${us_names[2]}" "${Q_RATIO:-x}" 0.5 100
	fi
fi

ktap_finish
