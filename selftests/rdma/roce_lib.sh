# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# roce_lib.sh: the Soft-RoCE (rdma_rxe) testbed of aicc's RDMA selftests
# (source it; root, inside the VM rig only -- it changes routing rules and
# sysctls of the initial network namespace).
#
# rdma_rxe only works in the initial network namespace, so both RoCE
# endpoints live there, each on its own veth whose far end sits in a
# "switch" namespace that holds the bottleneck:
#
#   initial namespace                  switch namespace (aicc-<id>-sw)
#   +---------------------+           +-------------------------------+
#   | rxe_a on ra         |           |                               |
#   | ra 10.88.1.1 ---------------------- sa 10.88.1.254               |
#   |   fd88:1::1         |           |   egress (to A): netem delay  |
#   |                     |           |   ROCE_DELAY (the ACK path)   |
#   | rxe_b on rb         |           |                               |
#   | rb 10.88.2.1 ---------------------- sb 10.88.2.254               |
#   |   fd88:2::1         |           |   egress (to B): htb at       |
#   +---------------------+           |   ROCE_RATE, leaf red (step   |
#                                     |   ECN marking at ROCE_ECN_K)  |
#                                     +-------------------------------+
#
# Traffic from A to B must leave through ra and come back in on rb, so
# the kernel's usual shortcut for local addresses is disabled by policy
# routing: the "local" table is moved from preference 0 to 1000; packets
# arriving on ra or rb are delivered locally (rules "iif ra/rb lookup
# local", 100/101), and traffic to the other side's address takes a
# per-destination table that routes it via the switch (200/201).
# rp_filter is off and accept_local on (B receives packets whose source is
# a local address of the same host); RPS sends each veth's receive path
# to a single CPU (otherwise per-CPU backlogs reorder a queue pair and RC
# go-back-N sees loss); neighbours are static (RED drops non-ECT ARP).
#
# Settings: ROCE_RATE (20mbit), ROCE_DELAY (2ms), ROCE_ECN_K (30000 bytes),
# ROCE_LIMIT (400000 bytes), ROCE_MTU (1500).
#
# After roce_setup: ROCE_NS (switch namespace), ROCE_A / ROCE_B (IPv4),
# ROCE_A6 / ROCE_B6 (IPv6), ROCE_DEV_A / ROCE_DEV_B (rxe devices), ROCE_TMP.
# Helpers: roce_sw CMD..., roce_qsample_start [MS] (then topo_qsample_stop
# and topo_qsample_pct P, from selftests/lib/topo.sh, whose topo_qstat
# FIELD "$ROCE_NS" sb reads the switch's counters),
# roce_ping_rtt COUNT, roce_rx_bytes, roce_measure WINDOW PINGS MS [SKIP]
# (goodput, ping and queue of the traffic running), roce_bg CMD... (killed
# at cleanup),
# roce_atexit CMD, roce_write_bw PORT SECS [ARGS] (ib_write_bw A -> B in
# the background), roce_rping COUNT [SRC DST], roce_gid_index DEV ADDR,
# roce_wait_server PID WHAT CMD... (until a server is up).

roce_lib=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=selftests/lib/topo.sh
. "$roce_lib/../lib/topo.sh"

ROCE_RATE=${ROCE_RATE:-20mbit}
ROCE_DELAY=${ROCE_DELAY:-2ms}
ROCE_ECN_K=${ROCE_ECN_K:-30000}
ROCE_LIMIT=${ROCE_LIMIT:-400000}
ROCE_MTU=${ROCE_MTU:-1500}

ROCE_A=10.88.1.1
ROCE_B=10.88.2.1
ROCE_A6=fd88:1::1
ROCE_B6=fd88:2::1
ROCE_DEV_A=rxe_a
ROCE_DEV_B=rxe_b
ROCE_NS=
ROCE_TMP=
ROCE_BG_PIDS=()
ROCE_ATEXIT=()
ROCE_SYSCTL_SAVE=()
ROCE_NF_MODS=()
ROCE_RATE_BPS=

roce_err()
{
	echo "roce: $*" >&2
}

roce_sw()
{
	ip netns exec "$ROCE_NS" "$@"
}

roce_bg()
{
	"$@" &
	ROCE_LAST_PID=$!
	ROCE_BG_PIDS+=("$ROCE_LAST_PID")
}

