# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# topo.sh: the dumbbell testbed of aicc's network selftests (source it; run
# as root, inside the VM rig -- never on a host you care about).
#
#   sender namespaces        router namespace            receiver namespace
#   +--------------+        +----------------------+     +------------------+
#   | snd1         |        |                      |     |                  |
#   | eth0 10.77.1.1 ------- s1 10.77.1.254        |     |                  |
#   +--------------+        |                      |     |                  |
#         ...               |  r0 10.77.200.254  ========= eth0 10.77.200.1 |
#   +--------------+        |  egress: htb at      |     |  egress: netem   |
#   | sndN         |        |  TOPO_RATE, leaf red |     |  delay           |
#   | eth0 10.77.N.1 ------- sN 10.77.N.254        |     |  TOPO_DELAY      |
#   | [fq optional]|        |  (step ECN at K) or  |     |  (the ACK path)  |
#   +--------------+        |  fq_codel ce_thresh. |     |                  |
#                           +----------------------+     +------------------+
#
#   data:  snd_i --> router --[bottleneck queue at r0]--> receiver
#   ACKs:  receiver --[netem delay]--> router --> snd_i
#
#   Every link is a veth pair with TSO/GSO/GRO off (per-packet queueing
#   and marking), every namespace has its own name for this run
#   (aicc-<id>-snd<i>, aicc-<id>-rtr, aicc-<id>-rcv), TCP ECN on in the
#   senders and the receiver, no cached TCP metrics.  The data path
#   sender -> receiver queues only at r0; the ACK path is delayed by
#   netem, so the base RTT is about TOPO_DELAY.
#
# Settings (environment or shell variables, read by topo_setup):
#   TOPO_SENDERS=1        sender namespaces (1..64)
#   TOPO_RATE=20mbit      bottleneck rate (tc syntax: kbit, mbit)
#   TOPO_DELAY=5ms        netem delay on the ACK path
#   TOPO_AQM=red          red (step ECN marking), fq_codel (ce_threshold)
#                         or none (tail drop)
#   TOPO_ECN_K=30000      RED marking threshold in bytes
#   TOPO_CE_THRESHOLD=5ms fq_codel's CE marking threshold
#   TOPO_LIMIT=400000     bottleneck buffer in bytes (red, none)
#   TOPO_SENDER_QDISC=    qdisc on each sender's eth0, e.g. fq
#   TOPO_HTB_BURST=       htb bucket in bytes (default: 16 ms at the rate)
#
# Capacity under TCG on the 2-core build machine: one cubic flow reaches
# 0.95 x 20 Mbit/s, but only 0.55..0.8 x 50 Mbit/s (emulation-bound), so
# behaviour tests should use 20 Mbit/s.
#
# After topo_setup:
#   TOPO_NS_SND[i]        sender i's namespace (1-based)
#   TOPO_NS_RTR, TOPO_NS_RCV
#   TOPO_RCV_ADDR         the receiver's address (10.77.200.1)
#   TOPO_SND_ADDR[i]      sender i's address
#   TOPO_RATE_BPS         the bottleneck rate in bit/s
#
# Helpers:
#   topo_setup / topo_cleanup (an EXIT trap runs it; topo_atexit CMD adds
#   more), topo_exec NS CMD..., topo_snd I CMD..., topo_rtr CMD...,
#   topo_rcv CMD..., topo_bg NS CMD... (background, killed at cleanup),
#   topo_set_cc I ALGO (per-route congctl for sender I),
#   topo_qstat FIELD (bottleneck counters: sent_bytes sent_pkts drops
#   marks backlog_bytes backlog_pkts), topo_qsample_start/stop/pct (queue
#   backlog samples, of any namespace's qdisc 10: too),
#   topo_ping_rtt I COUNT (min/avg/max ms),
#   topo_rx_bytes (receiver eth0), mod_wait_listen NS PORT (wait.sh),
#   topo_iperf_server PORT, topo_bulk I CC SECS PORT (iperf3 goodput in
#   bit/s), topo_gen_server / topo_gen I MODE ARGS... (aiccgen hooks),
#   topo_gen_to NAME I MODE ARGS... (topo_gen into $TOPO_TMP/NAME.json),
#   topo_gen_netns FILE NAME (a namespace counter of aiccgen's report),
#   topo_tcpext I NAME (sender I's TcpExt counter NAME now),
#   topo_stats PROFILE NAME... (aicc counters of PROFILE, on one line),
#   topo_start_server PORT ARGS... (a selftest's "topology and server"),
#   topo_load_aicc WHO (make bench and make demo: tcp_aicc.ko loaded).

