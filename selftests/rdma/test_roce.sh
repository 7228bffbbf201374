#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# aicc_roce.ko end to end on Soft-RoCE (rdma_rxe), in the VM rig
# (testbed: roce_lib.sh -- two rxe devices in the initial namespace, a
# switch namespace with an htb bottleneck and RED step ECN marking):
#
#   - every knob refuses a value outside its range or not a decimal
#     integer with EINVAL and keeps its value;
#   - rping runs through the switch (rdma_cm, RC, RoCEv2), over IPv4 and
#     IPv6, and the module keeps a flow for each;
#   - icrc_check: our ICRC computation agrees with rxe's on every received
#     packet (so the CNPs we build carry an ICRC rxe would accept);
#   - ib_write_bw with aicc_roce's rate control off (cc_algo=0: ECT(0)
#     marking only) and on (cc_algo=1, DCQCN) through the same bottleneck:
#     with it on, the queue falls (p50 and p90), throughput does not
#     collapse and the ping RTT does not grow (hard checks), and the
#     issue's goals -- throughput near the bottleneck, RTT down by 30 % --
#     are reported (TODO when missed); no go-back-N retransmission; every
#     CNP sent by the notification point is received by the reaction point;
#   - two QPs at once share the bottleneck fairly (Jain's index);
#   - IPv6 RoCE under congestion: CNPs (IPv6 ICRC) are received and act;
#   - under loss, the module sees every PSN sequence error NAK that rxe
#     counts, and the aicc law (cc_algo=2) cuts;
#   - the aicc law takes RTT samples on queue pairs that send both ways
#     (the PSNs of the responses a host sends are not its requests');
#   - fq on every queue under an mq root counts as fq, pfifo does not;
#   - a CNP that cannot go out (dropped on the device) is counted and
#     holds the flow's rate limit as a sent one does;
#   - malformed packets to UDP 4791 (truncated, wrong opcode, CNPs with a
#     bad ICRC or QPN or length) are ignored and counted;
#   - rmmod during traffic is safe and the traffic goes on.
#
# The throughput and ping ratios and Jain's index are timing: on the
# debug kernel (AICC_DEBUG_KERNEL=1) a miss there is a TODO
# (ktap_expect_perf in selftests/lib/ktap.sh); everywhere else they are
# hard checks.
#
# Needs rdma-core, ibverbs-providers, perftest, rdmacm-utils and the
# modules built by `make kmods` (build/<release>/); skips otherwise.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/ktap.sh"
. "$here/roce_lib.sh"

ktap_require_root
[ "${AICC_VM:-}" = 1 ] || ktap_skip_all "changes routing of the initial namespace: VM rig only"
rel=$(uname -r)
kdir=${AICC_ROCE_KO_DIR:-$top/build/$rel}
[ -f "$kdir/aicc_roce.ko" ] && [ -f "$kdir/tcp_aicc.ko" ] ||
	ktap_skip_all "no aicc_roce.ko/tcp_aicc.ko in $kdir (make kmods)"
why=$(roce_prereq)
[ -z "$why" ] || ktap_skip_all "$why"
aicc=$top/build/aicc
[ -x "$aicc" ] || ktap_skip_all "no $aicc (make tools)"

SECS=${SECS:-6}
t_start=$(cut -d' ' -f1 /proc/uptime)
ROCE_RATE=${ROCE_RATE:-20mbit}
S=/sys/kernel/aicc/roce

ktap_plan 26

unload()
{
	rmmod aicc_roce 2> /dev/null
	rmmod tcp_aicc 2> /dev/null
}
grep -qw aicc /proc/sys/net/ipv4/tcp_available_congestion_control && unload
if insmod "$kdir/tcp_aicc.ko" && insmod "$kdir/aicc_roce.ko"; then
	ktap_pass "insmod tcp_aicc.ko aicc_roce.ko"
else
	ktap_fail "insmod tcp_aicc.ko aicc_roce.ko" "$(dmesg | tail -3)"
	ktap_finish
