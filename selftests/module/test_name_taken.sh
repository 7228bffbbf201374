#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_aicc with some of its names already taken (another module, or a BPF
# congestion control, registered "aicc_bulk" first): it loads with the
# profiles whose names are free, says which it left out, and unloads
# without touching the other module's; with every name taken it refuses to
# load.  The names are taken by the helper module aicc_nametaker.ko
# (selftests/module/kmod/, built by make kmods), which registers Reno
# under each name of its "names" parameter.  VM rig only.

set -u
# shellcheck source-path=SCRIPTDIR source=../lib/module.sh
. "$(dirname "$0")/../lib/module.sh"

taker=$top/build/$kver/nametaker/aicc_nametaker.ko
avail=/proc/sys/net/ipv4/tcp_available_congestion_control

mod_require
[ -f "$taker" ] || ktap_skip_all "no $taker (make kmods)"
if [ "${AICC_VM:-}" != 1 ]; then
	ktap_skip_all "registers congestion controls named aicc*: VM rig only"
fi

ktap_plan 8

mod_restore()
{
	sysctl -qw net.ipv4.tcp_congestion_control=cubic
	rmmod aicc_nametaker 2>/dev/null
}
trap mod_cleanup EXIT
mod_unload || ktap_skip_all "tcp_aicc in use: $(mod_busy_info)"

# which of the three names the list of available controls has, in order
names_avail()
{
	local n out=

	for n in aicc aicc_lat aicc_bulk; do
		grep -qw "$n" "$avail" && out="$out $n"
	done
	echo "${out# }"
}

# expect_names NAME WANT: the names available are WANT
expect_names()
{
	local got

	got=$(names_avail)
	if [ "$got" = "$2" ]; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "available: '$got', want '$2'"
	fi
}

# 1-2. aicc_bulk taken: tcp_aicc loads with the other two and says so
ktap_check "aicc_nametaker takes aicc_bulk" \
	insmod "$taker" names=aicc_bulk
# the kernel log from here on (not cleared: the rig checks all of it at
# the end of the run for warnings)
klog0=$(dmesg | wc -l)
if err=$(insmod "$ko" 2>&1); then
	expect_names "tcp_aicc loads with aicc_bulk taken (aicc, aicc_lat its own)" \
		"aicc aicc_lat aicc_bulk"
else
	ktap_fail "tcp_aicc loads with aicc_bulk taken (aicc, aicc_lat its own)" \
		"insmod: $err"
fi

# 3. the kernel log names the profile left out
klog=$(dmesg | tail -n +$((klog0 + 1)))
if echo "$klog" | grep -q 'aicc.*cannot register aicc_bulk: -17'; then
	ktap_pass "the kernel log names the profile left out"
else
	ktap_fail "the kernel log names the profile left out" \
		"$(echo "$klog" | grep -i aicc | tail -n 5)"
fi

# 4. a connection can use a profile that registered
if sysctl -qw net.ipv4.tcp_congestion_control=aicc_lat &&
   [ "$(sysctl -n net.ipv4.tcp_congestion_control)" = aicc_lat ]; then
	ktap_pass "aicc_lat can be the default"
else
	ktap_fail "aicc_lat can be the default"
fi
sysctl -qw net.ipv4.tcp_congestion_control=cubic

# 5. unloading tcp_aicc leaves the other module's aicc_bulk registered
if mod_unload 10; then
	expect_names "rmmod tcp_aicc leaves aicc_nametaker's aicc_bulk" \
		aicc_bulk
else
	ktap_fail "rmmod tcp_aicc leaves aicc_nametaker's aicc_bulk" \
		"$(mod_busy_info)"
fi

# 6. the helper unloads cleanly (its ops were never unregistered twice)
ktap_check "rmmod aicc_nametaker" rmmod aicc_nametaker

# 7. every name taken: insmod fails and nothing of tcp_aicc stays
insmod "$taker" names=aicc,aicc_lat,aicc_bulk ||
	ktap_info "insmod aicc_nametaker with all three names failed"
if err=$(insmod "$ko" 2>&1); then
	ktap_fail "tcp_aicc refuses to load with every name taken" \
		"insmod succeeded"
	mod_unload 10
elif [ -d /sys/module/tcp_aicc ] || [ -d "$sys" ]; then
	ktap_fail "tcp_aicc refuses to load with every name taken" \
		"insmod failed ($err) but /sys/module/tcp_aicc or $sys stays"
else
	ktap_pass "tcp_aicc refuses to load with every name taken"
fi
rmmod aicc_nametaker

# 8. with the names free again, all three register
if err=$(insmod "$ko" 2>&1); then
	expect_names "with the names free, tcp_aicc registers all three" \
		"aicc aicc_lat aicc_bulk"
else
	ktap_fail "with the names free, tcp_aicc registers all three" \
		"insmod: $err"
fi
ktap_finish