roce_atexit()
{
	ROCE_ATEXIT+=("$*")
}

# roce_prereq: empty output if everything the testbed needs is present,
# otherwise the reason (for ktap_skip_all).
roce_prereq()
{
	local c

	for c in ip ss tc rdma ethtool ping rping ib_write_bw modprobe; do
		command -v "$c" > /dev/null 2>&1 || { echo "'$c' not installed"; return; }
	done
	modprobe -q rdma_rxe 2> /dev/null || { echo "no rdma_rxe module"; return; }
	modprobe -q ib_uverbs 2> /dev/null
	modprobe -q rdma_ucm 2> /dev/null || { echo "no rdma_ucm module"; return; }
	[ -e /etc/libibverbs.d/rxe.driver ] || ls /usr/lib/*/libibverbs/librxe-* \
		> /dev/null 2>&1 || { echo "no rxe verbs provider (ibverbs-providers)"; return; }
}

roce_sysctl()
{
	local k=$1 v=$2 old

	old=$(sysctl -n "$k" 2> /dev/null) || return 1
	ROCE_SYSCTL_SAVE+=("$k=$old")
	sysctl -qw "$k=$v"
}

# roce_hold_nf_hooks: keep the kernel's netfilter static keys for IPv4 and
# IPv6 LOCAL_IN and LOCAL_OUT enabled while the test runs, by
# instantiating the legacy "filter" tables in the initial namespace (an
# IPT_SO_GET_INFO / IP6T_SO_GET_INFO request for "filter" creates them;
# there is no iptables binary here).  Without another hook at those
# points, loading or unloading aicc_roce flips the keys, and the kernel
# patches the text of ip_local_deliver() and friends live; under
# multi-threaded TCG the other vCPU, receiving RoCE traffic, once hit the
# patch's int3 and the guest died (6.12, CI of e921fa0).  With the tables
# present, aicc_roce's hooks only move reference counts.  Returns 1 (and
# says why) if the tables cannot be made; roce_cleanup unloads the
# modules it loaded.
roce_hold_nf_hooks()
{
	local m

	for m in iptable_filter ip6table_filter; do
		[ -d "/sys/module/$m" ] && continue
		modprobe "$m" || { echo "modprobe $m failed"; return 1; }
		ROCE_NF_MODS+=("$m")
	done
	python3 - << 'EOF' || return 1
import ctypes, socket, struct, sys

libc = ctypes.CDLL(None, use_errno=True)
# struct ipt_getinfo and ip6t_getinfo: name[32], valid_hooks, hook_entry[5],
# underflow[5], num_entries, size; IPT_SO_GET_INFO = IP6T_SO_GET_INFO = 64
for fam, level in ((socket.AF_INET, socket.IPPROTO_IP),
                   (socket.AF_INET6, socket.IPPROTO_IPV6)):
    s = socket.socket(fam, socket.SOCK_RAW, socket.IPPROTO_RAW)
    buf = ctypes.create_string_buffer(b"filter", 84)
    n = ctypes.c_uint(84)
    if libc.getsockopt(s.fileno(), level, 64, buf, ctypes.byref(n)):
        sys.exit("%s filter table: errno %d" % (fam.name, ctypes.get_errno()))
    hooks = struct.unpack_from("I", buf.raw, 32)[0]
    if hooks & 0xa != 0xa:
        sys.exit("%s filter table hooks 0x%x" % (fam.name, hooks))
EOF
	for m in ip_tables_names ip6_tables_names; do
		grep -qx filter "/proc/net/$m" || { echo "no filter in /proc/net/$m"; return 1; }
	done
}

roce_cleanup()
{
	local i p kv

	for ((i = ${#ROCE_ATEXIT[@]} - 1; i >= 0; i--)); do
		eval "${ROCE_ATEXIT[i]}" > /dev/null 2>&1
	done
	ROCE_ATEXIT=()
	topo_qsample_stop
	for p in "${ROCE_BG_PIDS[@]}"; do
		kill "$p" 2> /dev/null
	done
	for p in "${ROCE_BG_PIDS[@]}"; do
		wait "$p" 2> /dev/null
	done
	ROCE_BG_PIDS=()
	rdma link del "$ROCE_DEV_A" 2> /dev/null
	rdma link del "$ROCE_DEV_B" 2> /dev/null
	ip rule del pref 100 2> /dev/null
	ip rule del pref 101 2> /dev/null
	ip rule del pref 200 2> /dev/null
	ip rule del pref 201 2> /dev/null
	ip -6 rule del pref 100 2> /dev/null
	ip -6 rule del pref 101 2> /dev/null
	ip -6 rule del pref 200 2> /dev/null
	ip -6 rule del pref 201 2> /dev/null
	if ! ip rule show pref 0 | grep -q lookup; then
		ip rule add pref 0 lookup local 2> /dev/null
		ip rule del pref 1000 2> /dev/null
	fi
	if ! ip -6 rule show pref 0 | grep -q lookup; then
		ip -6 rule add pref 0 lookup local 2> /dev/null
		ip -6 rule del pref 1000 2> /dev/null
	fi
	ip route flush table 881 2> /dev/null
	ip route flush table 882 2> /dev/null
	ip -6 route flush table 881 2> /dev/null
	ip -6 route flush table 882 2> /dev/null
	ip link del ra 2> /dev/null
	ip link del rb 2> /dev/null
	if [ -n "$ROCE_NS" ]; then
		ip netns pids "$ROCE_NS" 2> /dev/null | xargs -r kill -9 2> /dev/null
		ip netns del "$ROCE_NS" 2> /dev/null
	fi
	ROCE_NS=
	for ((i = ${#ROCE_SYSCTL_SAVE[@]} - 1; i >= 0; i--)); do
		kv=${ROCE_SYSCTL_SAVE[i]}
		sysctl -qw "$kv" 2> /dev/null
	done
	ROCE_SYSCTL_SAVE=()
	[ -n "$ROCE_TMP" ] && rm -rf "$ROCE_TMP"
	ROCE_TMP=
	for ((i = ${#ROCE_NF_MODS[@]} - 1; i >= 0; i--)); do
		rmmod "${ROCE_NF_MODS[i]}" 2> /dev/null
	done
	ROCE_NF_MODS=()
}

roce_rate_bps()
{
	awk -v r="$1" 'BEGIN {
		n = r + 0; u = tolower(substr(r, length(n "") + 1));
		m["bit"] = 1; m["kbit"] = 1e3; m["mbit"] = 1e6; m["gbit"] = 1e9;
		if (!(u in m) || n <= 0) exit 1;
		printf "%.0f\n", n * m[u];
	}'
}

# roce_switch_red VERB: the tc command (VERB: add, change) for the bottleneck's
# step ECN marking, RED under htb.
roce_switch_red()
{
	local k=$ROCE_ECN_K

	echo "qdisc $1 dev sb parent 1:10 handle 10: red limit $ROCE_LIMIT" \
		"min $k max $((k + 1)) avpkt 1000 burst $((k / 1000 + 1))" \
		"probability 1.0 bandwidth $ROCE_RATE ecn"
}

# The switch: forwarding, the bottleneck towards B, the delay towards A.
roce_switch_qdiscs()
{
	local hburst

	hburst=$((ROCE_RATE_BPS / 8 * 16 / 1000))
	[ "$hburst" -ge 3000 ] || hburst=3000
	{
		echo "qdisc add dev sb root handle 1: htb default 10"
		echo "class add dev sb parent 1: classid 1:10 htb rate $ROCE_RATE" \
			"ceil $ROCE_RATE burst $hburst cburst $hburst quantum 1514"
		roce_switch_red add
		echo "qdisc add dev sa root netem delay $ROCE_DELAY limit 100000"
	} | roce_sw tc -batch -
}

roce_setup()
{
	local d mac_a mac_b mac_sa mac_sb

	[ "$(id -u)" -eq 0 ] || { roce_err "must run as root"; return 1; }
	ROCE_RATE_BPS=$(roce_rate_bps "$ROCE_RATE") ||
		{ roce_err "bad ROCE_RATE '$ROCE_RATE'"; return 1; }
	ROCE_NS=aicc-$(printf '%x%04x' $$ $RANDOM)-sw
	ROCE_TMP=$(mktemp -d /tmp/aicc-roce.XXXXXX)
	trap roce_cleanup EXIT
	trap 'exit 130' INT TERM

	ip netns add "$ROCE_NS" || return 1
	# ra has two transmit queues, for an mq root (test_roce.sh)
	ip link add ra numtxqueues 2 numrxqueues 2 type veth \
		peer name sa netns "$ROCE_NS" &&
		ip link add rb type veth peer name sb netns "$ROCE_NS" ||
		{ roce_err "cannot create the veth pairs"; return 1; }

	roce_sysctl net.ipv4.conf.all.rp_filter 0
	roce_sysctl net.ipv4.conf.default.rp_filter 0
	roce_sysctl net.ipv4.conf.all.accept_local 1
	for d in ra rb; do
		sysctl -qw net.ipv4.conf.$d.rp_filter=0 net.ipv4.conf.$d.accept_local=1 \
			net.ipv6.conf.$d.accept_dad=0 || return 1
		ip link set $d mtu "$ROCE_MTU" || return 1
		ethtool -K $d tso off gso off gro off > /dev/null 2>&1
		echo 1 > /sys/class/net/$d/queues/rx-0/rps_cpus
	done
	ip addr add $ROCE_A/24 dev ra && ip addr add $ROCE_B/24 dev rb &&
		ip addr add $ROCE_A6/64 dev ra nodad && ip addr add $ROCE_B6/64 dev rb nodad ||
		{ roce_err "cannot address ra/rb"; return 1; }

	roce_sw sh -c '
		set -e
		ip link set lo up
		for d in sa sb; do
			sysctl -qw net.ipv6.conf.$d.accept_dad=0
			ip link set $d mtu "$1"
			ethtool -K $d tso off gso off gro off > /dev/null 2>&1 || :
			echo 1 > /sys/class/net/$d/queues/rx-0/rps_cpus
		done
		sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1 \
			net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
		ip addr add 10.88.1.254/24 dev sa
		ip addr add 10.88.2.254/24 dev sb
		ip addr add fd88:1::fe/64 dev sa nodad
		ip addr add fd88:2::fe/64 dev sb nodad
		ip link set sa up
		ip link set sb up' sh "$ROCE_MTU" ||
		{ roce_err "cannot set up the switch namespace"; return 1; }
	ip link set ra up && ip link set rb up || return 1
	roce_switch_qdiscs || { roce_err "cannot set up the switch qdiscs"; return 1; }

	# Static neighbours on both sides.
	mac_a=$(cat /sys/class/net/ra/address)
	mac_b=$(cat /sys/class/net/rb/address)
	mac_sa=$(roce_sw cat /sys/class/net/sa/address)
	mac_sb=$(roce_sw cat /sys/class/net/sb/address)
	ip neigh replace 10.88.1.254 lladdr "$mac_sa" dev ra nud permanent &&
		ip neigh replace 10.88.2.254 lladdr "$mac_sb" dev rb nud permanent &&
		ip neigh replace fd88:1::fe lladdr "$mac_sa" dev ra nud permanent &&
		ip neigh replace fd88:2::fe lladdr "$mac_sb" dev rb nud permanent &&
		roce_sw ip neigh replace $ROCE_A lladdr "$mac_a" dev sa nud permanent &&
		roce_sw ip neigh replace $ROCE_B lladdr "$mac_b" dev sb nud permanent &&
		roce_sw ip neigh replace $ROCE_A6 lladdr "$mac_a" dev sa nud permanent &&
		roce_sw ip neigh replace $ROCE_B6 lladdr "$mac_b" dev sb nud permanent ||
		{ roce_err "cannot add static neighbours"; return 1; }

	# Policy routing: A <-> B through the switch.
	ip route add $ROCE_B via 10.88.1.254 dev ra src $ROCE_A table 881 &&
		ip route add $ROCE_A via 10.88.2.254 dev rb src $ROCE_B table 882 &&
		ip -6 route add $ROCE_B6 via fd88:1::fe dev ra src $ROCE_A6 table 881 &&
		ip -6 route add $ROCE_A6 via fd88:2::fe dev rb src $ROCE_B6 table 882 ||
		{ roce_err "cannot add the per-destination tables"; return 1; }
	ip rule add pref 1000 lookup local && ip rule del pref 0 &&
		ip rule add pref 100 iif ra lookup local &&
		ip rule add pref 101 iif rb lookup local &&
		ip rule add pref 200 to $ROCE_B lookup 881 &&
		ip rule add pref 201 to $ROCE_A lookup 882 ||
		{ roce_err "cannot install the IPv4 rules"; return 1; }
	ip -6 rule add pref 1000 lookup local && ip -6 rule del pref 0 &&
		ip -6 rule add pref 100 iif ra lookup local &&
		ip -6 rule add pref 101 iif rb lookup local &&
		ip -6 rule add pref 200 to $ROCE_B6 lookup 881 &&
		ip -6 rule add pref 201 to $ROCE_A6 lookup 882 ||
		{ roce_err "cannot install the IPv6 rules"; return 1; }
	ip route flush cache 2> /dev/null

	ping -q -c 1 -W 3 -I $ROCE_A $ROCE_B > /dev/null 2>&1 ||
		ping -q -c 1 -W 5 -I $ROCE_A $ROCE_B > /dev/null 2>&1 ||
		{ roce_err "A cannot reach B through the switch"; return 1; }

	rdma link add $ROCE_DEV_A type rxe netdev ra &&
		rdma link add $ROCE_DEV_B type rxe netdev rb ||
		{ roce_err "cannot create the rxe devices"; return 1; }
	roce_atexit "rdma link del $ROCE_DEV_A; rdma link del $ROCE_DEV_B"
}

# roce_gid_index DEV ADDR: the GID table index of ADDR (IPv4 or IPv6) on
# DEV, from sysfs.
roce_gid_index()
{
	local dev=$1 addr=$2 want f i g

	if [ "${addr#*:}" = "$addr" ]; then
		# the four octets, split into printf's arguments on purpose
		# shellcheck disable=SC2046,SC2183
		want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \
			$(echo "$addr" | tr . ' '))
	else
		want=$(python3 -c 'import ipaddress, sys
e = ipaddress.ip_address(sys.argv[1]).exploded
print(e)' "$addr" 2> /dev/null)
	fi
	for f in /sys/class/infiniband/$dev/ports/1/gids/*; do
		i=${f##*/}
		g=$(cat "$f" 2> /dev/null) || continue
		[ "$g" = "$want" ] && { echo "$i"; return 0; }
	done
	return 1
}

