#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# aiccgen through a real bottleneck, between two network namespaces, inside
# the test VM only (KTAP output):
#
#   tools/vm/aicc-vm --kernel 6.1 -- bash tools/aiccgen/vm-test.sh
#
#   snd 10.88.0.1 --veth--> rcv 10.88.0.2
#   snd egress: htb 20 Mbit/s, leaf fq_codel (CE marks above 1 ms)
#   rcv egress: netem 2 ms (the ACK path)
#
# Checks that the numbers aiccgen reports agree with the path: RTTs in
# microseconds above the configured delay, throughput not above the
# bottleneck, incast completion not below the ideal time, ECN negotiation
# and CE marks as the kernel sees them, RTOs counted when the path goes
# dark for a while.

set -u

if [ "${AICC_VM:-}" != 1 ]; then
	echo "aiccgen vm-test: run inside the test VM (tools/vm/aicc-vm), not on a host" >&2
	exit 2
fi

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
GEN=${AICCGEN:-$top/build/aiccgen}
SND=aiccgen-snd-$$
RCV=aiccgen-rcv-$$
ADDR=10.88.0.2
RATE_MBIT=20
tmp=$(mktemp -d /tmp/aiccgen-vm.XXXXXX)
pids=()
# shellcheck source-path=SCRIPTDIR source=testlib.sh
. "$top/tools/aiccgen/testlib.sh"

