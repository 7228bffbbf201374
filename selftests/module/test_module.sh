#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tcp_aicc.ko in a running kernel: registration, every selection path
# (sysctl default, setsockopt, per-route congctl, autoload by name, child
# network namespaces), every knob's good and bad writes, knob changes
# reaching running flows, counters, the tracepoint, ss(8) output, and
# rmmod refused while sockets use aicc.  Runs as root inside the VM rig.

set -u
# shellcheck source-path=SCRIPTDIR source=../lib/module.sh
. "$(dirname "$0")/../lib/module.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/trace.sh
. "$(dirname "$0")/../lib/trace.sh"

ktap_require ip ss sysctl modprobe depmod python3
gen=$top/build/aiccgen
run_gen() { timeout 30 "$gen" "$@"; }
mod_require "$gen"

ktap_plan 23

ns=aicc-mod-$$
port=5301
mod_netns=("$ns-a" "$ns-b" "$ns-c")
# Every system setting the test changes, restored at exit however it ends
# (an aborted run must not leave kernel.modprobe on the private helper of
# tests 21-22, which later module requests, a qdisc's say, would go to).
old_modprobe=$(cat /proc/sys/kernel/modprobe)
allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
mod_restore()
{
	sysctl -qw net.ipv4.tcp_congestion_control=cubic
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed"
	echo "$old_modprobe" > /proc/sys/kernel/modprobe
	trace_have aicc_update && trace_switch aicc_update 0
}

