#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Smoke test of tcp_aicc.ko in the running kernel (the VM rig): insmod,
# the three names in tcp_available_congestion_control, selection by
# setsockopt (iperf3 -C) and by route (congctl) seen by ss(8) on a live
# connection between two network namespaces, rmmod, and autoload by name
# (route congctl, and setsockopt through the module's aliases) from a
# private module tree indexed by depmod.  Skips (exit 4) when build/$(uname -r)/tcp_aicc.ko is missing.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/ktap.sh"
# mod_unload, mod_busy_info
# shellcheck source-path=SCRIPTDIR source=../lib/unload.sh
. "$here/../lib/unload.sh"

ktap_require_root
ktap_require ip ss iperf3 insmod rmmod depmod modprobe
rel=$(uname -r)
ko=${AICC_KO:-$top/build/$rel/tcp_aicc.ko}
[ -f "$ko" ] || ktap_skip_all "no module built for $rel ($ko)"
if [ "${AICC_VM:-}" != 1 ]; then
	ktap_skip_all "changes kernel.modprobe and loads modules: VM rig only"
fi

ktap_plan 7

id=$$
A=aicc-ld$id-a
B=aicc-ld$id-b
cleanup()
{
	ip netns pids "$A" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns pids "$B" 2>/dev/null | xargs -r kill 2>/dev/null
	sleep 0.2
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	[ -n "${old_helper:-}" ] && echo "$old_helper" > /proc/sys/kernel/modprobe
	[ -n "${mroot:-}" ] && rm -rf "$mroot"
	[ -n "${iperf_err:-}" ] && rm -f "$iperf_err"
	mod_unload 5
}
trap cleanup EXIT

avail=/proc/sys/net/ipv4/tcp_available_congestion_control
has_names()
{
	local n

	for n in aicc aicc_lat aicc_bulk; do
		grep -qw "$n" "$avail" || return 1
	done
}

# 1. insmod
mod_unload || ktap_info "tcp_aicc still in use after 30 s: $(mod_busy_info)"
if out=$(insmod "$ko" 2>&1); then
	ktap_pass "insmod tcp_aicc.ko"
else
	ktap_fail "insmod tcp_aicc.ko" "$out"
	ktap_finish
fi

# 2. names
if has_names; then
	ktap_pass "aicc, aicc_lat, aicc_bulk registered"
else
	ktap_fail "aicc, aicc_lat, aicc_bulk registered" "available: $(cat $avail)"
fi

# Two namespaces joined by a veth pair, an iperf3 server in B.
ip netns add "$A" && ip netns add "$B" &&
	ip -n "$A" link add va type veth peer name vb netns "$B" &&
	ip -n "$A" addr add 10.99.0.1/24 dev va && ip -n "$B" addr add 10.99.0.2/24 dev vb &&
	ip -n "$A" link set va up && ip -n "$B" link set vb up &&
	ip -n "$A" link set lo up && ip -n "$B" link set lo up ||
	{ ktap_fail "namespaces"; ktap_finish; }
ip netns exec "$B" iperf3 -s -p 5401 > /dev/null 2>&1 &
for _ in $(seq 50); do
	ip netns exec "$B" ss -Hltn 'sport = :5401' | grep -q . && break
	sleep 0.1
done

# cc_of_flow [IPERF3 ARGS]: sets cc to the algorithm ss shows for a running
# flow A->B, or to "none" (and says what iperf3 said last)
iperf_err=$(mktemp /tmp/aicc-load-err.XXXXXX)
cc_of_flow()
{
	local pid try err=$iperf_err

	for try in 1 2 3; do
		ip netns exec "$A" iperf3 -c 10.99.0.2 -p 5401 -t 10 "$@" \
			> /dev/null 2> "$err" &
		pid=$!
		# the data connection (the one that has sent the most) decides:
		# poll until it has moved more than the control connection's few
		# bytes, for as long as iperf3 runs (on a debug kernel one ss
		# takes seconds), then stop it
		for _ in $(seq 150); do
			sleep 0.1
			cc=$(ip netns exec "$A" ss -tni 'dport = :5401' |
				awk '/^[[:space:]]/ && /bytes_acked:/ {
					b = $0; sub(/.*bytes_acked:/, "", b); sub(/ .*/, "", b);
					if (b + 0 >= max) { max = b + 0; n = $1 }
				} END { if (max > 65536) print n }')
			[ -n "$cc" ] && break
			kill -0 "$pid" 2> /dev/null || break
		done
		kill "$pid" 2> /dev/null
		wait "$pid" 2>/dev/null
		# a client that found the server still busy with the last test
		# exits at once: try again
		[ -z "$cc" ] && [ "$try" -lt 3 ] && grep -q busy "$err" &&
			{ sleep 1; continue; }
		break
	done
	[ -n "$cc" ] || { cc=none; ktap_info "iperf3: $(tail -n 1 "$err")"; }
}

