#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh: the testbed half of `make bench`, run inside the VM by
# tools/bench/bench.sh (never on a host: it builds network namespaces and
# loads modules).  It writes raw results only -- aiccgen JSON, bottleneck
# qdisc snapshots and backlog samples -- to $AICC_OUT/raw/; the host turns
# them into tables and plots (tools/bench/report.py), because python is
# slow to start under emulation.
#
# Testbed (tools/bench/testbed.sh): selftests/lib/topo.sh with 8 sender
# namespaces, a 20 Mbit/s htb bottleneck with RED step ECN marking at 30 KB
# in a 400 KB buffer, 5 ms of netem delay on the ACK path and fq on every
# sender.  One aiccgen server
# per algorithm, its listener using that algorithm (ECN negotiation depends
# on the listener's algorithm).
#
# Scenarios (per algorithm, per repetition), raw files
# <scenario>-<algo>-r<rep>.{json,rc,q,tc0,tc1} (rc: aiccgen's exit status):
#   bulk     one flow from snd1, BULK_SECS, backlog sampled from 1 s on
#   stagger  four flows from snd1..snd4 joining and leaving 1 s apart
#   incast   16 persistent connections from snd1..snd8 (2 each), bursts
#            of 32 KB each after 200 ms idle gaps, 2 warm-up + ITERS
#   rpc      RPC probe (256 B requests, 1 KB responses, Poisson 200/s)
#            from snd3 while two bulk flows run from snd1 and snd2
#            (rpcbulk-<algo>-r<rep>.{json,rc});
#            base: the probe alone on the idle path, at 100/s for 2 s
#            (rpcbase-<algo>.json, once; the report takes its median).
#            With aicc_lat and aicc_bulk both measured, one more row,
#            "mixed": the profiles as meant to be deployed, the probe (and
#            its server's responses) on aicc_lat, the bulk flows on
#            aicc_bulk (raw files rpc-mixed-*, base the aicc_lat probe's)
#   deep     one flow, the bottleneck leaf swapped for a 1 MB drop-tail
#            bfifo (no ECN marking), backlog sampled from 1 s on
# and, in full runs with aicc, the learned policy's ablation
# (tools/train/vm-ablation.sh, REPS runs per arm) into ablation.txt.
#
#   guest.sh [--quick] [--reps N] [--algos "a b ..."]

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2

quick=0
reps=3
algos="aicc aicc_lat aicc_bulk cubic dctcp bbr nv"
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift; continue ;;
	--reps|--algos) [ $# -ge 2 ] || { echo "bench: $1 needs a value" >&2; exit 2; } ;;
	*) echo "bench: guest.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	case $1 in --reps) reps=$2 ;; --algos) algos=$2 ;; esac
	shift 2
done
case $reps in ''|0*|*[!0-9]*) echo "bench: bad --reps '$reps'" >&2; exit 2 ;; esac

if [ "${AICC_VM:-}" != 1 ]; then
	echo "bench: guest.sh runs inside the test VM only (use make bench)" >&2
	exit 2
fi

if [ $quick -eq 1 ]; then
	scenarios="bulk incast rpc"
	BULK_SECS=6 RPC_SECS=5 ITERS=8
else
	scenarios="bulk stagger incast rpc deep"
	BULK_SECS=8 RPC_SECS=6 ITERS=10
fi
DEEP_LIMIT=1000000
RPC_RATE=200

. selftests/lib/topo.sh
# the path, the stagger scenario: shared with stagger-ab-guest.sh
# shellcheck source=tools/bench/testbed.sh
. tools/bench/testbed.sh

