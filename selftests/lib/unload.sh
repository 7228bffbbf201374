# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# unload.sh: unload tcp_aicc once whatever holds it lets go.  module.sh
# (the module selftests, the VM runner) and topo.sh (the network
# selftests, make bench, make demo) both source it.
#
#   mod_unload [SECONDS]   # rmmod tcp_aicc, retrying every 0.25 s for up to
#                          # SECONDS (30); succeeds at once when it is not
#                          # loaded
#   mod_busy_info          # prints what holds tcp_aicc: its refcount and
#                          # each profile's open flows
#
# A socket of a deleted namespace can hold tcp_aicc for a while after the
# test that made it (until it closes, or until the namespace's teardown,
# which the kernel runs later, ends), so unloading retries rather than
# fails.

mod_busy_info()
{
	local p s=""

	for p in aicc aicc_lat aicc_bulk; do
		s="$s $p=$(cat "/sys/kernel/aicc/$p/stats/flows" 2>/dev/null)"
	done
	echo "refcnt $(cat /sys/module/tcp_aicc/refcnt 2>/dev/null), open flows:$s"
}

mod_unload()
{
	local i n=$((${1:-30} * 4))

	for ((i = 0; i <= n; i++)); do
		[ -d /sys/module/tcp_aicc ] || return 0
		rmmod tcp_aicc 2>/dev/null && return 0
		sleep 0.25
	done
	return 1
}
