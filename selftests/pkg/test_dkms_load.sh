#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_dkms_load.sh: the tcp_aicc.ko that DKMS built and installed for the
# running kernel (/lib/modules/$(uname -r)/updates/dkms/) loads, is the
# version the tree declares, registers the three congestion controls and
# unloads again.  Runs as root inside the VM rig (the guest sees the host's
# /lib/modules); skips (exit 4) when no DKMS-built module is installed for
# this kernel.  selftests/pkg/test_pkg.sh runs it in a VM for each kernel
# while the tcp-aicc-dkms package is installed on the host.

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib/ktap.sh"

[ "${AICC_VM:-}" = 1 ] || ktap_skip_all "loads a kernel module: runs in the VM rig only"
ktap_require_root
ktap_require modprobe modinfo rmmod

kver=$(uname -r)
ko=
for f in /lib/modules/"$kver"/updates/dkms/tcp_aicc.ko*; do
	[ -f "$f" ] && ko=$f
done
[ -n "$ko" ] || ktap_skip_all "no DKMS-built tcp_aicc for $kver"
want=$(sed -n 's/^#define[[:space:]]*AICC_VERSION[[:space:]]*"\(.*\)"/\1/p' \
	"$top/uapi/aicc.h")

# Another test may have left a module from build/ loaded.
if [ -d /sys/module/tcp_aicc ]; then
	rmmod tcp_aicc 2>/dev/null ||
		ktap_skip_all "tcp_aicc is loaded and busy; cannot test the DKMS module"
fi

ktap_plan 6
ktap_info "module: $ko"

path=$(modinfo -n tcp_aicc 2>/dev/null)
ktap_expect "modprobe resolves tcp_aicc to the DKMS module" "x$path = x$ko" \
	"modinfo -n tcp_aicc: '$path', want '$ko'"

ver=$(modinfo -F version "$ko" 2>/dev/null)
ktap_expect "module version is AICC_VERSION ($want)" "x$ver = x$want" \
	"modinfo version '$ver', want '$want'"

if out=$(modprobe tcp_aicc 2>&1); then
	ktap_pass "modprobe tcp_aicc"
else
	ktap_fail "modprobe tcp_aicc" "$out"
fi

avail=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)
n=0
for cc in aicc aicc_lat aicc_bulk; do
	case " $avail " in *" $cc "*) n=$((n + 1)) ;; esac
done
ktap_expect "aicc, aicc_lat, aicc_bulk available" "$n -eq 3" \
	"tcp_available_congestion_control: $avail"

sysver=$(cat /sys/kernel/aicc/version 2>/dev/null)
ktap_expect "/sys/kernel/aicc/version is $want" "x$sysver = x$want" \
	"/sys/kernel/aicc/version: '$sysver'"

if out=$(rmmod tcp_aicc 2>&1) && [ ! -d /sys/module/tcp_aicc ]; then
	ktap_pass "rmmod tcp_aicc"
else
	ktap_fail "rmmod tcp_aicc" "$out"
fi

ktap_finish
