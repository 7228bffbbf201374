#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# report.py: turns the raw results of `make bench` into the report.
#
#   report.py [--png] BENCH_DIR
#
# BENCH_DIR (build/bench) holds what tools/bench/bench.sh collected:
#   vm-<kernel>/raw/   the testbed run (tools/bench/guest.sh): aiccgen JSON,
#                      qdisc snapshots (*.tc0, *.tc1), backlog samples (*.q)
#   vm-<kernel>/raw/ablation.txt  the learned policy's ablation on the
#                      testbed (tools/train/vm-ablation.sh, full runs)
#   sim/manifest.txt   simulator runs: "label|cc|seed|file" per line
#   sim/ablation.txt   the same ablation in the simulator (aicc-train --eval)
#   cpu.txt            callgrind and timing results of aicc-ackcost
# and gets:
#   report.txt         the tables and the comparison with the targets
#   results.json       every metric per run and the medians/spreads
#   results.csv        one line per (source, scenario, algorithm, metric)
#   *.png              plots (with --png; gnuplot), data in plots/
#
# Exit status: 0, or 1 when BENCH_DIR holds no results at all (a missing
# part is reported and skipped).

import csv
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys

STOCK = ("cubic", "dctcp", "bbr", "nv")
AICC = ("aicc", "aicc_lat", "aicc_bulk")
HDR_BYTES = 66		# Ethernet 14 + IPv4 20 + TCP with timestamps 32


