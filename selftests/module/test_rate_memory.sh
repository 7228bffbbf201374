#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The per-peer rate memory, on a freshly loaded module: a flow's rate is
# stored for its peer (namespace + address) and the next connection to the
# same peer starts from it; the receiving end (an aicc server) stores
# nothing, its window never having left fast start; another namespace
# does not share it; the rate_memory switch turns lookups off;
# rate_memory_used counts entries; a connection that selects aicc in
# SYN_SENT starts from the remembered window too; a connection idle for
# longer than rate_memory_ms hands on nothing when it sends again or
# closes.

set -u
# shellcheck source-path=SCRIPTDIR source=../lib/module.sh
. "$(dirname "$0")/../lib/module.sh"

ktap_require ip ss python3
gen=$top/build/aiccgen
mod_require "$gen"

ktap_plan 8
ns=aicc-mem-$$
port=5401
mod_netns=("$ns-a" "$ns-b" "$ns-c")
mod_settle=1
mod_load_or_skip

# a and c send to b; a and c are different namespaces with the same address
ip netns add "$ns-a" && ip netns add "$ns-b" && ip netns add "$ns-c"
ip link add va netns "$ns-a" type veth peer name vb netns "$ns-b"
ip link add vc netns "$ns-c" type veth peer name vd netns "$ns-b"
ip -n "$ns-a" addr add 10.98.0.1/24 dev va
ip -n "$ns-c" addr add 10.98.1.1/24 dev vc
ip -n "$ns-b" addr add 10.98.0.2/24 dev vb
ip -n "$ns-b" addr add 10.98.1.2/24 dev vd
for l in "a va" "b vb" "b vd" "c vc"; do
	set -- $l
	ip -n "$ns-$1" link set lo up
	ip -n "$ns-$1" link set "$2" up
done
ip -n "$ns-c" route add 10.98.0.2/32 dev vc
ip -n "$ns-b" route add 10.98.1.1/32 dev vd
# a 200 Mbit/s bottleneck out of a: the sender's fast start ends on its
# queue (on the bare veth it could end on the receiver's window instead)
tc -n "$ns-a" qdisc add dev va root netem rate 200mbit limit 1000
ip netns exec "$ns-b" "$gen" server -p $port --cc aicc > /dev/null 2>&1 &
mod_pids+=($!)
mod_wait_listen "$ns-b" $port

flow()	# NS SECONDS
{
	ip netns exec "$ns-$1" timeout 30 "$gen" bulk -c 10.98.0.2 -p $port \
		-n 1 -t "$2" --cc aicc > /dev/null 2>&1
}
hits() { cat $sys/aicc/stats/mem_hits; }

echo 1 > $sys/rate_memory
h0=$(hits)
flow a 2
used=$(cat $sys/rate_memory_used)
ktap_expect "a flow's rate is stored, the sender's alone (rate_memory_used)" \
	"$used -eq 1" "used $used (2: the server's socket stored its start too)"

h1=$(hits)
flow a 1
h2=$(hits)
ktap_expect "the next flow to the peer starts from it" "$h2 -gt $h1" \
	"hits $h0 -> $h1 -> $h2"

t0=$(cat $sys/aicc/stats/flows_total)
flow c 1
h3=$(hits)
t1=$(cat $sys/aicc/stats/flows_total)
ktap_expect "another namespace does not share it" "$h3 -eq $h2 -a $t1 -gt $t0" \
	"hits $h2 -> $h3, flows $t0 -> $t1"

echo 0 > $sys/rate_memory
t2=$(cat $sys/aicc/stats/flows_total)
flow a 1
frc=$?
h4=$(hits)
t3=$(cat $sys/aicc/stats/flows_total)
echo 1 > $sys/rate_memory
# (the flow must have run: no flow, no lookup either)
ktap_expect "rate_memory=0 turns lookups off" \
	"$h4 -eq $h3 -a $frc -eq 0 -a $t3 -gt $t2" \
	"hits $h3 -> $h4, flow exit $frc, flows $t2 -> $t3"