# Knob names, units and ranges from the one table the module uses.
knob_table()
{
	awk '/^\t\t"[a-z_]+", AICC_UNIT_/ {
		gsub(/[",U]/, ""); print $1, $3, $4 }' \
		"$top/module/core/aicc_tables.c"
}

# expect_none NAME LIST: pass when LIST (of problems) is empty.
expect_none()
{
	if [ -z "$2" ]; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "problems:$2"
	fi
}

# expect_eq NAME GOT WANT
expect_eq()
{
	if [ "$2" = "$3" ]; then
		ktap_pass "$1"
	else
		ktap_fail "$1" "got '$2', want '$3'"
	fi
}

ip link set lo up

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 1: load
if mod_load; then
	ktap_pass "insmod"
else
	ktap_skip_all "insmod failed"
fi

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 2: all three names registered
avail=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)
ok=0
for n in aicc aicc_lat aicc_bulk; do
	[[ " $avail " == *" $n "* ]] && ok=$((ok + 1))
done
ktap_expect "three profiles registered" "$ok -eq 3" "available: $avail"

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 3: sysfs layout and permissions
bad=""
nknobs=0
while read -r name lo hi; do
	nknobs=$((nknobs + 1))
	for p in aicc aicc_lat aicc_bulk; do
		f=$sys/$p/$name
		m=$(stat -c %a "$f" 2>/dev/null)
		[ "$m" = 644 ] || bad="$bad $p/$name:$m"
	done
done < <(knob_table)
for f in "$sys"/aicc/stats/*; do
	m=$(stat -c %a "$f")
	[ "$m" = 444 ] || bad="$bad $f:$m"
done
for f in rate_memory rate_memory_entries; do
	[ "$(stat -c %a $sys/$f)" = 644 ] || bad="$bad $f"
done
[ "$nknobs" -ge 20 ] || bad="$bad only-$nknobs-knobs"
expect_none "sysfs files and modes" "$bad"

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 4: version
v=$(cat $sys/version)
want=$(sed -n 's/^#define AICC_VERSION[^"]*"\(.*\)"/\1/p' "$top/uapi/aicc.h")
expect_eq "version file" "$v" "$want"

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 5: every knob of every profile takes its min and max and keeps them
# (bash builtins only: forks are slow under emulation)
bad=""
while read -r name lo hi; do
	for p in aicc aicc_lat aicc_bulk; do
		f=$sys/$p/$name
		read -r old < "$f"
		for val in "$lo" "$hi" "$old"; do
			echo "$val" > "$f" 2>/dev/null || bad="$bad $p/$name=$val(w)"
			read -r got < "$f"
			[ "$got" = "$val" ] || bad="$bad $p/$name=$val(r)"
		done
	done
done < <(knob_table)
expect_none "good writes, every knob" "$bad"

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 6: out-of-range and malformed writes fail with EINVAL, value unchanged
bad=""
while read -r name lo hi; do
	f=$sys/aicc/$name
	read -r old < "$f"
	vals=("$((hi + 1))" abc "-1" "1.5" "99999999999999999999" "12x")
	[ "$lo" -gt 0 ] && vals+=("$((lo - 1))")
	for val in "${vals[@]}"; do
		if { printf '%s' "$val" > "$f"; } 2>/dev/null; then
			bad="$bad $name='$val'(accepted)"
		fi
		read -r got < "$f"
		[ "$got" = "$old" ] || bad="$bad $name='$val'(changed)"
	done
done < <(knob_table)
# the error is EINVAL, reported in words
err=$( { echo 99999 > $sys/aicc/target; } 2>&1)
[[ $err == *"Invalid argument"* ]] || bad="$bad target-errno:'$err'"
expect_none "bad writes rejected, nothing changed" "$bad"

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 7: global knobs
bad=""
echo 0 > $sys/rate_memory && [ "$(cat $sys/rate_memory)" = 0 ] || bad="$bad rm0"
echo 1 > $sys/rate_memory && [ "$(cat $sys/rate_memory)" = 1 ] || bad="$bad rm1"
(echo 2 > $sys/rate_memory) 2>/dev/null && bad="$bad rm2"
echo 2048 > $sys/rate_memory_entries || bad="$bad e2048"
[ "$(cat $sys/rate_memory_entries)" = 2048 ] || bad="$bad e2048r"
for val in 1000 8 32768 abc; do
	(echo $val > $sys/rate_memory_entries) 2>/dev/null && bad="$bad e$val"
done
[ "$(cat $sys/rate_memory_entries)" = 2048 ] || bad="$bad changed"
echo 1024 > $sys/rate_memory_entries
expect_none "global knobs validated" "$bad"

# Helpers: a loopback server, and a short flow reporting its algorithm.
# The listener needs aicc too, or ECN is not negotiated (see aiccgen.rst).
"$gen" server -p $port --cc aicc > /dev/null 2>&1 &
mod_pids+=($!)
mod_wait_listen "" $port

flow_cc()	# ADDR [gen options] -> prints the cc the flow used
{
	local addr=$1
	shift
	run_gen -j bulk -c "$addr" -p $port -n 1 -t 1 "$@" 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["flows"][0]["tcp_info"]["cc"])' \
		2>/dev/null
}

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 8: system default
sysctl -qw net.ipv4.tcp_congestion_control=aicc
got=$(flow_cc 127.0.0.1)
expect_eq "sysctl default selects aicc" "$got" aicc
sysctl -qw net.ipv4.tcp_congestion_control=cubic

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 9, 10: per socket
got=$(flow_cc 127.0.0.1 --cc aicc_lat)
expect_eq "setsockopt selects aicc_lat" "$got" aicc_lat
got=$(flow_cc 127.0.0.1 --cc aicc_bulk)
expect_eq "setsockopt selects aicc_bulk" "$got" aicc_bulk

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 11: per route, between two namespaces
ip netns add "$ns-a" && ip netns add "$ns-b"
ip link add va netns "$ns-a" type veth peer name vb netns "$ns-b"
ip -n "$ns-a" addr add 10.99.0.1/24 dev va
ip -n "$ns-b" addr add 10.99.0.2/24 dev vb
for n in a b; do
	ip -n "$ns-$n" link set lo up
	ip -n "$ns-$n" link set "v$n" up
done
ip netns exec "$ns-b" "$gen" server -p $port > /dev/null 2>&1 &
mod_pids+=($!)
mod_wait_listen "$ns-b" $port
ip -n "$ns-a" route replace 10.99.0.2/32 dev va congctl aicc_bulk
got=$(ip netns exec "$ns-a" timeout 30 "$gen" -j bulk -c 10.99.0.2 -p $port -n 1 -t 1 |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["flows"][0]["tcp_info"]["cc"])' 2>/dev/null)
expect_eq "route congctl selects aicc_bulk" "$got" aicc_bulk
# A route's congctl overrides setsockopt: drop it for the tests below.
ip -n "$ns-a" route del 10.99.0.2/32 dev va

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 12: an unprivileged user in a child namespace (a container) may select
# aicc only while it is in tcp_allowed_congestion_control.  (Not tested
# through the child namespace's default: on EPERM the kernel's
# tcp_set_default_congestion_control() keeps the module reference it took,
# and rmmod would never succeed again.)
try_cc()
{
	ip netns exec "$ns-c" setpriv --reuid=65534 --regid=65534 --clear-groups \
		python3 -c '
import socket, sys
s = socket.socket()
try:
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"aicc")
    print("ok")
except OSError as e:
    print(e.strerror)' 2>&1
}
ip netns add "$ns-c"
sysctl -qw net.ipv4.tcp_allowed_congestion_control="reno cubic"
e1=$(try_cc)
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed aicc"
e2=$(try_cc)
sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed"
ip netns del "$ns-c"
if [[ $e1 == *"not permitted"* && $e2 == ok ]]; then
	ktap_pass "unprivileged child netns needs aicc allowed"
else
	ktap_fail "unprivileged child netns needs aicc allowed" \
		"not allowed: '$e1'; allowed: '$e2'"
fi

# 13: counters move with flows
t0=$(cat $sys/aicc/stats/flows_total)
r0=$(cat $sys/aicc/stats/rounds)
run_gen bulk -c 127.0.0.1 -p $port -n 2 -t 1 --cc aicc > /dev/null 2>&1
t1=$(cat $sys/aicc/stats/flows_total)
r1=$(cat $sys/aicc/stats/rounds)
# the last sockets release their state as they close
mod_wait_idle 10
f1=$(cat $sys/aicc/stats/flows)
ktap_expect "counters: flows_total, rounds, flows back to 0" \
	"$((t1 - t0)) -ge 2 -a $r1 -gt $r0 -a $f1 -eq 0" \
	"flows_total +$((t1 - t0)), rounds +$((r1 - r0)), flows now $f1"

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 14: a knob written while a flow runs takes effect on that flow
echo 80000 > $sys/aicc/pacing_max_kbps		# 10 MB/s
# (the cap changes two seconds after the connection is up: the first
# second ran at 80, 81-82 Mbit/s in every run so far)
res=$(run_gen -j bulk -c 127.0.0.1 -p $port -n 1 -t 4 --interval 1000 --cc aicc \
	2>/dev/null & gp=$!; mod_wait_conn "" $port 10; sleep 2
	echo 8000 > $sys/aicc/pacing_max_kbps; wait $gp)
echo 0 > $sys/aicc/pacing_max_kbps
read -r first last < <(echo "$res" | python3 -c '
import json, sys
iv = json.load(sys.stdin)["intervals"]
print(iv[0]["total_mbps"], iv[-1]["total_mbps"])' 2>/dev/null)
ktap_info "first second at cap 80 Mbit/s: ${first:-?} Mbit/s"
if ktap_in_range "${first:-x}" 40 120 && ktap_in_range "${last:-x}" 0.5 12; then
	ktap_pass "running flow obeys new pacing_max (80 then 8 Mbit/s)"
else
	ktap_fail "running flow obeys new pacing_max (80 then 8 Mbit/s)" \
		"first second ${first:-?}, last ${last:-?} Mbit/s"
fi

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 15: ss shows the aicc flow with DCTCP-style ECN info
run_gen bulk -c 127.0.0.1 -p $port -n 1 -t 10 --cc aicc > /dev/null 2>&1 &
gp=$!
# the first line that shows the flow, and (for 16) the first that shows it
# past eight windows delivered (and 200 packets), so that a connection's
# total would be over the bound; polled, as the emulated CPU may start the
# flow late and the sample must come while it runs
# ss_field LINE NAME: the number after NAME: in an ss -ti line
ss_field()
{
	echo "$1" | grep -oE "(^|[ ,(])$2:[0-9]+" | head -n 1 | sed 's/.*://'
}
line="" line2=""
for _ in $(seq 50); do
	sleep 0.2
	l=$(ss -tin "dport = :$port" | tr '\n' ' ')
	[[ $l == *aicc* ]] || continue
	[ -n "$line" ] || line=$l
	d=$(ss_field "$l" delivered)
	w=$(ss_field "$l" cwnd)
	if [ "${d:-0}" -ge 200 ] && [ "${d:-0}" -ge $((8 * (${w:-0} + 1))) ]; then
		line2=$l
		break
	fi
done
kill "$gp" 2>/dev/null
wait "$gp"
if echo "$line" | grep -Eq 'aicc .*dctcp:|dctcp:.* aicc'; then
	ktap_pass "ss -ti shows aicc and its ECN state"
else
	ktap_fail "ss -ti shows aicc and its ECN state" "ss: $line"
fi
# ab_ecn and ab_tot count bytes of the current round, as DCTCP's count its
# window's; until 6 December 2026 the connection's total, which wraps
# after 4 GiB
ab_tot=$(ss_field "$line2" ab_tot)
ab_ecn=$(ss_field "$line2" ab_ecn)
cwnd=$(ss_field "$line2" cwnd)
mss=$(ss_field "$line2" mss)
delivered=$(ss_field "$line2" delivered)
if [ -n "$ab_tot" ] && [ -n "$ab_ecn" ] && [ -n "$cwnd" ] && [ -n "$mss" ] &&
   [ "$ab_ecn" -le "$ab_tot" ] &&
   [ "$ab_tot" -le $(( (4 * cwnd + 4) * mss )) ]; then
	ktap_pass "ss: ab_tot is the round's bytes (at most 4 windows)"
else
	ktap_fail "ss: ab_tot is the round's bytes (at most 4 windows)" \
		"ab_ecn ${ab_ecn:-?} ab_tot ${ab_tot:-?} cwnd ${cwnd:-?} mss ${mss:-?} delivered ${delivered:-?}: $line2"
fi

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 16: the tracepoint (switched while no flow runs: trace.sh)
if trace_have aicc_update; then
	echo > $TRACE_FS/trace
	trace_switch aicc_update 1
	run_gen bulk -c 127.0.0.1 -p $port -n 1 -t 1 --cc aicc > /dev/null 2>&1
	trace_switch aicc_update 0
	n=$(grep -c 'aicc_update:.*cwnd_x16=' $TRACE_FS/trace)
	ktap_expect "aicc:aicc_update tracepoint fires" "$n -gt 0" "$n events"
else
	ktap_fail "aicc:aicc_update tracepoint fires" "no $TRACE_FS/events/aicc"
fi

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# From here on the loopback server must not hold the module: a listener
# using aicc keeps a reference, like any socket.
kill "${mod_pids[0]}" 2>/dev/null
wait "${mod_pids[0]}" 2>/dev/null
port=$((port + 1))
"$gen" server -p $port > /dev/null 2>&1 &
mod_pids+=($!)
mod_wait_listen "" $port

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 19: rmmod refused while a socket uses aicc
run_gen bulk -c 127.0.0.1 -p $port -n 1 -t 3 --cc aicc > /dev/null 2>&1 &
gp=$!
mod_wait_conn "" $port
if rmmod tcp_aicc 2>/dev/null; then
	ktap_fail "rmmod refused while a flow uses aicc" "module went away"
	insmod "$ko"
else
	ktap_pass "rmmod refused while a flow uses aicc"
fi
wait $gp

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 20: and clean once every socket is gone
sleep 1
# sockets of the helper namespaces (FIN_WAIT and the like) hold the
# module too: remove the namespaces first.
ip netns del "$ns-a" 2>/dev/null
ip netns del "$ns-b" 2>/dev/null
# (sockets closing in the background release it within seconds)
mod_unload 20
ktap_expect "rmmod after the flows end" "! -d $sys" "module still loaded"

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 21, 22: autoload by name.  An installed module is found through depmod's
# alias index; to keep this fast under emulation the module gets a private
# module tree with its own index, and the kernel's modprobe helper is
# pointed at it.
mroot=$(mktemp -d /tmp/aicc-modroot.XXXXXX)
mdir=$mroot/lib/modules/$kver
mkdir -p "$mdir/extra" && cp "$ko" "$mdir/extra/" &&
	cp /lib/modules/"$kver"/modules.builtin* /lib/modules/"$kver"/modules.order \
		"$mdir/" 2>/dev/null
printf '#!/bin/sh\nexec %s -d %s "$@"\n' "$(command -v modprobe)" "$mroot" \
	> "$mroot/modprobe"
chmod +x "$mroot/modprobe"
# depmod failing is a skip; a module without the alias is a failure (the
# alias is what the autoload below tests)
if ! depmod -b "$mroot" "$kver"; then
	ktap_skip "sysctl autoloads tcp_aicc for aicc_lat" "depmod failed"
	ktap_skip "setsockopt autoloads tcp_aicc for aicc_bulk" "depmod failed"
elif ! grep -q 'tcp_aicc_lat' "$mdir/modules.alias"; then
	ktap_fail "sysctl autoloads tcp_aicc for aicc_lat" \
		"no alias tcp_aicc_lat in modules.alias"
	ktap_fail "setsockopt autoloads tcp_aicc for aicc_bulk" \
		"no alias tcp_aicc_lat in modules.alias"
else
	echo "$mroot/modprobe" > /proc/sys/kernel/modprobe
	sysctl -qw net.ipv4.tcp_congestion_control=aicc_lat 2>/dev/null
	got=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
	expect_eq "sysctl autoloads tcp_aicc for aicc_lat" "$got" aicc_lat
	sysctl -qw net.ipv4.tcp_congestion_control=cubic
	# the module must be gone for the flow below to test its autoload
	mod_unload
	if grep -qw aicc_bulk /proc/sys/net/ipv4/tcp_available_congestion_control; then
		ktap_fail "setsockopt autoloads tcp_aicc for aicc_bulk" \
			"tcp_aicc still loaded before the flow: $(mod_busy_info)"
	else
		got=$(flow_cc 127.0.0.1 --cc aicc_bulk)
		expect_eq "setsockopt autoloads tcp_aicc for aicc_bulk" "$got" aicc_bulk
	fi
	echo "$old_modprobe" > /proc/sys/kernel/modprobe
fi
rm -rf "$mroot"

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 23: reload works after unload
if mod_unload; then
	ktap_check "reload after unload" insmod "$ko"
else
	ktap_fail "reload after unload" "still in use after 30 s: $(mod_busy_info)"
fi

[ -n "${AICC_TIMING:-}" ] && ktap_info "t=${SECONDS}s refcnt=$(cat /sys/module/tcp_aicc/refcnt 2>/dev/null)"
# 24: clean kernel log
if dmesg | grep -E 'WARNING:|BUG:|Oops|sleeping function called' > /dev/null; then
	ktap_fail "no warnings in dmesg" "$(dmesg | grep -E 'WARNING:|BUG:|Oops' | head -5)"
else
	ktap_pass "no warnings in dmesg"
fi

ktap_finish