# 3. setsockopt
cc_of_flow -C aicc_lat
ktap_expect "setsockopt(TCP_CONGESTION, aicc_lat) seen by ss" "$cc = aicc_lat" "ss shows '$cc'"

# 4. per-route congctl
ip -n "$A" route replace 10.99.0.0/24 dev va congctl aicc
cc_of_flow
ktap_expect "route congctl aicc seen by ss" "$cc = aicc" "ss shows '$cc'"

# 5. rmmod (no aicc sockets left; the flows' last ones release the module
# as they close, hence the retries).  The route keeps its congctl aicc: a
# route holds the name's key, not the module (admin-guide.rst).
if ! mod_unload 10; then
	ktap_fail "rmmod tcp_aicc (a route's congctl does not hold it)" \
		"still in use after 10 s: $(mod_busy_info)"
elif grep -qw aicc "$avail"; then
	ktap_fail "rmmod tcp_aicc (a route's congctl does not hold it)" \
		"names still registered: $(cat "$avail")"
else
	ktap_pass "rmmod tcp_aicc (a route's congctl does not hold it)"
fi
ip -n "$A" route replace 10.99.0.0/24 dev va

# 6+7. autoload by name.  depmod over the whole 9p-backed /lib/modules takes
# minutes under emulation, so the module goes into a private tree with its
# own index and the kernel's modprobe helper is pointed at it for the test.
mroot=$(mktemp -d /tmp/aicc-load.XXXXXX)
mdir=$mroot/lib/modules/$rel
old_helper=$(cat /proc/sys/kernel/modprobe)
mkdir -p "$mdir/updates" && cp "$ko" "$mdir/updates/" &&
	cp /lib/modules/"$rel"/modules.builtin* /lib/modules/"$rel"/modules.order "$mdir/" &&
	depmod -b "$mroot" "$rel" ||
	{ ktap_fail "private module tree + depmod"; ktap_finish; }
printf '#!/bin/sh\nexec %s -d %s "$@"\n' "$(command -v modprobe)" "$mroot" > "$mroot/modprobe"
chmod +x "$mroot/modprobe"
echo "$mroot/modprobe" > /proc/sys/kernel/modprobe
# (a module test 5 could not unload would pass this without an autoload)
if grep -qw aicc "$avail"; then
	ktap_fail "autoload by route congctl aicc" \
		"tcp_aicc still loaded before the route: $(mod_busy_info)"
else
	ip -n "$A" route replace 10.99.0.0/24 dev va congctl aicc 2>/dev/null
	if grep -qw aicc "$avail"; then
		ktap_pass "autoload by route congctl aicc"
	else
		ktap_fail "autoload by route congctl aicc" \
			"modprobe tcp_aicc: $("$mroot/modprobe" -n -v tcp_aicc 2>&1)"
	fi
fi
ip -n "$A" route replace 10.99.0.0/24 dev va
# The module must be gone for the flow below to test its autoload.
mod_unload
if grep -qw aicc_bulk "$avail"; then
	ktap_fail "autoload by setsockopt(aicc_bulk) (module alias)" \
		"tcp_aicc still loaded before the flow: $(mod_busy_info)"
else
	cc_of_flow -C aicc_bulk
	ktap_expect "autoload by setsockopt(aicc_bulk) (module alias)" "$cc = aicc_bulk" \
		"ss shows '$cc'; aliases: $(modinfo -F alias "$ko" 2>/dev/null | tr '\n' ' ')"
fi
echo "$old_helper" > /proc/sys/kernel/modprobe
rm -rf "$mroot"

ktap_finish