rel=$(uname -r)
gen=$TOPO_AICCGEN
raw=${AICC_OUT:?}/raw
mkdir -p "$raw" || exit 1
rm -f "$raw"/*
topo_load_aicc bench || exit 1
for m in tcp_dctcp tcp_bbr tcp_nv sch_fq; do
	modprobe "$m" 2>/dev/null
done
for a in $algos; do
	grep -qw "$a" /proc/sys/net/ipv4/tcp_available_congestion_control ||
		{ echo "bench: congestion control '$a' not available" >&2; exit 1; }
done
# the rpc scenario's extra row (see above)
rpc_extra=
if [[ " $algos " == *" aicc_lat "* && " $algos " == *" aicc_bulk "* ]]; then
	rpc_extra=mixed
fi

testbed_setup 8 || { echo "bench: topology setup failed" >&2; exit 1; }

declare -A port
p=6100
for a in $algos; do
	p=$((p + 1))
	port[$a]=$p
	topo_gen_server "$p" --cc "$a" || exit 1
done

snap()	# FILE: the bottleneck's counters
{
	topo_rtr tc -s qdisc show dev r0 > "$1" 2>/dev/null
}

# run SCENARIO ALGO REP CMD...: CMD's stdout to the JSON file, counters
# around it; the queue sampled from RUN_QS_DELAY seconds into it.
run()
{
	local f=$raw/$1-$2-r$3 sc=$1
	shift 3
	snap "$f.tc0"
	case $sc in
	bulk|deep|rpc) testbed_qs_start "$f.q" "${RUN_QS_DELAY:-0}" ;;
	esac
	"$@" > "$f.json" 2> "$f.err"
	echo $? > "$f.rc"
	testbed_qs_stop
	snap "$f.tc1"
	[ -s "$f.err" ] || rm -f "$f.err"
}

leaf()	# red|deep: the bottleneck's leaf qdisc
{
	if [ "$1" = deep ]; then
		topo_rtr tc qdisc replace dev r0 parent 1:10 handle 10: \
			bfifo limit "$DEEP_LIMIT"
	else
		topo_rtr tc qdisc replace dev r0 parent 1:10 handle 10: \
			red limit "$QUEUE_LIMIT" min "$ECN_K" max $((ECN_K + 1)) avpkt 1500 \
			burst $((ECN_K / 1500 + 1)) probability 1.0 \
			bandwidth "${RATE_MBIT}mbit" ecn
	fi
}

{
	echo "kernel $rel"
	echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "quick $quick"
	echo "reps $reps"
	echo "algos $algos"
	echo "scenarios $scenarios"
	echo "rate_mbit $RATE_MBIT"
	echo "delay_ms $DELAY_MS"
	echo "ecn_k $ECN_K"
	echo "deep_limit $DEEP_LIMIT"
	echo "bulk_secs $BULK_SECS"
	echo "stagger_secs $STAGGER_SECS"
	echo "stagger_ms $STAGGER_MS"
	echo "incast_conns $INCAST_CONNS"
	echo "incast_size $INCAST_SIZE"
	echo "incast_gap_ms $INCAST_GAP"
	echo "incast_iters $ITERS"
	echo "rpc_secs $RPC_SECS"
	echo "rpc_rate $RPC_RATE"
	echo "rpc_extra $rpc_extra"
	echo "cpus $(nproc)"
} > "$raw/meta.txt"

echo "bench: kernel $rel, $RATE_MBIT Mbit/s, base RTT $DELAY_MS ms, RED ECN at $ECN_K B;" \
	"algorithms: $algos; scenarios: $scenarios; $reps repetition(s)"

# The RPC probe alone, once per algorithm: its base latency.
for a in $algos; do
	"$gen" rpc -j -c "$TOPO_RCV_ADDR" -p "${port[$a]}" --netns "${TOPO_NS_SND[3]}" \
		--cc "$a" --req 256 --resp 1K --rate 100 -t 2 --seed 7 \
		> "$raw/rpcbase-$a.json" 2> /dev/null
done
[ -z "$rpc_extra" ] || cp "$raw/rpcbase-aicc_lat.json" "$raw/rpcbase-mixed.json"

t_start=$(cut -d' ' -f1 /proc/uptime)
for ((rep = 1; rep <= reps; rep++)); do
	for sc in $scenarios; do
		[ "$sc" = deep ] && leaf deep
		list=$algos
		[ "$sc" = rpc ] && list="$algos $rpc_extra"
		for a in $list; do
			pt=${port[$a]:-}
			echo "bench: rep $rep/$reps: $sc $a"
			case $sc in
			bulk|deep)
				testbed_bulk "$pt" "$a" "$BULK_SECS"
				RUN_QS_DELAY=$BULK_QS_DELAY_S \
					run "$sc" "$a" "$rep" "${BULK_CMD[@]}"
				;;
			stagger)
				testbed_stagger "$pt" "$a"
				run "$sc" "$a" "$rep" "${STAGGER_CMD[@]}"
				;;
			incast)
				testbed_incast "$pt" "$a" "$ITERS"
				run "$sc" "$a" "$rep" "${INCAST_CMD[@]}"
				;;
			rpc)
				# The probe's algorithm pa (its server's too:
				# each listens on its own port) and the bulk
				# flows' ba: both a, or the mixed row's pair.
				pa=$a ba=$a
				[ "$a" = mixed ] && pa=aicc_lat ba=aicc_bulk
				# The probe connects before the bulk flows start
				# (0.3 s later) and sends from 1.5 s into them:
				# connecting under load, bbr's queue dropped
				# every SYN (not ECN-capable) at the RED leaf.
				{
					sleep 0.3
					exec "$gen" bulk -j -c "$TOPO_RCV_ADDR" \
						-p "${port[$ba]}" --netns "$(snd_list 2)" \
						--cc "$ba" -n 2 -t $((RPC_SECS + 3)) \
						--interval 500
				} > "$raw/rpcbulk-$a-r$rep.json" 2> /dev/null &
				bp=$!
				RUN_QS_DELAY=1.8 run "$sc" "$a" "$rep" "$gen" rpc -j \
					-c "$TOPO_RCV_ADDR" -p "${port[$pa]}" \
					--netns "${TOPO_NS_SND[3]}" --cc "$pa" \
					--req 256 --resp 1K --rate "$RPC_RATE" \
					-t "$RPC_SECS" --seed "$rep" --start-delay 1.8
				wait "$bp"
				echo $? > "$raw/rpcbulk-$a-r$rep.rc"
				;;
			esac
		done
		[ "$sc" = deep ] && leaf red
	done
done
t_end=$(cut -d' ' -f1 /proc/uptime)
echo "elapsed_s $(awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%.0f", b - a }')" \
	>> "$raw/meta.txt"
topo_cleanup
# The learned policy's ablation (issue 6): no model against the trained
# model on tools/train/vm-ablation.sh's own dumbbell, full runs only.
if [ $quick -eq 0 ] && [[ " $algos " == *" aicc "* ]]; then
	echo "bench: learned-policy ablation (tools/train/vm-ablation.sh $reps)"
	bash tools/train/vm-ablation.sh "$reps" > "$raw/ablation.txt" 2>&1 ||
		echo "bench: the ablation failed (exit $?, $raw/ablation.txt)"
fi
echo "bench: raw results in $raw"