TOPO_SENDERS=${TOPO_SENDERS:-1}
TOPO_RATE=${TOPO_RATE:-20mbit}
TOPO_DELAY=${TOPO_DELAY:-5ms}
TOPO_AQM=${TOPO_AQM:-red}
TOPO_ECN_K=${TOPO_ECN_K:-30000}
TOPO_CE_THRESHOLD=${TOPO_CE_THRESHOLD:-5ms}
TOPO_LIMIT=${TOPO_LIMIT:-400000}
TOPO_SENDER_QDISC=${TOPO_SENDER_QDISC:-}

TOPO_ID=
TOPO_NS_SND=()
TOPO_SND_ADDR=()
TOPO_NS_RTR=
TOPO_NS_RCV=
TOPO_RCV_ADDR=10.77.200.1
TOPO_RATE_BPS=
TOPO_BG_PIDS=()
TOPO_ATEXIT=()
TOPO_UNLOAD_AICC=
TOPO_TMP=
TOPO_QSAMPLE_PID=
TOPO_QSAMPLE_FILE=

topo_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=selftests/lib/unload.sh
. "$topo_repo/selftests/lib/unload.sh"
# shellcheck source=selftests/lib/wait.sh
. "$topo_repo/selftests/lib/wait.sh"
TOPO_AICCGEN=${TOPO_AICCGEN:-$topo_repo/build/aiccgen}
TOPO_QMON=${TOPO_QMON:-$topo_repo/build/selftests/lib/qmon}

# topo_require_testbed: what every dumbbell selftest needs before its
# plan (source ktap.sh first): root, the tools, tcp_aicc.ko built for the
# running kernel (its path in TOPO_KO) and aiccgen.  A missing piece skips
# the whole test.
topo_require_testbed()
{
	ktap_require_root
	ktap_require ip tc ethtool python3
	TOPO_KO=${AICC_KO:-$topo_repo/build/$(uname -r)/tcp_aicc.ko}
	[ -f "$TOPO_KO" ] || ktap_skip_all "no module built for $(uname -r)"
	topo_have_gen || ktap_skip_all "no traffic generator (make tools)"
}

# topo_test_module KO: for a selftest, after its plan: load KO unless
# tcp_aicc is loaded already (a failure skips the whole test), and unload
# it when the test exits (topo_cleanup, once the sockets of the testbed's
# namespaces are gone).
topo_test_module()
{
	lsmod | grep -q '^tcp_aicc ' || insmod "$1" ||
		ktap_skip_all "insmod failed"
	TOPO_UNLOAD_AICC=1
}

# topo_ratio A C: A / C with three decimals, "x" when either is missing or
# C is not positive (ktap_expect_range then fails on it).
topo_ratio()
{
	awk -v a="${1:-}" -v c="${2:-}" \
		'BEGIN { if (a == "" || c == "" || c <= 0) print "x"; else printf "%.3f", a / c }'
}

# topo_load_aicc WHO: for the tools that use this testbed outside the
# selftests (make bench, make demo): tcp_aicc.ko (build/<release>/) and
# aiccgen must be built; the module is loaded unless aicc is registered
# already.  A problem is one "WHO: ..." line on stderr and status 1.
topo_load_aicc()
{
	local ko

	ko=${AICC_KO:-$topo_repo/build/$(uname -r)/tcp_aicc.ko}
	[ -f "$ko" ] || { echo "$1: no $ko (make kmods)" >&2; return 1; }
	[ -x "$TOPO_AICCGEN" ] ||
		{ echo "$1: no $TOPO_AICCGEN (make tools)" >&2; return 1; }
	grep -qw aicc /proc/sys/net/ipv4/tcp_available_congestion_control &&
		return 0
	insmod "$ko" || { echo "$1: insmod $ko failed" >&2; return 1; }
}

topo_err()
{
	echo "topo: $*" >&2
}

