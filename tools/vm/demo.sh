#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh: aicc next to cubic and dctcp on the stock Debian 6.1 kernel
# (`sudo make demo`).
#
# On the host it installs what is missing (tools/vm/deps-if-needed.sh ->
# scripts/install-deps.sh), builds tcp_aicc.ko for every installed kernel
# and the tools (make kmods tools selftests), and boots the kernel in QEMU
# (tools/vm/aicc-vm).  In the guest (demo.sh --guest) it loads tcp_aicc.ko,
# builds the netns dumbbell of selftests/lib/topo.sh (20 Mbit/s htb
# bottleneck, RED step-ECN marking at 30 KB, 5 ms netem on the ACK path) and
# runs, for each of aicc, cubic and dctcp in turn:
#   - one bulk flow for DEMO_SECS seconds (aiccgen bulk) while sampling the
#     bottleneck queue every 5 ms: goodput, queueing delay p50/p99 from the
#     first second on (the steady state, not the start's overshoot, as
#     make bench measures it), CE marks, drops, retransmissions;
#   - an 8-to-1 incast of 128 KB per sender over persistent connections,
#     10 iterations after 2 warm-up ones (aiccgen incast): completion time
#     p50/p99 and timeouts;
# then prints one comparison table and aicc's ratios to each of the others
# (queue p99, incast p99) at the utilisation each reached.  Raw JSON:
# build/demo/.
#
#   make demo | tools/vm/demo.sh [--kernel 6.1|6.12] [--secs N]

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2

kernel=6.1
secs=${DEMO_SECS:-8}
guest=0
while [ $# -gt 0 ]; do
	case $1 in
	--guest) guest=1; shift; continue ;;
	-h|--help) sed -n '4,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--kernel|--secs) [ $# -ge 2 ] || { echo "demo: $1 needs a value" >&2; exit 2; } ;;
	*) echo "demo: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
	case $1 in --kernel) kernel=$2 ;; --secs) secs=$2 ;; esac
	shift 2
done
case $secs in ''|*[!0-9]*) echo "demo: bad --secs '$secs'" >&2; exit 2 ;; esac
[ "$secs" -ge 2 ] && [ "$secs" -le 120 ] || { echo "demo: --secs must be 2..120" >&2; exit 2; }

# ---- host -----------------------------------------------------------------

if [ $guest -eq 0 ]; then
	if [ "${AICC_VM:-}" = 1 ]; then
		echo "demo: already inside the VM; use --guest" >&2
		exit 2
	fi
	bash tools/vm/deps-if-needed.sh "$kernel" || exit 2
	echo "demo: building (make kmods tools selftests)"
	mkdir -p build
	if ! make -j"$(nproc)" kmods tools selftests > build/demo-build.log 2>&1; then
		tail -n 30 build/demo-build.log >&2
		echo "demo: build failed (log: build/demo-build.log)" >&2
		exit 1
	fi
	echo "demo: booting the stock $kernel kernel in QEMU (about a minute per algorithm)"
	exec tools/vm/aicc-vm --kernel "$kernel" --timeout 900 --out build/demo \
		-- bash tools/vm/demo.sh --guest --secs "$secs"
fi

# ---- guest ----------------------------------------------------------------

if [ "${AICC_VM:-}" != 1 ]; then
	echo "demo: --guest runs inside the VM only" >&2
	exit 2
fi
# shellcheck source=../../selftests/lib/topo.sh
. selftests/lib/topo.sh
# shellcheck source=../bench/testbed.sh
. tools/bench/testbed.sh	# BULK_QS_DELAY_S, the bench's first second

rel=$(uname -r)
out=${AICC_OUT:-/tmp}
topo_load_aicc demo || exit 1
modprobe tcp_dctcp 2>/dev/null

TOPO_RATE=20mbit TOPO_DELAY=5ms TOPO_AQM=red TOPO_ECN_K=30000
topo_setup || { echo "demo: topology setup failed" >&2; exit 1; }
# One server per algorithm, its listener using that algorithm: Linux
# accepts an ECT SYN (dctcp, and any algorithm that needs ECN, sends one)
# only when the listener's algorithm needs ECN too.
port=6000
for a in aicc cubic dctcp; do
	port=$((port + 1))
	topo_gen_server $port --cc "$a" || exit 1
done