# roce_qsample_start [MS]: sample the bottleneck backlog (bytes) every MS
# milliseconds (default 50) into $ROCE_TMP/qsample with topo.sh's sampler;
# topo_qsample_stop ends it, topo_qsample_pct P reads its percentiles.
roce_qsample_start()
{
	topo_qsample_start "${1:-10}" "$ROCE_NS" sb "$ROCE_TMP"
}

# roce_ping_rtt COUNT: "min avg max" ms of pings A -> B through the switch.
roce_ping_rtt()
{
	ping -q -c "${1:-5}" -i 0.2 -W 2 -I $ROCE_A $ROCE_B 2> /dev/null |
		awk -F'[/= ]+' '/^(rtt|round-trip)/ { print $6, $7, $8 }'
}

roce_rx_bytes()
{
	cat /sys/class/net/rb/statistics/rx_bytes
}

# roce_measure WINDOW PINGS MS [SKIP]: with traffic running, measure for
# WINDOW seconds: ROCE_KBIT (goodput received at B), ROCE_RTT (average of
# PINGS pings through the switch in ms, sent first; empty when every one
# was lost or PINGS is 0), ROCE_Q50 and ROCE_Q90 (the switch's queue in
# bytes, sampled every MS ms, the first SKIP samples left out).  The
# results are for the caller:
# shellcheck disable=SC2034
roce_measure()
{
	local win=$1 pings=$2 ms=$3 skip=${4:-0} rx0 rx1 t0 t1 left

	rx0=$(roce_rx_bytes)
	t0=$(cut -d' ' -f1 /proc/uptime)
	roce_qsample_start "$ms"
	ROCE_RTT=
	[ "$pings" -gt 0 ] && read -r _ ROCE_RTT _ < <(roce_ping_rtt "$pings")
	left=$(awk -v t0="$t0" -v w="$win" -v now="$(cut -d' ' -f1 /proc/uptime)" \
		'BEGIN { d = t0 + w - now; printf "%.2f", (d > 0) ? d : 0 }')
	sleep "$left"
	rx1=$(roce_rx_bytes)
	t1=$(cut -d' ' -f1 /proc/uptime)
	topo_qsample_stop
	ROCE_Q50=$(topo_qsample_pct 50 "$skip")
	ROCE_Q90=$(topo_qsample_pct 90 "$skip")
	ROCE_KBIT=$(awk -v a="$rx0" -v b="$rx1" -v t0="$t0" -v t1="$t1" \
		'BEGIN { printf "%.0f", (b - a) * 8 / (t1 - t0) / 1000 }')
}

