#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Side-by-side run of the standard scenarios for every congestion control:
#   tools/sim/compare.sh [aicc-sim binary] [extra aicc-sim options...]
# Prints one line per (scenario, cc) with the headline metrics.
set -eu
SIM=${1:-build/aicc-sim}
shift || true
[ -x "$SIM" ] || { echo "compare.sh: $SIM: not an executable (make tools)" >&2; exit 1; }

scenarios=(
	"long --flows 4"
	"stagger --flows 8 --time-ms 20"
	"incast --flows 64"
	"incast --flows 256 --buffer-kb 512"
	"alltoall --flows 16 --leaf-hosts 4 --msg-kb 32"
	"allreduce --flows 8 --msg-kb 4096"
	"rpc --flows 16 --rpc-load 30"
	"pipeline --flows 4 --msg-kb 256"
)
printf '%-46s %-6s %6s %8s %8s %7s %6s %9s %7s %7s %8s\n' scenario cc util \
	q_p50KB q_p99KB drops rtos cct/ideal jain conv_us sd99small
for sc in "${scenarios[@]}"; do
	for cc in aicc dctcp swift reno; do
		# shellcheck disable=SC2086
		"$SIM" $sc --cc "$cc" "$@" -j | python3 -c '
import json, sys
d = json.load(sys.stdin)
sc, cc = sys.argv[1], sys.argv[2]
ratio = d["cct_us"]["mean"] / d["cct_ideal_us"] if d["iterations"] else float("nan")
small = d["fct"][0]["slowdown_p99"] if d["fct"][0]["count"] else float("nan")
print("%-46s %-6s %6.3f %8.1f %8.1f %7d %6d %9.2f %7.3f %7.0f %8.2f" % (
    sc, cc, d["util"], d["queue_kb"]["p50"], d["queue_kb"]["p99"],
    d["drops"], d["rtos"], ratio, d["jain"], d["convergence_us"], small))
' "$sc" "$cc"
	done
done
