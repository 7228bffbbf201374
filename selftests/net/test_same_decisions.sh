#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One algorithm, one source: the module and the userspace build of the core
# (simulator, tuner, unit tests) make the same decisions.  Real aicc
# traffic through the bottleneck of selftests/lib/topo.sh (RED step ECN, so
# the flows cut) is recorded with the aicc:aicc_core tracepoint -- every
# call into the core, its inputs and the flow's state after it -- and
# aicc-replay feeds the same calls to the userspace core, comparing every
# state byte and event.  A bulk phase gives rounds and ECN cuts; incast
# bursts with idle gaps give idle restarts; a bulk phase through a
# reordering netem on the sender gives spurious recoveries, which TCP
# undoes (aicc_on_undo()).
#
# Both ends run aicc with default knobs (the replay assumes them).

dir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$dir/../.." && pwd)
. "$dir/../lib/ktap.sh"
. "$dir/../lib/topo.sh"
. "$dir/../lib/trace.sh"

ktap_require_root
ktap_require ip tc ethtool
kver=$(uname -r)
ko=${AICC_KO:-$top/build/$kver/tcp_aicc.ko}
replay=$top/build/aicc-replay
[ -f "$ko" ] || ktap_skip_all "no module built for $kver"
[ -x "$replay" ] || ktap_skip_all "no $replay (make tools)"
topo_have_gen || ktap_skip_all "no traffic generator (make tools)"

port=6070

ktap_plan 7

topo_test_module "$ko"
trace_have aicc_core ||
	ktap_skip_all "no aicc:aicc_core tracepoint (tracefs missing?)"

TOPO_RATE=20mbit TOPO_DELAY=5ms TOPO_AQM=red TOPO_ECN_K=30000
TOPO_SENDER_QDISC=fq
topo_start_server $port --cc aicc

trace_start aicc_core
topo_gen 1 bulk -p $port -n 2 -t 3 --cc aicc > "$TOPO_TMP/bulk.json" \
	2> "$TOPO_TMP/bulk.err"
topo_gen 1 incast -p $port -n 4 --size 256K --iters 4 --gap 200 --cc aicc \
	> "$TOPO_TMP/incast.json" 2> "$TOPO_TMP/incast.err"
# reordering: spurious recoveries that TCP undoes (test_undo.sh)
topo_snd 1 tc qdisc replace dev eth0 root netem delay 3ms reorder 95%
topo_gen 1 bulk -p $port -n 2 -t 4 --cc aicc > "$TOPO_TMP/reorder.json" \
	2> "$TOPO_TMP/reorder.err"
trace_stop "$TOPO_TMP/trace"

out=$("$replay" "$TOPO_TMP/trace" 2>&1) && rc=0 || rc=$?
ktap_info "$(echo "$out" | tail -5)"
# Keep the recording of a failed replay in the VM's result directory.
[ "$rc" -ne 0 ] && [ -d "${AICC_OUT:-}" ] &&
	cp "$TOPO_TMP/trace" "$AICC_OUT/aicc_core.trace" &&
	ktap_info "trace kept in $AICC_OUT/aicc_core.trace"
sum=$(echo "$out" | tail -1)
num()	# NAME: the number before NAME in the summary
{
	local n

	n=$(echo "$sum" | grep -oE "[0-9]+ $1" | head -1 | cut -d' ' -f1)
	echo "${n:-0}"
}
acks=$(echo "$sum" | grep -oE 'ack [0-9]+' | head -1 | cut -d' ' -f2)
acks=${acks:-0}
ktap_expect "aicc-replay: identical decisions" "$rc -eq 0" \
	"aicc-replay exit status $rc"
ktap_expect "the trace covers thousands of ACKs and many rounds" \
	"$acks -ge 2000 -a $(num rounds) -ge 50" \
	"acks $acks, rounds $(num rounds)"
ktap_expect "the trace covers cuts" "$(num cuts) -ge 1"
ktap_expect "the trace covers idle restarts" "$(num 'idle restarts') -ge 1"
undos=$(echo "$sum" | grep -oE 'undo [0-9]+' | head -1 | cut -d' ' -f2)
ktap_expect "the trace covers undone cuts" "${undos:-0} -ge 1"
# Every flow began after the recording did, so no call comes before its
# flow's init: not even the ACK of an active open's SYN-ACK, which the
# kernel processes (and hands to cong_control) before init runs.
skips=$(echo "$out" | grep -m 3 'skipped: no init')
[ -n "$skips" ] && ktap_info "$skips"
ktap_expect "no call into the core before its flow's init" \
	"$(num skipped) -eq 0" "$(num skipped) calls skipped"

ktap_finish
