#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The aicc tool against the real tcp_aicc.ko: every verb, JSON validity,
# the error paths (bad knob, bad value, the kernel's own -EINVAL reported
# in words, partial failure rolled back, malformed profile file, module
# absent), and 'flows' seeing a real aicc connection between two network
# namespaces that was given aicc through 'aicc select route add'.
#
# Runs as root in any Linux with build/$(uname -r)/tcp_aicc.ko (the VM rig:
# tools/vm/aicc-vm --kernel 6.1 -- selftests/tool/test_tool.sh); it loads
# the module itself and unloads it at the end.  Exit 4 (skip) without it.

set -u
# shellcheck source-path=SCRIPTDIR source=../lib/module.sh
. "$(dirname "$0")/../lib/module.sh"

ktap_require ip ss python3
A=${AICC:-$top/build/aicc}
mod_require "$A"
unset AICC_SYSFS AICC_UNCHECKED

ktap_plan 27

ns=aicc-tool-$$
tmp=$(mktemp -d /tmp/aicc-tool.XXXXXX)
mod_tmp=$tmp
mod_netns=("$ns-a" "$ns-b")
olddef=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
mod_restore()
{
	echo "$olddef" > /proc/sys/net/ipv4/tcp_congestion_control 2>/dev/null
}
trap mod_cleanup EXIT

# run CMD...: stdout in $OUT, stderr in $ERR, status in $RC
run()
{
	"$@" > "$tmp/out" 2> "$tmp/err"
	RC=$?
	OUT=$(cat "$tmp/out")
	ERR=$(cat "$tmp/err")
}