fi

if ! roce_setup; then
	ktap_fail "testbed"
	unload
	ktap_finish
fi
roce_atexit unload
# aicc_roce's hooks must not be the only ones at LOCAL_IN/LOCAL_OUT when
# it is unloaded during traffic (below): see roce_hold_nf_hooks.
if why=$(roce_hold_nf_hooks 2>&1); then
	ktap_info "netfilter hooks held by the filter tables in the initial namespace"
else
	ktap_info "netfilter static keys not held ($why): rmmod during traffic patches kernel text live"
fi
for d in ra rb; do
	tc qdisc replace dev $d root fq limit 10000 flow_limit 1000
done

# 1b. every knob: a write outside its range or not a decimal integer
# fails with EINVAL and leaves the value; writes of its bounds and of its
# value take (names and ranges from module/roce/roce_tables.c)
tr '\n\t' '  ' < "$top/module/roce/roce_tables.c" | tr -s ' ' |
	grep -o 'RK(AICC_RK_[A-Z0-9_]*, *"[a-z0-9_]*", *AICC_RU_[A-Z0-9]*, *[0-9]*, *[0-9]*' |
	sed 's/.*"\([a-z0-9_]*\)", *AICC_RU_[A-Z0-9]*, *\([0-9]*\), *\([0-9]*\)$/\1 \2 \3/' \
	> "$ROCE_TMP/knobs"
bad="" nk=0
while read -r name lo hi; do
	f=$S/$name
	nk=$((nk + 1))
	read -r old < "$f" || { bad="$bad $name(unreadable)"; continue; }
	vals=("$((hi + 1))" abc -1 1.5 99999999999999999999 12x $'\n' "1 2")
	[ "$lo" -gt 0 ] && vals+=("$((lo - 1))")
	for val in "${vals[@]}"; do
		if err=$( { printf '%s' "$val" > "$f"; } 2>&1); then
			bad="$bad $name='$val'(accepted)"
		elif [[ $err != *"Invalid argument"* ]]; then
			bad="$bad $name='$val'($err)"
		fi
		read -r got < "$f"
		[ "$got" = "$old" ] || bad="$bad $name='$val'(changed to $got)"
	done
	for val in "$lo" "$hi" "$old"; do
		echo "$val" > "$f" && read -r got < "$f" && [ "$got" = "$val" ] ||
			bad="$bad $name=$val(refused)"
	done
done < "$ROCE_TMP/knobs"
nbad=$(echo "$bad" | wc -w)
ktap_expect "knobs: bad writes fail with EINVAL and change nothing, bounds taken ($nk knobs)" \
	"$nk -ge 20 -a $nbad -eq 0" "$bad"

# 2. rping
if roce_rping 10; then
	ktap_pass "rping through the switch"
else
	ktap_fail "rping through the switch" "$(tail -3 "$ROCE_TMP/rping-cli.log")"
fi

# 3. IPv6: rping over the IPv6 GIDs, and the module sees the flow
if roce_rping 5 "$ROCE_A6" "$ROCE_B6" &&
	"$aicc" rdma flows | grep -q "^$ROCE_A6 "; then
	ktap_pass "rping over IPv6, flow in the table"
else
	ktap_fail "rping over IPv6, flow in the table" \
		"$(tail -2 "$ROCE_TMP/rping-cli.log"; "$aicc" rdma flows | head -3)"
fi

st()
{
	cat "$S/stats/$1"
}

# (an unreadable counter reads as -1: the checks ask for readable ones)
hw()
{
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2> /dev/null ||
		echo -1
}

