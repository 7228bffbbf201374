#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fixed scenario set used to judge a change of aicc's control law
# (module/core/aicc_core.c): the 256-way incast, the low-BDP queue tail of
# the VM testbed, staggered joins, RPCs under bulk, ring all-reduce,
# 64-way incast and a two-flow datacenter run.  One line per scenario.
#
#   tools/sim/eval-law.sh [-c CC] [aicc-sim binary] [extra aicc-sim options]
#
# -c CC runs another controller (dctcp, swift, reno) on the same set, for
# reference.  Columns: utilisation, queue p50/p99 (KB), drops, RTOs, Jain's
# index (-1: not measured), mean collective completion / ideal, p99
# slowdown of the smallest RPC class (cct/ideal is nan when no iteration
# completed).  Extra options go to every run; a run that aicc-sim refuses
# (for example --knob in the rpc scenario, which needs --profile) prints
# one error line and the others still run.
set -eu
cc=aicc
if [ "${1:-}" = "-c" ]; then
	[ $# -ge 2 ] || { echo "eval-law.sh: -c needs a controller name" >&2; exit 1; }
	cc=$2
	shift 2
fi
SIM=${1:-build/aicc-sim}
shift || true
[ -x "$SIM" ] || { echo "eval-law.sh: $SIM: not an executable (make tools)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "eval-law.sh: python3 not found" >&2; exit 1; }

# name|aicc-sim arguments
scenarios=(
	"incast256|incast --flows 256 --rate-gbit 100 --rtt-us 10 --time-ms 10"
	"incast256-b512|incast --flows 256 --buffer-kb 512"
	"incast64|incast --flows 64"
	"vm-long2|long --flows 2 --rate-gbit 0.02 --rtt-us 10000 --buffer-kb 400 --ecn-kb 40 --time-ms 20000 --delack 2"
	"vm-long1|long --flows 1 --rate-gbit 0.02 --rtt-us 10000 --buffer-kb 400 --ecn-kb 40 --time-ms 20000 --delack 2"
	"vm-incast8|incast --flows 8 --rate-gbit 0.02 --rtt-us 10000 --buffer-kb 400 --ecn-kb 40 --time-ms 20000 --delack 2 --gap-us 200000 --msg-kb 64 --min-rto-us 200000"
	"dc-long2|long --flows 2"
	"stagger8|stagger --flows 8 --time-ms 20"
	"rpc16|rpc --flows 16 --rpc-load 30"
	"allreduce8|allreduce --flows 8 --msg-kb 4096"
)
printf '%-15s %-6s %6s %8s %8s %6s %5s %6s %9s %8s\n' scenario cc util \
	q50KB q99KB drops rtos jain cct/ideal sd99rpc
for line in "${scenarios[@]}"; do
	name=${line%%|*}
	args=${line#*|}
	# shellcheck disable=SC2086
	if ! out=$("$SIM" $args --cc "$cc" "$@" -j 2>&1); then
		printf '%-15s %-6s error: %s\n' "$name" "$cc" "${out%%$'\n'*}"
		continue
	fi
	echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
name, cc = sys.argv[1], sys.argv[2]
ratio = d["cct_us"]["mean"] / d["cct_ideal_us"] if d["iterations"] else float("nan")
small = next((b["slowdown_p99"] for b in d["fct"] if b["count"]), float("nan"))
if not name.startswith("rpc"):
    small = float("nan")
print("%-15s %-6s %6.3f %8.1f %8.1f %6d %5d %6.3f %9.2f %8.2f" % (
    name, cc, d["util"], d["queue_kb"]["p50"], d["queue_kb"]["p99"],
    d["drops"], d["rtos"], d["jain"], ratio, small))
' "$name" "$cc"
done