# tc rate ("20mbit", "1.5gbit", "800kbit", "1000000bit") -> bit/s
topo_rate_bps()
{
	awk -v r="$1" 'BEGIN {
		n = r + 0; u = tolower(substr(r, length(n "") + 1));
		m["bit"] = 1; m["kbit"] = 1e3; m["mbit"] = 1e6; m["gbit"] = 1e9;
		m[""] = 1;
		if (!(u in m) || n <= 0) exit 1;
		printf "%.0f\n", n * m[u];
	}'
}

# "5ms", "500us", "1s" -> microseconds
topo_time_us()
{
	awk -v t="$1" 'BEGIN {
		n = t + 0; u = tolower(substr(t, length(n "") + 1));
		m["us"] = 1; m["usec"] = 1; m["ms"] = 1e3; m["msec"] = 1e3;
		m["s"] = 1e6; m["sec"] = 1e6;
		if (!(u in m) || n < 0) exit 1;
		printf "%.0f\n", n * m[u];
	}'
}

topo_exec()
{
	local ns=$1
	shift
	ip netns exec "$ns" "$@"
}

topo_snd()
{
	local i=$1
	shift
	ip netns exec "${TOPO_NS_SND[$i]}" "$@"
}

topo_rtr()
{
	ip netns exec "$TOPO_NS_RTR" "$@"
}

topo_rcv()
{
	ip netns exec "$TOPO_NS_RCV" "$@"
}

# topo_bg NS CMD...: start CMD in NS in the background; its pid is in
# $TOPO_LAST_PID and it is killed by topo_cleanup.
topo_bg()
{
	local ns=$1
	shift
	ip netns exec "$ns" "$@" &
	TOPO_LAST_PID=$!
	TOPO_BG_PIDS+=("$TOPO_LAST_PID")
}

topo_atexit()
{
	TOPO_ATEXIT+=("$*")
}

topo_cleanup()
{
	local i ns p

	for ((i = ${#TOPO_ATEXIT[@]} - 1; i >= 0; i--)); do
		eval "${TOPO_ATEXIT[i]}" > /dev/null 2>&1
	done
	TOPO_ATEXIT=()
	[ -n "$TOPO_QSAMPLE_PID" ] && kill "$TOPO_QSAMPLE_PID" 2>/dev/null
	for p in "${TOPO_BG_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for ns in "${TOPO_NS_SND[@]}" "$TOPO_NS_RTR" "$TOPO_NS_RCV"; do
		[ -n "$ns" ] || continue
		for p in $(ip netns pids "$ns" 2>/dev/null); do
			kill -9 "$p" 2>/dev/null
		done
	done
	for p in "${TOPO_BG_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	TOPO_BG_PIDS=()
	for ns in "${TOPO_NS_SND[@]}" "$TOPO_NS_RTR" "$TOPO_NS_RCV"; do
		[ -n "$ns" ] && ip netns del "$ns" 2>/dev/null
	done
	TOPO_NS_SND=()
	TOPO_NS_RTR=
	TOPO_NS_RCV=
	[ -n "$TOPO_TMP" ] && rm -rf "$TOPO_TMP"
	TOPO_TMP=
	# a namespace's sockets go away a little after 'ip netns del'
	if [ -n "${TOPO_UNLOAD_AICC:-}" ]; then
		mod_unload 5
		TOPO_UNLOAD_AICC=
	fi
}

# topo_ns_prep NS DEV...: in one process (process start-up is slow under
# emulation): offloads off on each DEV, so that every packet is queued,
# marked and delayed as itself; TCP ECN on and no cached metrics; IPv4
# forwarding for the router.
topo_ns_prep()
{
	local ns=$1 fwd=0
	shift
	[ "$ns" = "$TOPO_NS_RTR" ] && fwd=1
	ip netns exec "$ns" sh -c '
		fwd=$1
		shift
		for d in "$@"; do
			ethtool -K "$d" tso off gso off gro off || exit 1
		done
		sysctl -qw net.ipv4.tcp_ecn=1 net.ipv4.tcp_no_metrics_save=1 \
			net.ipv4.ip_forward=$fwd' sh "$fwd" "$@" > /dev/null 2>&1 ||
		{ topo_err "cannot prepare namespace $ns (ethtool/sysctl)"; return 1; }
}

# The bottleneck qdisc tree on r0: htb root, one class at TOPO_RATE, the
# AQM as its leaf (handle 10:).
topo_bottleneck()
{
	local k burst hburst r=$TOPO_RATE dev=r0
	local -a leaf

	case $TOPO_AQM in
	red)
		# Step marking: min and max one byte apart and a burst of
		# K/avpkt + 1 packets, which makes the average follow the
		# instantaneous queue (weight 1/2).
		k=$TOPO_ECN_K
		burst=$((k / 1500 + 1))
		leaf=(red limit "$TOPO_LIMIT" min "$k" max $((k + 1)) avpkt 1500
		      burst "$burst" probability 1.0 bandwidth "$r" ecn)
		;;
	fq_codel)
		leaf=(fq_codel limit 10000 ce_threshold "$TOPO_CE_THRESHOLD" ecn)
		;;
	none)
		leaf=(bfifo limit "$TOPO_LIMIT")
		;;
	*)
		topo_err "unknown TOPO_AQM '$TOPO_AQM' (red, fq_codel, none)"
		return 1
		;;
	esac
	# htb's default bucket is about one packet: under emulation its timer
	# fires late and a 20 Mbit/s class then passes only ~13 Mbit/s.  A
	# bucket of 16 ms at the rate lets it catch up (0.95 x rate measured
	# for one cubic flow at 20 Mbit/s; 8 ms gave 0.89..0.93).
	hburst=${TOPO_HTB_BURST:-$((TOPO_RATE_BPS / 8 * 16 / 1000))}
	[ "$hburst" -ge 3000 ] || hburst=3000
	{
		echo "qdisc add dev $dev root handle 1: htb default 10"
		echo "class add dev $dev parent 1: classid 1:10 htb rate $r" \
			"ceil $r burst $hburst cburst $hburst quantum 1514"
		echo "qdisc add dev $dev parent 1:10 handle 10: ${leaf[*]}"
	} | topo_rtr tc -batch - ||
		{ topo_err "cannot set up the bottleneck on $dev"; return 1; }
}