# roce_wait_server PID WHAT CMD...: wait until CMD succeeds (the server PID
# has come up), for at most 20 s of elapsed time, instead of a fixed sleep
# (under emulation a server may take longer than the sleep to start).
# Status 1 and a line on stderr if the server exited or the time ran out;
# the caller starts its client anyway, which then fails and says so.
roce_wait_server()
{
	local pid=$1 what=$2 end=$((SECONDS + 20))
	shift 2

	until "$@"; do
		if ! kill -0 "$pid" 2> /dev/null; then
			roce_err "$what exited before it was up"
			return 1
		fi
		if [ "$SECONDS" -ge "$end" ]; then
			roce_err "$what not up after 20 s"
			return 1
		fi
		sleep 0.1
	done
}

# roce_tcp_listen PORT: something listens on TCP port PORT (in the initial
# namespace, where the RoCE endpoints are).
roce_tcp_listen()
{
	ss -Hltn "sport = :$1" 2> /dev/null | grep -q .
}

# roce_cm_listen PID: process PID has an rdma_cm ID in the LISTEN state
# (rdma resource tracking: "... state LISTEN ps TCP pid PID comm ...").
roce_cm_listen()
{
	rdma resource show cm_id 2> /dev/null |
		grep -q "state LISTEN .*pid $1 "
}