echo "demo: kernel $rel, bottleneck 20 Mbit/s, RED step ECN at 30 KB, base RTT 5 ms"
algos="aicc cubic dctcp"
port=6000
qs_ms=5
# the backlog every qs_ms; its first BULK_QS_DELAY_S left out, as the bench's
qs_skip=$((BULK_QS_DELAY_S * 1000 / qs_ms))
failed=0
for a in $algos; do
	port=$((port + 1))
	echo "demo: $a: bulk flow, ${secs} s"
	m0=$(topo_qstat marks) d0=$(topo_qstat drops)
	topo_qsample_start "$qs_ms"
	topo_gen 1 bulk -p $port --cc "$a" -t "$secs" > "$out/bulk-$a.json" 2> "$out/bulk-$a.err" ||
		{ echo "demo: $a bulk run failed: $(head -c 200 "$out/bulk-$a.err")" >&2
		  failed=$((failed + 1)); }
	topo_qsample_stop
	m1=$(topo_qstat marks) d1=$(topo_qstat drops)
	# the first second's samples left out: the start's overshoot
	# (cubic's and dctcp's slow start, 100 KB) made up 1-2 % of them
	echo "$(topo_qsample_delay_us 50 "$qs_skip")" \
		"$(topo_qsample_delay_us 99 "$qs_skip")" \
		"$((m1 - m0)) $((d1 - d0))" > "$out/queue-$a.txt"
	echo "demo: $a: 8-to-1 incast, 128 KB per sender"
	topo_gen 1 incast -p $port --cc "$a" -n 8 --size 128K --iters 10 --warmup 2 --gap 50 \
		--rate-mbit 20 --base-rtt 5000 > "$out/incast-$a.json" 2> "$out/incast-$a.err" ||
		{ echo "demo: $a incast run failed: $(head -c 200 "$out/incast-$a.err")" >&2
		  failed=$((failed + 1)); }
done

python3 - "$out" $algos <<'EOF'
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, "tools/bench")
from report import load_json as load

out, algos = sys.argv[1], sys.argv[2:]

def rto_of(s):
    for k in ("rto", "netns_rto"):
        if s.get(k) is not None:
            return str(s[k])
    return "-"

def ms(us):
    """Microseconds (a number or a digit string) as ms, None if missing."""
    if isinstance(us, str):
        us = int(us) if us.isdigit() else None
    return us / 1000.0 if us is not None else None

def fmt(x, f):
    return "-" if x is None else f % x

rows = []
num = {}
for a in algos:
    b = load("%s/bulk-%s.json" % (out, a)) or {}
    i = load("%s/incast-%s.json" % (out, a)) or {}
    try:
        q50, q99, marks, drops = open("%s/queue-%s.txt" % (out, a)).read().split()
    except (OSError, ValueError):
        q50 = q99 = marks = drops = "-"
    mbps = b.get("total_mbps")
    retr = (b.get("netns") or {}).get("retrans_segs")
    s = i.get("summary") or {}
    n = num[a] = {"util": mbps / 20.0 if mbps is not None else None,
                  "q50": ms(q50), "q99": ms(q99),
                  "inc50": ms(s.get("p50_us")), "inc99": ms(s.get("p99_us"))}
    rows.append((a, fmt(mbps, "%.1f"), fmt(n["util"], "%.2f"),
                 fmt(n["q50"], "%.1f"), fmt(n["q99"], "%.1f"),
                 marks, drops, fmt(retr, "%s"),
                 fmt(n["inc50"], "%.1f"), fmt(n["inc99"], "%.1f"),
                 rto_of(s)))

hdr = ("algorithm", "Mbit/s", "util", "q p50 ms", "q p99 ms", "CE marks",
       "drops", "retrans", "incast p50 ms", "incast p99 ms", "RTOs")
w = [max(len(hdr[k]), max(len(r[k]) for r in rows)) for k in range(len(hdr))]
print()
print("bulk: one flow alone through the bottleneck, queue from 1 s on; incast: 8 x 128 KB bursts")
print("  ".join(h.rjust(w[k]) for k, h in enumerate(hdr)))
for r in rows:
    print("  ".join(c.rjust(w[k]) for k, c in enumerate(r)))
print()

# The first algorithm against each of the others, as ratios within this
# run (the absolute figures depend on how busy the host is).
me = algos[0]
for o in algos[1:]:
    x, y = num[me], num[o]
    parts = []
    if x["util"] is not None and y["util"] is not None:
        parts.append("utilisation %.2f vs %.2f" % (x["util"], y["util"]))
    for k, what in (("q99", "queue p99"), ("inc99", "incast p99")):
        if x[k] is not None and y[k]:
            parts.append("%s %.2f x (%.1f vs %.1f ms)" %
                         (what, x[k] / y[k], x[k], y[k]))
    print("%s against %s: %s" % (me, o, "; ".join(parts) or "no data"))
print()
EOF
prc=$?
topo_cleanup
# a table of dashes is no demo: any failed run or report fails it
if [ "$failed" -gt 0 ] || [ "$prc" -ne 0 ]; then
	echo "demo: $failed run(s) failed, report exit $prc" >&2
	exit 1
fi