topo_setup()
{
	local i ns
	local -a devs

	if [ "$(id -u)" -ne 0 ]; then
		topo_err "must run as root"
		return 1
	fi
	case $TOPO_SENDERS in
	''|*[!0-9]*) topo_err "bad TOPO_SENDERS '$TOPO_SENDERS'"; return 1 ;;
	esac
	if [ "$TOPO_SENDERS" -lt 1 ] || [ "$TOPO_SENDERS" -gt 64 ]; then
		topo_err "TOPO_SENDERS must be 1..64, not $TOPO_SENDERS"
		return 1
	fi
	TOPO_RATE_BPS=$(topo_rate_bps "$TOPO_RATE") ||
		{ topo_err "bad TOPO_RATE '$TOPO_RATE'"; return 1; }
	topo_time_us "$TOPO_DELAY" > /dev/null ||
		{ topo_err "bad TOPO_DELAY '$TOPO_DELAY'"; return 1; }

	TOPO_ID=$(printf '%x%04x' $$ $((RANDOM)))
	TOPO_TMP=$(mktemp -d "/tmp/aicc-topo-$TOPO_ID.XXXXXX")
	trap topo_cleanup EXIT
	trap 'exit 130' INT TERM

	TOPO_NS_RTR=aicc-$TOPO_ID-rtr
	TOPO_NS_RCV=aicc-$TOPO_ID-rcv
	for ((i = 1; i <= TOPO_SENDERS; i++)); do
		TOPO_NS_SND[i]=aicc-$TOPO_ID-snd$i
		TOPO_SND_ADDR[i]=10.77.$i.1
	done

	# All namespaces and veth pairs from the root namespace in one batch:
	# each end is created directly in its namespace.
	{
		for ns in "$TOPO_NS_RTR" "$TOPO_NS_RCV" "${TOPO_NS_SND[@]}"; do
			echo "netns add $ns"
		done
		echo "link add r0 netns $TOPO_NS_RTR type veth peer name eth0 netns $TOPO_NS_RCV"
		for ((i = 1; i <= TOPO_SENDERS; i++)); do
			echo "link add s$i netns $TOPO_NS_RTR type veth" \
				"peer name eth0 netns ${TOPO_NS_SND[i]}"
		done
	} | ip -batch - ||
		{ topo_err "cannot create the namespaces and veth pairs"; return 1; }

	{
		echo "link set lo up"
		echo "addr add 10.77.200.254/24 dev r0"
		echo "link set r0 up"
		for ((i = 1; i <= TOPO_SENDERS; i++)); do
			echo "addr add 10.77.$i.254/24 dev s$i"
			echo "link set s$i up"
		done
	} | ip -n "$TOPO_NS_RTR" -batch - || return 1
	printf '%s\n' "link set lo up" "addr add $TOPO_RCV_ADDR/24 dev eth0" \
		"link set eth0 up" "route add default via 10.77.200.254" |
		ip -n "$TOPO_NS_RCV" -batch - || return 1
	for ((i = 1; i <= TOPO_SENDERS; i++)); do
		printf '%s\n' "link set lo up" "addr add ${TOPO_SND_ADDR[i]}/24 dev eth0" \
			"link set eth0 up" "route add default via 10.77.$i.254" |
			ip -n "${TOPO_NS_SND[i]}" -batch - || return 1
	done

	devs=(r0)
	for ((i = 1; i <= TOPO_SENDERS; i++)); do
		devs+=("s$i")
	done
	topo_ns_prep "$TOPO_NS_RTR" "${devs[@]}" || return 1
	topo_ns_prep "$TOPO_NS_RCV" eth0 || return 1
	for ((i = 1; i <= TOPO_SENDERS; i++)); do
		ns=${TOPO_NS_SND[i]}
		topo_ns_prep "$ns" eth0 || return 1
		if [ -n "$TOPO_SENDER_QDISC" ]; then
			topo_exec "$ns" tc qdisc replace dev eth0 root $TOPO_SENDER_QDISC ||
				{ topo_err "cannot add '$TOPO_SENDER_QDISC' on ${ns}"; return 1; }
		fi
	done

	topo_bottleneck || return 1
	topo_rcv tc qdisc add dev eth0 root netem delay "$TOPO_DELAY" limit 100000 ||
		{ topo_err "cannot add netem on the ACK path"; return 1; }

	# Wait for the links (and IPv4 DAD-free addresses) to pass traffic.
	for ((i = 1; i <= TOPO_SENDERS; i++)); do
		topo_snd "$i" ping -q -c 1 -W 2 "$TOPO_RCV_ADDR" > /dev/null 2>&1 ||
		topo_snd "$i" ping -q -c 1 -W 5 "$TOPO_RCV_ADDR" > /dev/null 2>&1 ||
			{ topo_err "sender $i cannot reach the receiver"; return 1; }
	done
}

