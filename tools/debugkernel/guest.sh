#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the debug-kernel VM (started by check-debug.sh through aicc-vm):
# forget what kmemleak suspects from boot, run the whole selftest suite
# (selftests/run-in-vm.sh; STRESS_LONG=1 makes the stress test long), then
# unload tcp_aicc, make kmemleak scan, and fail if it reports anything.
# Prints the suite's KTAP, then one more KTAP document for the scan.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
. selftests/lib/ktap.sh

kml=/sys/kernel/debug/kmemleak
out=${AICC_OUT:?}

# The kernel's module directory, as `make modules_install` would leave it
# (its modules are all built in): tests that index a private module tree
# copy modules.builtin and modules.order from there.  /lib/modules is a
# tmpfs overlay in the rig.
rel=$(uname -r)
if [ -n "${AICC_DEBUG_KDIR:-}" ] && [ ! -e "/lib/modules/$rel/modules.order" ]; then
	mkdir -p "/lib/modules/$rel"
	for f in modules.builtin modules.builtin.modinfo modules.order; do
		[ -f "$AICC_DEBUG_KDIR/obj/$f" ] && cp "$AICC_DEBUG_KDIR/obj/$f" "/lib/modules/$rel/"
	done
	depmod -a "$rel" 2>/dev/null
fi

# Boot-time suspects are not aicc's: scan once, then mark them as seen.
if [ -w $kml ]; then
	echo scan > $kml
	echo clear > $kml
fi
# The kernel problems that panic_on_warn does not turn into a panic
# still end the run as failures (aicc-vm greps dmesg afterwards).

bash selftests/run-in-vm.sh
suite=$?

echo "# ---- debug/kmemleak"
mkdir -p "$out/results/debug"
{
	ktap_plan 2
	rmmod aicc_roce 2>/dev/null	# it holds a reference on tcp_aicc
	rmmod tcp_aicc 2>/dev/null
	if [ -d /sys/module/tcp_aicc ]; then
		ktap_fail "tcp_aicc unloaded after the suite" \
			"refcnt $(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
	else
		ktap_pass "tcp_aicc unloaded after the suite"
	fi
	if [ ! -w $kml ]; then
		ktap_fail "kmemleak: no leaks" "no $kml (kernel without KMEMLEAK?)"
	else
		# An object is reported once it has stayed unreferenced
		# through a scan and is older than a few seconds: wait, scan
		# twice.
		sleep 6
		echo scan > $kml
		sleep 6
		echo scan > $kml
		cat $kml > "$out/kmemleak.txt"
		n=$(grep -c '^unreferenced object' "$out/kmemleak.txt")
		if [ "$n" -eq 0 ]; then
			ktap_pass "kmemleak: no leaks"
		else
			ktap_info "$(head -n 60 "$out/kmemleak.txt")"
			ktap_fail "kmemleak: no leaks" "$n suspected leaks (kmemleak.txt)"
		fi
	fi
	ktap_finish
} 2>&1 | tee "$out/results/debug/kmemleak.ktap"
leak=${PIPESTATUS[0]}
echo "$leak" > "$out/results/debug/kmemleak.rc"
[ "$suite" -eq 0 ] && [ "$leak" -eq 0 ]
