#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stagger-ab.sh: the bench's stagger scenario many times over, for several
# knob tables of one aicc profile, to tell whether one table shares the
# testbed's link more fairly than another.  One run of four staggered flows
# spreads by up to 0.09 in Jain's index (Documentation/tuning.rst, "The
# lead followed"), so the three repetitions of make bench cannot; ten
# interleaved runs per table can.  --scenario incast does the same for the
# bench's 16-way incast: each run's median completion over ideal;
# --scenario bulk for its single flow: each run's queue p99.
#
#   tools/bench/stagger-ab.sh [--kernel 6.1|6.12] [--runs N] [--profile P]
#                             [--scenario stagger|incast|bulk] [--out DIR]
#                             FILE...
#   tools/bench/stagger-ab.sh --summary DIR
#
# Each FILE is an aicc profile file (aicc-tune -o, aicc profile save).  In
# one VM boot, run by run, every table is loaded with 'aicc profile load'
# and a scenario of make bench (tools/bench/testbed.sh; 20 Mbit/s, RED
# ECN at 30 KB) runs once for it with profile P (default aicc): stagger,
# four flows from four sender namespaces, joining 1 s apart and leaving,
# 10 s; incast, 16 connections from eight senders, ten bursts of 32 KB
# each after two warm-up ones, 200 ms apart; or bulk, one flow for 8 s
# with the bottleneck's backlog sampled every 20 ms from its first
# second on (as make bench samples it; until 7 December 2026 from the
# start).  The summary (also --summary on a finished DIR) gives each
# table's Jain (or completion
# over ideal, or queueing delay p99 in ms) per run, its median, minimum
# and maximum, for incast the timeouts of all its runs, for bulk the
# medians of the queue p50 and of the utilisation and the timeouts.
# Results in DIR (build/stagger-ab): raw/t<n>-r<run>.json (aiccgen; .q
# the backlog samples), tables.txt, summary.txt, scenario (and for bulk
# rate_mbit, the bottleneck's rate).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
prog=stagger-ab
die() { echo "$prog: $*" >&2; exit 2; }

summary()	# DIR: one line per table from DIR/tables.txt and DIR/raw
{
	python3 - "$1" "$top/tools/bench" <<'PYEOF'
import glob, json, os, sys

d = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import report	# make bench's own reading of aiccgen's JSON

try:
    scenario = open(os.path.join(d, "scenario")).read().strip()
except OSError:
    scenario = "stagger"	# a directory from before --scenario
incast = scenario == "incast"
bulk = scenario == "bulk"
what, missing = {"incast": ("completion/ideal", "completion ratio"),
                 "bulk": ("queue p99 ms", "queue samples")}.get(
                     scenario, ("Jain", "Jain's index"))
if bulk:
    try:
        rate_mbit = float(open(os.path.join(d, "rate_mbit")).read())
    except (OSError, ValueError):
        sys.exit("stagger-ab: %s: no bottleneck rate (rate_mbit)" % d)


try:
    tables = [l.rstrip("\n").split(" ", 1)
              for l in open(os.path.join(d, "tables.txt")) if l.strip()]
except OSError as e:
    sys.exit("stagger-ab: %s: no tables.txt (%s)" % (d, e.strerror))
bad = 0
for n, name in tables:
    js = []
    p50s = []
    utils = []
    rtos = 0
    files = glob.glob(os.path.join(d, "raw", "%s-r*.json" % n))
    for f in sorted(files, key=lambda f: int(f.rsplit("-r", 1)[1][:-5])):
        # the numbers make bench reports (tools/bench/report.py): aiccgen's
        # Jain over the window where every flow sends, or its median
        # completion per iteration over ideal
        try:
            j = json.load(open(f))
            if incast:
                m = report.incast_metrics(j)
                v = float(m["ratio_p50"])
                ok = v > 0
                rtos += int(m["rtos"] or 0)
            elif bulk:
                # the bench's single flow: its queue from the backlog
                # samples, its utilisation after the first second
                m = report.bulk_queue_metrics(j, f[:-5] + ".q", rate_mbit)
                v = float(m["q_p99_ms"])
                ok = m["q_samples"] >= 50 and m["util"] is not None
                if ok:
                    p50s.append(float(m["q_p50_ms"]))
                    utils.append(float(m["util"]))
                    rtos += int(m["rtos"] or 0)
            else:
                v = float(j["fairness"]["jain"])
                ok = 0 < v <= 1
        except (OSError, ValueError, KeyError, TypeError):
            ok = False
        if not ok:
            print("stagger-ab: %s: no %s" % (f, missing), file=sys.stderr)
            bad += 1
            continue
        js.append(v)
    if not js:
        print("%s: no runs" % name)
        bad += 1
        continue
    s = sorted(js)
    extra = ", %d RTOs" % rtos if incast else ""
    if bulk:
        extra = ("; queue p50 median %.2f ms, utilisation median %.3f, "
                 "%d RTOs" % (report.median(p50s), report.median(utils),
                              rtos))
    print("%s: %s median %.3f, min %.3f, max %.3f over %d runs%s: %s" %
          (name, what, report.median(js), s[0], s[-1], len(s), extra,
           " ".join("%.3f" % v for v in js)))
sys.exit(1 if bad else 0)
PYEOF
}