# topo_set_cc I ALGO: sender I's route to the receiver uses ALGO (route
# attribute congctl, which takes precedence over a socket's own
# TCP_CONGESTION at connection setup).
topo_set_cc()
{
	topo_snd "$1" ip route replace default via "10.77.$1.254" congctl "$2"
}

# topo_qstat FIELD [NS DEV]: one counter of the AQM (leaf 10:) on DEV in
# namespace NS (default: the bottleneck, r0 in $TOPO_NS_RTR; the RoCE
# testbed reads its switch too): sent_bytes sent_pkts drops marks
# backlog_bytes backlog_pkts overlimits.
topo_qstat()
{
	ip netns exec "${2:-$TOPO_NS_RTR}" tc -s qdisc show dev "${3:-r0}" |
		awk -v want="$1" '
		/^qdisc / { leaf = ($3 == "10:") }
		!leaf { next }
		/ Sent / {
			v["sent_bytes"] = $2; v["sent_pkts"] = $4;
			d = $7; gsub(/[^0-9]/, "", d); v["drops"] = d;
			o = $9; gsub(/[^0-9]/, "", o); v["overlimits"] = o;
		}
		/ backlog / {
			b = $2; sub(/b$/, "", b);
			if (b ~ /K$/) { sub(/K$/, "", b); b *= 1000 }
			if (b ~ /M$/) { sub(/M$/, "", b); b *= 1000000 }
			v["backlog_bytes"] = b;
			p = $3; sub(/p$/, "", p); v["backlog_pkts"] = p;
		}
		{
			for (i = 1; i < NF; i++) {
				if ($i == "marked" || $i == "ce_mark")
					v["marks"] += $(i + 1);
			}
		}
		END {
			if (!(want in v)) v[want] = (want == "marks") ? 0 : "";
			print v[want];
		}'
}

