# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# module.sh: load tcp_aicc.ko for a selftest and undo everything at exit
# (it sources ktap.sh, unload.sh and wait.sh too).
#
#   . "$(dirname "$0")/../lib/module.sh"
#                                # sets top (the repository), kver, ko
#                                # (build/$kver/tcp_aicc.ko, or $AICC_KO), sys
#                                # (/sys/kernel/aicc)
#   mod_require [FILE...]        # skip the whole test unless run as root
#                                # with insmod and rmmod, the module and
#                                # every FILE (a program) built
#   mod_pids+=($!)               # killed (and waited for) at exit
#   mod_netns=("$ns-a" "$ns-b")  # network namespaces deleted at exit
#   mod_tmp=$tmp                 # a directory removed at exit
#   mod_settle=1                 # seconds to sleep before the final rmmod
#   mod_restore() { ...; }       # optional: runs after the namespaces go
#   mod_load                     # trap, rmmod any old copy, insmod; its
#                                # status is insmod's (call it in the
#                                # test's own shell, not in $(...))
#   mod_load_or_skip             # mod_load, the whole test skips if it fails
#   mod_unload [SECONDS]         # from unload.sh: rmmod tcp_aicc, retrying
#                                # up to SECONDS (30)
#   mod_busy_info                # from unload.sh: what holds tcp_aicc
#   mod_wait_listen NS PORT [SECONDS]
#                                # from wait.sh: wait up to SECONDS (10) for a TCP
#                                # listener on PORT in network namespace NS
#                                # ("" for the test's own); status 1 and a
#                                # diagnostic if none comes up
#   mod_wait_conn NS PORT [SECONDS]
#                                # the same for an established connection
#                                # to PORT (a client's flow has begun)
#   mod_wait_idle [SECONDS]      # from wait.sh: every profile's open flows
#                                # back to 0, up to SECONDS (20)
#
# At exit (mod_cleanup): processes killed, namespaces deleted, mod_restore,
# the directory removed, mod_settle seconds of sleep, tcp_aicc unloaded.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=selftests/lib/ktap.sh
. "$top/selftests/lib/ktap.sh"
# shellcheck source=selftests/lib/unload.sh
. "$top/selftests/lib/unload.sh"
# shellcheck source=selftests/lib/wait.sh
. "$top/selftests/lib/wait.sh"
kver=$(uname -r)
ko=${AICC_KO:-$top/build/$kver/tcp_aicc.ko}
# shellcheck disable=SC2034 # for the sourcing test
sys=/sys/kernel/aicc
mod_pids=()
mod_netns=()
mod_tmp=
mod_settle=0

mod_require()
{
	local f

	ktap_require_root
	ktap_require insmod rmmod
	[ -f "$ko" ] || ktap_skip_all "no module built for $kver ($ko)"
	for f in "$@"; do
		[ -x "$f" ] || ktap_skip_all "not built: $f (make tools selftests)"
	done
}

mod_cleanup()
{
	local p n

	for p in "${mod_pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	for n in "${mod_netns[@]}"; do
		ip netns del "$n" 2>/dev/null
	done
	if declare -F mod_restore > /dev/null; then
		mod_restore
	fi
	[ -n "$mod_tmp" ] && rm -rf "$mod_tmp"
	[ "$mod_settle" != 0 ] && sleep "$mod_settle"
	mod_unload 5
}

mod_load()
{
	local err

	trap mod_cleanup EXIT
	if ! mod_unload; then
		ktap_info "tcp_aicc still in use after 30 s: $(mod_busy_info)"
		return 1
	fi
	if ! err=$(insmod "$ko" 2>&1); then
		ktap_info "insmod $ko: $err"
		return 1
	fi
}

mod_load_or_skip()
{
	mod_load || ktap_skip_all "insmod failed"
}
