#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The learned policy's ablation in the VM testbed: the same workloads with
# no model and with the trained model (tools/train/results/aicc.model),
# alternating, on the dumbbell of selftests/lib/topo.sh (4 senders, 20
# Mbit/s bottleneck with step ECN, 5 ms base RTT).  Needs make kmods tools
# selftests (the module, aiccgen, qmon).  Inside the VM rig only:
#
#   flock /tmp/aicc-vm.lock tools/vm/aicc-vm --kernel 6.1 --out DIR -- \
#	bash tools/train/vm-ablation.sh [REPEATS]
#
# Workloads: 8-way incast bursts (64 KiB per sender, 8 iterations, 100 ms
# gaps): completion time p50 and p99 / ideal; and two bulk flows, the
# second joining after 2 s: goodput, p99 queueing delay at the bottleneck,
# Jain's index.  Prints one line per run and the medians per arm.

set -u
dir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$dir/../.." && pwd)
# shellcheck source=../../selftests/lib/ktap.sh
. "$top/selftests/lib/ktap.sh"
# shellcheck source=../../selftests/lib/topo.sh
. "$top/selftests/lib/topo.sh"

reps=${1:-3}
ko=$top/build/$(uname -r)/tcp_aicc.ko
model=$top/tools/train/results/aicc.model
sys=/sys/kernel/aicc
port=5995
[ -f "$ko" ] && [ -f "$model" ] || { echo "no module or model" >&2; exit 4; }
command -v python3 > /dev/null || { echo "no python3" >&2; exit 4; }
# the bulk workload's queue samples: without qmon every run would lack
# its q99 column
[ -x "$TOPO_QMON" ] || { echo "no $TOPO_QMON (make selftests)" >&2; exit 1; }

rmmod tcp_aicc 2>/dev/null
insmod "$ko" || exit 1
topo_atexit "rmmod tcp_aicc 2>/dev/null"
TOPO_SENDERS=4 TOPO_RATE=20mbit TOPO_DELAY=5ms TOPO_AQM=red
TOPO_ECN_K=30000 TOPO_SENDER_QDISC=fq
topo_setup && topo_gen_server $port --cc aicc || exit 1

incast()	# -> "p50_ratio p99_ratio"
{
	topo_gen 1 incast -p $port -n 8 --size 64K --iters 8 --warmup 2 \
		--gap 100 --rate-mbit 20 --base-rtt 5000 --cc aicc \
		> "$TOPO_TMP/incast.json" 2>/dev/null
	python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print("%.3f %.3f" % (s["ratio_p50"], s["ratio_p99"]))
' "$TOPO_TMP/incast.json" 2>/dev/null || echo "nan nan"
}

bulk()	# -> "mbit q99_us jain" ("nan" for what was not measured)
{
	local q

	topo_qsample_start 5
	topo_gen 1 bulk -p $port -n 2 -t 8 --stagger 2000 --cc aicc \
		> "$TOPO_TMP/bulk.json" 2>/dev/null
	topo_qsample_stop
	q=$(topo_qsample_delay_us 99)
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
iv = [i for i in r["intervals"] if i["start_s"] >= 3]
mb = sum(i["total_mbps"] for i in iv) / max(len(iv), 1)
j = (r.get("fairness") or {}).get("jain")
print("%.2f %s %s" % (mb, sys.argv[2], "nan" if j is None else "%.3f" % j))
' "$TOPO_TMP/bulk.json" "${q:-nan}" 2>/dev/null ||
		echo "nan nan nan"
}

res=$TOPO_TMP/ablation
: > "$res"
echo "# arm     incast p50/ideal p99/ideal   bulk Mbit/s q99_us jain   evals"
for _ in $(seq "$reps"); do
	for arm in classic model; do
		if [ $arm = model ]; then
			cat "$model" > $sys/model || exit 1
		else
			echo 1 > $sys/model_unload
		fi
		e0=$(cat $sys/aicc/stats/policy_evals)
		i=$(incast)
		b=$(bulk)
		e1=$(cat $sys/aicc/stats/policy_evals)
		echo "$arm $i $b $((e1 - e0))" >> "$res"
		printf '%-8s %8s %8s   %8s %6s %5s   %s\n' $arm $i $b $((e1 - e0))
	done
done
echo 1 > $sys/model_unload
echo "# medians"
for arm in classic model; do
	awk -v a=$arm '$1 == a' "$res" | python3 -c '
import sys, statistics as st
rows = [l.split() for l in sys.stdin]
cols = list(zip(*rows))
med = [st.median([float(v) for v in c if v != "nan"] or [float("nan")])
       for c in cols[1:6]]
print("%-8s %8.3f %8.3f   %8.2f %6.0f %5.3f" % (sys.argv[1], *med))
' $arm
done