# topo_qsample_start [INTERVAL_MS [NS DEV DIR]]: sample the backlog (bytes)
# of the leaf qdisc 10: on DEV in namespace NS (default: the bottleneck,
# r0 in $TOPO_NS_RTR) every INTERVAL_MS (default 5) in the background into
# DIR/qsample (default $TOPO_TMP), one line per sample, until
# topo_qsample_stop.  One sampler at a time; selftests/rdma/roce_lib.sh
# uses it for its switch too.  The sampler is qmon (selftests/lib/qmon.c,
# make selftests): one netlink dump per sample, so a ten-second run has
# about two thousand samples and its 99th percentile is a measurement,
# not the largest of a few dozen.  Without qmon built this fails.
topo_qsample_start()
{
	local ns=${2:-$TOPO_NS_RTR} dev=${3:-r0} dir=${4:-$TOPO_TMP}
	local us

	if [ ! -x "$TOPO_QMON" ]; then
		topo_err "no $TOPO_QMON (make selftests)"
		return 1
	fi
	us=$(awk -v m="${1:-5}" 'BEGIN { printf "%d", m * 1000 }')
	TOPO_QSAMPLE_FILE=$dir/qsample
	: > "$TOPO_QSAMPLE_FILE"
	ip netns exec "$ns" "$TOPO_QMON" "$dev" 10: "$us" \
		>> "$TOPO_QSAMPLE_FILE" 2>/dev/null &
	TOPO_QSAMPLE_PID=$!
}

topo_qsample_stop()
{
	[ -n "$TOPO_QSAMPLE_PID" ] || return 0
	kill "$TOPO_QSAMPLE_PID" 2>/dev/null
	wait "$TOPO_QSAMPLE_PID" 2>/dev/null
	TOPO_QSAMPLE_PID=
}

# topo_qsample_pct P [SKIP]: the P-th percentile of the last sampler's
# backlog in bytes, leaving out its first SKIP samples (default none: at
# 5 ms a sample, 400 is the first two seconds); topo_qsample_delay_us P
# [SKIP]: the same as queueing delay at the bottleneck rate.  Empty output
# when nothing was sampled.
topo_qsample_pct()
{
	tail -n +"$((${2:-0} + 1))" "${TOPO_QSAMPLE_FILE:-$TOPO_TMP/qsample}" |
	sort -n | awk -v p="$1" '
		{ v[NR] = $1 }
		END {
			if (NR == 0) exit 1;
			i = int((p / 100) * NR + 0.999999); if (i < 1) i = 1;
			if (i > NR) i = NR;
			print v[i];
		}'
}

topo_qsample_delay_us()
{
	local b

	b=$(topo_qsample_pct "$1" "${2:-0}") || return 1
	awk -v b="$b" -v r="$TOPO_RATE_BPS" 'BEGIN { printf "%.0f\n", b * 8 * 1e6 / r }'
}

# topo_ping_rtt I COUNT: "min avg max" RTT in ms from sender I.
topo_ping_rtt()
{
	topo_snd "$1" ping -q -c "${2:-5}" -i 0.2 -W 2 "$TOPO_RCV_ADDR" 2>/dev/null |
		awk -F'[/= ]+' '/^(rtt|round-trip)/ { print $6, $7, $8 }'
}

topo_rx_bytes()
{
	topo_rcv cat /sys/class/net/eth0/statistics/rx_bytes
}

# topo_iperf_server PORT: an iperf3 server in the receiver namespace
# (serves one test at a time: one port per concurrent flow).
topo_iperf_server()
{
	topo_bg "$TOPO_NS_RCV" iperf3 -s -p "$1" > /dev/null 2>&1
	mod_wait_listen "$TOPO_NS_RCV" "$1"
}