echo 16 > $sys/rate_memory_entries
used=$(cat $sys/rate_memory_used)
echo 1024 > $sys/rate_memory_entries
ktap_expect "resizing starts an empty cache" "$used -eq 0" "used $used"

# first_window before|synsent: "STATE WINDOW" of a connection from a that
# selects aicc before connect() or just after a non-blocking connect(), in
# SYN_SENT (STATE is tcpi_state then, 2), the window read from TCP_INFO
# just after its first write, before any ACK of it
first_window()
{
	ip netns exec "$ns-a" python3 - "$1" 10.98.0.2 $port <<'EOF'
import select, socket, struct, sys

when, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket()


def info():
    b = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
    return b[0], struct.unpack_from("I", b, 80)[0]  # tcpi_snd_cwnd


if when == "before":
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"aicc")
s.setblocking(False)
try:
    s.connect((host, port))
except BlockingIOError:
    pass
if when == "synsent":
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"aicc")
state = info()[0]
select.select([], [s], [], 10)
err = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
if err:
    sys.exit("connect: errno %d" % err)
s.setblocking(True)
s.send(b"x")
print(state, info()[1])
EOF
}

# 6: the path gets 10 ms of delay (a SYN_SENT that lasts, a window well
# above the initial 10), a flow learns its rate, and a connection that
# selects aicc in SYN_SENT starts from it as one that selects it first.
# init() runs in SYN_SENT then, and tcp_init_transfer() resets the window
# to the initial one once the connection is up: until 7 December 2026 the
# first flight was the initial window's.
tc -n "$ns-a" qdisc change dev va root netem rate 200mbit delay 10ms limit 1000
flow a 2
read -r _ w0 < <(first_window before)
read -r st1 w1 < <(first_window synsent)
ktap_expect "selected in SYN_SENT: the first window is the remembered one" \
	"${w0:-0} -gt 20 -a ${st1:-0} -eq 2 -a ${w1:-0} -ge $((${w0:-0} / 2))" \
	"first window ${w0:-?} selected before connect(), ${w1:-?} in state ${st1:-?} (2: SYN_SENT)"

# idle_then send|close: a connection from a to the aiccgen server (sink
# mode) sends 4 MB, waits until all
# of it is acknowledged, sits idle for 2 s, then sends 16 KB more and
# waits for its ACK (send) or closes (close).  Exit status 0 when all went
# through.
idle_then()
{
	ip netns exec "$ns-a" python3 - "$1" 10.98.0.2 $port <<'EOF'
import fcntl, socket, struct, sys, time

how, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket()
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"aicc")
s.settimeout(20)
s.connect((host, port))
# aiccgen's session header: magic "AICG", version 1, sink mode
s.sendall(struct.pack("!IBB", 0x41494347, 1, 1) + bytes(26))


def drained():
    # SIOCOUTQ: bytes not yet acknowledged
    for _ in range(2000):
        b = fcntl.ioctl(s, 0x5411, struct.pack("i", 0))
        if struct.unpack("i", b)[0] == 0:
            return
        time.sleep(0.005)
    sys.exit("data still unacknowledged after 10 s")


s.sendall(b"x" * (4 << 20))
drained()
time.sleep(2)
if how == "send":
    s.sendall(b"y" * 16384)
    drained()
s.close()
EOF
}

# 7, 8: with rate_memory_ms at 1 s, a connection sits idle for 2 s after
# its transfer, then sends again (7) or closes (8); a connection opened
# right after finds nothing remembered.  Its state was 2 s old: the entry
# its transfer refreshed has aged out, and until 7 December 2026 the
# transmit start and the close stored the old state again, stamped as new,
# and the next connection took it (a hit).
echo 1000 > $sys/aicc/rate_memory_ms
for how in send close; do
	idle_then $how
	irc=$?
	h0=$(hits)
	flow a 1
	frc=$?
	h1=$(hits)
	ktap_expect "idle 2 s, rate_memory_ms 1000, then $how: nothing handed on" \
		"$irc -eq 0 -a $frc -eq 0 -a $h1 -eq $h0" \
		"hits $h0 -> $h1, idle connection exit $irc, flow exit $frc"
done

ktap_finish