is_json() { python3 -m json.tool > /dev/null 2>&1; }
knobs_sum() { cat "$sys"/*/[a-z]* "$sys"/rate_memory* 2>/dev/null | md5sum; }

# check NAME: pass if the preceding commands (in a function) succeeded
check() { ktap_check "$@"; }

mod_unload
ip link set lo up

# 1
run "$A" show
if [ "$RC" = 1 ] && [[ $ERR == *"aicc module not loaded"* ]]; then
	ktap_pass "module absent reported"
else
	ktap_fail "module absent reported" "rc $RC: $ERR"
fi

# 2
if insmod "$ko"; then
	ktap_pass "insmod"
else
	ktap_skip_all "insmod $ko failed"
fi

# 3
t_status()
{
	run "$A" status
	[ "$RC" = 0 ] || { echo "rc $RC $ERR"; return 1; }
	echo "$OUT" | grep -q "^module: *loaded" &&
		echo "$OUT" | grep -Eq "^  aicc_lat +present +registered +(allowed|not-allowed) " ||
		{ echo "$OUT"; return 1; }
	local text=$OUT
	run "$A" -j status
	echo "$OUT" | TEXT=$text python3 -c '
import json, os, sys
s = json.load(sys.stdin)
assert s["loaded"] and s["version"] == "'"$(cat $sys/version)"'", s
assert [p["name"] for p in s["profiles"] if p["registered"]] == ["aicc", "aicc_lat", "aicc_bulk"], s
assert all(isinstance(p["stats"]["rounds"], int) for p in s["profiles"])
# the text says what the JSON and the sysctl say about "allowed"
allowed = open("/proc/sys/net/ipv4/tcp_allowed_congestion_control").read().split()
rows = {l.split()[0]: l.split()[3] for l in os.environ["TEXT"].splitlines()
        if l.startswith("  aicc")}
for p in s["profiles"]:
    want = p["name"] in allowed
    assert p["allowed"] == want, (p, allowed)
    assert rows[p["name"]] == ("allowed" if want else "not-allowed"), rows
'
}
check "status" t_status

# 4
t_show()
{
	run "$A" -j show
	[ "$RC" = 0 ] || { echo "rc $RC $ERR"; return 1; }
	echo "$OUT" | python3 -c '
import json, os, sys
s = json.load(sys.stdin)
n = 0
for p in ("aicc", "aicc_lat", "aicc_bulk"):
    for k, v in s[p].items():
        f = open(os.path.join("'"$sys"'", p, k)).read().strip()
        assert int(f) == v["value"], (p, k, f, v)
        n += 1
assert n >= 60, n
assert s["global"]["rate_memory_entries"]["value"] == int(open("'"$sys"'/rate_memory_entries").read())
'
}
check "show matches sysfs" t_show

# 5
t_set_units()
{
	"$A" set aicc_lat target_min_us=25us target_max_us=1.5ms \
		pacing_max_kbps=10gbit target=20% beta=0.7 min_cwnd=1.5pkt \
		rate_memory_ms=2s || return 1
	local kv
	for kv in target_min_us=25 target_max_us=1500 pacing_max_kbps=10000000 \
		  target=200 beta=700 min_cwnd=1500 rate_memory_ms=2000; do
		[ "$(cat $sys/aicc_lat/${kv%=*})" = "${kv#*=}" ] ||
			{ echo "${kv%=*}: $(cat $sys/aicc_lat/${kv%=*})"; return 1; }
	done
	"$A" set global rate_memory_entries=4096 &&
		[ "$(cat $sys/rate_memory_entries)" = 4096 ]
}
check "set with units" t_set_units

# 6
t_bad_input()
{
	local sum a
	sum=$(knobs_sum)
	for a in "aicc nosuch=1" "aicc_x target=1" "aicc target=abc" \
		 "aicc mi=1001" "aicc target_min_us=0.5us" "aicc target=300 mi=2.0" \
		 "global rate_memory_entries=1000"; do
		run "$A" set $a
		[ "$RC" != 0 ] && [ "$(echo "$ERR" | wc -l)" = 1 ] ||
			{ echo "set $a: rc $RC: $ERR"; return 1; }
	done
	[ "$(knobs_sum)" = "$sum" ] || { echo "knobs changed"; return 1; }
}
check "bad knob and values rejected, nothing changed" t_bad_input

# 7: the tool's checks off, the kernel's -EINVAL in words
t_kernel_einval()
{
	local before

	before=$(cat $sys/aicc/mi)
	AICC_UNCHECKED=1 run "$A" set aicc mi=5000
	[ "$RC" = 1 ] && [[ $ERR == *"aicc.mi = 5000: Invalid argument (value rejected by the kernel)"* ]] ||
		{ echo "rc $RC: $ERR"; return 1; }
	[ "$(cat $sys/aicc/mi)" = "$before" ]
}
check "kernel EINVAL reported in words" t_kernel_einval

# 8
t_rollback()
{
	local t b g

	t=$(cat $sys/aicc/target)
	b=$(cat $sys/aicc/beta)
	g=$(cat $sys/aicc/pacing_gain)
	AICC_UNCHECKED=1 run "$A" set aicc target=333 beta=0.444 \
		pacing_gain=1.5 mi=5000
	[ "$RC" = 1 ] && [[ $ERR == *"earlier changes rolled back"* ]] ||
		{ echo "rc $RC: $ERR"; return 1; }
	[ "$(cat $sys/aicc/target)" = "$t" ] &&
		[ "$(cat $sys/aicc/beta)" = "$b" ] &&
		[ "$(cat $sys/aicc/pacing_gain)" = "$g" ] ||
		{ echo "not rolled back"; return 1; }
}
check "partial failure rolled back" t_rollback

# 9
t_profile()
{
	local sum
	sum=$(knobs_sum)
	"$A" profile save "$tmp/p.conf" || return 1
	"$A" set aicc target=0.5 ai=2pkt && "$A" set aicc_bulk mi=0.3 &&
		"$A" set global rate_memory=0 || return 1
	[ "$(knobs_sum)" != "$sum" ] || return 1
	"$A" profile load "$tmp/p.conf" || return 1
	[ "$(knobs_sum)" = "$sum" ] || { echo "not restored"; return 1; }
	# A profile whose last line the kernel refuses is not applied at all.
	{ echo "aicc.target = 400"; echo "aicc_lat.mi = 5000"; } > "$tmp/k.conf"
	AICC_UNCHECKED=1 run "$A" profile load "$tmp/k.conf"
	[ "$RC" = 1 ] && [ "$(knobs_sum)" = "$sum" ] || { echo "$ERR"; return 1; }
}
check "profile save, load, rollback" t_profile

# 10
t_profile_bad()
{
	local sum
	sum=$(knobs_sum)
	printf 'aicc.target = 300\naicc.beta = lots\naicc_lat.nope = 1\n' > "$tmp/b.conf"
	run "$A" profile load "$tmp/b.conf"
	[ "$RC" = 2 ] && [[ $ERR == *"b.conf:2: aicc.beta:"* ]] &&
		[[ $ERR == *"b.conf:3: unknown knob 'nope'"* ]] ||
		{ echo "rc $RC: $ERR"; return 1; }
	[ "$(knobs_sum)" = "$sum" ]
}
check "malformed profile rejected whole" t_profile_bad

# 11
t_default()
{
	"$A" select default aicc_lat || return 1
	[ "$(cat /proc/sys/net/ipv4/tcp_congestion_control)" = aicc_lat ] || return 1
	[ "$("$A" select default)" = aicc_lat ] || return 1
	run "$A" select default no_such_cc
	[ "$RC" = 1 ] && [[ $ERR == *"No such file or directory"* ]] ||
		{ echo "rc $RC: $ERR"; return 1; }
	"$A" select default "$olddef"
}
check "select default" t_default

# Two namespaces, a veth pair, aicc chosen per route in namespace a.
ip netns add "$ns-a" && ip netns add "$ns-b" &&
	ip link add va netns "$ns-a" type veth peer name vb netns "$ns-b" &&
	ip -n "$ns-a" addr add 10.201.0.1/24 dev va &&
	ip -n "$ns-b" addr add 10.201.0.2/24 dev vb &&
	ip -n "$ns-a" link set va up && ip -n "$ns-b" link set vb up &&
	ip -n "$ns-a" link set lo up && ip -n "$ns-b" link set lo up &&
	true
# 2 ms on the ACK path if netem is there, so RTTs are clearly non-zero.
rtt_lo=1
ip netns exec "$ns-b" tc qdisc add dev vb root netem delay 2ms 2>/dev/null &&
	rtt_lo=1000
INA="ip netns exec $ns-a"

# 12
t_route_add()
{
	$INA "$A" select route add 10.201.0.0/24 aicc || return 1
	ip -n "$ns-a" route show 10.201.0.0/24 | grep -q "dev va proto kernel .*congctl aicc" ||
		{ ip -n "$ns-a" route; return 1; }
	$INA "$A" select get 10.201.0.2 | grep -q "^10.201.0.2: aicc (route congctl" ||
		return 1
	$INA "$A" -j select route list | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r == [{"prefix": "10.201.0.0/24", "via": None, "dev": "va", "table": 254,
              "congctl": "aicc", "usec_ts": False, "created_by_aicc": False}], r'
}
check "select route add (existing route)" t_route_add

# A flow from a to b for tests 13-18, stopped after 18 (and by the exit
# trap); the 600 s bound only keeps a stray sender from outliving the VM
# run.  A debug kernel takes minutes over tests 13-18.
port=5401
ip netns exec "$ns-b" python3 -c '
import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.201.0.2", '$port')); s.listen(4)
while True:
    c, _ = s.accept()
    while c.recv(1 << 16):
        pass
' &
mod_pids+=($!)
# python takes seconds to start under emulation
mod_wait_listen "$ns-b" $port 30
$INA python3 -c '
import socket, time
c = socket.create_connection(("10.201.0.2", '$port'))
end = time.time() + 600
buf = b"x" * 65536
while time.time() < end:
    c.sendall(buf)
' &
mod_pids+=($!)
# the connection, and data acked on it: aicc's base RTT comes from the first
# ACK of data (waited for, not a fixed sleep: python starts slowly under
# emulation)
acked()
{
	$INA ss -Htin state established "dport = :$port" |
		grep -q 'bytes_acked:[0-9]\{6,\}'
}
mod_wait_conn "$ns-a" $port 30 &&
	mod_wait_until 30 "data acked on the connection to port $port" acked

# 13
t_flows()
{
	run $INA "$A" -j flows
	[ "$RC" = 0 ] || { echo "$ERR"; return 1; }
	echo "$OUT" | python3 -c '
import json, sys
f = [x for x in json.load(sys.stdin) if x["dport"] == '$port']
assert len(f) == 1, f
f = f[0]
print(f)
assert f["profile"] == "aicc" and f["aicc"] and f["state"] == "ESTAB", f
# aicc keeps fractional windows (min_cwnd is in 1/1000 packet) and paces
# below 2 packets, so its own cwnd may be < 1; snd_cwnd is >= 1.
assert 0 <= f["cwnd"] < 100000 and 1 <= f["snd_cwnd"] < 100000, f
assert '$rtt_lo' <= f["rtt_us"] < 2000000, f
assert 0 < f["min_rtt_us"] <= f["rtt_us"], f
ai = f["aicc_info"]
assert '$rtt_lo' <= ai["base_rtt_us"] < 2000000, ai
assert ai["mode"] in ("start", "track", "loss", "resume"), ai
assert 0 <= ai["alpha"] <= 1, ai
'
}
check "flows sees the aicc connection" t_flows

# 14
t_flows_filters()
{
	local n
	n=$($INA "$A" -j flows dport $port dst 10.201.0.0/24 profile aicc |
		python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
	[ "$n" = 1 ] || { echo "matching filters: $n"; return 1; }
	n=$($INA "$A" -j flows dport $port profile aicc_lat |
		python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
	[ "$n" = 0 ] || { echo "profile aicc_lat: $n"; return 1; }
	$INA "$A" flows dport $port | grep -q "^aicc  *ESTAB  *10.201.0.1:"
}
check "flows filters and text" t_flows_filters

# 15
t_watch()
{
	run $INA "$A" -j watch -i 1 -n 2 dport $port
	[ "$RC" = 0 ] && [ "$(echo "$OUT" | wc -l)" = 2 ] || { echo "$ERR"; return 1; }
	echo "$OUT" | tail -1 | python3 -c '
import json, sys
w = json.load(sys.stdin)
r = w["profiles"]["aicc"]["rates"]["rounds"]
print("aicc rounds/s", r)
assert r > 0, w["profiles"]["aicc"]
assert len(w["flows"]) == 1 and w["flows"][0]["profile"] == "aicc", w["flows"]
'
}
check "watch rates" t_watch

# 16
t_metrics()
{
	run $INA "$A" metrics
	[ "$RC" = 0 ] || { echo "$ERR"; return 1; }
	echo "$OUT" | grep -Eq '^aicc_sockets\{profile="aicc"\} [1-9]' &&
		echo "$OUT" | grep -Eq '^aicc_rounds_total\{profile="aicc"\} [1-9]' &&
		echo "$OUT" | grep -q '^# TYPE aicc_rounds_total counter$' &&
		echo "$OUT" | grep -Eq '^aicc_knob_target\{profile="aicc_lat"\} 200$' ||
		{ echo "$OUT" | grep -v '^#' | head -30; return 1; }
	# every sample line is NAME{LABELS} VALUE and declared
	echo "$OUT" | awk '
		/^# TYPE / { t[$3] = 1; next }
		/^#/ { next }
		{ n = $1; sub(/\{.*/, "", n)
		  if (!(n in t) || NF != 2 || $2 !~ /^-?[0-9.e+-]+$/) { print "bad: " $0; bad = 1 } }
		END { exit bad }'
}
check "metrics" t_metrics

