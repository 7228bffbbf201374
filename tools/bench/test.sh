#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test.sh: smoke test of the benchmark tooling (make check-bench, part of
# make check-unit).  The benchmark's numbers are not asserted anywhere;
# this checks that its parts still work:
#   - aicc-ackcost runs the closed loop, replays it along the same
#     trajectory, and refuses bad arguments;
#   - stagger-ab.sh summarises canned runs (Jain per run, incast
#     completion over ideal and RTOs, or the bulk flow's queue; median,
#     min, max) and refuses bad arguments before it boots anything;
#   - report.py turns canned raw results (written here, with known values)
#     into the expected medians, spreads, target verdicts, learned-policy
#     ablation, JSON, CSV and plots, leaves out a testbed ablation with
#     a missing column, counts a run that left no report as failed (an
#     RPC run also when its bulk flows did),
#     writes strict JSON where a measure is NaN, and refuses a directory
#     without results;
#   - bench.sh refuses bad arguments before it builds anything, and fails
#     when a native timing of the core gives no figure.
#
#   tools/bench/test.sh BUILD/aicc-ackcost

set -u
dir=$(cd "$(dirname "$0")" && pwd)
ackcost=${1:-build/aicc-ackcost}
tmp=$(mktemp -d /tmp/aicc-bench-test.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

n=0 fail=0
ok()
{
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fail=$((fail + 1))
	fi
}

echo "TAP version 13"
echo "1..22"

# ---- aicc-ackcost -----------------------------------------------------------
out=$("$ackcost" -n 20000 2>&1)
echo "$out" | grep -q '^replay: .*same trajectory' &&
	echo "$out" | grep -q '^calls 40000$' &&
	echo "$out" | grep -Eq '^profile aicc: 20000 ACKs, [1-9][0-9]* rounds'
ok $? "ackcost: closed loop and replay agree"

rc=0
err=$("$ackcost" -n 5 2>&1 > /dev/null) || rc=$?
err2=$("$ackcost" -p nosuch 2>&1 > /dev/null) || rc=$((rc * 10 + $?))
[ "$rc" = 22 ] && [ "$(echo "$err" | wc -l)" = 1 ] &&
	echo "$err2" | grep -q "unknown profile 'nosuch'"
ok $? "ackcost: bad arguments refused with one line"

# ---- canned raw results ----------------------------------------------------
python3 - "$tmp/b" <<'EOF'
import json, os, sys

b = sys.argv[1]
raw = os.path.join(b, "vm-6.1", "raw")
os.makedirs(raw)
os.makedirs(os.path.join(b, "sim"))
cap = 20.0 * 1448 / 1514


def w(name, obj):
    with open(os.path.join(raw, name), "w") as f:
        if isinstance(obj, str):
            f.write(obj)
        else:
            json.dump(obj, f)


def tc(marks, drops, backlogs):
    s = ""
    for bl in backlogs:
        s += ("qdisc htb 1: root refcnt 3 r2q 10 default 0x10\n"
              " Sent 1000 bytes 10 pkt (dropped 0, overlimits 0 requeues 0)\n"
              " backlog %s 1p requeues 0\n"
              "qdisc red 10: parent 1:10 limit 400000b min 30000b max 30001b ecn\n"
              " Sent 1000 bytes 10 pkt (dropped %d, overlimits 0 requeues 0)\n"
              " backlog %s 1p requeues 0\n"
              "  marked %d early 0 pdrop 0 other 0\n") % (bl, drops, bl, marks)
    return s


meta = {"kernel": "6.1.0-test", "quick": 0, "reps": 2, "algos": "aicc dctcp",
        "scenarios": "bulk stagger incast rpc", "rate_mbit": 20, "delay_ms": 5,
        "ecn_k": 30000, "deep_limit": 1000000, "cpus": 2, "rpc_extra": "mixed"}
w("meta.txt", "".join("%s %s\n" % kv for kv in meta.items()))
ti = {"tcp_info": {"snd_mss": 1448}}
for a, util, qs, jain, ct, rto in (("aicc", 0.98, "25000b 50Kb", 0.995, 220000, 0),
                                   ("dctcp", 0.96, "100000b 200000b", 0.97, 300000, 1)):
    for k in (1, 2):
        u = util + (0.01 if k == 2 else 0)
        w("bulk-%s-r%d.json" % (a, k), {
            "intervals": [{"start_s": 0, "end_s": 1, "total_mbps": 1.0, "mbps": [1.0]},
                          {"start_s": 1, "end_s": 2, "total_mbps": u * cap,
                           "mbps": [u * cap]}],
            "flows": [ti], "netns": {"retrans_segs": 3 * k, "rto_timeouts": 0}})
        w("bulk-%s-r%d.tc0" % (a, k), tc(10, 0, ["0b"]))
        w("bulk-%s-r%d.tc1" % (a, k), tc(40, 2, ["0b"]))
        w("bulk-%s-r%d.q" % (a, k), tc(0, 0, ["0b"] + qs.split()))
        w("stagger-%s-r%d.json" % (a, k), {
            "intervals": [{"start_s": 0, "end_s": 1, "total_mbps": 9,
                           "mbps": [9, None]},
                          {"start_s": 1, "end_s": 2, "total_mbps": 18,
                           "mbps": [9, 9]}],
            "flows": [ti, ti], "fairness": {"jain": jain, "window_total_mbps": cap},
            "netns": {"retrans_segs": 0, "rto_timeouts": 0}})
        w("incast-%s-r%d.json" % (a, k), {
            "ideal_us": 200000, "conns": [ti],
            "iterations": [{"iter": 0, "warmup": True, "ct_us": 900000},
                           {"iter": 1, "warmup": False, "ct_us": ct},
                           {"iter": 2, "warmup": False, "ct_us": ct + 10000}],
            "summary": {"p50_us": ct, "p99_us": ct + 10000, "ratio_p50": ct / 200000.0,
                        "ratio_p99": (ct + 10000) / 200000.0, "retrans": 1,
                        "rto": None, "netns_rto": rto}})
        w("rpc-%s-r%d.json" % (a, k), {
            "latency": {"p50_us": 5500, "p99_us": 5500 + 500 * k if a == "aicc" else 9000,
                        "p999_us": 12000}, "lost": 0, "conns": [ti]})
        w("rpcbulk-%s-r%d.json" % (a, k), {
            "intervals": [{"start_s": 1, "end_s": 2, "total_mbps": cap,
                           "mbps": [cap / 2, cap / 2]}],
            "flows": [ti], "netns": {"retrans_segs": 0, "rto_timeouts": 0}})
    w("rpcbase-%s.json" % a, {"latency": {"p50_us": 5200, "p99_us": 9200}})
# the rpc scenario's extra row: p99 7 and 8 ms over a base of 5 ms
for k in (1, 2):
    w("rpc-mixed-r%d.json" % k, {
        "latency": {"p50_us": 5400, "p99_us": 6000 + 1000 * k, "p999_us": 9000},
        "lost": 0, "conns": [ti]})
    w("rpcbulk-mixed-r%d.json" % k, {
        "intervals": [{"start_s": 1, "end_s": 2, "total_mbps": cap,
                       "mbps": [cap / 2, cap / 2]}],
        "flows": [ti], "netns": {"retrans_segs": 0, "rto_timeouts": 0}})
w("rpcbase-mixed.json", {"latency": {"p50_us": 5000, "p99_us": 9000}})

sim = os.path.join(b, "sim")
with open(os.path.join(sim, "manifest.txt"), "w") as m:
    for i, (cc, util) in enumerate((("aicc", 0.95), ("dctcp", 0.9))):
        with open(os.path.join(sim, "r%d.json" % i), "w") as f:
            json.dump({"util": util, "queue_kb": {"p50": 5, "p99": 50},
                       "queue_us": {"p99": 4}, "drops": 0, "rtos": 0, "jain": -1,
                       "iterations": 3, "cct_ideal_us": 100,
                       "cct_us": {"mean": 110, "p99": 120}, "fct": [{"count": 0}]}, f)
        m.write("incast: 64-way|%s|1|r%d.json\n" % (cc, i))
    # two stagger lines: the target is judged on each
    for i, (lb, jain) in enumerate((("stagger: late handshakes", 0.98),
                                    ("stagger: persistent", 0.995))):
        with open(os.path.join(sim, "s%d.json" % i), "w") as f:
            json.dump({"util": 1.0, "queue_kb": {"p50": 5, "p99": 50},
                       "queue_us": {"p99": 4}, "drops": 0, "rtos": 0,
                       "jain": jain, "fct": [{"count": 0}]}, f)
        m.write("%s|aicc|1|s%d.json\n" % (lb, i))
with open(os.path.join(sim, "ablation.txt"), "w") as f:
    f.write("== held-out set, tuned knobs ==\n"
            "held-out, tuned knobs (x.conf): classic 1.200, with model 1.100 "
            "(-8.3%), 1 case(s) worse by >5%\n"
            "held-out, default knobs: classic 1.300, with model 1.350 (+3.8%), "
            "2 case(s) worse by >5%\nverdict: the model loses\n")
w("ablation.txt", "# arm     incast p50/ideal p99/ideal   bulk Mbit/s q99_us jain   evals\n"
  "classic 1.0 1.1 19.0 10000 0.990 0\nmodel 1.2 1.4 18.0 9000 0.980 100\n"
  "classic 1.0 1.1 19.0 10000 0.990 0\nmodel 1.2 1.4 18.0 9000 0.980 100\n"
  "# medians\nclassic 1.000 1.100 19.00 10000 0.990\n"
  "model 1.200 1.400 18.00 9000 0.980\n")
with open(os.path.join(b, "cpu.txt"), "w") as f:
    f.write("cpu test CPU\nir_per_ack aicc 120.0\nns_per_ack aicc 9.5\n"
            "ir_per_ack aicc_bulk 180.0\n")
EOF
ok $? "canned results written"

python3 "$dir/report.py" --png "$tmp/b" > "$tmp/out.txt" 2> "$tmp/err.txt"
ok $? "report.py runs on canned results"

# ---- what the report computed -----------------------------------------------
python3 - "$tmp/b" <<'EOF'
import json, sys

r = json.load(open(sys.argv[1] + "/results.json"))
t = r["testbed"]["6.1.0-test"]["scenarios"]


def near(x, y):
    return abs(x - y) < 1e-6 * max(1, abs(y))


# (scenario, algorithm, metric, statistic, expected)
want = [
    ("bulk", "aicc", "util", "median", 0.985),
    ("bulk", "aicc", "util", "min", 0.98),
    ("bulk", "aicc", "util", "max", 0.99),
    ("bulk", "aicc", "util", "n", 2),
    # backlog 51200 B (50Kb) at 20 Mbit/s is 20.48 ms; p50 of 0/25000/51200
    ("bulk", "aicc", "q_p99_ms", "median", 20.48),
    ("bulk", "aicc", "q_p50_ms", "median", 10.0),
    ("bulk", "dctcp", "q_p99_ms", "median", 80.0),
    ("bulk", "aicc", "marks", "median", 30),
    ("bulk", "aicc", "drops", "median", 2),
    ("bulk", "aicc", "retrans", "median", 4.5),
    ("stagger", "dctcp", "jain", "median", 0.97),
    ("stagger", "aicc", "util", "median", 1.0),
    ("incast", "aicc", "ratio_p50", "median", 1.1),
    ("incast", "dctcp", "rtos", "median", 1),
    ("rpc", "aicc", "p99_over_base_ms", "median", 1.05),
    ("rpc", "aicc", "base_ms", "median", 5.2),
    ("rpc", "aicc", "base_p99_ms", "median", 9.2),
    ("rpc", "aicc", "bulk_util", "median", 1.0),
    ("rpc", "mixed", "p99_over_base_ms", "median", 2.5),
    ("rpc", "mixed", "p99_over_base_ms", "n", 2),
]
checks = [near(t[sc][a]["summary"][k][st], v) for sc, a, k, st, v in want] + [
    r["cpu"]["ir_per_ack"]["aicc"] == 120.0,
    r["ablation"]["simulator"]["tuned_knobs"] == {
        "classic": 1.2, "model": 1.1, "change_pct": -8.3, "cases_worse_5pct": 1},
    r["ablation"]["simulator"]["default_knobs"]["cases_worse_5pct"] == 2,
    r["ablation"]["simulator"]["verdict"] == "the model loses",
    r["ablation"]["testbed"]["6.1.0-test"]["runs"] == 4,
    near(r["ablation"]["testbed"]["6.1.0-test"]["model"]["incast_p99_ratio"], 1.4),
    near(r["ablation"]["testbed"]["6.1.0-test"]["classic"]["q99_us"], 10000),
    near(r["simulator"]["incast: 64-way"]["aicc"]["summary"]["cct_ratio"]["median"], 1.1),
    all("mixed" not in t[sc] for sc in ("bulk", "stagger", "incast")),
]
bad = [i for i, c in enumerate(checks) if not c]
if bad:
    print("# failed checks: %s" % bad)
    sys.exit(1)
EOF
ok $? "medians, spreads and derived metrics as expected"

# Verdicts: aicc meets utilisation (0.985 >= 0.97 and >= dctcp's 0.965),
# queue (20.48 / 80 = 0.26 x dctcp), Jain (0.995), incast (1.1 x ideal,
# 0 RTOs; 220 ms vs dctcp's 300 = 0.73 x: missed), RPC (+1.05 ms: missed;
# the probe alone has a p99 4 ms over its p50),
# CPU (aicc 120: met; aicc_bulk 180: missed).
v()	# PROFILE TEXT VERDICT
{
	grep -E "^  $1 +$2.* $3\$" "$tmp/out.txt" > /dev/null
}
v aicc 'utilisation >= 0.97' met && v aicc 'queue p99 <= 0.3' met &&
	v aicc "Jain's index" met && v aicc 'incast completion <= 1.15' met &&
	v aicc 'incast completion <= 0.6' MISSED &&
	v aicc 'RPC p99 within 1 ms' MISSED &&
	grep -q 'RPC p99 within 1 ms.*+1.05 ms (the probe alone: p99 +4.00 ms)' \
		"$tmp/out.txt" &&
	v aicc 'core <= 150' met && v aicc_bulk 'core <= 150' MISSED
ok $? "target verdicts"

# the simulator's Jain target, once per stagger line, each line named
grep -q '^  (stagger 1: stagger: late handshakes)$' "$tmp/out.txt" &&
	grep -q '^  (stagger 2: stagger: persistent)$' "$tmp/out.txt" &&
	v aicc "stagger 1: Jain's index >= 0.99 +0.980" MISSED &&
	v aicc "stagger 2: Jain's index >= 0.99 +0.995" met
ok $? "simulator: Jain's index judged on every stagger line"

head -n 1 "$tmp/b/results.csv" | grep -q '^source,scenario,algorithm,metric,median,min,max,n' &&
	grep -q '^testbed-6.1.0-test,bulk,aicc,util,0.985,0.98,0.99,2' "$tmp/b/results.csv" &&
	grep -q '^cpu,ack_path,aicc,instructions_per_ack,120.0' "$tmp/b/results.csv" &&
	grep -q '^ablation-testbed-6.1.0-test,vm-ablation,model,jain,0.98,0.98,0.98,2' \
		"$tmp/b/results.csv" &&
	grep -q '^ablation-sim,held-out tuned_knobs,model,objective,1.1' "$tmp/b/results.csv" &&
	grep -Eq '^    model +1\.200 +1\.400 +18\.00 +9000 +0\.980$' "$tmp/b/report.txt" &&
	grep -q 'classic 1.200, model 1.100 (-8.3 %), 1 case' "$tmp/b/report.txt" &&
	grep -q '^\[bulk\] single bulk flow' "$tmp/b/report.txt" &&
	grep -Eq '^mixed +5\.00 +9\.00 ' "$tmp/b/report.txt" &&
	grep -q '^mixed: the probe (and its server) on aicc_lat' "$tmp/b/report.txt" &&
	grep -Eq '^aicc +0\.985 \(0\.980-0\.990\)' "$tmp/b/report.txt"
ok $? "CSV and text report"

if command -v gnuplot > /dev/null; then
	[ -s "$tmp/b/throughput.png" ] && [ -s "$tmp/b/qdelay-cdf.png" ] &&
		[ -s "$tmp/b/incast.png" ] && [ ! -s "$tmp/err.txt" ]
	ok $? "plots drawn"
else
	n=$((n + 1))
	echo "ok $n plots drawn # SKIP no gnuplot"
fi

# Utilisation is compared with the stock algorithms' at the three decimals
# the report prints: a 0.0003 shortfall is a tie (met), 0.002 is a miss;
# the 0.97 bound itself is not rounded (0.9696 misses it).
python3 - "$dir" <<'EOF'
import sys
sys.dont_write_bytecode = True	# no __pycache__ in the source tree
sys.path.insert(0, sys.argv[1])
import report

def verdict(u_aicc, u_stock):
    tb = {"algos": ["aicc", "cubic"], "scenarios": ["bulk"],
          "runs": {("bulk", "aicc"): [{"util": u_aicc}],
                   ("bulk", "cubic"): [{"util": u_stock}]}}
    for l in report.targets(tb, None).splitlines():
        if "utilisation >= 0.97" in l:
            return l.split()[-1]

sys.exit(0 if (verdict(0.9998, 1.0001), verdict(0.998, 1.0),
               verdict(0.9696, 0.9)) == ("met", "MISSED", "MISSED") else 1)
EOF
ok $? "utilisation compared at the precision shown"

# A run that failed misses its scenario's targets: an incast that stopped
# at its sixth of ten iterations (whose numbers leave the slow one out),
# a nonzero exit status; and the RPC target counts every run's unanswered
# requests, not their median (0, 0 and 40: 40, missed).
python3 - "$dir" "$tmp" <<'EOF'
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import report

d = sys.argv[2]
with open(os.path.join(d, "inc.rc"), "w") as f:
    f.write("1\n")
why = report.run_failed(os.path.join(d, "inc"), "incast",
                        {"iters": 10, "summary": {"count": 6}})
good = report.run_failed(os.path.join(d, "none"), "incast",
                         {"iters": 10, "summary": {"count": 10}})
ok = {"ratio_p50": 1.0, "ct_p50_ms": 100, "rtos": 0}
tb = {"algos": ["aicc", "dctcp"], "scenarios": ["incast", "rpc"],
      "runs": {("incast", "aicc"): [dict(ok), dict(ok, failed=why), dict(ok)],
               ("incast", "dctcp"): [dict(ok, ct_p50_ms=110)],
               ("rpc", "aicc"): [{"p99_over_base_ms": 0.5, "lost": n}
                                 for n in (0, 0, 40)]}}
out = report.targets(tb, None)
lines = [l for l in out.splitlines() if l.startswith("  aicc")]
inc = [l for l in lines if "1.15 x ideal" in l]
rpc = [l for l in lines if "RPC p99" in l]
print("# %s | %s | %s" % (why, inc, rpc))
sys.exit(0 if why == "exit 1; 6 of 10 iterations" and good is None and
         inc and inc[0].endswith("MISSED") and "1 run failed" in inc[0] and
         rpc and rpc[0].endswith("MISSED") and "40 unanswered" in rpc[0]
         else 1)
EOF
ok $? "a failed run misses its targets; unanswered RPCs summed over runs"

# A run that left its exit status but no report (aiccgen prints none when
# it cannot open its connections) is a failed run of its scenario, not a
# repetition that never happened: of two incast runs, the one with a report
# meets the target, and the verdict is still missed, "1 run failed".  A
# repetition with neither file was not run and is not counted.
python3 - "$dir" "$tmp/norep" <<'EOF'
import json, os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import report

raw = sys.argv[2]
os.makedirs(raw)
with open(os.path.join(raw, "meta.txt"), "w") as f:
    f.write("kernel 6.1.0-test\nreps 3\nalgos aicc\nscenarios incast\n")
with open(os.path.join(raw, "incast-aicc-r1.json"), "w") as f:
    json.dump({"ideal_us": 200000, "iters": 2, "summary": {
        "count": 2, "p50_us": 200000, "p99_us": 210000, "ratio_p50": 1.0,
        "ratio_p99": 1.05, "retrans": 0, "rto": 0}}, f)
for k, rc in ((1, 0), (2, 1)):
    with open(os.path.join(raw, "incast-aicc-r%d.rc" % k), "w") as f:
        f.write("%d\n" % rc)
open(os.path.join(raw, "incast-aicc-r2.json"), "w").close()
tb = report.testbed(raw)
runs = tb["runs"][("incast", "aicc")]
out = [l for l in report.targets(tb, None).splitlines()
       if "1.15 x ideal" in l]
print("# %s | %s" % ([r["failed"] for r in runs], out))
sys.exit(0 if [r["failed"] for r in runs] == [None, "exit 1; no report"]
         and out and out[0].endswith("MISSED") and "1 run failed" in out[0]
         else 1)
EOF
ok $? "a run without a report counts as failed"

# An RPC run is measured under its two bulk flows: when they failed (no
# report and exit 1; or, in raw results from before guest.sh kept their exit
# status, a report with an error) the probe's numbers are the idle path's,
# and the run failed.  The probe alone is within 1 ms here; the target is
# missed, "2 runs failed"; the third run's bulk flows were fine.
python3 - "$dir" "$tmp/rpcbulk" <<'EOF'
import json, os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import report

raw = sys.argv[2]
os.makedirs(raw)


def w(name, obj):
    with open(os.path.join(raw, name), "w") as f:
        f.write(obj if isinstance(obj, str) else json.dumps(obj))


w("meta.txt", "kernel 6.1.0-test\nreps 3\nalgos aicc\nscenarios rpc\n")
w("rpcbase-aicc.json", {"latency": {"p50_us": 5000, "p99_us": 5500}})
bulk = {"intervals": [{"start_s": 1, "total_mbps": 19.0}], "error": None,
        "netns": {"retrans_segs": 0, "rto_timeouts": 0}}
for k in (1, 2, 3):
    w("rpc-aicc-r%d.json" % k, {"latency": {"p50_us": 5200, "p99_us": 5600},
                                "lost": 0})
    w("rpc-aicc-r%d.rc" % k, "0\n")
w("rpcbulk-aicc-r1.json", "")
w("rpcbulk-aicc-r1.rc", "1\n")
w("rpcbulk-aicc-r2.json", dict(bulk, error="run stopped early"))
w("rpcbulk-aicc-r3.json", bulk)
w("rpcbulk-aicc-r3.rc", "0\n")
tb = report.testbed(raw)
why = [r["failed"] for r in tb["runs"][("rpc", "aicc")]]
out = [l for l in report.targets(tb, None).splitlines() if "RPC p99" in l]
print("# %s | %s" % (why, out))
sys.exit(0 if why == ["bulk flows: exit 1; no report",
                      "bulk flows: run stopped early", None]
         and out and out[0].endswith("MISSED") and "2 runs failed" in out[0]
         else 1)
EOF
ok $? "an RPC run whose bulk flows failed counts as failed"

# A testbed ablation whose rows lack a column (the q99 of a run without
# the queue sampler) is left out with a message naming the row, not read
# into the wrong columns; complete rows are read.
python3 - "$dir" "$tmp" 2> "$tmp/err3.txt" <<'EOF'
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import report

head = "# arm     incast p50/ideal p99/ideal   bulk Mbit/s q99_us jain   evals\n"
short = os.path.join(sys.argv[2], "abl-short.txt")
whole = os.path.join(sys.argv[2], "abl-whole.txt")
with open(short, "w") as f:
    f.write(head + "classic 1.015 1.206 19.13 1.000 0\n"
            "model 1.093 1.203 19.12 1.000 2956\n# medians\n"
            "classic 1.015 1.099 19.13 1 0.000\n"
            "model 1.093 1.208 19.14 1 3030.000\n")
with open(whole, "w") as f:
    f.write(head + "classic 1.0 1.1 19.0 nan 0.990 0\n"
            "model 1.2 1.4 18.0 9000 0.980 100\n# medians\n"
            "classic 1.000 1.100 19.00 nan 0.990\n"
            "model 1.200 1.400 18.00 9000 0.980\n")
a = report.vm_ablation(whole)
sys.exit(0 if report.vm_ablation(short) is None and a and a["runs"] == 2
         and a["model"]["q99_us"] == 9000 else 1)
EOF
[ $? -eq 0 ] && [ "$(wc -l < "$tmp/err3.txt")" = 1 ] &&
	grep -q "abl-short.txt: malformed row 'classic 1.015 1.206 19.13 1.000 0'" \
		"$tmp/err3.txt"
ok $? "a testbed ablation with a missing column is left out"

# The complete ablation above has a q99 of "nan" (not measured): the report
# takes it, and results.json stays strict JSON (null, not NaN) while the CSV
# leaves the measure out.
mkdir -p "$tmp/nan/vm-6.1/raw"
printf 'kernel 6.1.0-test\nreps 1\nalgos aicc\nscenarios bulk\n' \
	> "$tmp/nan/vm-6.1/raw/meta.txt"
cp "$tmp/abl-whole.txt" "$tmp/nan/vm-6.1/raw/ablation.txt"
python3 "$dir/report.py" "$tmp/nan" > /dev/null 2>&1 &&
python3 - "$tmp/nan" <<'EOF'
import csv, json, sys

def bad(c):
    raise ValueError("not JSON: " + c)

r = json.loads(open(sys.argv[1] + "/results.json").read(), parse_constant=bad)
a = r["ablation"]["testbed"]["6.1.0-test"]
rows = list(csv.reader(open(sys.argv[1] + "/results.csv")))
q99 = [x for x in rows if x[3] == "q99_us"]
sys.exit(0 if a["classic"]["q99_us"] is None and a["model"]["q99_us"] == 9000
         and [x[2] for x in q99] == ["model"] and
         not any("nan" in x for x in rows) else 1)
EOF
ok $? "results.json and results.csv hold no NaN"

mkdir -p "$tmp/empty"
rc=0
python3 "$dir/report.py" "$tmp/empty" > /dev/null 2> "$tmp/err2.txt" || rc=$?
[ $rc -eq 1 ] && [ "$(wc -l < "$tmp/err2.txt")" = 1 ] &&
	grep -q 'no results' "$tmp/err2.txt"
ok $? "a directory without results is refused"

# ---- stagger-ab.sh ----------------------------------------------------------
ab=$tmp/ab
mkdir -p "$ab/raw"
printf 't1 one.conf\nt2 two.conf\n' > "$ab/tables.txt"
python3 - "$ab/raw" <<'EOF2'
import json, os, sys

# aiccgen's index per run, in the order of the runs: t1 two, t2 three
runs = {"t1": [1.0, 0.8], "t2": [1.0, 0.8928571, 0.9803922]}
for t, rs in runs.items():
    for i, j in enumerate(rs):
        with open(os.path.join(sys.argv[1], "%s-r%d.json" % (t, i + 1)), "w") as f:
            json.dump({"mode": "bulk", "fairness": {"jain": j}}, f)
EOF2
out=$(bash "$dir/stagger-ab.sh" --summary "$ab")
echo "$out" | grep -qx 'one.conf: Jain median 0.900, min 0.800, max 1.000 over 2 runs: 1.000 0.800' &&
	echo "$out" | grep -qx 'two.conf: Jain median 0.980, min 0.893, max 1.000 over 3 runs: 1.000 0.893 0.980'
ok $? "stagger-ab: Jain per run, median, min and max of canned runs"

# --scenario incast: each run's median completion over ideal, and the RTOs
inc=$tmp/abinc
mkdir -p "$inc/raw"
printf 't1 old.conf\n' > "$inc/tables.txt"
echo incast > "$inc/scenario"
python3 - "$inc/raw" <<'EOF2'
import json, os, sys

# the second run's generator gave no count of its own: the netns' counts
runs = [{"ratio_p50": 1.21, "rto": 0},
        {"ratio_p50": 1.08, "rto": None, "netns_rto": 2},
        {"ratio_p50": 1.125, "rto": 0, "netns_rto": 5}]
for i, sm in enumerate(runs):
    with open(os.path.join(sys.argv[1], "t1-r%d.json" % (i + 1)), "w") as f:
        json.dump({"mode": "incast", "summary": sm}, f)
EOF2
out=$(bash "$dir/stagger-ab.sh" --summary "$inc")
echo "$out" | grep -qx 'old.conf: completion/ideal median 1.125, min 1.080, max 1.210 over 3 runs, 2 RTOs: 1.210 1.080 1.125'
ok $? "stagger-ab: incast completion per run, median, min, max and RTOs"

# --scenario bulk: each run's queue p99 from its backlog samples (nearest
# rank, at the bottleneck's rate: 2500 B at 20 Mbit/s are 1 ms), the
# medians of the queue p50 and of the utilisation after the first second
blk=$tmp/abbulk
mkdir -p "$blk/raw"
printf 't1 q.conf\n' > "$blk/tables.txt"
echo bulk > "$blk/scenario"
python3 - "$blk/raw" <<'EOF2'
import json, os, sys

cap = 20.0 * 1448 / 1514
# the third run has too few samples: refused, its RTO not counted
runs = [([2500] * 60 + [5000] * 39 + [25000], 0.95, 0),
        ([7500] * 100, 0.97, 1), ([7500] * 49, 0.97, 4)]
for i, (bl, u, rto) in enumerate(runs):
    base = os.path.join(sys.argv[1], "t1-r%d" % (i + 1))
    with open(base + ".json", "w") as f:
        json.dump({"mode": "bulk", "flows": [{"tcp_info": {"snd_mss": 1448}}],
                   "intervals": [{"start_s": 0, "total_mbps": 1.0},
                                 {"start_s": 1, "total_mbps": u * cap}],
                   "netns": {"retrans_segs": 0, "rto_timeouts": rto}}, f)
    with open(base + ".q", "w") as f:
        # the root's backlog is not the leaf's: only the leaf counts
        for b in bl:
            f.write("qdisc htb 1: root refcnt 3 r2q 10 default 0x10\n"
                    " backlog %db 1p requeues 0\n"
                    "qdisc red 10: parent 1:10 limit 400000b min 30000b\n"
                    " backlog %db 1p requeues 0\n" % (b + 100000, b))
EOF2
rc=0 rc2=0
e=$(bash "$dir/stagger-ab.sh" --summary "$blk" 2>&1) || rc=$?
echo 20 > "$blk/rate_mbit"
out=$(bash "$dir/stagger-ab.sh" --summary "$blk" 2> "$tmp/blkerr") || rc2=$?
want='q.conf: queue p99 ms median 2.500, min 2.000, max 3.000 over 2 runs;'
want="$want queue p50 median 2.00 ms, utilisation median 0.960, 1 RTOs:"
[ $rc -eq 1 ] && echo "$e" | grep -q 'no bottleneck rate (rate_mbit)' &&
	[ $rc2 -eq 1 ] && grep -q 't1-r3.json: no queue samples' "$tmp/blkerr" &&
	echo "$out" | grep -qx "$want 2.000 3.000"
ok $? "stagger-ab: bulk queue p99 per run, medians of p50 and utilisation"

rc=0
e1=$(bash "$dir/stagger-ab.sh" 2>&1 > /dev/null) || rc=$?
e2=$(bash "$dir/stagger-ab.sh" --runs 0 x.conf 2>&1 > /dev/null) || rc=$((rc * 10 + $?))
printf 'aicc_lat.target = 50\n' > "$tmp/lat.conf"
e3=$(bash "$dir/stagger-ab.sh" "$tmp/lat.conf" 2>&1 > /dev/null) || rc=$((rc * 10 + $?))
# bash reads 010 as octal (8 runs)
e4=$(bash "$dir/stagger-ab.sh" --runs 010 x.conf 2>&1 > /dev/null) || rc=$((rc * 10 + $?))
e5=$(bash "$dir/stagger-ab.sh" --scenario rpc x.conf 2>&1 > /dev/null) || rc=$((rc * 10 + $?))
# a kernel the rig has not: refused before the last results are removed
# (and before deps-if-needed.sh would install packages for it)
printf 'aicc.target = 50\n' > "$tmp/coll.conf"
mkdir -p "$tmp/keep" && touch "$tmp/keep/summary.txt"
e6=$(bash "$dir/stagger-ab.sh" --kernel 5.10 --out "$tmp/keep" "$tmp/coll.conf" \
	2>&1 > /dev/null) || rc=$((rc * 10 + $?))
[ "$rc" = 222222 ] && echo "$e1" | grep -qx 'stagger-ab: no profile file given' &&
	echo "$e2" | grep -qx "stagger-ab: bad --runs '0' (1 or more, no leading zero)" &&
	echo "$e3" | grep -qx "stagger-ab: $tmp/lat.conf: no aicc knobs in it" &&
	echo "$e4" | grep -qx "stagger-ab: bad --runs '010' (1 or more, no leading zero)" &&
	echo "$e5" | grep -qx "stagger-ab: unknown scenario 'rpc' (stagger, incast, bulk)" &&
	echo "$e6" | grep -qx "stagger-ab: --kernel must be 6.1 or 6.12, not '5.10'" &&
	[ -e "$tmp/keep/summary.txt" ]
ok $? "stagger-ab: bad arguments refused with one line"

# bench.sh refuses bad arguments before it builds or boots anything;
# 08 is no number to bash's arithmetic (it is octal), which ran no
# scenario in the guest
rc=0 msgs=
for a in "--reps 08" "--reps 0" "--reps 10" "--kernel 5.10" "--frob"; do
	# shellcheck disable=SC2086 # the option and its value
	e=$(bash "$dir/bench.sh" $a 2>&1 > /dev/null) && rc=1
	[ "$(echo "$e" | wc -l)" = 1 ] || rc=1
	msgs="$msgs|$e"
done
# --algos with no name (it booted the VM and ran no scenario) or a name
# twice (the second run overwrote the first's files); BUILD and the --no-*
# options keep a bench.sh that took them from building or booting
for a in ' ' 'aicc cubic aicc'; do
	e=$(BUILD=$tmp/bb bash "$dir/bench.sh" --no-build --no-vm --no-sim \
		--no-cpu --algos "$a" 2>&1 > /dev/null) && rc=1
	[ "$(echo "$e" | wc -l)" = 1 ] || rc=1
	msgs="$msgs|$e"
done
[ $rc = 0 ] && echo "$msgs" | grep -q "|bench: --reps must be 1..9, not '08'|" &&
	echo "$msgs" | grep -q "|bench: --kernel must be 6.1, 6.12 or both, not '5.10'|" &&
	echo "$msgs" | grep -q "|bench: --algos names no algorithm|" &&
	echo "$msgs" | grep -q "|bench: --algos names 'aicc' twice"
ok $? "bench.sh: bad arguments refused with one line"

# the CPU step with a stand-in aicc-ackcost: under callgrind it reports
# its calls; its timing runs print a time only with FAKE_TIMING=1.  Without
# one, the profile's ns_per_ack is missing: said, and bench.sh fails.
mkdir -p "$tmp/cpu"
cat > "$tmp/cpu/aicc-ackcost" << 'EOF'
#!/bin/bash
case " $* " in
*" -n 200000 "*)
	[ "${FAKE_TIMING:-0}" = 1 ] &&
		echo "replay: 9 rounds (same trajectory), 9.5 ns per call (userspace, this CPU)" ;;
*) echo "calls 100000" ;;
esac
exit 0
EOF
chmod +x "$tmp/cpu/aicc-ackcost"
rc=0
if ! command -v valgrind > /dev/null; then
	echo "# no valgrind: the CPU step fails whatever the timing"
	rc=1
fi
FAKE_TIMING=1 BUILD=$tmp/cpu bash "$dir/bench.sh" --no-build --no-vm --no-sim \
	> /dev/null 2>&1 || rc=1
grep -q '^ns_per_ack aicc_bulk 9.5$' "$tmp/cpu/bench/cpu.txt" || rc=1
e=$(BUILD=$tmp/cpu bash "$dir/bench.sh" --no-build --no-vm --no-sim 2>&1 > /dev/null) &&
	rc=1
echo "$e" | grep -q "^bench: native timing of aicc failed" || rc=1
! grep -q '^ns_per_ack' "$tmp/cpu/bench/cpu.txt" || rc=1
ok $rc "bench.sh: a failed native timing is said and fails the run"

[ $fail -eq 0 ] || { echo "# $fail of $n failed"; exit 1; }
echo "# all $n passed"