cleanup()
{
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	ip netns del "$SND" 2>/dev/null
	ip netns del "$RCV" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

snd() { ip netns exec "$SND" "$@"; }
rcv() { ip netns exec "$RCV" "$@"; }

# server NAME [ARGS...]: start a server in rcv, port in $tmp/NAME.port
server()
{
	local name=$1
	shift
	rcv "$GEN" server -B "$ADDR" -p 0 --port-file "$tmp/$name.port" "$@" \
		>"$tmp/$name.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do
		[ -s "$tmp/$name.port" ] && return 0
		sleep 0.1
	done
	cat "$tmp/$name.log"
	return 1
}

# bulk_to SERVER OUT ARGS...: aiccgen bulk from snd to SERVER's port with
# ARGS, its JSON in $tmp/OUT
bulk_to()
{
	local port out=$2

	port=$(cat "$tmp/$1.port")
	shift 2
	snd timeout 30 "$GEN" bulk -c "$ADDR" -p "$port" "$@" -j >"$tmp/$out"
}

t_setup()
{
	[ -x "$GEN" ] || { echo "no $GEN (make tools)"; return 1; }
	modprobe tcp_dctcp 2>/dev/null
	ip netns add "$SND" && ip netns add "$RCV" &&
	ip link add veth0 netns "$SND" type veth peer name veth1 netns "$RCV" &&
	ip -n "$SND" addr add 10.88.0.1/24 dev veth0 &&
	ip -n "$RCV" addr add "$ADDR"/24 dev veth1 &&
	ip -n "$SND" link set lo up && ip -n "$RCV" link set lo up &&
	ip -n "$SND" link set veth0 up && ip -n "$RCV" link set veth1 up ||
		return 1
	snd ethtool -K veth0 tso off gso off gro off >/dev/null 2>&1
	rcv ethtool -K veth1 tso off gso off gro off >/dev/null 2>&1
	snd sysctl -qw net.ipv4.tcp_no_metrics_save=1
	rcv sysctl -qw net.ipv4.tcp_no_metrics_save=1
	snd tc qdisc add dev veth0 root handle 1: htb default 1 &&
	snd tc class add dev veth0 parent 1: classid 1:1 htb \
		rate ${RATE_MBIT}mbit burst 4000 &&
	snd tc qdisc add dev veth0 parent 1:1 handle 10: fq_codel \
		limit 1000 ce_threshold 1ms ecn &&
	rcv tc qdisc add dev veth1 root handle 1: netem delay 2ms limit 10000 &&
	server plain && server dctcp --cc dctcp
}

t_bulk_path()
{
	bulk_to plain bulk.json -n 2 -t 3 --cc cubic || return 1
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print("bulk total %.2f Mbit/s, min_rtt %s us" % (d["total_mbps"],
      [f["tcp_info"]["min_rtt_us"] for f in d["flows"]]))' \
		"$tmp/bulk.json" >"$tmp/info"
	json "$tmp/bulk.json" 'd["errors"] == 0' \
		'all(f["bytes"] > 0 for f in d["flows"])' \
		"1 < d['total_mbps'] <= $RATE_MBIT * 1.05" \
		'all(2000 <= f["tcp_info"]["min_rtt_us"] < 100000 for f in d["flows"])' \
		'all(f["tcp_info"]["cc"] == "cubic" and f["server_cc"] == "cubic" for f in d["flows"])'
}

t_incast_ideal()
{
	local p
	p=$(cat "$tmp/plain.port")
	snd timeout 60 "$GEN" incast -c "$ADDR" -p "$p" -n 8 --size 32K \
		--iters 5 --gap 50 --rate-mbit $RATE_MBIT --cc cubic -j \
		>"$tmp/incast.json" || return 1
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print("incast completion/ideal: " +
      " ".join("%.2f" % i["ratio"] for i in d["iterations"]))' \
		"$tmp/incast.json" >"$tmp/info"
	# Nothing finishes faster than the bottleneck allows (the htb bucket
	# lets a few kilobytes through at line rate, hence 0.9).
	json "$tmp/incast.json" 'd["error"] is None' \
		'len(d["iterations"]) == 5' \
		'all(i["ratio"] >= 0.9 for i in d["iterations"])' \
		'all(isinstance(i["retrans"], int) for i in d["iterations"])' \
		'isinstance(d["summary"]["netns_rto"], int)'
}

t_netns_option()
{
	local p
	p=$(cat "$tmp/plain.port")
	# Run from the VM's own namespace, which has no route to the
	# receiver: only sockets created in $SND can connect.
	timeout 30 "$GEN" incast -c "$ADDR" -p "$p" --netns "$SND,$SND" -n 4 \
		--size 16K --iters 2 --gap 10 -j >"$tmp/netns.json" || return 1
	json "$tmp/netns.json" 'd["error"] is None' \
		'all(c["netns"] == "'"$SND"'" and c["error"] is None for c in d["conns"])' \
		'd["netns"] is not None and d["netns"]["retrans_segs"] >= 0'
}

t_ecn_dctcp()
{
	bulk_to dctcp dctcp.json -n 1 -t 2 --cc dctcp || return 1
	json "$tmp/dctcp.json" 'd["flows"][0]["tcp_info"]["cc"] == "dctcp"' \
		'd["flows"][0]["tcp_info"]["ecn"] is True' \
		'd["flows"][0]["tcp_info"]["ecn_seen"] is True' \
		'd["flows"][0]["tcp_info"]["delivered_ce"] > 0'
}

t_ecn_refused()
{
	# An ECT SYN to a listener whose algorithm does not need ECN: the
	# kernel does not negotiate ECN and dctcp falls back.
	bulk_to plain dctcp2.json -n 1 -t 1 --cc dctcp || return 1
	json "$tmp/dctcp2.json" 'd["flows"][0]["tcp_info"]["ecn"] is False' \
		'd["flows"][0]["tcp_info"]["cc"] != "dctcp"'
}

t_rto()
{
	local p gp
	p=$(cat "$tmp/plain.port")
	snd timeout 60 "$GEN" rpc -c "$ADDR" -p "$p" --rate 100 -t 8 \
		--drain 10 --cc cubic -j >"$tmp/rpc.json" &
	gp=$!
	# Wait until the requests flow (start-up is slow under emulation).
	for _ in $(seq 100); do
		snd ss -Htn state established "dport = :$p" | grep -q . && break
		sleep 0.1
	done
	sleep 1
	# The return path goes dark for 1.5 s: responses and ACKs are lost,
	# both ends time out and retransmit.
	rcv tc qdisc change dev veth1 root handle 1: netem delay 2ms loss 100%
	sleep 1.5
	rcv tc qdisc change dev veth1 root handle 1: netem delay 2ms
	wait "$gp" || return 1
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print("sent %d, max latency %.0f ms, netns %s" % (d["sent"],
      d["latency"]["max_us"] / 1e3, d["netns"]))' "$tmp/rpc.json" |
		tee "$tmp/info"
	json "$tmp/rpc.json" 'd["error"] is None and d["lost"] == 0' \
		'd["completed"] == d["sent"]' \
		'd["latency"]["max_us"] > 1000000' \
		'd["netns"]["rto_timeouts"] >= 1' \
		'd["conns"][0]["tcp_info"]["total_retrans"] >= 1' \
		'd["conns"][0]["tcp_info"]["total_rto"] is None or d["conns"][0]["tcp_info"]["total_rto"] >= 1'
}

TESTS=(
	"setup_two_namespaces t_setup"
	"bulk_rtt_and_rate_match_path t_bulk_path"
	"incast_not_faster_than_ideal t_incast_ideal"
	"netns_option_creates_sockets_there t_netns_option"
	"dctcp_listener_negotiates_ecn t_ecn_dctcp"
	"ect_syn_to_plain_listener_no_ecn t_ecn_refused"
	"rto_counted_after_outage t_rto"
)

run_tests "setup failed" "kernel $(uname -r)"