def die(msg):
    print("bench: report: " + msg, file=sys.stderr)
    sys.exit(1)


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def json_safe(x):
    """x with every NaN or infinity as None: results.json is strict JSON,
    and vm-ablation.sh prints "nan" for what it did not measure."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: json_safe(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_safe(v) for v in x]
    return x


def median(v):
    v = sorted(x for x in v if x is not None)
    if not v:
        return None
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


def pct(v, p):
    """Nearest-rank percentile."""
    v = sorted(v)
    if not v:
        return None
    i = int(p / 100.0 * len(v) + 0.999999)
    return v[min(max(i, 1), len(v)) - 1]


# ---- qdisc output ---------------------------------------------------------

def tc_size(s):
    m = re.match(r"^([0-9.]+)([KMG]?)b$", s)
    if not m:
        return None
    mult = {"": 1, "K": 1024, "M": 1024 * 1024, "G": 1024 ** 3}[m.group(2)]
    return float(m.group(1)) * mult


def tc_leaf_blocks(text):
    """Yield (kind, lines) for each block of the bottleneck leaf (10:)."""
    kind, lines = None, []
    for ln in text.splitlines():
        if ln.startswith("qdisc "):
            if kind:
                yield kind, lines
            f = ln.split()
            kind = f[1] if len(f) > 2 and f[2] == "10:" else None
            lines = []
        elif kind:
            lines.append(ln)
    if kind:
        yield kind, lines


def tc_counters(path):
    """sent_bytes, drops, marks, backlog of the leaf in one snapshot."""
    try:
        text = open(path).read()
    except OSError:
        return None
    for _, lines in tc_leaf_blocks(text):
        c = {"sent_bytes": 0, "drops": 0, "marks": 0}
        for ln in lines:
            m = re.search(r"Sent (\d+) bytes (\d+) pkt \(dropped (\d+)", ln)
            if m:
                c["sent_bytes"] = int(m.group(1))
                c["drops"] = int(m.group(3))
            m = re.search(r"\bmarked (\d+)", ln)
            if m:
                c["marks"] = int(m.group(1))
        return c
    return None


def tc_backlog_samples(path):
    """Backlog bytes of the leaf, one value per sample."""
    out = []
    try:
        text = open(path).read()
    except OSError:
        return out
    for _, lines in tc_leaf_blocks(text):
        for ln in lines:
            f = ln.split()
            if len(f) >= 2 and f[0] == "backlog":
                b = tc_size(f[1])
                if b is not None:
                    out.append(b)
                break
    return out


# ---- testbed --------------------------------------------------------------

def read_meta(raw):
    meta = {}
    try:
        for ln in open(os.path.join(raw, "meta.txt")):
            k, _, v = ln.strip().partition(" ")
            meta[k] = v
    except OSError:
        return None
    return meta


def mss_of(j):
    for key in ("flows", "conns"):
        for c in (j.get(key) or []):
            t = c.get("tcp_info") or {}
            if t.get("snd_mss"):
                return t["snd_mss"]
    return 1448


def counters_delta(base):
    a, b = tc_counters(base + ".tc0"), tc_counters(base + ".tc1")
    if not a or not b:
        return {}
    # a qdisc replaced between the snapshots restarts from zero
    return {k: (b[k] - a[k]) if b[k] >= a[k] else b[k] for k in a}


def netns(j, key):
    return (j.get("netns") or {}).get(key)


def bulk_metrics(j, cap_mbps, skip_s):
    iv = [i for i in (j.get("intervals") or [])
          if i.get("start_s", 0) >= skip_s and i.get("total_mbps") is not None]
    good = (sum(i["total_mbps"] for i in iv) / len(iv)) if iv else None
    return {"goodput_mbps": good,
            "util": good / cap_mbps if good is not None else None,
            "retrans": netns(j, "retrans_segs"),
            "rtos": netns(j, "rto_timeouts")}


def bulk_queue_metrics(j, q_path, rate_mbit):
    """One bulk run's numbers: aiccgen's JSON, the backlog samples of
    q_path at a bottleneck of rate_mbit (stagger-ab.sh too)."""
    mss = mss_of(j)
    m = bulk_metrics(j, rate_mbit * mss / (mss + HDR_BYTES), 1.0)
    q = qdelay_us(tc_backlog_samples(q_path), rate_mbit * 1e6)
    m["q_p50_ms"] = pct(q, 50) / 1000 if q else None
    m["q_p99_ms"] = pct(q, 99) / 1000 if q else None
    m["q_samples"] = len(q)
    return m


def incast_metrics(j):
    """One incast run's numbers from aiccgen's JSON (stagger-ab.sh too)."""
    s = j.get("summary") or {}
    return {
        "ct_p50_ms": s["p50_us"] / 1000 if "p50_us" in s else None,
        "ct_p99_ms": s["p99_us"] / 1000 if "p99_us" in s else None,
        "ratio_p50": s.get("ratio_p50"),
        "ratio_p99": s.get("ratio_p99"),
        "ideal_ms": j["ideal_us"] / 1000 if j.get("ideal_us") else None,
        "retrans": s.get("retrans"),
        # the generator's count, else the namespace's
        "rtos": s.get("rto") if s.get("rto") is not None else s.get("netns_rto"),
        "iters_ms": [it["ct_us"] / 1000 for it in (j.get("iterations") or [])
                     if not it.get("warmup") and it.get("ct_us") is not None],
    }


def qdelay_us(samples, rate_bps):
    return [b * 8.0 * 1e6 / rate_bps for b in samples]


def run_failed(base, sc, j):
    """Why a run failed (its exit status, aiccgen's error, an incast that
    stopped before its last iteration), or None.  Its numbers cover only
    what it finished -- an incast's without the iteration that timed out --
    so the targets it takes part in are missed, not judged on them."""
    why = []
    try:
        with open(base + ".rc") as f:
            rc = int(f.read().strip() or 0)
    except (OSError, ValueError):
        rc = 0
    if rc:
        why.append("exit %d" % rc)
    if j.get("error"):
        why.append(str(j["error"]))
    if sc == "incast":
        n = (j.get("summary") or {}).get("count")
        if j.get("iters") is not None and n is not None and n < j["iters"]:
            why.append("%d of %d iterations" % (n, j["iters"]))
    return "; ".join(why) or None


def run_report(base, sc):
    """A run's report (None without one) and why it failed (None if it did
    not).  A run the guest made (it left its exit status, or an empty
    report) without a report -- aiccgen prints none when it cannot open its
    connections -- failed; (None, None): the run was not made."""
    j = load_json(base + ".json")
    if j is not None:
        return j, run_failed(base, sc, j)
    if not os.path.exists(base + ".rc") and not os.path.exists(base + ".json"):
        return None, None
    why = run_failed(base, sc, {})
    return None, (why + "; " if why else "") + "no report"


def testbed_run(raw, sc, algo, rep, meta, rpcbase):
    base = os.path.join(raw, "%s-%s-r%d" % (sc, algo, rep))
    j, why = run_report(base, sc)
    if j is None:
        return {"error": None, "failed": why} if why else None
    rate_mbit = float(meta.get("rate_mbit", 20))
    rate_bps = rate_mbit * 1e6
    mss = mss_of(j)
    cap = rate_mbit * mss / (mss + HDR_BYTES)
    m = {"error": j.get("error"), "failed": why}
    cnt = counters_delta(base)
    m["marks"] = cnt.get("marks")
    m["drops"] = cnt.get("drops")
    if sc in ("bulk", "deep"):
        m.update(bulk_queue_metrics(j, base + ".q", rate_mbit))
    elif sc == "stagger":
        fair = j.get("fairness") or {}
        w = fair.get("window_total_mbps")
        m["jain"] = fair.get("jain")
        m["util"] = w / cap if w is not None else None
        m["retrans"] = netns(j, "retrans_segs")
        m["rtos"] = netns(j, "rto_timeouts")
    elif sc == "incast":
        m.update(incast_metrics(j))
    elif sc == "rpc":
        lat = j.get("latency") or {}
        b = (rpcbase.get(algo) or {}).get("latency") or {}
        base_ms = b["p50_us"] / 1000 if b.get("p50_us") else None
        # the probe alone, no bulk: its own tail on this host is the floor
        # any algorithm's "p99 - base" sits on
        m["base_p99_ms"] = b["p99_us"] / 1000 if b.get("p99_us") else None
        for k, name in (("p50_us", "p50_ms"), ("p99_us", "p99_ms"),
                        ("p999_us", "p999_ms")):
            m[name] = lat[k] / 1000 if lat.get(k) is not None else None
        m["base_ms"] = base_ms
        m["p99_over_base_ms"] = (m["p99_ms"] - base_ms
                                 if m["p99_ms"] is not None and base_ms else None)
        m["lost"] = j.get("lost")
        q = qdelay_us(tc_backlog_samples(base + ".q"), rate_bps)
        m["q_p99_ms"] = pct(q, 99) / 1000 if q else None
        # the load the probe is measured under: without it the probe's
        # numbers are the idle path's, so its failure is the run's
        bj, bwhy = run_report(os.path.join(raw, "rpcbulk-%s-r%d" % (algo, rep)),
                              "bulk")
        if bwhy:
            m["failed"] = "; ".join(x for x in (m["failed"],
                                                "bulk flows: " + bwhy) if x)
        if bj:
            m["bulk_util"] = bulk_metrics(bj, cap, 1.0)["util"]
            m["retrans"] = netns(bj, "retrans_segs")
            m["rtos"] = netns(bj, "rto_timeouts")
    return m


def testbed(raw):
    meta = read_meta(raw)
    if meta is None:
        return None
    algos = meta.get("algos", "").split()
    scs = meta.get("scenarios", "").split()
    reps = int(meta.get("reps", "1"))
    # the rpc scenario's extra rows (guest.sh: "mixed", the probe on
    # aicc_lat and the bulk flows on aicc_bulk)
    rows = {sc: algos + (meta.get("rpc_extra", "").split() if sc == "rpc" else [])
            for sc in scs}
    rpcbase = {a: load_json(os.path.join(raw, "rpcbase-%s.json" % a)) or {}
               for a in rows.get("rpc", algos)}
    runs = {}
    for sc in scs:
        for a in rows[sc]:
            runs[(sc, a)] = [r for r in (testbed_run(raw, sc, a, k, meta, rpcbase)
                                         for k in range(1, reps + 1)) if r]
    return {"meta": meta, "algos": algos, "rows": rows, "scenarios": scs,
            "runs": runs}


# ---- simulator and CPU ------------------------------------------------------

def simulator(simdir):
    man = os.path.join(simdir, "manifest.txt")
    if not os.path.exists(man):
        return None
    runs = {}
    labels, ccs = [], []
    for ln in open(man):
        f = ln.rstrip("\n").split("|")
        if len(f) != 4:
            continue
        label, cc, seed, path = f
        j = load_json(os.path.join(simdir, path))
        if j is None:
            continue
        if label not in labels:
            labels.append(label)
        if cc not in ccs:
            ccs.append(cc)
        m = {"util": j.get("util"), "q_p50_kb": (j.get("queue_kb") or {}).get("p50"),
             "q_p99_kb": (j.get("queue_kb") or {}).get("p99"),
             "q_p99_us": (j.get("queue_us") or {}).get("p99"),
             "drops": j.get("drops"), "rtos": j.get("rtos"),
             "retrans": j.get("retrans"),
             "drops_warm": j.get("drops_warm") if j.get("iterations") else None,
             "rtos_warm": j.get("rtos_warm") if j.get("iterations") else None,
             "jain": j["jain"] if (j.get("jain") or -1) >= 0 else None}
        if j.get("iterations") and j.get("cct_ideal_us"):
            m["cct_ratio"] = j["cct_us"]["mean"] / j["cct_ideal_us"]
            m["cct_p99_ratio"] = j["cct_us"]["p99"] / j["cct_ideal_us"]
        small = (j.get("fct") or [{}])[0]
        if small.get("count"):
            m["rpc_small_sd_p99"] = small.get("slowdown_p99")
        runs.setdefault((label, cc), []).append(m)
    return {"labels": labels, "ccs": ccs, "runs": runs}


def cpu(path):
    res = {}
    try:
        for ln in open(path):
            f = ln.split()
            if len(f) >= 3 and f[0] == "ir_per_ack":
                res.setdefault("ir_per_ack", {})[f[1]] = float(f[2])
            elif len(f) >= 3 and f[0] == "ns_per_ack":
                res.setdefault("ns_per_ack", {})[f[1]] = float(f[2])
            elif len(f) >= 2 and f[0] == "cpu":
                res["cpu"] = ln.strip()[4:]
    except OSError:
        return None
    return res or None


# ---- learned policy: ablation (issue 6) ------------------------------------

ABL_ARMS = ("classic", "model")
ABL_KEYS = ("incast_p50_ratio", "incast_p99_ratio", "bulk_mbit", "q99_us", "jain")
ABL_SIM = re.compile(r"held-out, (tuned|default) knobs[^:]*: classic ([0-9.]+), "
                     r"with model ([0-9.]+) \(([-+0-9.]+)%\), (\d+) case")


def sim_ablation(path):
    """aicc-train --eval: held-out objective without and with the model."""
    res = {}
    try:
        for ln in open(path):
            m = ABL_SIM.match(ln)
            if m:
                res[m.group(1) + "_knobs"] = {
                    "classic": float(m.group(2)), "model": float(m.group(3)),
                    "change_pct": float(m.group(4)),
                    "cases_worse_5pct": int(m.group(5))}
            elif ln.startswith("verdict:"):
                res["verdict"] = ln.split(":", 1)[1].strip()
    except OSError:
        return None
    return res or None


def vm_ablation(path):
    """tools/train/vm-ablation.sh: the per-arm medians and the run count.

    None unless every row has all its columns: a run row is the arm, the
    five measures and the policy's evaluations, a median row the arm and
    the five measures.  A row short of a column (a measure printed empty)
    would otherwise shift the rest into the wrong columns.
    """
    res, runs, medians = {}, 0, False
    try:
        for ln in open(path):
            f = ln.split()
            if ln.startswith("# medians"):
                medians = True
            elif not f or f[0] not in ABL_ARMS:
                continue
            elif len(f) != (1 + len(ABL_KEYS) + (0 if medians else 1)):
                sys.stderr.write("report: %s: malformed row '%s'\n" %
                                 (path, ln.strip()))
                return None
            elif medians:
                res[f[0]] = dict(zip(ABL_KEYS, (float(x) for x in f[1:])))
            else:
                runs += 1
    except (OSError, ValueError):
        return None
    if len(res) != len(ABL_ARMS) or not runs:
        return None
    res["runs"] = runs
    return res


def ablation_text(sim_abl, vm_abl):
    out = ["Learned policy (issue 6): the classic controller vs the trained "
           "model (tools/train/results/aicc.model)"]
    if sim_abl:
        for k in ("tuned_knobs", "default_knobs"):
            a = sim_abl.get(k)
            if a:
                out.append("  simulator, held-out set, %s knobs (objective, lower is "
                           "better): classic %.3f, model %.3f (%+.1f %%), %d case(s) "
                           "worse by > 5 %%" % (k.split("_")[0], a["classic"],
                                                a["model"], a["change_pct"],
                                                a["cases_worse_5pct"]))
        if sim_abl.get("verdict"):
            out.append("  simulator verdict: " + sim_abl["verdict"])
    for kern, a in sorted(vm_abl.items()):
        out.append("  testbed on %s (tools/train/vm-ablation.sh; medians, %d "
                   "run(s) per arm):" % (kern, a["runs"] // 2))
        out.append("    %-8s %9s %9s %11s %8s %6s" % (
            "arm", "incast", "incast", "bulk", "q99", "Jain"))
        out.append("    %-8s %9s %9s %11s %8s %6s" % (
            "", "p50/ideal", "p99/ideal", "Mbit/s", "us", ""))
        for arm in ABL_ARMS:
            m = a[arm]
            out.append("    %-8s %9.3f %9.3f %11.2f %8.0f %6.3f" % (
                arm, m["incast_p50_ratio"], m["incast_p99_ratio"],
                m["bulk_mbit"], m["q99_us"], m["jain"]))
    return "\n".join(out) + "\n"


# ---- aggregation and tables --------------------------------------------------

def agg(runs, key):
    v = [r.get(key) for r in runs if r.get(key) is not None]
    if not v:
        return None
    return {"median": median(v), "min": min(v), "max": max(v), "n": len(v)}


def fmt(a, digits, spread=True):
    if a is None:
        return "-"
    s = "%.*f" % (digits, a["median"])
    if spread and a["n"] > 1 and a["max"] != a["min"]:
        s += " (%.*f-%.*f)" % (digits, a["min"], digits, a["max"])
    return s


def table(title, cols, rows):
    w = [max(len(c[0]), max((len(r[k]) for r in rows), default=0))
         for k, c in enumerate(cols)]
    out = [title]
    out.append("  ".join(c[0].ljust(w[k]) if k == 0 else c[0].rjust(w[k])
                         for k, c in enumerate(cols)))
    for r in rows:
        out.append("  ".join(r[k].ljust(w[k]) if k == 0 else r[k].rjust(w[k])
                             for k in range(len(cols))))
    return "\n".join(out) + "\n"


TB_TABLES = {
    "bulk": ("single bulk flow", [
        ("util", "util", 3), ("queue p50 ms", "q_p50_ms", 2),
        ("queue p99 ms", "q_p99_ms", 2), ("retrans", "retrans", 0),
        ("CE marks", "marks", 0), ("drops", "drops", 0), ("RTOs", "rtos", 0)]),
    "stagger": ("four flows joining and leaving 1 s apart", [
        ("Jain", "jain", 3), ("util (all four)", "util", 3),
        ("retrans", "retrans", 0), ("CE marks", "marks", 0), ("RTOs", "rtos", 0)]),
    "incast": ("16-way incast after idle gaps (completion per iteration)", [
        ("p50 ms", "ct_p50_ms", 0), ("p99 ms", "ct_p99_ms", 0),
        ("p50/ideal", "ratio_p50", 2), ("p99/ideal", "ratio_p99", 2),
        ("retrans", "retrans", 0), ("RTOs", "rtos", 0)]),
    "rpc": ("RPC probe under two bulk flows", [
        ("base ms", "base_ms", 2), ("alone p99 ms", "base_p99_ms", 2),
        ("p50 ms", "p50_ms", 2),
        ("p99 ms", "p99_ms", 2), ("p99.9 ms", "p999_ms", 2),
        ("p99-base ms", "p99_over_base_ms", 2), ("lost", "lost", 0),
        ("bulk util", "bulk_util", 3),
        ("retrans", "retrans", 0), ("RTOs", "rtos", 0)]),
    "deep": ("deep buffer (1 MB drop-tail, no ECN), one flow", [
        ("util", "util", 3), ("queue p50 ms", "q_p50_ms", 1),
        ("queue p99 ms", "q_p99_ms", 1), ("retrans", "retrans", 0),
        ("drops", "drops", 0), ("RTOs", "rtos", 0)]),
}

SIM_COLS = [("util", "util", 3), ("q p50 KB", "q_p50_kb", 1),
            ("q p99 KB", "q_p99_kb", 1), ("q p99 us", "q_p99_us", 1),
            ("Jain", "jain", 3), ("cct/ideal", "cct_ratio", 2),
            ("cct p99/ideal", "cct_p99_ratio", 2),
            ("small RPC p99 slowdown", "rpc_small_sd_p99", 1),
            ("drops", "drops", 0), ("RTOs", "rtos", 0),
            ("drops past cold start", "drops_warm", 0),
            ("RTOs past cold start", "rtos_warm", 0)]


def testbed_tables(tb):
    out = []
    m = tb["meta"]
    out.append("Testbed: kernel %s, %s vCPUs (QEMU TCG), %s Mbit/s bottleneck, "
               "base RTT %s ms, RED step ECN at %s B (deep: %s B drop-tail), "
               "fq on senders; %s repetition(s): median (min-max)\n" % (
                   m.get("kernel"), m.get("cpus"), m.get("rate_mbit"),
                   m.get("delay_ms"), m.get("ecn_k"), m.get("deep_limit"),
                   m.get("reps")))
    for sc in tb["scenarios"]:
        if sc not in TB_TABLES:
            continue
        title, cols = TB_TABLES[sc]
        rows = []
        for a in tb["rows"][sc]:
            runs = tb["runs"].get((sc, a)) or []
            rows.append([a] + [fmt(agg(runs, key), d) for _, key, d in cols])
        out.append(table("[%s] %s" % (sc, title), [("algorithm",)] + cols, rows))
        if sc == "rpc" and "mixed" in tb["rows"][sc]:
            out[-1] += ("mixed: the probe (and its server) on aicc_lat, the "
                        "bulk flows on aicc_bulk\n")
    return "\n".join(out)


def sim_tables(sim):
    out = ["Simulator (aicc-sim, 100 Gbit/s, 10 us base RTT unless noted; "
           "median (min-max) over seeds)\n"]
    for label in sim["labels"]:
        cols = []
        for c in SIM_COLS:
            if any(r.get(c[1]) is not None
                   for cc in sim["ccs"] for r in sim["runs"].get((label, cc), [])):
                cols.append(c)
        rows = []
        for cc in sim["ccs"]:
            runs = sim["runs"].get((label, cc))
            if runs:
                rows.append([cc] + [fmt(agg(runs, key), d) for _, key, d in cols])
        out.append(table("[sim] " + label, [("cc",)] + cols, rows))
    return "\n".join(out)


# ---- targets ------------------------------------------------------------------

def med(tb, sc, a, key):
    x = agg(tb["runs"].get((sc, a)) or [], key)
    return x["median"] if x else None


def not_below(u, best):
    """Utilisation u is not below best at the three decimals the report
    prints: goodput over a few seconds varies by more than 0.0005 of the
    link between repetitions, so 0.9998 against 1.0001 is a tie."""
    return best is None or round(u, 3) >= round(best, 3)


def targets(tb, cpuinfo):
    """Lines 'profile: target: value -> met/MISSED'."""
    out = []

    def failed(sc, a):
        return sum(1 for x in tb["runs"].get((sc, a), []) if x.get("failed"))

    def line(prof, what, val, ok, detail, sc=None):
        # a run that failed misses every target of its scenario
        nf = failed(sc, prof) if sc else 0
        if nf:
            ok = False
            detail += ", %d run%s failed" % (nf, "" if nf == 1 else "s")
        if val is None:
            out.append("  %-9s %-46s %s" % (prof, what, "no data"))
        else:
            out.append("  %-9s %-46s %-44s %s" % (prof, what, detail,
                                                   "met" if ok else "MISSED"))

    stock = [a for a in STOCK if tb and a in tb["algos"]]
    for a in [x for x in AICC if tb and x in tb["algos"]]:
        sc = tb["scenarios"]
        if "bulk" in sc:
            u = med(tb, "bulk", a, "util")
            su = [med(tb, "bulk", s, "util") for s in stock]
            su = [x for x in su if x is not None]
            best = max(su) if su else None
            line(a, "utilisation >= 0.97, not below any stock", u,
                 u is not None and u >= 0.97 and not_below(u, best),
                 "%.3f (best stock %s)" % (u or 0, "%.3f" % best if best else "-"),
                 "bulk")
            # An idle link has no queue: the queue target counts only at a
            # utilisation of at least 0.9 x dctcp's.
            q = med(tb, "bulk", a, "q_p99_ms")
            d = med(tb, "bulk", "dctcp", "q_p99_ms")
            du = med(tb, "bulk", "dctcp", "util")
            r = q / d if q is not None and d else None
            busy = u is not None and (du is None or u >= 0.9 * du)
            line(a, "queue p99 <= 0.3 x dctcp's (util >= 0.9 x)", r,
                 r is not None and r <= 0.3 and busy,
                 "%.2f x (%.2f vs %.2f ms)%s" % (r or 0, q or 0, d or 0,
                                                 "" if busy else ", link underused"),
                 "bulk")
        if "stagger" in sc:
            j = med(tb, "stagger", a, "jain")
            line(a, "Jain's index >= 0.99", j, j is not None and j >= 0.99,
                 "%.3f" % (j or 0), "stagger")
        if "incast" in sc:
            r = med(tb, "incast", a, "ratio_p50")
            rto = sum((x.get("rtos") or 0) for x in tb["runs"].get(("incast", a), []))
            line(a, "incast completion <= 1.15 x ideal, 0 RTOs", r,
                 r is not None and r <= 1.15 and rto == 0,
                 "%.2f x ideal, %d RTOs" % (r or 0, rto), "incast")
            c = med(tb, "incast", a, "ct_p50_ms")
            sc_ = [med(tb, "incast", s, "ct_p50_ms") for s in stock]
            sc_ = [x for x in sc_ if x is not None]
            best = min(sc_) if sc_ else None
            r2 = c / best if c is not None and best else None
            line(a, "incast completion <= 0.6 x best stock", r2,
                 r2 is not None and r2 <= 0.6,
                 "%.2f x (%.0f vs %.0f ms)" % (r2 or 0, c or 0, best or 0),
                 "incast")
        if "rpc" in sc:
            d = med(tb, "rpc", a, "p99_over_base_ms")
            # every unanswered request of every run (a median would hide
            # the one run that lost them)
            lost = sum((x.get("lost") or 0) for x in tb["runs"].get(("rpc", a), []))
            b50 = med(tb, "rpc", a, "base_ms")
            b99 = med(tb, "rpc", a, "base_p99_ms")
            alone = (" (the probe alone: p99 +%.2f ms)" % (b99 - b50)
                     if b50 is not None and b99 is not None else "")
            line(a, "RPC p99 within 1 ms of base RTT", d,
                 d is not None and d <= 1.0 and not lost,
                 "+%.2f ms%s%s" % (d or 0, alone,
                                   ", %d unanswered" % lost if lost else ""),
                 "rpc")
    if cpuinfo and cpuinfo.get("ir_per_ack"):
        for p, v in sorted(cpuinfo["ir_per_ack"].items()):
            line(p, "core <= 150 instructions per ACK", v, v <= 150, "%.0f" % v)
    return "\n".join(out) + "\n"


def sim_targets(sim):
    """The same targets on the simulator's scenarios (baselines: dctcp,
    swift, reno)."""
    out = []
    base = [c for c in ("dctcp", "swift", "reno") if c in sim["ccs"]]
    stg = [x for x in sim["labels"] if x.startswith("stagger")]
    inc = [x for x in sim["labels"] if x.startswith("incast")]
    for k, lb in enumerate(stg):
        out.append("  (stagger %d: %s)" % (k + 1, lb))
    for k, lb in enumerate(inc):
        out.append("  (incast %d: %s)" % (k + 1, lb))

    def m(label, cc, key):
        x = agg(sim["runs"].get((label, cc)) or [], key)
        return x["median"] if x else None

    def line(prof, what, ok, detail):
        out.append("  %-9s %-46s %-44s %s" % (prof, what, detail,
                                               "met" if ok else "MISSED"))

    def first(prefix):
        return next((lb for lb in sim["labels"] if lb.startswith(prefix)), None)

    for a in [x for x in AICC if x in sim["ccs"]]:
        lb = first("long")
        if lb:
            u = m(lb, a, "util")
            bu = [x for x in (m(lb, c, "util") for c in base) if x is not None]
            best = max(bu) if bu else None
            if u is not None:
                line(a, "utilisation >= 0.97, not below baselines",
                     u >= 0.97 and not_below(u, best),
                     "%.3f (best %s)" % (u, "%.3f" % best if best else "-"))
            q, d = m(lb, a, "q_p99_kb"), m(lb, "dctcp", "q_p99_kb")
            if q is not None and d:
                line(a, "queue p99 <= 0.3 x dctcp's", q / d <= 0.3,
                     "%.2f x (%.0f vs %.0f KB)" % (q / d, q, d))
        for k, lb in enumerate(stg):
            j = m(lb, a, "jain")
            if j is not None:
                line(a, "stagger %d: Jain's index >= 0.99" % (k + 1),
                     j >= 0.99, "%.3f" % j)
        for k, lb in enumerate([x for x in sim["labels"] if x.startswith("incast")]):
            r = m(lb, a, "cct_ratio")
            if r is None:
                continue
            tag = "incast %d" % (k + 1)
            rtos = [x.get("rtos") or 0 for x in sim["runs"].get((lb, a), [])]
            line(a, "%s: <= 1.15 x ideal, 0 RTOs" % tag,
                 r <= 1.15 and max(rtos) == 0,
                 "%.2f x ideal, RTOs %g per run" % (r, median(rtos)))
            br = [x for x in (m(lb, c, "cct_ratio") for c in base) if x is not None]
            if br:
                line(a, "%s: <= 0.6 x best baseline" % tag, r / min(br) <= 0.6,
                     "%.2f x" % (r / min(br)))
    return "\n".join(out) + "\n"


# ---- plots --------------------------------------------------------------------

def gnuplot(script, cwd):
    if not shutil.which("gnuplot"):
        print("bench: report: gnuplot not found; no plots", file=sys.stderr)
        return False
    r = subprocess.run(["gnuplot"], input=script, text=True, cwd=cwd,
                       capture_output=True)
    if r.returncode:
        print("bench: report: gnuplot failed: " + r.stderr.strip()[:300],
              file=sys.stderr)
        return False
    return True


def plots(tb, raw, outdir, title):
    pdir = os.path.join(outdir, "plots")
    os.makedirs(pdir, exist_ok=True)
    algos = tb["algos"]
    meta = tb["meta"]
    rate_bps = float(meta.get("rate_mbit", 20)) * 1e6
    made = []
    term = "set terminal pngcairo size 1100,%d font ',10' noenhanced\n"
    if not shutil.which("gnuplot"):
        return made
    if "pngcairo" not in subprocess.run(["gnuplot", "-e", "set terminal"],
                                        capture_output=True, text=True).stderr:
        term = "set terminal png size 1100,%d noenhanced\n"

    # 1. throughput per flow over time (stagger, else bulk), first repetition
    sc = "stagger" if "stagger" in tb["scenarios"] else "bulk"
    panels = []
    for a in algos:
        j = load_json(os.path.join(raw, "%s-%s-r1.json" % (sc, a)))
        if not j or not j.get("intervals"):
            continue
        fn = "tput-%s.dat" % a
        nfl = 0
        with open(os.path.join(pdir, fn), "w") as f:
            for iv in j["intervals"]:
                v = [x if x is not None else "NaN" for x in iv["mbps"]]
                nfl = len(v)
                f.write("%.3f %s\n" % (iv["end_s"], " ".join(str(x) for x in v)))
        panels.append((a, fn, nfl))
    if panels:
        cols = 2
        rows = (len(panels) + cols - 1) // cols
        s = term % (260 * rows)
        s += "set output '../throughput.png'\n"
        s += "set multiplot layout %d,%d title '%s: throughput per flow (%s, run 1)'\n" % (
            rows, cols, title, sc)
        s += "set yrange [0:%g]\nset xlabel 's'\nset ylabel 'Mbit/s'\nset key off\n" % (
            rate_bps / 1e6 * 1.1)
        for a, fn, nfl in panels:
            s += "set title '%s'\n" % a
            s += "plot " + ", ".join("'%s' using 1:%d with lines lw 1.5" % (fn, k + 2)
                                     for k in range(nfl)) + "\n"
        s += "unset multiplot\n"
        if gnuplot(s, pdir):
            made.append("throughput.png")

    # 2. queueing delay CDF per algorithm (bulk and deep, all repetitions)
    for sc, name, xl in (("bulk", "qdelay-cdf.png", "RED ECN at %s B" % meta.get("ecn_k")),
                         ("deep", "qdelay-cdf-deep.png", "1 MB drop-tail")):
        if sc not in tb["scenarios"]:
            continue
        series = []
        for a in algos:
            q = []
            for k in range(1, int(meta.get("reps", 1)) + 1):
                q += qdelay_us(tc_backlog_samples(
                    os.path.join(raw, "%s-%s-r%d.q" % (sc, a, k))), rate_bps)
            if not q:
                continue
            q.sort()
            fn = "qcdf-%s-%s.dat" % (sc, a)
            with open(os.path.join(pdir, fn), "w") as f:
                for i, x in enumerate(q):
                    f.write("%.3f %.5f\n" % (x / 1000, (i + 1) / len(q)))
            series.append((a, fn))
        if series:
            s = term % 500
            s += "set output '../%s'\n" % name
            s += "set title '%s: bottleneck queueing delay CDF, one bulk flow (%s)'\n" % (
                title, xl)
            s += "set xlabel 'queueing delay (ms)'\nset ylabel 'fraction of samples'\n"
            s += "set key bottom right\nset yrange [0:1.02]\nset grid\n"
            s += "plot " + ", ".join("'%s' using 1:2 with steps lw 2 title '%s'" % (fn, a)
                                     for a, fn in series) + "\n"
            if gnuplot(s, pdir):
                made.append(name)

    # 3. incast completion per iteration, first repetition
    if "incast" in tb["scenarios"]:
        series, ideal = [], None
        for a in algos:
            j = load_json(os.path.join(raw, "incast-%s-r1.json" % a))
            if not j:
                continue
            ideal = j.get("ideal_us") or ideal
            its = [it for it in (j.get("iterations") or []) if not it.get("warmup")]
            if not its:
                continue
            fn = "incast-%s.dat" % a
            with open(os.path.join(pdir, fn), "w") as f:
                for it in its:
                    f.write("%d %.3f\n" % (it["iter"], it["ct_us"] / 1000))
            series.append((a, fn))
        if series:
            s = term % 500
            s += "set output '../incast.png'\n"
            s += "set title '%s: 16-way incast, completion per iteration (run 1)'\n" % title
            s += "set xlabel 'iteration'\nset ylabel 'completion (ms)'\nset grid\n"
            s += "set key outside right\nset logscale y\n"
            plot = ["'%s' using 1:2 with linespoints lw 1.5 title '%s'" % (fn, a)
                    for a, fn in series]
            if ideal:
                plot.append("%g with lines dt 2 lc 'black' title 'ideal'" % (ideal / 1000))
            s += "plot " + ", ".join(plot) + "\n"
            if gnuplot(s, pdir):
                made.append("incast.png")
    return made


# ---- main -----------------------------------------------------------------------

def main(argv):
    png = False
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--png":
            png = True
        elif argv[i].startswith("-"):
            die("unknown option '%s'" % argv[i])
        else:
            args.append(argv[i])
        i += 1
    if len(args) != 1:
        die("usage: report.py [--png] BENCH_DIR")
    bdir = args[0]
    if not os.path.isdir(bdir):
        die("no directory '%s'" % bdir)

    testbeds = {}
    for raw in sorted(glob.glob(os.path.join(bdir, "vm-*", "raw"))):
        tb = testbed(raw)
        if tb:
            testbeds[tb["meta"].get("kernel", raw)] = (tb, raw)
    sim = simulator(os.path.join(bdir, "sim"))
    cpuinfo = cpu(os.path.join(bdir, "cpu.txt"))
    sim_abl = sim_ablation(os.path.join(bdir, "sim", "ablation.txt"))
    vm_abl = {}
    for kern, (tb, raw) in testbeds.items():
        a = vm_ablation(os.path.join(raw, "ablation.txt"))
        if a:
            vm_abl[kern] = a
    if not testbeds and not sim and not cpuinfo:
        die("no results in %s (run make bench)" % bdir)

    rep = []
    plots_made = []
    try:
        src = [ln.rstrip("\n").split(None, 1) for ln in
               open(os.path.join(bdir, "source.txt"))]
        src = [x for x in src if len(x) == 2]
        d = dict(src)
        rep.append("Source: commit %s, module sources %s" % (
            d.get("commit", "?"), d.get("module", "?")))
        for k, v in src:
            if k == "load":
                rep.append("Host 1-minute load average during the testbed on " + v)
        rep.append("")
    except OSError:
        pass
    for kern, (tb, raw) in sorted(testbeds.items()):
        rep.append(testbed_tables(tb))
        rep.append("Targets (issue 8), testbed on %s, aicc profiles:\n" % kern)
        rep.append(targets(tb, None))
        if png:
            sub = bdir if len(testbeds) == 1 else os.path.join(bdir, kern)
            os.makedirs(sub, exist_ok=True)
            plots_made += [os.path.join(os.path.relpath(sub, bdir), p)
                           for p in plots(tb, raw, sub, "Linux " + kern)]
    if sim:
        rep.append(sim_tables(sim))
        rep.append("Targets (issue 8) on the simulator (baselines dctcp, swift, reno):\n")
        rep.append(sim_targets(sim))
    if sim_abl or vm_abl:
        rep.append(ablation_text(sim_abl, vm_abl))
    if cpuinfo:
        lines = ["CPU cost of aicc_fwd_rtt() and aicc_on_ack() per ACK "
                 "(tools/bench/ackcost.c; callgrind on the userspace build, "
                 "-O2)"]
        if cpuinfo.get("cpu"):
            lines.append("  host CPU: " + cpuinfo["cpu"])
        for p, v in sorted((cpuinfo.get("ir_per_ack") or {}).items()):
            ns = (cpuinfo.get("ns_per_ack") or {}).get(p)
            lines.append("  %-9s %6.0f instructions per ACK%s" % (
                p, v, "" if ns is None else ", %.1f ns per ACK (native)" % ns))
        rep.append("\n".join(lines) + "\n")
        if not testbeds:
            rep.append("Targets (issue 8):\n" + targets(None, cpuinfo))
        else:
            rep.append("Target (issue 8), CPU:\n" + targets(None, cpuinfo))
    text = "\n".join(rep)
    with open(os.path.join(bdir, "report.txt"), "w") as f:
        f.write(text)
    sys.stdout.write(text)

    # JSON and CSV
    res = {"testbed": {}, "simulator": None, "cpu": cpuinfo, "plots": plots_made,
           "ablation": {"simulator": sim_abl, "testbed": vm_abl}}
    rows = []
    for kern, (tb, _) in sorted(testbeds.items()):
        d = {"meta": tb["meta"], "scenarios": {}}
        for (sc, a), runs in sorted(tb["runs"].items()):
            keys = sorted({k for r in runs for k, v in r.items()
                           if isinstance(v, (int, float)) and not isinstance(v, bool)})
            summ = {k: agg(runs, k) for k in keys}
            d["scenarios"].setdefault(sc, {})[a] = {"runs": runs, "summary": summ}
            for k in keys:
                s = summ[k]
                if s:
                    rows.append(["testbed-" + kern, sc, a, k, s["median"], s["min"],
                                 s["max"], s["n"]])
        res["testbed"][kern] = d
    if sim:
        d = {}
        for (label, cc), runs in sim["runs"].items():
            keys = sorted({k for r in runs for k, v in r.items() if v is not None})
            summ = {k: agg(runs, k) for k in keys}
            d.setdefault(label, {})[cc] = {"runs": runs, "summary": summ}
            for k in keys:
                s = summ[k]
                if s:
                    rows.append(["sim", label, cc, k, s["median"], s["min"], s["max"],
                                 s["n"]])
        res["simulator"] = d
    for k in ("tuned_knobs", "default_knobs"):
        a = (sim_abl or {}).get(k)
        for arm in ABL_ARMS if a else ():
            rows.append(["ablation-sim", "held-out " + k, arm, "objective",
                         a[arm], a[arm], a[arm], 1])
    for kern, a in sorted(vm_abl.items()):
        for arm in ABL_ARMS:
            for key in ABL_KEYS:
                v = a[arm][key]
                rows.append(["ablation-testbed-" + kern, "vm-ablation", arm, key,
                             v, v, v, a["runs"] // 2])
    if cpuinfo:
        for p, v in (cpuinfo.get("ir_per_ack") or {}).items():
            rows.append(["cpu", "ack_path", p, "instructions_per_ack", v, v, v, 1])
        for p, v in (cpuinfo.get("ns_per_ack") or {}).items():
            rows.append(["cpu", "ack_path", p, "ns_per_ack", v, v, v, 1])
    with open(os.path.join(bdir, "results.json"), "w") as f:
        json.dump(json_safe(res), f, indent=1, sort_keys=True,
                  allow_nan=False)
        f.write("\n")
    with open(os.path.join(bdir, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["source", "scenario", "algorithm", "metric", "median", "min",
                    "max", "n"])
        for r in rows:
            # a measure not taken has no line, as in the testbed's rows
            if json_safe(r[4]) is None:
                continue
            w.writerow(r[:4] + [float("%.6g" % x) if isinstance(x, float) else x
                                for x in r[4:]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