kernel=6.1 runs=10 profile=aicc scenario=stagger out=$top/build/stagger-ab
if [ "${1:-}" = --summary ]; then
	[ $# -eq 2 ] || die "usage: stagger-ab.sh --summary DIR"
	summary "$2"
	exit
fi
while [ $# -gt 0 ]; do
	case $1 in
	--kernel|--runs|--profile|--scenario|--out)
		[ $# -ge 2 ] || die "$1 needs a value"
		case $1 in
		--kernel) kernel=$2 ;;
		--runs) runs=$2 ;;
		--profile) profile=$2 ;;
		--scenario) scenario=$2 ;;
		--out) out=$2 ;;
		esac
		shift 2 ;;
	-h|--help) sed -n '3,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option '$1'" ;;
	*) break ;;
	esac
done
case $kernel in 6.1|6.12) ;; *) die "--kernel must be 6.1 or 6.12, not '$kernel'" ;; esac
case $runs in ''|0*|*[!0-9]*) die "bad --runs '$runs' (1 or more, no leading zero)" ;; esac
case $profile in aicc|aicc_lat|aicc_bulk) ;; *) die "unknown profile '$profile'" ;; esac
case $scenario in stagger|incast|bulk) ;; *) die "unknown scenario '$scenario' (stagger, incast, bulk)" ;; esac
[ $# -ge 1 ] || die "no profile file given"
for f in "$@"; do
	[ -r "$f" ] || die "$f: cannot read"
	grep -q "^$profile\." "$f" || die "$f: no $profile knobs in it"
done
[ -x "$top/build/aicc" ] || die "no build/aicc (make tools)"
for f in "$@"; do
	err=$("$top/build/aicc" profile load -n "$f" 2>&1) ||
		die "$(echo "$err" | head -1)"
done

rm -rf "$out"
mkdir -p "$out/raw" || die "cannot create $out"
echo "$scenario" > "$out/scenario"
n=0
for f in "$@"; do
	n=$((n + 1))
	cp "$f" "$out/t$n.conf"
	echo "t$n $f" >> "$out/tables.txt"
done
lock=${AICC_VM_LOCK:-/tmp/aicc-vm.lock}
bash "$top/tools/vm/deps-if-needed.sh" "$kernel" || exit 2
per=15	# seconds a run, boot and setup spread over them
[ "$scenario" = incast ] && per=6
[ "$scenario" = bulk ] && per=11
echo "$prog: $n table(s) x $runs run(s) on $kernel (about $((n * runs * per / 60 + 1)) min)"
flock "$lock" "$top/tools/vm/aicc-vm" --kernel "$kernel" --quiet \
	--timeout $((n * runs * 60 + 300)) --out "$out" -- \
	bash tools/bench/stagger-ab-guest.sh "$n" "$runs" "$profile" "$scenario" ||
	{ echo "$prog: the VM run failed; console: $out/console.log" >&2; exit 1; }
summary "$out" | tee "$out/summary.txt"
