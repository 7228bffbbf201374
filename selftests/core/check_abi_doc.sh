#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every sysfs file the module creates has its Documentation/ABI entry
# (a host check, part of make check-unit; not a VM selftest):
# the global files, and every knob and counter of module/core/aicc_tables.c.

top=$(cd "$(dirname "$0")/../.." && pwd)
abi=$top/Documentation/ABI/testing/sysfs-kernel-aicc
. "$top/selftests/lib/ktap.sh"

mapfile -t knobs < <(awk '/^\t\t"[a-z_]+", AICC_UNIT_/ { gsub(/[",]/, ""); print $1 }' \
	"$top/module/core/aicc_tables.c")
mapfile -t stats < <(sed -n 's/^\t\[AICC_S_[A-Z_]*\] = { "\([a-z_]*\)".*/\1/p' \
	"$top/module/core/aicc_tables.c")

ktap_plan 3
missing=
for f in version rate_memory rate_memory_entries rate_memory_used \
	 model model_unload model_loads model_rejects; do
	grep -q "^What:.*/aicc/$f\$" "$abi" || missing+=" $f"
done
ktap_expect "global files documented" "-z ${missing// /_}" "missing:$missing"
missing=
for k in "${knobs[@]}"; do
	grep -q "^What:.*/<profile>/$k\$" "$abi" || missing+=" $k"
done
if [ ${#knobs[@]} -ge 20 ] && [ -z "$missing" ]; then
	ktap_pass "all ${#knobs[@]} knobs documented"
else
	ktap_fail "all knobs documented" "found ${#knobs[@]}, missing:$missing"
fi
missing=
for s in "${stats[@]}"; do
	grep -q "^What:.*/<profile>/stats/$s\$" "$abi" || missing+=" $s"
done
if [ ${#stats[@]} -ge 10 ] && [ -z "$missing" ]; then
	ktap_pass "all ${#stats[@]} counters documented"
else
	ktap_fail "all counters documented" "found ${#stats[@]}, missing:$missing"
fi
ktap_finish