# phase NAME PORT: one ib_write_bw run of SECS seconds; sets bw_kbit (rx
# at B between 2 s and SECS-1 s), rtt_avg (ms), q50, q90 (bytes).
phase()
{
	local name=$1 port=$2

	roce_write_bw "$port" "$SECS"
	sleep 2
	roce_measure $((SECS - 3)) 15 50
	wait "$ROCE_LAST_PID"
	wbw_rc=$?
	bw_kbit=$ROCE_KBIT rtt_avg=$ROCE_RTT q50=$ROCE_Q50 q90=$ROCE_Q90
	ktap_info "$name: $bw_kbit kbit/s, ping avg ${rtt_avg:-?} ms, queue p50 $q50 p90 $q90 bytes, ib_write_bw rc $wbw_rc"
	sleep 1
}

# 3+4. off, with the ICRC check on
echo 0 > $S/cc_algo
echo 1 > $S/icrc_check
phase "cc off" 18515
off_bw=$bw_kbit off_rtt=${rtt_avg:-0} off_q=$q50 off_q90=$q90
echo 0 > $S/icrc_check
ok=$(st icrc_ok) bad=$(st icrc_bad)
ktap_expect "ICRC agrees with rxe on received packets ($ok ok, $bad bad)" \
	"$ok -gt 100 -a $bad -eq 0"
[ "$off_bw" -gt 0 ] && ktap_pass "traffic with cc off" ||
	ktap_fail "traffic with cc off" "$(tail -5 "$ROCE_TMP/wbw-18515-cli.log")"

# 5..9. on (DCQCN)
echo 1 > $S/cc_algo
seq0=$(hw rxe_a rcvd_seq_err) oos0=$(hw rxe_b out_of_seq_request)
retry0=$(hw rxe_a completer_retry_err)
phase "cc on (dcqcn)" 18516
on_bw=$bw_kbit on_rtt=${rtt_avg:-999} on_q=$q50 on_q90=$q90
rate_kbit=$((ROCE_RATE_BPS / 1000))
# Under emulation the rig itself may not reach the bottleneck rate: compare
# with the same run's throughput without rate control, and report both.
ktap_info "throughput / bottleneck: off $(awk -v a="$off_bw" -v r="$rate_kbit" \
	'BEGIN { printf "%.2f", a / r }'), on $(awk -v a="$on_bw" -v r="$rate_kbit" \
	'BEGIN { printf "%.2f", a / r }')"
thr=$(awk -v a="$on_bw" -v b="$off_bw" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }')
# A ping with no reply at all has no average: without rate control the
# standing queue can be long enough for RED to drop every (non-ECT) probe.
# That is the worst RTT, so any measured RTT with rate control beats it.
if [ "$off_rtt" = 0 ] && [ "$on_rtt" != 999 ]; then
	ktap_info "cc off: every ping probe was lost in the queue; cc on: $on_rtt ms"
	rtt=0.00
else
	rtt=$(awk -v a="$on_rtt" -v b="$off_rtt" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 9 }')
fi
ktap_expect_perf "throughput with cc on / off: not collapsed" "$thr" 0.4 2
ktap_target "throughput with cc on / off: near the bottleneck" "$thr" \
	"${ROCE_MIN_BW_RATIO:-0.7}" 2
# Under emulation the ping RTT is mostly the busy CPU, not the queue.
ktap_expect_perf "ping RTT on / off: not worse" "$rtt" 0 1.2
ktap_target "ping RTT on / off: falls substantially" "$rtt" 0 "${ROCE_MAX_RTT_RATIO:-0.7}"
ktap_expect "queue p50 falls (on $on_q, off $off_q bytes)" \
	"$on_q -lt $off_q -o $off_q -eq 0"
ktap_expect "queue p90 falls (on $on_q90, off $off_q90 bytes)" \
	"$on_q90 -lt $off_q90"
seq1=$(hw rxe_a rcvd_seq_err) oos1=$(hw rxe_b out_of_seq_request)
retry1=$(hw rxe_a completer_retry_err)
ktap_expect "no go-back-N (seq_err $((seq1 - seq0)), out_of_seq $((oos1 - oos0)), retry $((retry1 - retry0)))" \
	"$((seq1 - seq0 + oos1 - oos0 + retry1 - retry0)) -eq 0 -a $seq0 -ge 0 -a $oos0 -ge 0 -a $retry0 -ge 0"
