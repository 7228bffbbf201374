#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# aicc_roce's knob sets measured on Soft-RoCE in the VM rig: the module's
# defaults (DCQCN) against one or more knob files (aicc tune --roce
# output, applied with `aicc rdma set --file`), alternating, on the
# testbed of selftests/rdma/roce_lib.sh (20 Mbit/s htb bottleneck with
# step ECN at 30 KB, 2 ms on the ACK path).  Inside the VM rig only:
#
#   flock /tmp/aicc-vm.lock tools/vm/aicc-vm --kernel 6.1 --out DIR -- \
#	bash tools/tune/roce-vm-compare.sh [-r REPS] [-s SECS] FILE...
#
# Per run and arm: one queue pair for SECS seconds (goodput from B's
# receive counter after the first 2 s, queue p50/p90 from qmon at 10 ms,
# ping RTT through the bottleneck, 999 when every probe was lost), then
# two queue pairs at once (their total goodput and queue p90).  Prints one line per run and arm, and the
# medians per arm.  Timing-sensitive: run it on an otherwise idle machine.
# Exit 4 when the prerequisites are missing (as a selftest would), 2 for
# bad arguments or a FILE that 'aicc rdma set --file' refuses (checked
# before measuring); every knob ends at the module's defaults.
set -u
dir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$dir/../.." && pwd)
. "$top/selftests/rdma/roce_lib.sh"

usage="usage: $0 [-r REPS] [-s SECS] FILE..."
reps=3
SECS=8
while getopts ":r:s:" o; do
	case $o in
	r) reps=$OPTARG ;;
	s) SECS=$OPTARG ;;
	:) echo "$0: -$OPTARG needs a value ($usage)" >&2; exit 2 ;;
	*) echo "$0: unknown option -$OPTARG ($usage)" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "$0: no knob FILE given ($usage)" >&2; exit 2; }
[[ $reps =~ ^[1-9][0-9]?$ ]] || { echo "$0: -r must be 1..99" >&2; exit 2; }
[[ $SECS =~ ^[1-9][0-9]?$ && $SECS -ge 6 ]] ||
	{ echo "$0: -s must be 6..99" >&2; exit 2; }
for f in "$@"; do
	[ -r "$f" ] && [ ! -d "$f" ] ||
		{ echo "$0: cannot read knob file $f" >&2; exit 2; }
done

[ "$(id -u)" = 0 ] && [ "${AICC_VM:-}" = 1 ] ||
	{ echo "$0: root inside the VM rig only" >&2; exit 4; }
kdir=$top/build/$(uname -r)
aicc=$top/build/aicc
[ -f "$kdir/aicc_roce.ko" ] && [ -x "$aicc" ] ||
	{ echo "$0: no $kdir/aicc_roce.ko or $aicc (make kmods tools)" >&2; exit 4; }
why=$(roce_prereq)
[ -z "$why" ] || { echo "$0: $why" >&2; exit 4; }

rmmod aicc_roce 2> /dev/null
grep -qw aicc /proc/sys/net/ipv4/tcp_available_congestion_control ||
	insmod "$kdir/tcp_aicc.ko" || exit 1
insmod "$kdir/aicc_roce.ko" || exit 1
roce_setup || exit 1
roce_atexit "rmmod aicc_roce 2> /dev/null"
for d in ra rb; do
	tc qdisc replace dev $d root fq limit 10000 flow_limit 1000
done

# Every knob as the module loaded it (its defaults), so that each arm
# starts from the same state and the run ends in it.  Each FILE is applied
# once here and the defaults restored: a file 'rdma set --file' refuses
# (an unknown knob, a value out of range) stops the run with set's own
# message and its exit status 2 before anything is measured.
base=$ROCE_TMP/defaults.conf
"$aicc" rdma save -o "$base" || exit 1
for f in "$@"; do
	"$aicc" rdma set --file "$f" > /dev/null || exit
	"$aicc" rdma set --file "$base" > /dev/null || exit 1
done

port=18600
# measure NAME: one QP, then two QPs; prints one result line
measure()
{
	local name=$1 bw1 rtt q50 q90 bw2 q90b p1 p2

	port=$((port + 3))
	roce_write_bw $port "$SECS"
	sleep 2
	roce_measure $((SECS - 3)) 10 10 10
	bw1=$ROCE_KBIT rtt=$ROCE_RTT q50=$ROCE_Q50 q90=$ROCE_Q90
	wait "$ROCE_LAST_PID"
	sleep 1

	roce_write_bw $((port + 1)) "$SECS"
	p1=$ROCE_LAST_PID
	roce_write_bw $((port + 2)) "$SECS"
	p2=$ROCE_LAST_PID
	sleep 2
	roce_measure $((SECS - 4)) 0 10 10
	bw2=$ROCE_KBIT q90b=$ROCE_Q90
	wait "$p1" "$p2"
	sleep 1
	echo "$name 1qp_kbit $bw1 ping_ms ${rtt:-999} q50 $q50 q90 $q90 2qp_kbit $bw2 2qp_q90 $q90b"
}

arms=(defaults "$@")
res=$ROCE_TMP/results
: > "$res"
echo "roce-vm-compare: $(uname -r), $ROCE_RATE bottleneck, ECN at $ROCE_ECN_K B, $reps runs x ${SECS} s"
for r in $(seq "$reps"); do
	for a in "${arms[@]}"; do
		"$aicc" rdma set --file "$base" > /dev/null || exit 1
		if [ "$a" != defaults ]; then
			"$aicc" rdma set --file "$a" > /dev/null || exit 1
		fi
		line="run $r $(measure "$(basename "$a")")"
		echo "$line"
		echo "$line" >> "$res"
	done
done
"$aicc" rdma set --file "$base" > /dev/null &&
	"$aicc" rdma save -o "$ROCE_TMP/after.conf" &&
	cmp -s <(grep -v '^#' "$base") <(grep -v '^#' "$ROCE_TMP/after.conf") ||
	{ echo "$0: the knobs are not back at the defaults" >&2; exit 1; }
echo "knobs restored to the defaults"

echo "medians per arm:"
for a in "${arms[@]}"; do
	n=$(basename "$a")
	line=$(printf '%-20s' "$n")
	for f in 1qp_kbit ping_ms q50 q90 2qp_kbit 2qp_q90; do
		m=$(awk -v n="$n" -v f="$f" '$3 == n {
			for (i = 4; i < NF; i += 2) if ($i == f) print $(i + 1) }' "$res" |
			sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
		line="$line $f ${m:-?}"
	done
	echo "$line"
done
