#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every sysfs file of aicc_roce.ko has its Documentation/ABI entry: each
# knob and counter of module/roce/roce_tables.c, flows and flow_slots.
# A host check (make check-unit), not a VM selftest.

top=$(cd "$(dirname "$0")/../.." && pwd)
abi=$top/Documentation/ABI/testing/sysfs-kernel-aicc
tab=$top/module/roce/roce_tables.c
. "$top/selftests/lib/ktap.sh"

mapfile -t knobs < <(tr '\n\t' '  ' < "$tab" | tr -s ' ' | grep -o 'RK(AICC_RK_[A-Z0-9_]*, *"[a-z0-9_]*"' |
	sed 's/.*"\(.*\)"/\1/')
mapfile -t stats < <(sed -n 's/^\t\[AICC_RS_[A-Z_]*\] = { "\([a-z_]*\)".*/\1/p' "$tab")

ktap_plan 3
missing=
for k in "${knobs[@]}"; do
	grep -q "^What:.*/aicc/roce/$k\$" "$abi" || missing+=" $k"
done
if [ ${#knobs[@]} -ge 20 ] && [ -z "$missing" ]; then
	ktap_pass "all ${#knobs[@]} RoCE knobs documented"
else
	ktap_fail "all RoCE knobs documented" "found ${#knobs[@]}, missing:$missing"
fi
missing=
for s in "${stats[@]}"; do
	grep -q "^What:.*/aicc/roce/stats/$s\$" "$abi" || missing+=" $s"
done
if [ ${#stats[@]} -ge 10 ] && [ -z "$missing" ]; then
	ktap_pass "all ${#stats[@]} RoCE counters documented"
else
	ktap_fail "all RoCE counters documented" "found ${#stats[@]}, missing:$missing"
fi
missing=
for f in flows flow_slots; do
	grep -q "^What:.*/aicc/roce/$f\$" "$abi" || missing+=" $f"
done
ktap_expect "flows and flow_slots documented" "-z ${missing// /_}" "missing:$missing"
ktap_finish