sent=$(st cnp_sent) rcvd=$(st cnp_rcvd) cbad=$(st cnp_bad)
ktap_info "cnp_sent $sent cnp_rcvd $rcvd cnp_bad $cbad cuts $(st cuts) paced $(st paced) no_fq $(st no_fq)"
ktap_expect "CNPs sent = CNPs received ($sent, $rcvd), and some" \
	"$sent -gt 0 -a $sent -eq $rcvd -a $cbad -eq 0"
"$aicc" rdma flows | while IFS= read -r l; do ktap_info "$l"; done

# 10. fairness: two QPs at once (flows not seen before this run)
before=$("$aicc" rdma flows | awk 'NR > 1 { printf " %s ", $3 }')
roce_write_bw 18517 5
p1=$ROCE_LAST_PID
roce_write_bw 18518 5
p2=$ROCE_LAST_PID
wait $p1 $p2
shares=$("$aicc" rdma flows | awk -v b="$ROCE_B" -v old="$before" \
	'$1 == b && $8 > 0 && index(old, " " $3 " ") == 0 { print $8 }')
jain=$(echo "$shares" | awk '{ s += $1; q += $1 * $1; n++ }
	END { if (n < 2 || q == 0) print 0; else printf "%.3f", s * s / (n * q) }')
ktap_info "two QPs, packets received per QP: $(echo $shares)"
ktap_expect_perf "two QPs share fairly (Jain's index)" "$jain" 0.8 1

# 11. IPv6 under congestion: CE, CNPs with an IPv6 ICRC, cuts
c0=$(st cnp_rcvd) b0=$(st cnp_bad)
ROCE_WBW_V6=1 roce_write_bw 18520 4
wait "$ROCE_LAST_PID"
rc=$?
v6=$("$aicc" rdma flows | awk -v a="$ROCE_A6" '$1 == a && $11 > 0 { n += $11 } END { print n + 0 }')
ktap_expect "IPv6: ib_write_bw rc $rc, CNPs received on IPv6 flows $v6, cnp_bad +$(($(st cnp_bad) - b0))" \
	"$rc -eq 0 -a $v6 -gt 0 -a $(st cnp_bad) -eq $b0"

# 11b. NAKs under the aicc law: 2 % of the packets towards B lost at the
# switch (netem in place of RED).  The responder answers each gap with a
# PSN sequence error NAK, which aicc_roce counts (every one: rxe's own
# counter skips repeats that move nothing forward) and the aicc law takes
# for a loss, a cut.  The NAK's PSN is the lost packet's, so the flow is
# not told that packet was delivered (unit test aicc_law_nak).
roce_sw tc qdisc del dev sb parent 1:10 handle 10:
roce_sw tc qdisc add dev sb parent 1:10 handle 10: netem loss 2% limit 1000
echo 2 > $S/cc_algo
n0=$(st nak_seq) seq0=$(hw rxe_a rcvd_seq_err) c0=$(st cuts)
roce_write_bw 18521 4
wait "$ROCE_LAST_PID"
rc=$?
n1=$(st nak_seq) seq1=$(hw rxe_a rcvd_seq_err) c1=$(st cuts)
echo 1 > $S/cc_algo
roce_sw tc qdisc del dev sb parent 1:10 handle 10:
roce_switch_red add | roce_sw tc -batch -
ktap_expect "aicc law, 2 % loss: ib_write_bw rc $rc, nak_seq +$((n1 - n0)), rxe rcvd_seq_err +$((seq1 - seq0)), cuts +$((c1 - c0))" \
	"$rc -eq 0 -a $((seq1 - seq0)) -gt 0 -a $((n1 - n0)) -ge $((seq1 - seq0)) -a $c1 -gt $c0"

# 11c. fq under mq: A's device has two transmit queues.  fq on each of
# them under an mq root (what net.core.default_qdisc=fq gives a
# multi-queue NIC) honours departure times as fq at the root does, so
# no_fq stays; pfifo under mq does not, so it grows.  New queue pairs, new
# flows: each looks at its device's qdiscs at its first packet.
mq_run() # CHILD PORT: no_fq and paced deltas of a 2 s run in $mq_nofq, $mq_paced
{
	local f0 p0
	tc qdisc replace dev ra root handle 1: mq &&
		tc qdisc replace dev ra parent 1:1 "$1" &&
		tc qdisc replace dev ra parent 1:2 "$1" || return 1
	f0=$(st no_fq) p0=$(st paced)
	roce_write_bw "$2" 2
	wait "$ROCE_LAST_PID" || return 1
	mq_nofq=$(($(st no_fq) - f0)) mq_paced=$(($(st paced) - p0))
}
# a failed run reads as a miss: -1 packets without fq under fq, 0 under pfifo
fq_nofq=-1 fq_paced=0
mq_run fq 18522 && fq_nofq=$mq_nofq fq_paced=$mq_paced
mq_run pfifo 18523 || mq_nofq=0 mq_paced=0
tc qdisc replace dev ra root fq limit 10000 flow_limit 1000
ktap_expect "mq root: fq children no_fq +$fq_nofq of $fq_paced paced; pfifo children no_fq +$mq_nofq of $mq_paced" \
	"$fq_paced -gt 0 -a $fq_nofq -eq 0 -a $mq_paced -gt 0 -a $mq_nofq -gt 0"

# 11d. the aicc law on queue pairs that send both ways: rping's server
# answers the client's first SEND with an ACK (a PSN of the client's
# sequence) before it sends a request of its own (an RDMA READ).  Only
# requests make the flow's sequence; were the ACK's PSN taken for one, a
# client sequence ahead of the server's (half of all connections) would
# leave every later acknowledgment of the server's requests stale: no RTT
# sample, ever.  Six new connections; each of their flows between A and B
# under the aicc law must have an RTT sample (unit test
# aicc_law_responses_outside_the_sequence).
before=$("$aicc" rdma flows | awk 'NR > 1 { printf " %s ", $3 }')
echo 2 > $S/cc_algo
runs=0
for _ in 1 2 3 4 5 6; do
	roce_rping 2 && runs=$((runs + 1))
done
read -r timed untimed < <("$aicc" -j rdma flows | python3 -c '
import json, sys
a, b, old = sys.argv[1], sys.argv[2], sys.argv[3].split()
t = u = 0
for f in json.load(sys.stdin):
    if (str(f["sport"]) in old or f["algo"] != "aicc" or
            (f["local"], f["remote"]) not in ((a, b), (b, a)) or
            not f["tx_pkts"] or not f["rx_pkts"]):
        continue
    if f["rtt_us"] > 0:
        t += 1
    else:
        u += 1
print(t, u)' "$ROCE_A" "$ROCE_B" "$before")
echo 1 > $S/cc_algo
ktap_expect "aicc law, rping both ways: $runs of 6 runs, flows with an RTT sample ${timed:-?}, without ${untimed:-?}" \
	"$runs -eq 6 -a ${timed:-0} -ge 2 -a ${untimed:-1} -eq 0"

# 11e. CNPs that cannot go out: a tc filter on B's device drops every
# CNP (IPv4, UDP to 4791, 60 bytes: BTH, 16 reserved bytes, ICRC; RC
# ACKs are 48).  Each is counted in cnp_failed, as many as the filter
# dropped, and it counts for the flow's rate limit as a sent one would:
# with np_min_time_between_cnps at 50 ms a flow tries at most once per
# 50 ms, far fewer times than CE packets ask it to (before 7 December
# 2026 a flow that had never sent a CNP tried on every CE packet).
gap0=$(cat $S/np_min_time_between_cnps)
echo 50000 > $S/np_min_time_between_cnps
tc qdisc add dev rb clsact &&
	tc filter add dev rb egress protocol ip u32 match ip protocol 17 0xff \
		match ip dport 4791 0xffff match u16 60 0xffff at 2 action drop
f0=$(st cnp_failed) s0=$(st cnp_sent) ce0=$(st ce_seen)
t0=$(date +%s%N)
roce_write_bw 18524 3
wait "$ROCE_LAST_PID"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
failed=$(($(st cnp_failed) - f0)) sent=$(($(st cnp_sent) - s0))
ce=$(($(st ce_seen) - ce0))
dropped=$(tc -s filter show dev rb egress |
	awk '{ for (i = 1; i < NF; i++) if ($i == "(dropped") { sub(",", "", $(i + 1)); n += $(i + 1) } }
	END { print n + 0 }')
tc qdisc del dev rb clsact
echo "$gap0" > $S/np_min_time_between_cnps
# two flows at most (the queue pair's, both directions: one key)
most=$((2 * (ms / 50 + 1)))
ktap_expect "CNPs dropped on B's device: ib_write_bw rc $rc, CE +$ce in $ms ms, cnp_failed +$failed (filter dropped $dropped, at most $most), cnp_sent +$sent" \
	"$rc -eq 0 -a $failed -gt 0 -a $failed -eq $dropped -a $failed -le $most -a $sent -eq 0 -a $ce -gt $((4 * most))"

# 12. malformed packets
m0=$(st malformed) b0=$(st cnp_bad) c0=$(st cuts)
roce_sw python3 - "$ROCE_A" << 'EOF'
import socket, struct, sys
dst = (sys.argv[1], 4791)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
def bth(op, qpn, becn=0):
    return bytes([op, 0, 0xff, 0xff, becn, (qpn >> 16) & 0xff,
                  (qpn >> 8) & 0xff, qpn & 0xff, 0, 0, 0, 0])
pkts = [b"", b"\x81", bth(0x81, 17)[:8],             # truncated
        bth(0x81, 17, 0x40) + bytes(16) + b"\0\0\0\0",  # bad ICRC
        bth(0x81, 0xabcdef, 0x40) + bytes(20),        # bad QPN
        bth(0x81, 17, 0x40) + bytes(4),               # short CNP
        bth(0xff, 17) + bytes(40),                    # wrong opcode
        bth(0x11, 17) + bytes(8)]                     # stray ACK
for i in range(20):
    for p in pkts:
        s.sendto(p, dst)
EOF
sleep 1
m1=$(st malformed) b1=$(st cnp_bad) c1=$(st cuts)
ktap_expect "malformed packets ignored (malformed +$((m1 - m0)), cnp_bad +$((b1 - b0)), cuts +$((c1 - c0)))" \
	"$((m1 - m0)) -ge 40 -a $((b1 - b0)) -ge 60 -a $c1 -eq $c0"

# 12b. made-up packets fill the flow table, and this host's own queue
# pairs still get flows: rxe sending on a new one replaces one that only
# ever received (without that, every probe window is full of live flows, the
# rping's packets count as table_full and go unpaced)
# flood.py DST N: N made-up RoCE packets (an RC write, QP 17) to DST port
# 4791 from source ports 1024 on, each a flow of its own (a raw socket: a
# user's, not rxe's)
cat > "$ROCE_TMP/flood.py" << 'EOF'
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
pay = bytes([0x0a, 0, 0xff, 0xff, 0, 0, 0, 17]) + bytes(4 + 16 + 4)
for i in range(int(sys.argv[2])):
    s.sendto(struct.pack("!HHHH", 1024 + i, 4791, 8 + len(pay), 0) + pay,
             (sys.argv[1], 0))
EOF
slots=$(cat $S/flow_slots) tmo=$(cat $S/flow_timeout_ms)
echo 600000 > $S/flow_timeout_ms
e0=$(st evicted) f0=$(st table_full)
roce_sw python3 "$ROCE_TMP/flood.py" "$ROCE_A" $((slots * 16))
sleep 1
spoofed=$("$aicc" rdma flows |
	awk -v a="$ROCE_A" '$1 == a && $2 == "10.88.1.254"' | wc -l)
f1=$(st table_full)
before=$("$aicc" rdma flows | awk 'NR > 1 { printf " %s ", $3 }')
roce_rping 3
rc=$?
own=$("$aicc" rdma flows | awk -v a="$ROCE_A" -v b="$ROCE_B" -v old="$before" \
	'(($1 == a && $2 == b) || ($1 == b && $2 == a)) && $7 > 0 &&
	 index(old, " " $3 " ") == 0' | wc -l)
echo "$tmo" > $S/flow_timeout_ms
ktap_expect "flood: $spoofed of $slots slots taken, table_full +$((f1 - f0)); rping rc $rc, its flows in the table $own, evicted +$(($(st evicted) - e0))" \
	"$spoofed -ge $((slots * 9 / 10)) -a $f1 -gt $f0 -a $rc -eq 0 -a $own -ge 2 -a $(st evicted) -ge $((e0 + 2))"

# 12..13. unload during traffic
# Once aicc_roce is gone its packets leave without ECT(0), so the RED
# bottleneck drops instead of marking them and RC recovers by go-back-N
# and retry timeouts (-u 17: 0.5 s each).  Measured across the unload:
# 17-22 sequence errors and up to 27 retries, none in the second before
# it; a queue pair can then move nothing for over 2 s (two of about a
# dozen runs read +0 bytes in a 2 s window with the client still
# running).  So the bytes are counted from the unload until the client,
# which runs for 10 s, ends.
roce_write_bw 18519 10
p=$ROCE_LAST_PID
sleep 2
t0=$(cut -d' ' -f1 /proc/uptime)
if rmmod aicc_roce; then
	ktap_pass "rmmod aicc_roce during traffic"
else
	ktap_fail "rmmod aicc_roce during traffic"
fi
t1=$(cut -d' ' -f1 /proc/uptime)
rx0=$(roce_rx_bytes)
wait "$p"
rc=$?
rx1=$(roce_rx_bytes)
ktap_info "rmmod took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"
ktap_expect "traffic goes on after rmmod (+$((rx1 - rx0)) bytes until the client ended, ib_write_bw rc $rc)" \
	"$((rx1 - rx0)) -gt 100000 -a $rc -eq 0"

# 14. the same with the flood from a local user's socket: only what rxe
# sends (from its queue pairs' kernel sockets) takes slots from live
# flows, so these made-up flows cannot keep the rping's out either (a
# fresh module with a small table; to the switch's address, so that
# only LOCAL_OUT sees the flood)
if insmod "$kdir/aicc_roce.ko" flow_entries=64; then
	echo 600000 > $S/flow_timeout_ms
	python3 "$ROCE_TMP/flood.py" 10.88.1.254 $((64 * 16))
	sleep 1
	local_fl=$("$aicc" rdma flows | awk '$2 == "10.88.1.254"' | wc -l)
	roce_rping 3
	rc=$?
	own=$("$aicc" rdma flows | awk -v a="$ROCE_A" -v b="$ROCE_B" \
		'(($1 == a && $2 == b) || ($1 == b && $2 == a)) && $7 > 0' | wc -l)
	ktap_expect "local flood: $local_fl of 64 slots taken; rping rc $rc, its flows in the table $own, evicted $(st evicted)" \
		"$local_fl -ge 57 -a $rc -eq 0 -a $own -ge 2"
	rmmod aicc_roce
else
	ktap_fail "local flood: insmod aicc_roce.ko flow_entries=64"
fi

# 15. the kernel is fine
if dmesg | grep -qE 'BUG:|WARNING:|Oops'; then
	ktap_fail "no kernel warnings" "$(dmesg | grep -E 'BUG:|WARNING:|Oops' | head -3)"
else
	ktap_pass "no kernel warnings"
fi
ktap_info "test time: $(awk -v a="$t_start" -v b="$(cut -d' ' -f1 /proc/uptime)" \
	'BEGIN { printf "%.0f", b - a }') s"
ktap_finish