# 17
t_status_counters()
{
	"$A" -j status | python3 -c '
import json, sys
s = {p["name"]: p["stats"] for p in json.load(sys.stdin)["profiles"]}
assert s["aicc"]["flows"] >= 1 and s["aicc"]["flows_total"] >= 1, s["aicc"]
assert s["aicc"]["rounds"] > 0, s["aicc"]
'
}
check "status counters count the flow" t_status_counters

# 18: a knob change reaches the running flow: pin its pacing rate
t_live_set()
{
	local lo hi rate
	lo=$(cat $sys/aicc/pacing_min_kbps)
	hi=$(cat $sys/aicc/pacing_max_kbps)
	"$A" set aicc pacing_min_kbps=2mbit pacing_max_kbps=2mbit || return 1
	sleep 2
	rate=$($INA "$A" -j flows dport $port | python3 -c '
import json, sys; print(json.load(sys.stdin)[0].get("pacing_rate_bps") or 0)')
	echo "pacing rate pinned to 2 Mbit/s: $rate bit/s"
	"$A" set aicc pacing_min_kbps="$lo" pacing_max_kbps="$hi" || return 1
	[ "$rate" -ge 1500000 ] && [ "$rate" -le 2500000 ]
}
check "set reaches a running flow (pacing pinned)" t_live_set

for p in "${mod_pids[@]}"; do
	kill "$p" 2>/dev/null
done
wait 2>/dev/null
mod_pids=()

# 19
t_route_del()
{
	$INA "$A" select route del 10.201.0.0/24 aicc || return 1
	ip -n "$ns-a" route show 10.201.0.0/24 | grep -q "dev va proto kernel" &&
		! ip -n "$ns-a" route show 10.201.0.0/24 | grep -q congctl
}
check "select route del restores the route" t_route_del

# 20
t_route_create()
{
	$INA "$A" select route add 10.202.0.0/16 via 10.201.0.2 aicc_bulk || return 1
	ip -n "$ns-a" route show 10.202.0.0/16 | grep -q "via 10.201.0.2 dev va proto 172 .*congctl aicc_bulk" ||
		return 1
	$INA "$A" select get 10.202.1.1 | grep -q ": aicc_bulk (route congctl" || return 1
	$INA "$A" select route del 10.202.0.0/16 || return 1
	[ -z "$(ip -n "$ns-a" route show 10.202.0.0/16)" ] || return 1
	# one of aicc's with 150 nexthops: more than a request holds whole
	local nh=() i
	for i in $(seq 2 151); do
		nh+=(nexthop via "10.201.0.$i" dev va)
	done
	ip -n "$ns-a" route add 10.206.0.0/16 proto 172 congctl aicc "${nh[@]}" ||
		return 1
	$INA "$A" select route del 10.206.0.0/16 || return 1
	[ -z "$(ip -n "$ns-a" route show 10.206.0.0/16)" ]
}
check "select route add/del of a new route" t_route_create

# 21: usec-ts sets the route feature tcp_usec_ts, which came with 6.7: on a
# new route, and on an existing one beside its other features (ecn); on
# older kernels the error says so and the route stays as it was.
usec_ts_of() # PREFIX: the route's usec_ts in 'select route list'
{
	$INA "$A" -j select route list | python3 -c '
import json, sys
r = [x for x in json.load(sys.stdin) if x["prefix"] == sys.argv[1]]
print(r[0]["usec_ts"] if len(r) == 1 else "none")' "$1"
}
t_route_usec_ts()
{
	local new=10.204.0.0/16 old=10.205.0.0/16

	ip -n "$ns-a" route add $old via 10.201.0.2 features ecn || return 1
	run $INA "$A" select route add $new via 10.201.0.2 usec-ts aicc
	if [ "$(printf '%s\n' 6.7 "$(uname -r)" | sort -V | head -1)" != 6.7 ]; then
		[ "$RC" = 1 ] && [[ $ERR == *"needs Linux 6.7 or later"* ]] ||
			{ echo "$ERR"; return 1; }
		[ -z "$(ip -n "$ns-a" route show $new)" ] || return 1
		run $INA "$A" select route add $old usec-ts aicc
		[ "$RC" = 1 ] || return 1
		ip -n "$ns-a" route show $old | grep -q "features ecn" &&
			! ip -n "$ns-a" route show $old | grep -q congctl || return 1
		ip -n "$ns-a" route del $old
		return
	fi
	[ "$RC" = 0 ] || { echo "$ERR"; return 1; }
	[ "$(usec_ts_of $new)" = True ] || return 1
	$INA "$A" select route add $old usec-ts aicc || return 1
	[ "$(usec_ts_of $old)" = True ] || return 1
	ip -n "$ns-a" route show $old | grep -q "features ecn" || return 1
	$INA "$A" select route del $new || return 1
	[ -z "$(ip -n "$ns-a" route show $new)" ] || return 1
	# not aicc's route: congctl goes, the features stay
	$INA "$A" select route del $old || return 1
	ip -n "$ns-a" route show $old | grep -q "features ecn" &&
		! ip -n "$ns-a" route show $old | grep -q congctl || return 1
	ip -n "$ns-a" route del $old
}
check "select route add usec-ts" t_route_usec_ts

# 22
t_route_errors()
{
	run $INA "$A" select route add 10.203.0.0/16 dev va no_such_cc
	[ "$RC" = 1 ] && [[ $ERR == *"congctl no_such_cc"* ]] || { echo "$ERR"; return 1; }
	[ -z "$(ip -n "$ns-a" route show 10.203.0.0/16)" ] || return 1
	run $INA "$A" select route del 10.201.0.0/24
	[ "$RC" = 1 ] && [[ $ERR == *"no main-table route"* ]] || { echo "$ERR"; return 1; }
	run $INA "$A" select route add 10.201.0.1/24 aicc
	[ "$RC" = 2 ]
}
check "select route errors" t_route_errors

# 23
t_get_default()
{
	run $INA "$A" -j select get 10.201.0.2
	echo "$OUT" | python3 -c '
import json, sys
g = json.load(sys.stdin)
assert g["source"] == "default" and g["congctl"] == g["default"], g'
}
check "select get falls back to the default" t_get_default

# 24
t_help()
{
	local v
	for v in status show set profile flows watch select metrics; do
		"$A" $v -h > /dev/null || { echo "$v -h"; return 1; }
	done
	run "$A" nosuchverb
	[ "$RC" = 2 ]
}
check "help and unknown verb" t_help

# 25: the saved profile loads again after all of the above
check "profile load after use" "$A" profile load "$tmp/p.conf"

# 26
ip netns del "$ns-a" 2>/dev/null
ip netns del "$ns-b" 2>/dev/null
t_rmmod()
{
	mod_unload 10 || { mod_busy_info; return 1; }
}
check "rmmod" t_rmmod

# 27
t_absent()
{
	run "$A" status
	[ "$RC" = 1 ] && [[ $ERR == *"aicc module not loaded"* ]] || return 1
	run "$A" metrics
	[ "$RC" = 0 ] && [[ $OUT == *"aicc_up 0"* ]]
}
check "module absent after rmmod" t_absent

ktap_finish
