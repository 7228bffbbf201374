#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stagger-ab-guest.sh: the VM half of tools/bench/stagger-ab.sh (never on
# a host: it builds network namespaces and loads modules).
#
#   stagger-ab-guest.sh NTABLES RUNS PROFILE [SCENARIO]
#
# The result directory the VM shares ($AICC_OUT) holds t1.conf ..
# tNTABLES.conf; run by run, each is loaded and the bench's SCENARIO
# (stagger, the default, incast or bulk: tools/bench/testbed.sh, as in
# make bench) runs once with PROFILE, its aiccgen JSON into
# $AICC_OUT/raw/t<n>-r<run>.json (bulk: the bottleneck's backlog samples
# into t<n>-r<run>.q as well).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
[ "${AICC_VM:-}" = 1 ] || { echo "stagger-ab: runs inside the test VM only" >&2; exit 2; }
[ $# -eq 3 ] || [ $# -eq 4 ] ||
	{ echo "usage: stagger-ab-guest.sh NTABLES RUNS PROFILE [SCENARIO]" >&2; exit 2; }
dir=${AICC_OUT:?} ntab=$1 runs=$2 profile=$3 scenario=${4:-stagger}
mkdir -p "$dir/raw" || exit 1

# shellcheck source=selftests/lib/topo.sh
. selftests/lib/topo.sh
# shellcheck source=tools/bench/testbed.sh
. tools/bench/testbed.sh
topo_load_aicc stagger-ab || exit 1
modprobe sch_fq 2> /dev/null
case $scenario in
stagger)
	testbed_setup 4 || { echo "stagger-ab: topology setup failed" >&2; exit 1; }
	testbed_stagger 6101 "$profile"
	cmd=("${STAGGER_CMD[@]}") ;;
incast)
	testbed_setup 8 || { echo "stagger-ab: topology setup failed" >&2; exit 1; }
	testbed_incast 6101 "$profile" 10	# make bench's full run
	cmd=("${INCAST_CMD[@]}") ;;
bulk)
	testbed_setup 1 || { echo "stagger-ab: topology setup failed" >&2; exit 1; }
	testbed_bulk 6101 "$profile" 8	# make bench's full run
	cmd=("${BULK_CMD[@]}")
	echo "$RATE_MBIT" > "$dir/rate_mbit" ;;
*)
	echo "stagger-ab: unknown scenario '$scenario'" >&2; exit 2 ;;
esac
topo_gen_server 6101 --cc "$profile" || exit 1
for ((r = 1; r <= runs; r++)); do
	for ((t = 1; t <= ntab; t++)); do
		build/aicc profile load "$dir/t$t.conf" > /dev/null || exit 1
		echo "stagger-ab: run $r/$runs, table $t/$ntab ($scenario)"
		[ "$scenario" = bulk ] &&
			testbed_qs_start "$dir/raw/t$t-r$r.q" "$BULK_QS_DELAY_S"
		"${cmd[@]}" > "$dir/raw/t$t-r$r.json" 2> /dev/null ||
			echo "stagger-ab: run $r of table $t failed" >&2
		testbed_qs_stop
	done
done