# roce_write_bw PORT SECS [EXTRA ARGS]: an ib_write_bw server on B and a
# client on A for about SECS seconds, both in the background; logs in
# $ROCE_TMP/wbw-PORT-{srv,cli}.log.  The client's pid is $ROCE_LAST_PID;
# status 1 if the server did not come up (the client is started anyway).
# ROCE_WBW_V6=1: RoCE over the IPv6 GIDs (perftest's own TCP exchange
# stays on IPv4).
roce_write_bw()
{
	local port=$1 secs=$2 gid_a gid_b a=$ROCE_A b=$ROCE_B rc=0
	shift 2

	if [ "${ROCE_WBW_V6:-0}" = 1 ]; then
		a=$ROCE_A6
		b=$ROCE_B6
	fi
	gid_a=$(roce_gid_index $ROCE_DEV_A "$a") || gid_a=1
	gid_b=$(roce_gid_index $ROCE_DEV_B "$b") || gid_b=1
	roce_bg ib_write_bw -d $ROCE_DEV_B -x "$gid_b" -u 17 -p "$port" -D "$secs" -F \
		"$@" > "$ROCE_TMP/wbw-$port-srv.log" 2>&1
	# perftest's server listens on TCP PORT for the exchange of the queue
	# pairs' details; its client fails if nothing listens there yet
	roce_wait_server "$ROCE_LAST_PID" "ib_write_bw server on port $port" \
		roce_tcp_listen "$port" || rc=1
	roce_bg ib_write_bw -d $ROCE_DEV_A -x "$gid_a" -u 17 -p "$port" -D "$secs" -F \
		"$@" "$ROCE_B" > "$ROCE_TMP/wbw-$port-cli.log" 2>&1
	return $rc
}

# roce_rping COUNT [SRC DST]: rping from A to B (rdma_cm over RoCEv2; the
# IPv4 addresses unless SRC and DST are given), COUNT verified
# ping-pongs; status 0 when all of them came back.
roce_rping()
{
	local n=${1:-10} src=${2:-$ROCE_A} dst=${3:-$ROCE_B} srv rc

	rping -s -a "$dst" -C "$n" -S 1024 > "$ROCE_TMP/rping-srv.log" 2>&1 &
	srv=$!
	# the server's rdma_cm ID listens on B's address (no socket: ss does
	# not show it, the kernel's resource tracking does)
	roce_wait_server $srv "rping server on $dst" roce_cm_listen $srv
	timeout 60 rping -c -a "$dst" -I "$src" -C "$n" -S 1024 -V \
		> "$ROCE_TMP/rping-cli.log" 2>&1
	rc=$?
	timeout 10 tail --pid=$srv -f /dev/null 2> /dev/null || kill $srv 2> /dev/null
	wait $srv 2> /dev/null
	return $rc
}