# topo_bulk I CC SECS PORT [IPERF3 ARGS...]: one iperf3 flow from sender I
# with congestion control CC (setsockopt); prints the receiver's goodput in
# bit/s, the first second excluded.  The JSON is kept in
# $TOPO_TMP/bulk-I-PORT.json.
topo_bulk()
{
	local i=$1 cc=$2 secs=$3 port=$4 j
	shift 4

	j=$TOPO_TMP/bulk-$i-$port.json
	topo_snd "$i" timeout $((secs + 30)) iperf3 -c "$TOPO_RCV_ADDR" -p "$port" \
		-t "$secs" -O 1 -C "$cc" -J "$@" > "$j" 2>&1 ||
		{ topo_err "iperf3 from sender $i failed: $(head -c 300 "$j")"; return 1; }
	# end.sum_received.bits_per_second, without a JSON parser (python
	# takes seconds to start under emulation)
	awk '/"sum_received"/ { on = 1 }
		on && /"bits_per_second"/ {
			v = $0; sub(/.*: */, "", v); sub(/,.*/, "", v);
			printf "%.0f\n", v; found = 1; exit
		}
		END { exit !found }' "$j" ||
		{ topo_err "no receiver goodput in $j"; return 1; }
}

# aiccgen hooks (tools/aiccgen, built to build/aiccgen).
topo_have_gen()
{
	[ -x "$TOPO_AICCGEN" ]
}

# topo_gen_server [PORT] [ARGS...]: aiccgen server in the receiver ns.
topo_gen_server()
{
	local port=${1:-5999}

	[ $# -gt 0 ] && shift
	topo_have_gen || { topo_err "no $TOPO_AICCGEN (make tools)"; return 1; }
	topo_bg "$TOPO_NS_RCV" "$TOPO_AICCGEN" server -p "$port" "$@" \
		> "$TOPO_TMP/gen-server-$port.log" 2>&1
	mod_wait_listen "$TOPO_NS_RCV" "$port"
}

# topo_start_server PORT [ARGS...]: a dumbbell selftest's first result,
# "topology and server": topo_setup and topo_gen_server PORT ARGS; if
# either fails, the result fails and the test ends (ktap_finish).
topo_start_server()
{
	if ! topo_setup || ! topo_gen_server "$@"; then
		ktap_fail "topology and server"
		ktap_finish
	fi
	ktap_pass "topology and server"
}

# topo_gen I MODE ARGS...: aiccgen MODE from sender I against the
# receiver, JSON on stdout.
topo_gen()
{
	local i=$1 mode=$2
	shift 2

	topo_have_gen || { topo_err "no $TOPO_AICCGEN (make tools)"; return 1; }
	topo_snd "$i" "$TOPO_AICCGEN" "$mode" -j -c "$TOPO_RCV_ADDR" "$@"
}

# topo_gen_to NAME I MODE ARGS...: topo_gen I MODE ARGS..., its JSON
# report in $TOPO_TMP/NAME.json and its errors in NAME.err; a failure is
# logged with the first line of its errors, and the status is nonzero.
topo_gen_to()
{
	local name=$1

	shift
	topo_gen "$@" > "$TOPO_TMP/$name.json" 2> "$TOPO_TMP/$name.err" && return
	ktap_info "aiccgen ($name): $(head -1 "$TOPO_TMP/$name.err")"
	return 1
}

# topo_gen_netns FILE NAME: the counter NAME (retrans_segs, undos, ...) of
# the "netns" object in topo_gen's JSON report FILE: the sender
# namespace's TCP counters over the run; nothing when it is missing.
topo_gen_netns()
{
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["netns"][sys.argv[2]])' "$1" "$2" \
		2>/dev/null
}

# topo_stats PROFILE NAME...: the counters NAME... of aicc profile PROFILE
# (/sys/kernel/aicc/PROFILE/stats/NAME), on one line.
topo_stats()
{
	local p=$1 n out=

	shift
	for n in "$@"; do
		out="$out${out:+ }$(cat "/sys/kernel/aicc/$p/stats/$n")"
	done
	echo "$out"
}

# topo_tcpext I NAME: sender I's TCP counter NAME (a TcpExt field of
# /proc/net/netstat: TCPLossProbeRecovery, ...) now.  topo_gen_netns's
# counts end before aiccgen closes its connections; read this once they
# have closed to count what the closing did as well.  Nothing when the
# counter is missing.
topo_tcpext()
{
	topo_snd "$1" cat /proc/net/netstat | awk -v k="$2" '
		$1 != "TcpExt:" { next }
		!n { n = split($0, name); next }
		{ for (i = 2; i <= NF; i++) if (name[i] == k) print $i; exit }'
}
