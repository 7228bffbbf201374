#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stagger-ab-guest.sh: the VM half of tools/bench/stagger-ab.sh (never on
# a host: it builds network namespaces and loads modules).
#
#   stagger-ab-guest.sh NTABLES RUNS PROFILE
#
# The result directory the VM shares ($AICC_OUT) holds t1.conf ..
# tNTABLES.conf; run by run, each is loaded and the bench's stagger
# scenario (tools/bench/guest.sh) runs once with PROFILE, its aiccgen
# JSON into $AICC_OUT/raw/t<n>-r<run>.json.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
[ "${AICC_VM:-}" = 1 ] || { echo "stagger-ab: runs inside the test VM only" >&2; exit 2; }
[ $# -eq 3 ] || { echo "usage: stagger-ab-guest.sh NTABLES RUNS PROFILE" >&2; exit 2; }
dir=${AICC_OUT:?} ntab=$1 runs=$2 profile=$3
mkdir -p "$dir/raw" || exit 1

# shellcheck source=selftests/lib/topo.sh
. selftests/lib/topo.sh
topo_load_aicc stagger-ab || exit 1
modprobe sch_fq 2> /dev/null
# the testbed of tools/bench/guest.sh (the variables are topo.sh's)
# shellcheck disable=SC2034
TOPO_SENDERS=4 TOPO_RATE=20mbit TOPO_DELAY=5ms
TOPO_AQM=red TOPO_ECN_K=30000 TOPO_LIMIT=400000 TOPO_SENDER_QDISC=fq
topo_setup || { echo "stagger-ab: topology setup failed" >&2; exit 1; }
topo_gen_server 6101 --cc "$profile" || exit 1
snd=${TOPO_NS_SND[1]},${TOPO_NS_SND[2]},${TOPO_NS_SND[3]},${TOPO_NS_SND[4]}
for ((r = 1; r <= runs; r++)); do
	for ((t = 1; t <= ntab; t++)); do
		build/aicc profile load "$dir/t$t.conf" > /dev/null || exit 1
		echo "stagger-ab: run $r/$runs, table $t/$ntab"
		"$TOPO_AICCGEN" bulk -j -c "$TOPO_RCV_ADDR" -p 6101 --netns "$snd" \
			--cc "$profile" -n 4 -t 10 --stagger 1000 --leave \
			--interval 250 > "$dir/raw/t$t-r$r.json" 2> /dev/null ||
			echo "stagger-ab: run $r of table $t failed" >&2
	done
done
